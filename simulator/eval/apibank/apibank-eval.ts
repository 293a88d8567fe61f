import type { AgentContext } from "../../../agents/roles/agent-context.js";
import type { AssistantTurn, DialogueMessage } from "../../../agents/roles/dialogue.js";
import { EpisodeState } from "../../../agents/roles/episode-state.js";
import type { AssistantAgent } from "../../../agents/roles/roles.js";
import { Toolbox, type EpisodeToolset } from "../../../agents/roles/toolbox.js";
import type { ResourceStore } from "../../../specs/respond/resource-store.js";
import { createRng, deriveSeed } from "../../../specs/seed.js";
import { stableStringify } from "../../../specs/stable-stringify.js";
import type { ToolResult } from "../../../specs/call/tool-result.js";
import { parseArguments } from "../../../specs/call/validate-call.js";
import { repairArguments, sameOutput } from "../tasks/gold-replay.js";
import { observationText } from "../../core/observation-text.js";
import { rougeL } from "../rouge.js";
import type { Task } from "../tasks/task-set.js";
import type { TaskWorld, TaskWorlds } from "../tasks/task-toolsets.js";
import { pinToRecording, RANDOM_OUTPUT_APIS } from "../../../toolsets/apibank/apibank-records.js";
import { foundApiNames } from "../../../toolsets/apibank/tool-searcher.js";
import { apiBankAgreement, goldRecord, recordOfResult } from "./apibank-agreement.js";

/*
 * API-Bank's evaluation of an assistant on dialogues (its level-1 protocol), with the state carried through the
 * dialogue: at every gold API call the assistant sees the dialogue so far (the gold turns, earlier gold calls with
 * their simulated results) and makes its call; the call is executed on a copy of the state and is correct when it
 * names the gold API and gives the same result and the same state as the gold call (API-Bank's "same database
 * queries or modifications and same returned results"). The gold call then moves the state on. At every gold
 * response that follows an API call, the assistant answers and is scored with ROUGE-L.
 */

/** API-Bank's error taxonomy (its six types), plus `wrong-result` for a valid call with another result or effect. */
export type ApiBankError =
  | "no-api-call"
  | "api-hallucination"
  | "invalid-input-parameters"
  | "false-call-format"
  | "missing-input-parameters"
  | "has-exception"
  | "wrong-result";

/** Every error type, in report order. */
export const APIBANK_ERRORS: readonly ApiBankError[] = ["no-api-call", "api-hallucination", "invalid-input-parameters", "false-call-format", "missing-input-parameters", "has-exception", "wrong-result"];

/** One scored API call. */
export interface ApiSample {
  kind: "api";
  task: string;
  turn: number;
  gold: { name: string; arguments: Record<string, unknown> };
  predicted?: { name: string; arguments: unknown };
  correct: boolean;
  error?: ApiBankError;
  detail?: string;
}

/** One scored response. */
export interface ResponseSample {
  kind: "response";
  task: string;
  turn: number;
  gold: string;
  predicted: string;
  rougeL: number;
}

/** A scored sample. */
export type EvalSample = ApiSample | ResponseSample;

/** The scores of an evaluation. */
export interface ApiBankScores {
  tasks: number;
  apiCalls: number;
  correct: number;
  /** correct / apiCalls (API-Bank's "Correctness"). */
  accuracy: number;
  responses: number;
  /** Mean ROUGE-L F1 of the responses. */
  rougeL: number;
  errors: Record<ApiBankError, number>;
  /** Tasks whose every API call is correct / tasks. */
  passRate: number;
}

/** The first call of a turn and whether its arguments parse. */
function firstCall(turn: AssistantTurn): { name: string; arguments: unknown } | undefined {
  return turn.kind === "calls" ? turn.calls[0] : undefined;
}

/**
 * Classifies a predicted call against the gold one, given both results (each on its own copy of the state) and
 * whether the two states ended equal.
 */
