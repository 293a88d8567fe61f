import type { Level } from "../../agents/roles/agent-context.js";
import type { AssistantToolCall } from "../../agents/roles/dialogue.js";
import type { Plan } from "../../agents/roles/plan.js";
import { withoutArguments } from "../../agents/roles/toolbox.js";
import type { TesterStage, Verdict } from "../../agents/roles/verdict.js";
import type { HttpRequest } from "../../specs/call/http-request.js";
import type { ValidationIssue } from "../../specs/call/problem-details.js";
import type { ResponseSource } from "../../specs/call/tool-result.js";
import type { OperationRef } from "../../specs/catalog/tool.js";
import type { SimEvent } from "../core/events.js";
import { observationText } from "../core/observation-text.js";

/** One turn of a corpus dialogue, in chat-message form. */
export type CorpusTurn =
  | { role: "user"; content: string; request: number }
  | { role: "assistant"; content: string; thought?: string; toolCalls?: AssistantToolCall[]; giveUp?: true }
  | { role: "tool"; toolCallId: string; name: string; content: string };

/** One tool-use step: the thought behind it, the call with the operation and HTTP request it maps to, the observation. */
export interface CorpusStep {
  request: number;
  thought?: string;
  call: {
    id: string;
    name: string;
    arguments: AssistantToolCall["arguments"];
    toolset?: string;
    operation?: OperationRef;
    request?: HttpRequest;
    /** The arguments the harness filled in (credentials, as `<credential:NAME>` placeholders in `arguments`). */
    supplied?: string[];
  };
  /** Missing only when the journal holds no result for the call. */
  observation?: {
    status: number;
    body: unknown;
    source: ResponseSource;
    contentType?: string;
    /** Request validation errors, when the call was rejected. */
    errors?: ValidationIssue[];
    /** Response schema errors, when the body did not validate. */
    responseErrors?: ValidationIssue[];
  };
}

/** How one request of the dialogue ended. */
export interface CorpusAnswer {
  request: number;
  kind: "final" | "give-up";
  text: string;
}

/** Where an instance comes from. */
export interface CorpusMeta {
  runId: string;
  episodeId: string;
  index: number;
  seed: number;
  level: Level;
  outcome: "accepted" | "rejected" | "error";
  steps: number;
  calls: number;
}

/** One line of `corpus.jsonl`: an accepted episode as a training instance. */
export interface CorpusRecord {
  toolsets: string[];
  /** The user's instructions, one per request. */
  instructions: { request: number; text: string }[];
  dialogue: CorpusTurn[];
  steps: CorpusStep[];
  /** The final answers (and give-ups), one per request reached. */
  answers: CorpusAnswer[];
  /** The user's hidden goal (never shown to the assistant), kept for evaluation. */
  plan: Plan | null;
  verdict: Verdict | null;
  meta: CorpusMeta;
}

/** One line of `rejected.jsonl`: the same instance plus the first failed stage and its reasons. */
export interface RejectedRecord extends CorpusRecord {
  /** The first failed tester stage; `error` when the episode broke off before a verdict. */
  failedStage: TesterStage | "error";
  reasons: string[];
}

/**
 * Projects one finished episode's events (in seq order) onto its corpus instance. A pure function of the
 * events, so the run store can rebuild any line from the journal.
 */
