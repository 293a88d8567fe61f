import type { AssistantTurn } from "../../../agents/roles/dialogue.js";
import type { AssistantAgent } from "../../../agents/roles/roles.js";
import { evaluateAssistantOnTasks, type EvalSample } from "../apibank/apibank-eval.js";
import type { Task } from "../tasks/task-set.js";
import type { TaskWorlds } from "../tasks/task-toolsets.js";
import { apiCallOf, parseApiCallText, splitByUppercase } from "./apibank-call-text.js";
import type { PredictedTurn, Predictions } from "./prediction-readers.js";
import "./apibank-predictions.js";
import "./toolsim-predictions.js";

/*
 * Scores predictions made elsewhere with the same protocol as a live assistant (`apibank-eval.ts`): the
 * dialogue is walked turn by turn, the state carried by the gold calls, and at each gold call or response the
 * "assistant" answers with the prediction for that turn. Turns without a prediction are not scored.
 */

/** The gold turns a task scores, in the order the evaluation asks for them. */
export function scoredTurnOrder(task: Task): number[] {
  return task.turns.flatMap((t, i) => (t.role === "api" || (t.role === "assistant" && task.turns[i - 1]?.role === "api") ? [i] : []));
}

/** An assistant that answers each scored turn of one task with its prediction. */
export class PredictionAssistant implements AssistantAgent {
  private step_ = 0;
  private readonly order: number[];

  constructor(
    private readonly task: Task,
    private readonly predictions: ReadonlyMap<number, PredictedTurn> | undefined,
  ) {
    this.order = scoredTurnOrder(task);
  }

  async step(): Promise<AssistantTurn> {
    const turn = this.order[this.step_++];
    const p = turn === undefined ? undefined : this.predictions?.get(turn);
    if (!p) return { kind: "give-up", reason: "no prediction" };
    const callId = `pred_${turn}`;
    if (p.kind === "response") return { kind: "final", text: p.text };
    if (p.kind === "call") return { kind: "calls", thought: "", calls: [{ id: callId, name: p.name, arguments: p.arguments as Record<string, unknown> }] };
    const gold = this.task.turns[turn as number];
    if (gold?.role !== "api") return { kind: "final", text: p.text.replace(/User:|AI:/g, "").trim() };
    const text = apiCallOf(p.text);
    const call = text !== undefined ? parseApiCallText(text) : undefined;
    if (!call) return { kind: "final", text: p.text };
    if (call.name === "ToolSearcher" && this.task.level === 3 && typeof call.arguments["keywords"] === "string") call.arguments["keywords"] = splitByUppercase(call.arguments["keywords"]);
    return { kind: "calls", thought: "", calls: [{ id: callId, name: call.name, arguments: call.arguments }] };
  }
}

/** Scores predictions on tasks: the samples of the turns that have a prediction, and how many gold turns had none. */
export async function scorePredictions(tasks: readonly Task[], worlds: TaskWorlds, predictions: Predictions, seed = 1): Promise<{ samples: EvalSample[]; unpredicted: number }> {
  const withPredictions = tasks.filter((t) => predictions.has(t.id));
  const samples = await evaluateAssistantOnTasks(withPredictions, worlds, { assistantFor: (task) => new PredictionAssistant(task, predictions.get(task.id)), seed });
  const has = (s: EvalSample): boolean => predictions.get(s.task)?.has(s.turn) === true;
  const scored = samples.filter(has);
  const total = tasks.reduce((n, t) => n + scoredTurnOrder(t).length, 0);
  return { samples: scored, unpredicted: total - scored.length };
}
