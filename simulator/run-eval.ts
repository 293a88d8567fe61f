import type { Plan } from "../agents/plan.js";
import { stableStringify } from "../specs/stable-stringify.js";
import type { ToolResult } from "../specs/tool-result.js";
import { parseArguments } from "../specs/validate-call.js";
import { APIBANK_ERRORS, type ApiBankError } from "./apibank-eval.js";
import type { SimEvent } from "./events.js";
import { loadRunToolsets, readRunInfo } from "./replay.js";
import { readEpisodesSkippingCorrupt } from "./export/run-folder.js";
import { CoverageCounter, type SpecCoverage } from "./spec-coverage.js";

/** The scores of a run folder: pass rate, correctness of the planned calls with API-Bank's error taxonomy, coverage. */
export interface RunScores {
  run: string;
  episodes: number;
  accepted: number;
  /** Accepted episodes / episodes (the tester's verdict). */
  passRate: number;
  /** Planned calls (the user's hidden goal) and how many the assistant made correctly (same tool, same values, 2xx). */
  plannedCalls: number;
  correctCalls: number;
  callAccuracy: number;
  errors: Record<ApiBankError, number>;
  coverage?: SpecCoverage;
  /** Why coverage is missing, when it is. */
  coverageNote?: string;
  /** Per episode: index and whether it passed (for pass^k across runs). */
  outcomes: Array<{ index: number; passed: boolean }>;
}

interface MadeCall {
  name: string;
  arguments: unknown;
  result?: ToolResult;
}

/** Classifies one planned step of an episode against the calls made (see {@link RunScores}). */
export function scorePlannedStep(step: { tool: string; args: Record<string, unknown>; linked: Set<string> }, calls: readonly MadeCall[]): { correct: boolean; error?: ApiBankError } {
  const sameTool = (c: MadeCall): boolean => c.name === step.tool || c.name.endsWith(`__${step.tool}`);
  const matches = (c: MadeCall): boolean => {
    const args = parseArguments(c.arguments);
    if (!args.ok) return false;
    return Object.entries(step.args).every(([k, v]) => step.linked.has(k) || stableStringify(args.value[k]) === stableStringify(v) || String(args.value[k]) === String(v));
  };
  const mine = calls.filter(sameTool);
  if (mine.some((c) => c.result && c.result.status < 400 && matches(c))) return { correct: true };
  if (calls.length === 0) return { correct: false, error: "no-api-call" };
  if (mine.length === 0) return { correct: false, error: "api-hallucination" };
  const last = mine[mine.length - 1] as MadeCall;
  if (!parseArguments(last.arguments).ok) return { correct: false, error: "false-call-format" };
  const r = last.result;
  if (r && (r.source === "validation" || r.source === "route")) return { correct: false, error: r.errors.some((e) => e.code === "required") ? "missing-input-parameters" : "invalid-input-parameters" };
  if (r && r.status >= 400) return { correct: false, error: "has-exception" };
  return { correct: false, error: "wrong-result" };
}

/** Options of {@link scoreRun}. */
export interface ScoreRunOptions {
  /** Told about damaged episodes, which are skipped (with the file and line). */
  warn?: (message: string) => void;
}

/** Scores a run folder from its journal (and the specs of its toolsets, for coverage). */
export async function scoreRun(dir: string, options: ScoreRunOptions = {}): Promise<RunScores> {
  const info = readRunInfo(dir);
  let coverage: CoverageCounter | undefined;
  let coverageNote: string | undefined;
  try {
    const { toolsets } = await loadRunToolsets(info, { allowSpecChange: true });
    coverage = new CoverageCounter([...toolsets.values()]);
  } catch (e) {
    coverageNote = `no coverage: ${e instanceof Error ? e.message : String(e)}`;
  }
  const scores: RunScores = {
    run: dir,
    episodes: 0,
    accepted: 0,
    passRate: 0,
    plannedCalls: 0,
    correctCalls: 0,
    callAccuracy: 0,
    errors: Object.fromEntries(APIBANK_ERRORS.map((e) => [e, 0])) as Record<ApiBankError, number>,
    outcomes: [],
  };
  for await (const events of readEpisodesSkippingCorrupt(dir, options.warn ? { warn: options.warn } : {})) {
    scores.episodes++;
    coverage?.add(events);
    let plan: Plan | undefined;
    let passed = false;
    let index = 0;
    const calls: MadeCall[] = [];
    const byId = new Map<string, MadeCall>();
    for (const e of events as SimEvent[]) {
      if (e.type === "episode.started") index = e.index;
      else if (e.type === "user.plan") plan = e.plan;
      else if (e.type === "tool.call") {
        const c: MadeCall = { name: e.call.name, arguments: e.call.arguments };
        calls.push(c);
        byId.set(e.call.id, c);
      } else if (e.type === "tool.result") {
        const c = byId.get(e.callId);
        if (c) c.result = e.result;
      } else if (e.type === "tester.verdict") passed = e.verdict.accepted;
    }
    if (passed) scores.accepted++;
    scores.outcomes.push({ index, passed });
    for (const request of plan?.requests ?? []) {
      for (const step of request.steps) {
        scores.plannedCalls++;
        const verdict = scorePlannedStep({ tool: step.tool, args: step.args, linked: new Set(step.links.map((l) => l.arg)) }, calls);
        if (verdict.correct) scores.correctCalls++;
        else if (verdict.error) scores.errors[verdict.error]++;
      }
    }
  }
  scores.passRate = scores.episodes === 0 ? 0 : scores.accepted / scores.episodes;
  scores.callAccuracy = scores.plannedCalls === 0 ? 0 : scores.correctCalls / scores.plannedCalls;
  if (coverage) scores.coverage = coverage.result();
  if (coverageNote) scores.coverageNote = coverageNote;
  return scores;
}