export function projectEpisode(events: readonly SimEvent[]): CorpusRecord | RejectedRecord {
  let meta: CorpusMeta | undefined;
  let toolsets: string[] = [];
  let plan: Plan | null = null;
  let verdict: Verdict | null = null;
  let finishedReason: string | undefined;
  const instructions: CorpusRecord["instructions"] = [];
  const dialogue: CorpusTurn[] = [];
  const steps: CorpusStep[] = [];
  const answers: CorpusAnswer[] = [];
  const stepOfCall = new Map<string, CorpusStep>();
  let request = 0;
  let thought: string | undefined;
  /** The assistant turn that tool calls are appended to, while it is the last turn. */
  let callTurn: Extract<CorpusTurn, { role: "assistant" }> | undefined;

  const assistantTurn = (content: string, extra: { giveUp?: true } = {}): void => {
    dialogue.push({ role: "assistant", content, ...(thought !== undefined ? { thought } : {}), ...extra });
    thought = undefined;
  };

  for (const e of events) {
    switch (e.type) {
      case "episode.started":
        toolsets = [...e.toolsets];
        meta = { runId: e.runId, episodeId: e.episodeId, index: e.index, seed: e.seed, level: e.level, outcome: "error", steps: 0, calls: 0 };
        break;
      case "user.plan":
        plan = e.plan;
        break;
      case "user.instruction":
        request = e.request;
        instructions.push({ request: e.request, text: e.text });
        dialogue.push({ role: "user", content: e.text, request: e.request });
        break;
      case "user.reply":
        dialogue.push({ role: "user", content: e.text, request });
        break;
      case "assistant.thought":
        thought = e.text;
        break;
      case "tool.call": {
        if (!callTurn || dialogue[dialogue.length - 1] !== callTurn || thought !== undefined) {
          callTurn = { role: "assistant", content: "", ...(thought !== undefined ? { thought } : {}), toolCalls: [] };
          dialogue.push(callTurn);
          thought = undefined;
        }
        // The dialogue holds the call as the assistant made it: the arguments the harness filled in are the step's.
        callTurn.toolCalls?.push(e.supplied && e.supplied.length > 0 ? withoutArguments(e.call, e.supplied) : e.call);
        const step: CorpusStep = {
          request,
          ...(callTurn.thought !== undefined ? { thought: callTurn.thought } : {}),
          call: {
            id: e.call.id,
            name: e.call.name,
            arguments: e.call.arguments,
            ...(e.toolset !== undefined ? { toolset: e.toolset } : {}),
            ...(e.operation !== undefined ? { operation: e.operation } : {}),
            ...(e.request !== undefined ? { request: e.request } : {}),
            ...(e.supplied && e.supplied.length > 0 ? { supplied: e.supplied } : {}),
          },
        };
        steps.push(step);
        stepOfCall.set(e.call.id, step);
        break;
      }
      case "tool.result": {
        const r = e.result;
        // The text the assistant read (status and body, truncated when long); the step keeps the whole body.
        dialogue.push({ role: "tool", toolCallId: e.callId, name: e.name, content: observationText(r) });
        const step = stepOfCall.get(e.callId);
        if (step) {
          step.observation = {
            status: r.status,
            body: r.body,
            source: r.source,
            ...(r.contentType !== undefined ? { contentType: r.contentType } : {}),
            ...(r.errors.length > 0 ? { errors: r.errors } : {}),
            ...(r.responseErrors.length > 0 ? { responseErrors: r.responseErrors } : {}),
          };
          // Keep the call's operation and request when only the result knows them.
          if (step.call.operation === undefined && r.operation !== undefined) step.call.operation = r.operation;
          if (step.call.request === undefined && r.request !== undefined) step.call.request = r.request;
        }
        break;
      }
      case "assistant.question":
        assistantTurn(e.text);
        break;
      case "assistant.final":
        assistantTurn(e.text);
        answers.push({ request: e.request, kind: "final", text: e.text });
        break;
      case "assistant.gave-up":
        assistantTurn(e.reason, { giveUp: true });
        answers.push({ request: e.request, kind: "give-up", text: e.reason });
        break;
      case "tester.verdict":
        verdict = e.verdict;
        break;
      case "episode.finished":
        if (meta) {
          meta.outcome = e.outcome;
          meta.steps = e.steps;
          meta.calls = e.calls;
        }
        finishedReason = e.reason;
        break;
      case "llm.call":
        break;
    }
  }
  const first = events[0];
  meta ??= {
    runId: first?.runId ?? "",
    episodeId: first?.episodeId ?? "",
    index: -1,
    seed: 0,
    level: "call",
    outcome: "error",
    steps: 0,
    calls: 0,
  };
  const record: CorpusRecord = { toolsets, instructions, dialogue, steps, answers, plan, verdict, meta };
  if (meta.outcome === "accepted") return record;
  if (meta.outcome === "rejected" && verdict?.failedStage !== undefined) {
    const failedStage = verdict.failedStage;
    const reasons = verdict.stages.find((s) => s.stage === failedStage)?.reasons ?? [];
    return { ...record, failedStage, reasons };
  }
  return { ...record, failedStage: "error", reasons: [finishedReason ?? (verdict ? "rejected without a failed stage" : "the episode ended without a verdict")] };
}

/** True when a projected record belongs in `rejected.jsonl`. */
export function isRejected(record: CorpusRecord | RejectedRecord): record is RejectedRecord {
  return record.meta.outcome !== "accepted";
}
