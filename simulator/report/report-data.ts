import type { TesterStage } from "../../agents/roles/verdict.js";
import { projectEpisode, type CorpusRecord, type RejectedRecord } from "../runs/corpus-projection.js";
import { conversationOf } from "../export/conversation.js";
import { redactRecord } from "../export/redact-record.js";
import { readEpisodesSkippingCorrupt, readRunInfo } from "../export/run-folder.js";
import { RunToolsets } from "../export/run-toolsets.js";
import { StatsBuilder, statsRedactor, type RunStats } from "../stats/run-stats.js";

/** One message of an episode as the report's chat shows it. */
export type ReportTurn =
  | { k: "user"; text: string; reply?: true }
  | { k: "thought"; text: string }
  | { k: "call"; id: string; name: string; args: string }
  | { k: "obs"; id: string; name: string; status: number | null; source: string | null; body: string }
  | { k: "assistant"; kind: "question" | "final" | "give-up"; text: string };

/** One episode in the report's conversation browser. */
export interface ReportEpisode {
  index: number;
  id: string;
  toolsets: string[];
  level: string;
  outcome: "accepted" | "rejected" | "error";
  /** The first failed stage (`error` when it broke off). */
  failedStage?: TesterStage | "error";
  /** Why it was rejected (the failed stage's reasons, or the error). */
  reasons: string[];
  steps: number;
  calls: number;
  turns: ReportTurn[];
  stages: { stage: string; pass: boolean; reasons: string[] }[];
}

/** Everything the report page shows, embedded in it as JSON. */
export interface ReportData {
  run: { id: string; dir: string; createdAt: string; seed: number; level: string; toolsets: string[] };
  stats: RunStats;
  /** Toolset -> category (for the coverage table). */
  categories: Record<string, string>;
  episodes: ReportEpisode[];
  /** The episodes embedded are the first `shown` of `total` (at most `limit`). */
  cap: { shown: number; total: number; limit: number };
  generatedBy: string;
}

/** Options of {@link buildReportData}. */
export interface ReportDataOptions {
  /** Most episodes embedded in the page (default 2000): the statistics always cover the whole run. */
  maxEpisodes?: number;
  /** Longest observation body embedded, in characters (default 4000, as the assistant reads them). */
  maxObservationChars?: number;
  toolsets?: string[];
  warn?: (message: string) => void;
}

/** The default cap on embedded episodes. */
export const DEFAULT_REPORT_EPISODES = 2000;

function pretty(value: unknown, max: number): string {
  let text: string;
  if (typeof value === "string") {
    try {
      text = JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      text = value;
    }
  } else text = value === undefined ? "" : (JSON.stringify(value, null, 2) ?? "");
  return text.length <= max ? text : `${text.slice(0, max)}\n… [truncated: ${text.length - max} more characters]`;
}

/** An episode (secrets already removed) as the chat shows it. */
export function reportEpisode(record: CorpusRecord | RejectedRecord, maxObservationChars = 4000): ReportEpisode {
  const turns: ReportTurn[] = [];
  for (const t of conversationOf(record)) {
    switch (t.kind) {
      case "instruction":
        turns.push({ k: "user", text: t.text });
        break;
      case "reply":
        turns.push({ k: "user", text: t.text, reply: true });
        break;
      case "calls":
        if (t.thought !== undefined) turns.push({ k: "thought", text: t.thought });
        for (const c of t.calls) turns.push({ k: "call", id: c.id, name: c.name, args: pretty(c.arguments, maxObservationChars) });
        for (const c of t.calls) {
          if (!c.result) continue;
          turns.push({ k: "obs", id: c.id, name: c.name, status: c.result.status ?? null, source: c.result.source ?? null, body: pretty(c.result.body !== undefined ? c.result.body : c.result.content, maxObservationChars) });
        }
        break;
      default:
        if (t.thought !== undefined) turns.push({ k: "thought", text: t.thought });
        turns.push({ k: "assistant", kind: t.kind, text: t.text });
    }
  }
  const rejected = "failedStage" in record ? record : undefined;
  return {
    index: record.meta.index,
    id: record.meta.episodeId,
    toolsets: record.toolsets,
    level: record.meta.level,
    outcome: record.meta.outcome,
    ...(rejected ? { failedStage: rejected.failedStage } : {}),
    reasons: rejected?.reasons ?? [],
    steps: record.meta.steps,
    calls: record.meta.calls,
    turns,
    stages: record.verdict?.stages.map((s) => ({ stage: s.stage, pass: s.pass, reasons: s.reasons })) ?? [],
  };
}

/**
 * Reads a run for its report in one streaming pass: the statistics of every episode, and the first
 * `maxEpisodes` episodes (secrets removed) for the conversation browser.
 */
export async function buildReportData(dir: string, options: ReportDataOptions = {}): Promise<ReportData> {
  const info = await readRunInfo(dir);
  const toolsets = await RunToolsets.load(info, { ...(options.toolsets ? { paths: options.toolsets } : {}), ...(options.warn ? { warn: options.warn } : {}) });
  const stats = new StatsBuilder(info.id, info.operations ?? {}, { categoryOf: (name) => toolsets.get(name)?.category, redact: statsRedactor(toolsets) });
  const limit = options.maxEpisodes ?? DEFAULT_REPORT_EPISODES;
  const episodes: ReportEpisode[] = [];
  let total = 0;
  for await (const events of readEpisodesSkippingCorrupt(dir, options.warn ? { warn: options.warn } : {})) {
    stats.add(events);
    total++;
    if (episodes.length >= limit) continue;
    const record = projectEpisode(events);
    episodes.push(reportEpisode(redactRecord(record, toolsets.secrets(record)).value, options.maxObservationChars));
  }
  const names = Array.isArray(info.config["toolsets"]) ? (info.config["toolsets"] as unknown[]).filter((t): t is string => typeof t === "string") : Object.keys(info.specHashes ?? {});
  const categories: Record<string, string> = {};
  for (const n of names) {
    const c = toolsets.get(n)?.category;
    if (c !== undefined) categories[n] = c;
  }
  return {
    run: { id: info.id, dir, createdAt: info.createdAt, seed: info.seed, level: String(info.config["level"] ?? "call"), toolsets: names },
    stats: stats.toJSON(),
    categories,
    episodes,
    cap: { shown: episodes.length, total, limit },
    generatedBy: `toolsim ${info.versions?.toolsim ?? ""}`.trim(),
  };
}
