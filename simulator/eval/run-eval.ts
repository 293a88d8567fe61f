import { createHash } from "node:crypto";
import type { Plan } from "../../agents/roles/plan.js";
import type { EpisodeToolset } from "../../agents/roles/toolbox.js";
import type { ToolAlpacaJudge } from "../../agents/tester/toolalpaca-judge.js";
import type { Verdict } from "../../agents/roles/verdict.js";
import { stableStringify } from "../../specs/stable-stringify.js";
import type { ToolResult } from "../../specs/call/tool-result.js";
import { parseArguments } from "../../specs/call/validate-call.js";
import { APIBANK_ERRORS, type ApiBankError } from "./apibank/apibank-eval.js";
import type { SimEvent } from "../core/events.js";
import { loadRunToolsets, readRunInfo } from "../replay/replay.js";
import { readEpisodesSkippingCorrupt } from "../export/run-folder.js";
import { CoverageCounter, type SpecCoverage } from "../stats/spec-coverage.js";
import { scoreToolAlpaca, solutionText, standardAnswerText, type ToolAlpacaSample, type ToolAlpacaScores } from "./toolalpaca/toolalpaca-eval.js";
import { responseEvidence } from "./toolalpaca/response-evidence.js";

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
  /**
   * ToolAlpaca's procedure, response and overall per episode: by rules from the run's plan and tester stages, or
   * by the LLM judge (figure 12) when one is given.
   */
  toolalpaca: ToolAlpacaScores;
  /** ROUGE-L needs reference responses, which a simulated run does not have. */
  rougeL: null;
  rougeLNote: string;
  /** Per episode: index, whether it passed, and its task (a hash of its plan, else of its instructions) for pass^k across runs. */
  outcomes: EpisodeOutcome[];
}

/** One episode's outcome, with what identifies its task across runs. */
export interface EpisodeOutcome {
  index: number;
  episodeId: string;
  passed: boolean;
  /** A hash of the user's plan (the hidden goal: steps and values), or of the instructions when there is no plan. */
  task: string;
  process: ToolAlpacaSample["process"];
  response: ToolAlpacaSample["response"];
  /** Both correct; null when the response is n/a. */
  overall: boolean | null;
}

/** Why runs have no ROUGE-L. */
export const NO_REFERENCE_RESPONSES = "n/a (no reference responses)";

/** The task of an episode as pass^k compares it across runs: its plan (steps, tools, values), else its instructions. */
export function taskKey(plan: Plan | undefined, instructions: readonly string[]): string {
  const steps = plan?.requests.map((r) => r.steps.map((s) => ({ tool: s.tool, args: s.args }))) ?? [];
  const what = steps.some((r) => r.length > 0) ? { plan: steps } : { instructions: instructions.map((t) => t.trim().toLowerCase().replace(/\s+/g, " ")) };
  return createHash("sha256").update(stableStringify(what)).digest("hex").slice(0, 16);
}

/**
 * ToolAlpaca's procedure and response by rules, for a recorded episode: the procedure is correct when every planned
 * call was made correctly and the tester's format, execution and plan stages passed; the response by evidence: every
 * request got a final answer (no give-up), and the answers state what the planned tools' calls returned (see
 * `response-evidence.ts`), or n/a when those calls returned nothing to check.
 */
export function ruleJudgementOfEpisode(e: {
  plannedAllCorrect: boolean;
  requests: number;
  finals: number;
  gaveUp: boolean;
  stages: ReadonlyArray<{ stage: string; pass: boolean }> | undefined;
  /** The planned tools, the calls made (with their results), the final answers and the instructions. */
  plannedTools: readonly string[];
  calls: ReadonlyArray<{ name: string; arguments: unknown; status?: number; body?: unknown }>;
  answers: readonly string[];
  instructions: readonly string[];
}): Pick<EpisodeOutcome, "process" | "response" | "overall"> {
  const passes = (names: readonly string[]): boolean => e.stages !== undefined && e.stages.filter((s) => names.includes(s.stage)).every((s) => s.pass);
  const process = e.plannedAllCorrect && passes(["format", "execution", "plan"]) ? "Yes" : "No";
  const answered = e.finals >= Math.max(1, e.requests) && !e.gaveUp;
  const evidence = responseEvidence(e.plannedTools, e.calls, answered ? e.answers.join("\n") : undefined, e.instructions.join("\n"));
  const response = evidence.verdict;
  return { process, response, overall: response === "n/a" ? null : process === "Yes" && response === "Yes" };
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
  /** ToolAlpaca's LLM judge: judges every episode (without it, rules judge). */
  judge?: ToolAlpacaJudge;
}

