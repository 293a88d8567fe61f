import type { Plan } from "../../../agents/roles/plan.js";
import { RuleTester } from "../../../agents/tester/offline-tester.js";
import type { AssistantAgent, UserAgent } from "../../../agents/roles/roles.js";
import { Toolbox } from "../../../agents/roles/toolbox.js";
import type { ToolAlpacaJudge, ToolAlpacaJudgement } from "../../../agents/tester/toolalpaca-judge.js";
import { EventBus } from "../../core/event-bus.js";
import type { SimEvent } from "../../core/events.js";
import { runEpisode } from "../../core/run-episode.js";
import type { Task } from "../tasks/task-set.js";
import type { TaskWorld, TaskWorlds } from "../tasks/task-toolsets.js";
import { solutionOfEvents, solutionFromSteps, standardAnswerText } from "./judge-text.js";
import type { ResponseEvidence } from "./response-evidence.js";
import { ruleJudgement, type GoldStep, type ToolFacts } from "./rule-judge.js";

export { solutionText, standardAnswerText } from "./judge-text.js";

/** The outcome of one ToolAlpaca task. */
export interface ToolAlpacaSample {
  kind: "toolalpaca";
  task: string;
  /** The calls the assistant made, with their statuses. */
  calls: Array<{ name: string; arguments: unknown; status?: number }>;
  final?: string;
  process: "Yes" | "No" | "Uncertain";
  /** `n/a` (rules only): nothing to check the answer against (see `response-evidence.ts`). */
  response: "Yes" | "No" | "Uncertain" | "n/a";
  /** Both Yes; null when the response is n/a. */
  overall: boolean | null;
  /** `rules` (no judge model) or `llm`. */
  judgedBy: "rules" | "llm";
  /** Which judge: `rules`, or the judge model (`openai:gpt-4o`). */
  judge?: string;
  /** The rule judge's reasons. */
  reasons?: { process: string; response: string };
  /** The facts the rule judge looked for, per golden tool, and those the answer states. */
  evidence?: ResponseEvidence["tools"];
  analysis?: string;
  /** Why the episode ended in an error, or why the task could not be run at all. */
  error?: string;
  /** The task could not be run (its API's spec does not load...): judged wrong, and counted in `notRun`. */
  notRun?: boolean;
  events: SimEvent[];
}

/** ToolAlpaca's scores: procedure, response and overall correctness rates, and which judge produced them. */
export interface ToolAlpacaScores {
  tasks: number;
  /** Procedure correct / tasks. */
  process: number;
  /** Response correct / tasks whose response was judged (`responseJudged`). */
  response: number;
  /** Both correct / tasks whose response was judged. */
  overall: number;
  judgedBy: "rules" | "llm";
  /** The judge model, when `judgedBy` is `llm`. */
  judge?: string;
  /** Tasks whose response could be judged (rules: not n/a). */
  responseJudged: number;
  /** Tasks the LLM judge answered `Uncertain` for (or failed on). */
  uncertain: number;
  /** Tasks that could not be run (counted as wrong). */
  notRun: number;
}

/** The user of a ToolAlpaca task: says the instruction, and has nothing to add when asked. */
export function instructionUser(task: Task): UserAgent {
  const first = task.turns.find((t) => t.role === "user");
  const text = first && first.role === "user" ? first.text : "";
  return {
    plan: async (): Promise<Plan> => ({ requests: [{ steps: [], withheld: [], style: "question" }] }),
    instruct: async () => text,
    reply: async () => "I have no more details; please go ahead with what I told you.",
  };
}

/** The instruction of a task (its first user turn). */
export function instructionOf(task: Task): string {
  const first = task.turns.find((t) => t.role === "user");
  return first && first.role === "user" ? first.text : "";
}

/** The golden steps of a task, with ToolAlpaca's `[Optional]` marks. */
export function goldSteps(task: Task): GoldStep[] {
  const optional = new Set(task.toolalpaca?.optional ?? []);
  return task.goldCalls.map((g, i) => ({ name: g.name, arguments: g.arguments, ...(optional.has(i) ? { optional: true } : {}) }));
}

/** What the rule judge needs to know of a world's tools: required arguments, and the credential arguments the harness fills in. */
export function toolFactsOf(world: TaskWorld | undefined): (tool: string) => ToolFacts | undefined {
  if (!world) return () => undefined;
  const toolbox = Toolbox.for([world.toolset]);
  return (name) => {
    const entry = toolbox.get(name);
    return entry ? { required: new Set(entry.tool.required), credentials: new Set(Object.keys(entry.credentials ?? {})) } : undefined;
  };
}

/** What a judge reads of one solution. */
export interface SolutionToJudge {
  task: Task;
  world?: TaskWorld;
  calls: Array<{ name: string; arguments: unknown; status?: number; body?: unknown }>;
  final: string | undefined;
  /** The solution in ToolAlpaca's judge format. */
  solution: string;
}

