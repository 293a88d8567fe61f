import type { SimEvent } from "../core/events.js";
import { firstDifference, showValue } from "./journal-compare.js";
import { readJournal } from "../runs/read-journal.js";

/** One tool call of an episode as the diff compares it: name, arguments and the status and body it got. */
export interface DiffCall {
  name: string;
  arguments: unknown;
  status?: number;
  body?: unknown;
}

/** What the diff reads of one episode. */
export interface EpisodeDigest {
  index: number;
  episodeId: string;
  instructions: string[];
  calls: DiffCall[];
  answers: string[];
  outcome: string;
  accepted?: boolean;
  failedStage?: string;
  /** Share of the tester's stages passed (0..1). */
  score?: number;
  steps: number;
}

/** How two runs differ on one episode. */
export interface EpisodeDiff {
  index: number;
  episodeId: string;
  /** Present when the episode is in one run only. */
  only?: "a" | "b";
  /** The aspects that differ: `instructions`, `calls`, `results`, `answers`, `verdict`, `score`, `steps`. */
  differs: string[];
  /** The first call that differs (name or arguments), with both sides. */
  call?: { at: number; a?: DiffCall; b?: DiffCall; path?: string };
  /** The first result that differs where the calls are the same. */
  result?: { at: number; a?: { status?: number; body?: unknown }; b?: { status?: number; body?: unknown }; path?: string };
  verdict?: { a: string; b: string };
  score?: { a?: number; b?: number };
}

/** The diff of two runs. */
export interface RunDiff {
  a: string;
  b: string;
  episodes: number;
  same: number;
  differing: number;
  onlyA: number;
  onlyB: number;
  /** Accepted episodes in each run. */
  accepted: { a: number; b: number };
  /** Mean tester score in each run. */
  meanScore: { a: number; b: number };
  diffs: EpisodeDiff[];
}

/** The digest of one episode's events. */
export function digestEpisode(events: readonly SimEvent[]): EpisodeDigest {
  const first = events[0];
  const d: EpisodeDigest = { index: first?.type === "episode.started" ? first.index : 0, episodeId: first?.episodeId ?? "", instructions: [], calls: [], answers: [], outcome: "unfinished", steps: 0 };
  const byId = new Map<string, DiffCall>();
  for (const e of events) {
    if (e.type === "user.instruction" || e.type === "user.reply") d.instructions.push(e.text);
    else if (e.type === "tool.call") {
      const c: DiffCall = { name: e.call.name, arguments: e.call.arguments };
      d.calls.push(c);
      byId.set(e.call.id, c);
    } else if (e.type === "tool.result") {
      const c = byId.get(e.callId);
      if (c) {
        c.status = e.result.status;
        c.body = e.result.body;
      }
    } else if (e.type === "assistant.final" || e.type === "assistant.question") d.answers.push(e.text);
    else if (e.type === "assistant.gave-up") d.answers.push(`(gave up) ${e.reason}`);
    else if (e.type === "tester.verdict") {
      d.accepted = e.verdict.accepted;
      if (e.verdict.failedStage) d.failedStage = e.verdict.failedStage;
      const n = e.verdict.stages.length;
      d.score = n === 0 ? (e.verdict.accepted ? 1 : 0) : e.verdict.stages.filter((s) => s.pass).length / n;
    } else if (e.type === "episode.finished") {
      d.outcome = e.outcome;
      d.steps = e.steps;
    }
  }
  return d;
}

function verdictText(d: EpisodeDigest): string {
  if (d.outcome === "error") return "error";
  if (d.accepted === undefined) return d.outcome;
  return d.accepted ? "accepted" : `rejected (${d.failedStage ?? "?"})`;
}

/** Compares two digests of the same episode. */
export function diffEpisode(a: EpisodeDigest, b: EpisodeDigest): EpisodeDiff {
  const out: EpisodeDiff = { index: a.index, episodeId: a.episodeId, differs: [] };
  if (firstDifference(a.instructions, b.instructions)) out.differs.push("instructions");
  const n = Math.max(a.calls.length, b.calls.length);
  for (let i = 0; i < n; i++) {
    const ca = a.calls[i];
    const cb = b.calls[i];
    const callDiff = firstDifference(ca && { name: ca.name, arguments: ca.arguments }, cb && { name: cb.name, arguments: cb.arguments });
    if (callDiff) {
      out.differs.push("calls");
      out.call = { at: i, ...(ca ? { a: ca } : {}), ...(cb ? { b: cb } : {}), path: callDiff.path };
      break;
    }
    const resultDiff = firstDifference({ status: ca?.status, body: ca?.body }, { status: cb?.status, body: cb?.body });
    if (resultDiff && !out.result) {
      out.result = { at: i, a: { status: ca?.status, body: ca?.body }, b: { status: cb?.status, body: cb?.body }, path: resultDiff.path };
    }
  }
  if (out.result) out.differs.push("results");
  if (firstDifference(a.answers, b.answers)) out.differs.push("answers");
  const va = verdictText(a);
  const vb = verdictText(b);
  if (va !== vb) {
    out.differs.push("verdict");
    out.verdict = { a: va, b: vb };
  }
  if (a.score !== b.score) {
    out.differs.push("score");
    out.score = { ...(a.score !== undefined ? { a: a.score } : {}), ...(b.score !== undefined ? { b: b.score } : {}) };
  }
  if (a.steps !== b.steps) out.differs.push("steps");
  return out;
}