export function classifyPrediction(
  gold: { name: string },
  predicted: { name: string; arguments: unknown } | undefined,
  got: ToolResult | undefined,
  expected: ToolResult,
  sameState: boolean,
): { correct: boolean; error?: ApiBankError; detail?: string } {
  if (!predicted || !got) return { correct: false, error: "no-api-call" };
  if (!parseArguments(predicted.arguments).ok) return { correct: false, error: "false-call-format", detail: String(predicted.arguments).slice(0, 200) };
  if (predicted.name !== gold.name) return { correct: false, error: "api-hallucination", detail: `${predicted.name} vs ${gold.name}` };
  if (got.source === "validation" || got.source === "route") {
    const missing = got.errors.filter((e) => e.code === "required");
    const detail = got.errors.map((e) => `${e.location.join(".")} ${e.message}`).join("; ");
    return { correct: false, error: missing.length > 0 ? "missing-input-parameters" : "invalid-input-parameters", detail };
  }
  const bodyEqual = sameOutput(got.body, expected.body) && got.status === expected.status;
  if (got.status >= 400 && !(expected.status >= 400 && bodyEqual)) return { correct: false, error: "has-exception", detail: stableStringify(got.body).slice(0, 200) };
  if (bodyEqual && sameState) return { correct: true };
  return { correct: false, error: "wrong-result", detail: bodyEqual ? "same result, different state" : `${stableStringify(got.body).slice(0, 120)} vs ${stableStringify(expected.body).slice(0, 120)}` };
}

/** Scores samples: accuracy, mean ROUGE-L, error counts and the share of tasks with every call correct. */
export function scoreSamples(samples: readonly EvalSample[]): ApiBankScores {
  const errors = Object.fromEntries(APIBANK_ERRORS.map((e) => [e, 0])) as Record<ApiBankError, number>;
  const tasks = new Map<string, boolean>();
  let apiCalls = 0;
  let correct = 0;
  let responses = 0;
  let rouge = 0;
  for (const s of samples) {
    if (!tasks.has(s.task)) tasks.set(s.task, true);
    if (s.kind === "api") {
      apiCalls++;
      if (s.correct) correct++;
      else {
        tasks.set(s.task, false);
        if (s.error) errors[s.error]++;
      }
    } else {
      responses++;
      rouge += s.rougeL;
    }
  }
  const passed = [...tasks.values()].filter(Boolean).length;
  return {
    tasks: tasks.size,
    apiCalls,
    correct,
    accuracy: apiCalls === 0 ? 0 : correct / apiCalls,
    responses,
    rougeL: responses === 0 ? 0 : rouge / responses,
    errors,
    passRate: tasks.size === 0 ? 0 : passed / tasks.size,
  };
}

/** An episode state over copies of given stores (the branch a prediction is tried on). */
class BranchState extends EpisodeState {
  constructor(private readonly copies: Map<string, ResourceStore>) {
    super([]);
  }
  override store(toolset: string): ResourceStore {
    const s = this.copies.get(toolset);
    if (s) return s;
    return super.store(toolset);
  }
}

function branch(state: EpisodeState, toolset: string, calls: number): BranchState {
  const b = new BranchState(new Map([[toolset, state.store(toolset).clone()]]));
  b.calls = calls;
  return b;
}

/** Options of {@link evaluateAssistantOnTasks}. */
export interface TaskEvalOptions {
  /** The assistant of a task (one per task: LLM agents bind their model to it). */
  assistantFor: (task: Task, index: number) => AssistantAgent;
  seed?: number;
  /** Sees each task's samples when it is done. */
  onTask?: (task: Task, samples: EvalSample[]) => void;
}

/**
 * A predicted call's arguments as API-Bank's ToolManager converts them before calling (`'3'` for an int, a
 * list written as its Python text); other worlds get them as given.
 */
export function apiBankConverted(world: TaskWorld, toolset: EpisodeToolset, call: { name: string; arguments: unknown }): Record<string, unknown> | string {
  const tool = toolset.catalog.get(call.name);
  const args = parseArguments(call.arguments);
  if (!world.apibank || !tool || !args.ok) return call.arguments as Record<string, unknown> | string;
  return repairArguments(toolset, tool, args.value, { renames: false }).args;
}