/** Judges one solution: with the LLM judge when one is given (a failing judge counts Uncertain, with why), else by rules. */
export async function judgeSolution(s: SolutionToJudge, judge?: ToolAlpacaJudge): Promise<Pick<ToolAlpacaSample, "process" | "response" | "overall" | "judgedBy" | "judge" | "reasons" | "evidence" | "analysis">> {
  const instruction = instructionOf(s.task);
  if (judge) {
    let j: ToolAlpacaJudgement;
    try {
      // The toolset's credential reads as its placeholder (`<credential:access_key>`) in both texts, as in the journal.
      const mask = s.world ? Toolbox.for([s.world.toolset]).mask : undefined;
      const standardAnswer = standardAnswerText(mask ? mask.value(s.task.goldCalls) : s.task.goldCalls);
      const solution = mask ? mask.text(s.solution) : s.solution;
      j = await judge.judge({ documentation: s.world?.documentation ?? s.world?.toolset.functions ?? s.world?.toolset.description ?? "", instruction, standardAnswer, solution });
    } catch (e) {
      j = { process: "Uncertain", response: "Uncertain", overall: false, analysis: `judge failed: ${e instanceof Error ? e.message : String(e)}` };
    }
    return { process: j.process, response: j.response, overall: j.overall, judgedBy: "llm", judge: judge.label, analysis: j.analysis };
  }
  const r = ruleJudgement(goldSteps(s.task), s.calls, s.final, instruction, toolFactsOf(s.world));
  return { process: r.process, response: r.response, overall: r.overall, judgedBy: "rules", judge: "rules", reasons: { process: r.processReason, response: r.responseReason }, evidence: r.evidence };
}

/** A sample for a task that could not be run. */
function notRunSample(task: Task, reason: string, judge?: ToolAlpacaJudge): ToolAlpacaSample {
  return {
    kind: "toolalpaca",
    task: task.id,
    calls: [],
    process: "No",
    response: "No",
    overall: false,
    judgedBy: judge ? "llm" : "rules",
    judge: judge?.label ?? "rules",
    reasons: { process: `not run: ${reason}`, response: "not run" },
    error: reason,
    notRun: true,
    events: [],
  };
}

/**
 * Runs an assistant on ToolAlpaca tasks (one episode each) and judges it with rules or the LLM judge. A task whose
 * world cannot be built (its API's spec does not load) is reported in its sample (`error`) and judged wrong; the
 * other tasks go on.
 */
export async function evaluateToolAlpaca(
  tasks: readonly Task[],
  worlds: TaskWorlds,
  options: { assistantFor: (task: Task, index: number, bus: EventBus) => AssistantAgent; judge?: ToolAlpacaJudge; maxSteps?: number; seed?: number; onTask?: (s: ToolAlpacaSample) => void },
): Promise<ToolAlpacaSample[]> {
  const out: ToolAlpacaSample[] = [];
  for (const [index, task] of tasks.entries()) {
    let world: TaskWorld;
    try {
      world = await worlds.get(task.toolset);
    } catch (e) {
      const sample = notRunSample(task, e instanceof Error ? e.message : String(e), options.judge);
      options.onTask?.(sample);
      out.push(sample);
      continue;
    }
    const bus = new EventBus();
    const events: SimEvent[] = [];
    bus.on("*", (e) => void events.push(e));
    await runEpisode(
      { runId: "toolalpaca-eval", index, runSeed: options.seed ?? 1, level: "call", toolsets: [world.toolset], maxSteps: options.maxSteps ?? 8 },
      { user: instructionUser(task), assistant: options.assistantFor(task, index, bus), executor: world.executor, tester: new RuleTester() },
      bus,
    );
    const calls: Array<{ name: string; arguments: unknown; status?: number; body?: unknown }> = [];
    const byId = new Map<string, (typeof calls)[number]>();
    for (const e of events) {
      if (e.type === "tool.call") {
        const c = { name: e.call.name, arguments: e.call.arguments };
        calls.push(c);
        byId.set(e.call.id, c);
      } else if (e.type === "tool.result") {
        const c = byId.get(e.callId);
        if (c) Object.assign(c, { status: e.result.status, body: e.result.body });
      }
    }
    const { steps, final } = solutionOfEvents(events);
    const failed = events.find((e) => e.type === "episode.finished" && e.outcome === "error");
    const judged = await judgeSolution({ task, world, calls, final, solution: solutionFromSteps(steps, final) }, options.judge);
    const sample: ToolAlpacaSample = {
      kind: "toolalpaca",
      task: task.id,
      calls: calls.map((c) => ({ name: c.name, arguments: c.arguments, ...(c.status !== undefined ? { status: c.status } : {}) })),
      ...(final !== undefined ? { final } : {}),
      ...judged,
      ...(failed && failed.type === "episode.finished" && failed.reason !== undefined ? { error: failed.reason } : {}),
      events,
    };
    options.onTask?.(sample);
    out.push(sample);
  }
  return out;
}

/** Procedure, response and overall rates of ToolAlpaca samples (response and overall over the tasks whose response was judged). */
export function scoreToolAlpaca(samples: readonly Pick<ToolAlpacaSample, "process" | "response" | "overall" | "judgedBy" | "judge" | "notRun">[]): ToolAlpacaScores {
  const n = samples.length;
  const judged = samples.filter((s) => s.response !== "n/a");
  const rate = (list: typeof samples, f: (s: (typeof samples)[number]) => boolean): number => (list.length === 0 ? 0 : list.filter(f).length / list.length);
  const llm = samples.find((s) => s.judgedBy === "llm");
  return {
    tasks: n,
    process: rate(samples, (s) => s.process === "Yes"),
    response: rate(judged, (s) => s.response === "Yes"),
    overall: rate(judged, (s) => s.overall === true),
    judgedBy: llm ? "llm" : "rules",
    ...(llm?.judge !== undefined ? { judge: llm.judge } : {}),
    responseJudged: judged.length,
    uncertain: samples.filter((s) => s.process === "Uncertain" || s.response === "Uncertain").length,
    notRun: samples.filter((s) => s.notRun === true).length,
  };
}