/** Compares two runs episode by episode (by index), streaming both journals. */
export async function diffRuns(dirA: string, dirB: string): Promise<RunDiff> {
  const digestsB = new Map<number, EpisodeDigest>();
  for await (const events of readJournal(dirB)) {
    const d = digestEpisode(events);
    digestsB.set(d.index, d);
  }
  const result: RunDiff = { a: dirA, b: dirB, episodes: 0, same: 0, differing: 0, onlyA: 0, onlyB: 0, accepted: { a: 0, b: 0 }, meanScore: { a: 0, b: 0 }, diffs: [] };
  const scores = { a: [] as number[], b: [] as number[] };
  for await (const events of readJournal(dirA)) {
    const a = digestEpisode(events);
    result.episodes++;
    if (a.accepted) result.accepted.a++;
    if (a.score !== undefined) scores.a.push(a.score);
    const b = digestsB.get(a.index);
    if (!b) {
      result.onlyA++;
      result.diffs.push({ index: a.index, episodeId: a.episodeId, only: "a", differs: [] });
      continue;
    }
    digestsB.delete(a.index);
    if (b.accepted) result.accepted.b++;
    if (b.score !== undefined) scores.b.push(b.score);
    const d = diffEpisode(a, b);
    if (d.differs.length === 0) result.same++;
    else {
      result.differing++;
      result.diffs.push(d);
    }
  }
  for (const b of [...digestsB.values()].sort((x, y) => x.index - y.index)) {
    result.episodes++;
    result.onlyB++;
    if (b.accepted) result.accepted.b++;
    if (b.score !== undefined) scores.b.push(b.score);
    result.diffs.push({ index: b.index, episodeId: b.episodeId, only: "b", differs: [] });
  }
  const mean = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);
  result.meanScore = { a: mean(scores.a), b: mean(scores.b) };
  return result;
}

/** The diff as text: one line per differing episode, then the totals. */
export function formatRunDiff(diff: RunDiff): string {
  const lines: string[] = [];
  for (const d of diff.diffs) {
    if (d.only) {
      lines.push(`${d.episodeId}: only in ${d.only === "a" ? diff.a : diff.b}`);
      continue;
    }
    const parts: string[] = [];
    if (d.differs.includes("instructions")) parts.push("user turns differ");
    if (d.call) parts.push(`call #${d.call.at + 1}: ${d.call.a ? `${d.call.a.name}(${showValue(d.call.a.arguments, 60)})` : "(none)"} vs ${d.call.b ? `${d.call.b.name}(${showValue(d.call.b.arguments, 60)})` : "(none)"}`);
    if (d.result) parts.push(`result #${d.result.at + 1} at ${d.result.path}: ${showValue(d.result.a?.status)} ${showValue(d.result.a?.body, 50)} vs ${showValue(d.result.b?.status)} ${showValue(d.result.b?.body, 50)}`);
    if (d.differs.includes("answers")) parts.push("answers differ");
    if (d.verdict) parts.push(`verdict ${d.verdict.a} vs ${d.verdict.b}`);
    if (d.score) parts.push(`score ${d.score.a?.toFixed(2) ?? "-"} vs ${d.score.b?.toFixed(2) ?? "-"}`);
    if (d.differs.includes("steps") && parts.length === 0) parts.push("step counts differ");
    lines.push(`${d.episodeId}: ${parts.join("; ")}`);
  }
  lines.push(
    `${diff.episodes} episodes: ${diff.same} same, ${diff.differing} differ${diff.onlyA + diff.onlyB > 0 ? `, ${diff.onlyA} only in A, ${diff.onlyB} only in B` : ""}; ` +
      `accepted ${diff.accepted.a} vs ${diff.accepted.b}; mean score ${diff.meanScore.a.toFixed(3)} vs ${diff.meanScore.b.toFixed(3)}`,
  );
  return `${lines.join("\n")}\n`;
}
