import type { Plan } from "../../../agents/roles/plan.js";
import { RuleTester } from "../../../agents/tester/offline-tester.js";
import type { AssistantAgent, UserAgent } from "../../../agents/roles/roles.js";
import type { ToolAlpacaJudge, ToolAlpacaJudgement } from "../../../agents/tester/toolalpaca-judge.js";
import { stableStringify } from "../../../specs/stable-stringify.js";
import { parseArguments } from "../../../specs/call/validate-call.js";
import { EventBus } from "../../core/event-bus.js";
import type { SimEvent } from "../../core/events.js";
import { runEpisode } from "../../core/run-episode.js";
import type { Task } from "../tasks/task-set.js";
import type { TaskWorlds } from "../tasks/task-toolsets.js";

/** The outcome of one ToolAlpaca task. */
export interface ToolAlpacaSample {
  kind: "toolalpaca";
  task: string;
  /** The calls the assistant made, with their statuses. */
  calls: Array<{ name: string; arguments: unknown; status?: number }>;
  final?: string;
  process: "Yes" | "No" | "Uncertain";
  response: "Yes" | "No" | "Uncertain";
  overall: boolean;
  /** `rules` (no judge model) or `llm`. */
  judgedBy: "rules" | "llm";
  analysis?: string;
  events: SimEvent[];
}

/** ToolAlpaca's scores: process, response and overall correctness rates. */
export interface ToolAlpacaScores {
  tasks: number;
  process: number;
  response: number;
  overall: number;
  judgedBy: "rules" | "llm";
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

/**
 * The rule-based judgement (without a judge model): the process is correct when every gold step appears among
 * the successful calls in order, with the gold's non-empty arguments; the response when the assistant gave a
 * final answer.
 */
export function ruleJudgement(task: Task, calls: ToolAlpacaSample["calls"], final: string | undefined): Pick<ToolAlpacaSample, "process" | "response" | "overall"> {
  let at = 0;
  for (const gold of task.goldCalls) {
    let found = false;
    while (at < calls.length) {
      const c = calls[at++] as ToolAlpacaSample["calls"][number];
      if (c.name !== gold.name || (c.status ?? 500) >= 400) continue;
      const args = parseArguments(c.arguments);
      if (!args.ok) continue;
      const ok = Object.entries(gold.arguments).every(([k, v]) => v === "" || v === null || v === undefined || stableStringify(args.value[k]) === stableStringify(v) || String(args.value[k]).toLowerCase() === String(v).toLowerCase());
      if (ok) {
        found = true;
        break;
      }
    }
    if (!found) return { process: "No", response: final ? "Yes" : "No", overall: false };
  }
  const response = final ? "Yes" : "No";
  return { process: "Yes", response, overall: response === "Yes" };
}

/** An episode's solution as ToolAlpaca's judge reads it: actions, their inputs and observations, and the final answer. */
export function solutionText(events: readonly SimEvent[]): string {
  return events
    .flatMap((e) =>
      e.type === "tool.call"
        ? [`Action: ${e.call.name}\nAction Input: ${typeof e.call.arguments === "string" ? e.call.arguments : JSON.stringify(e.call.arguments)}`]
        : e.type === "tool.result"
          ? [`Observation: status ${e.result.status}: ${JSON.stringify(e.result.body).slice(0, 1500)}`]
          : e.type === "assistant.final"
            ? [`Final Answer: ${e.text}`]
            : e.type === "assistant.gave-up"
              ? [`Gave up: ${e.reason}`]
              : [],
    )
    .join("\n");
}

/** ToolAlpaca's standard answer: the gold function calls, numbered. */
export function standardAnswerText(calls: ReadonlyArray<{ name: string; arguments: unknown }>): string {
  return calls.map((g, i) => `${i + 1}. Function: ${g.name}\nParameters: ${JSON.stringify(g.arguments)}`).join("\n");
}

/** Runs an assistant on ToolAlpaca tasks (one episode each) and judges it with rules or the LLM judge. */
export async function evaluateToolAlpaca(
  tasks: readonly Task[],
  worlds: TaskWorlds,
  options: { assistantFor: (task: Task, index: number, bus: EventBus) => AssistantAgent; judge?: ToolAlpacaJudge; maxSteps?: number; seed?: number; onTask?: (s: ToolAlpacaSample) => void },
): Promise<ToolAlpacaSample[]> {
  const out: ToolAlpacaSample[] = [];
  for (const [index, task] of tasks.entries()) {
    const world = await worlds.get(task.toolset);
    const bus = new EventBus();
    const events: SimEvent[] = [];
    bus.on("*", (e) => void events.push(e));
    await runEpisode(
      { runId: "toolalpaca-eval", index, runSeed: options.seed ?? 1, level: "call", toolsets: [world.toolset], maxSteps: options.maxSteps ?? 8 },
      { user: instructionUser(task), assistant: options.assistantFor(task, index, bus), executor: world.executor, tester: new RuleTester() },
      bus,
    );
    const calls: ToolAlpacaSample["calls"] = [];
    const byId = new Map<string, ToolAlpacaSample["calls"][number]>();
    let final: string | undefined;
    for (const e of events) {
      if (e.type === "tool.call") {
        const c = { name: e.call.name, arguments: e.call.arguments };
        calls.push(c);
        byId.set(e.call.id, c);
      } else if (e.type === "tool.result") {
        const c = byId.get(e.callId);
        if (c) (c as { status?: number }).status = e.result.status;
      } else if (e.type === "assistant.final") final = e.text;
    }
    let judged: Pick<ToolAlpacaSample, "process" | "response" | "overall"> & { analysis?: string; judgedBy: "rules" | "llm" };
    if (options.judge) {
      const solution = solutionText(events);
      const standardAnswer = standardAnswerText(task.goldCalls);
      const first = task.turns[0];
      let j: ToolAlpacaJudgement;
      try {
        j = await options.judge.judge({ documentation: world.toolset.functions || world.toolset.description, instruction: first?.role === "user" ? first.text : "", standardAnswer, solution });
      } catch (e) {
        j = { process: "Uncertain", response: "Uncertain", overall: false, analysis: `judge failed: ${e instanceof Error ? e.message : String(e)}` };
      }
      judged = { ...j, judgedBy: "llm" };
    } else judged = { ...ruleJudgement(task, calls, final), judgedBy: "rules" };
    const sample: ToolAlpacaSample = { kind: "toolalpaca", task: task.id, calls, ...(final !== undefined ? { final } : {}), ...judged, events };
    options.onTask?.(sample);
    out.push(sample);
  }
  return out;
}

/** Process, response and overall rates of ToolAlpaca samples. */
export function scoreToolAlpaca(samples: readonly Pick<ToolAlpacaSample, "process" | "response" | "overall" | "judgedBy">[]): ToolAlpacaScores {
  const n = samples.length;
  const rate = (f: (s: (typeof samples)[number]) => boolean): number => (n === 0 ? 0 : samples.filter(f).length / n);
  return { tasks: n, process: rate((s) => s.process === "Yes"), response: rate((s) => s.response === "Yes"), overall: rate((s) => s.overall), judgedBy: samples.some((s) => s.judgedBy === "llm") ? "llm" : "rules" };
}