/** Scores a run folder from its journal (and the specs of its toolsets, for coverage). */
export async function scoreRun(dir: string, options: ScoreRunOptions = {}): Promise<RunScores> {
  const info = readRunInfo(dir);
  let coverage: CoverageCounter | undefined;
  let coverageNote: string | undefined;
  let loaded: Map<string, EpisodeToolset> = new Map();
  try {
    const { toolsets } = await loadRunToolsets(info, { allowSpecChange: true });
    loaded = toolsets;
    coverage = new CoverageCounter([...toolsets.values()]);
  } catch (e) {
    coverageNote = `no coverage: ${e instanceof Error ? e.message : String(e)}`;
  }
  const judged: Array<Pick<ToolAlpacaSample, "process" | "response" | "overall" | "judgedBy" | "judge">> = [];
  const scores: RunScores = {
    run: dir,
    episodes: 0,
    accepted: 0,
    passRate: 0,
    plannedCalls: 0,
    correctCalls: 0,
    callAccuracy: 0,
    errors: Object.fromEntries(APIBANK_ERRORS.map((e) => [e, 0])) as Record<ApiBankError, number>,
    toolalpaca: scoreToolAlpaca([]),
    rougeL: null,
    rougeLNote: NO_REFERENCE_RESPONSES,
    outcomes: [],
  };
  for await (const events of readEpisodesSkippingCorrupt(dir, options.warn ? { warn: options.warn } : {})) {
    scores.episodes++;
    coverage?.add(events);
    let plan: Plan | undefined;
    let passed = false;
    let index = 0;
    let toolsetNames: string[] = [];
    let stages: Verdict["stages"] | undefined;
    let finals = 0;
    const answers: string[] = [];
    let gaveUp = false;
    const instructions: string[] = [];
    const calls: MadeCall[] = [];
    const byId = new Map<string, MadeCall>();
    for (const e of events as SimEvent[]) {
      if (e.type === "episode.started") {
        index = e.index;
        toolsetNames = e.toolsets;
      } else if (e.type === "user.plan") plan = e.plan;
      else if (e.type === "user.instruction") instructions.push(e.text);
      else if (e.type === "tool.call") {
        const c: MadeCall = { name: e.call.name, arguments: e.call.arguments };
        calls.push(c);
        byId.set(e.call.id, c);
      } else if (e.type === "tool.result") {
        const c = byId.get(e.callId);
        if (c) c.result = e.result;
      } else if (e.type === "assistant.final") {
        finals++;
        answers.push(e.text);
      }
      else if (e.type === "assistant.gave-up") gaveUp = true;
      else if (e.type === "tester.verdict") {
        passed = e.verdict.accepted;
        stages = e.verdict.stages;
      }
    }
    if (passed) scores.accepted++;
    let plannedAllCorrect = true;
    for (const request of plan?.requests ?? []) {
      for (const step of request.steps) {
        scores.plannedCalls++;
        const verdict = scorePlannedStep({ tool: step.tool, args: step.args, linked: new Set(step.links.map((l) => l.arg)) }, calls);
        if (verdict.correct) scores.correctCalls++;
        else {
          plannedAllCorrect = false;
          if (verdict.error) scores.errors[verdict.error]++;
        }
      }
    }
    let judgement: Pick<EpisodeOutcome, "process" | "response" | "overall">;
    if (options.judge) {
      const docs = toolsetNames.map((n) => loaded.get(n)).filter((t): t is EpisodeToolset => t !== undefined);
      const gold = (plan?.requests ?? []).flatMap((r) => r.steps.map((s) => ({ name: s.tool, arguments: s.args })));
      try {
        judgement = await options.judge.judge({
          documentation: docs.map((t) => t.functions || t.description).join("\n\n"),
          instruction: instructions.join("\n"),
          standardAnswer: standardAnswerText(gold),
          solution: solutionText(events),
        });
      } catch (e) {
        options.warn?.(`the judge failed on ${events[0]?.episodeId ?? `episode ${index}`}: ${e instanceof Error ? e.message : String(e)} (counted Uncertain)`);
        judgement = { process: "Uncertain", response: "Uncertain", overall: false };
      }
    } else {
      const plannedTools = (plan?.requests ?? []).flatMap((r) => r.steps.map((s) => s.tool));
      // A tool qualified with its toolset (`weather__getForecast`, when names collide) is the planned tool it names.
      const made = calls.map((c) => ({ name: !plannedTools.includes(c.name) && c.name.includes("__") ? (c.name.split("__").pop() as string) : c.name, arguments: c.arguments, ...(c.result ? { status: c.result.status, body: c.result.body } : {}) }));
      judgement = ruleJudgementOfEpisode({ plannedAllCorrect, requests: plan?.requests.length ?? instructions.length, finals, gaveUp, stages, plannedTools, calls: made, answers, instructions });
    }
    judged.push({ ...judgement, judgedBy: options.judge ? "llm" : "rules", judge: options.judge ? options.judge.label : "rules" });
    scores.outcomes.push({ index, episodeId: events[0]?.episodeId ?? "", passed, task: taskKey(plan, instructions), process: judgement.process, response: judgement.response, overall: judgement.overall });
  }
  scores.toolalpaca = { ...scoreToolAlpaca(judged), judgedBy: options.judge ? "llm" : "rules", ...(options.judge ? { judge: options.judge.label } : {}) };
  scores.passRate = scores.episodes === 0 ? 0 : scores.accepted / scores.episodes;
  scores.callAccuracy = scores.plannedCalls === 0 ? 0 : scores.correctCalls / scores.plannedCalls;
  if (coverage) scores.coverage = coverage.result();
  if (coverageNote) scores.coverageNote = coverageNote;
  return scores;
}