/** Evaluates an assistant on dialogue tasks with API-Bank's per-turn protocol (see the module comment). */
export async function evaluateAssistantOnTasks(tasks: readonly Task[], worlds: TaskWorlds, options: TaskEvalOptions): Promise<EvalSample[]> {
  const all: EvalSample[] = [];
  const seed = options.seed ?? 1;
  for (const [index, task] of tasks.entries()) {
    const samples: EvalSample[] = [];
    const world = await worlds.get(task.toolset);
    const toolset: EpisodeToolset = world.toolset;
    const toolbox = Toolbox.for([toolset]);
    const offered = new Set(task.apis ?? task.goldCalls.map((c) => c.name));
    const toolsNow = (): ReturnType<Toolbox["tools"]> => toolbox.tools().filter((t) => offered.has(t.name));
    const taskSeed = deriveSeed(seed, task.id);
    const ctxFor = (role: string): AgentContext => ({ runId: "eval", episodeId: task.id, index, seed: taskSeed, rng: createRng(deriveSeed(taskSeed, role)), level: "call", toolbox });
    const executorCtx = ctxFor("executor");
    const assistantCtx = ctxFor("assistant");
    const assistant = options.assistantFor(task, index);
    const state = new EpisodeState([toolset]);
    const dialogue: DialogueMessage[] = [];
    let callNo = 0;
    const step = async (): Promise<AssistantTurn | { kind: "error"; reason: string }> => {
      try {
        return await assistant.step(dialogue, toolsNow(), assistantCtx);
      } catch (e) {
        return { kind: "error", reason: e instanceof Error ? e.message : String(e) };
      }
    };
    for (const [i, turn] of task.turns.entries()) {
      if (turn.role === "user") {
        dialogue.push({ role: "user", content: turn.text });
        continue;
      }
      if (turn.role === "assistant") {
        if (task.turns[i - 1]?.role === "api") {
          const t = await step();
          const predicted = t.kind === "final" || t.kind === "question" ? t.text : t.kind === "give-up" ? t.reason : "";
          samples.push({ kind: "response", task: task.id, turn: i, gold: turn.text, predicted, rougeL: rougeL(predicted, turn.text).f1 });
        }
        dialogue.push({ role: "assistant", content: turn.text });
        continue;
      }
      // A gold API call: the assistant predicts it on a branch; the gold call moves the state on.
      const tool = toolset.catalog.get(turn.name);
      const goldArgs = tool ? repairArguments(toolset, tool, turn.arguments).args : turn.arguments;
      const t = await step();
      const predicted = t.kind === "calls" ? firstCall(t) : undefined;
      const goldBranch = branch(state, toolset.name, state.calls);
      const goldCall = { id: `gold_${++callNo}`, name: turn.name, arguments: goldArgs };
      const expected = await world.executor.execute(goldCall, goldBranch, executorCtx);
      let got: ToolResult | undefined;
      let sameState = false;
      if (predicted) {
        const predBranch = branch(state, toolset.name, state.calls);
        got = await world.executor.execute({ id: `pred_${callNo}`, name: predicted.name, arguments: apiBankConverted(world, toolset, predicted) }, predBranch, executorCtx);
        sameState = stableStringify(predBranch.store(toolset.name).snapshot()) === stableStringify(goldBranch.store(toolset.name).snapshot());
      }
      let verdict = classifyPrediction(turn, predicted, got, expected, sameState);
      if (world.apibank && predicted && got && predicted.name === turn.name && (verdict.error === "wrong-result" || verdict.correct)) {
        // API-Bank's own judgement: the API's check against the recorded result, or against the gold call replayed here.
        const ours = recordOfResult(world.apibank.set, turn.name, got, {});
        const refs = [...(turn.output !== undefined ? [goldRecord(turn.name, turn)] : []), ...[recordOfResult(world.apibank.set, turn.name, expected, goldArgs)].filter((r) => r !== undefined)];
        const agree = ours !== undefined && refs.some((ref) => apiBankAgreement(world.apibank!.set, turn.name, ours, ref, "predict").agree);
        verdict = agree ? { correct: true } : { correct: false, error: "wrong-result", detail: verdict.detail ?? "the API's check fails" };
      }
      samples.push({
        kind: "api",
        task: task.id,
        turn: i,
        gold: { name: turn.name, arguments: goldArgs },
        ...(predicted ? { predicted: { name: predicted.name, arguments: predicted.arguments } } : {}),
        ...verdict,
        ...(t.kind === "error" ? { detail: `assistant error: ${t.reason}` } : {}),
      });
      // Carry the gold call's effect (executed again on the episode's own state, so its counter moves too).
      const result = await world.executor.execute(goldCall, state, executorCtx);
      if (world.apibank && RANDOM_OUTPUT_APIS.has(turn.name) && turn.output !== undefined && result.status < 300) pinToRecording(turn.name, state.store(toolset.name), result.body, turn.output);
      if (turn.name === "ToolSearcher") for (const name of foundApiNames(result.body)) offered.add(name);
      dialogue.push({ role: "assistant", content: "", toolCalls: [goldCall] });
      dialogue.push({ role: "tool", toolCallId: goldCall.id, name: goldCall.name, content: observationText(result), result });
    }
    options.onTask?.(task, samples);
    all.push(...samples);
  }
  return all;
}
