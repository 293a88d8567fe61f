import type { AssistantToolCall } from "../../agents/roles/dialogue.js";
import type { Level } from "../../agents/roles/agent-context.js";
import type { Plan } from "../../agents/roles/plan.js";
import type { Verdict } from "../../agents/roles/verdict.js";
import type { HttpRequest } from "../../specs/call/http-request.js";
import type { ToolResult } from "../../specs/call/tool-result.js";
import type { OperationRef } from "../../specs/catalog/tool.js";

/** Who sends or receives an event. */
export type Party = "user" | "assistant" | "executor" | "tester" | "simulator";

/** The fields every event carries. */
export interface EventHeader {
  runId: string;
  episodeId: string;
  /** Position of the event within its episode, from 0. */
  seq: number;
  /** ISO time; the only field allowed to differ between two runs of the same seed. */
  at: string;
  from: Party;
  to: Party;
}

/** The operation a call maps to, carried on the wire so any OpenAPI tool can check it. */
export interface CallTarget {
  toolset?: string;
  operation?: OperationRef;
  request?: HttpRequest;
}

/** Token and call accounting of one model call. */
export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
}

/** The payload of each event type, keyed by type (`noun.verb`). */
export interface EventPayloads {
  "episode.started": { index: number; seed: number; level: Level; toolsets: string[] };
  "user.plan": { plan: Plan };
  "user.instruction": { request: number; text: string };
  /** The assistant's thought about its next step; `debug`: its internals (scores, matches), never exported as training text. */
  "assistant.thought": { text: string; debug?: string };
  /** `supplied`: the arguments the harness filled in (credentials, published as `<credential:NAME>` placeholders). */
  "tool.call": { call: AssistantToolCall; supplied?: string[] } & CallTarget;
  "tool.result": { callId: string; name: string; result: ToolResult };
  "assistant.question": { text: string };
  "user.reply": { text: string };
  "assistant.final": { request: number; text: string };
  "assistant.gave-up": { request: number; reason: string };
  "tester.verdict": { verdict: Verdict };
  "llm.call": {
    role: Party;
    model: string;
    usage: LlmUsage;
    /** Cost in USD from the price table (0 for local or unknown models). */
    cost: number;
    /** Wall time of the call (a time: may differ between a run and its replay). */
    durationMs: number;
    /** Answered from a consistency cache instead of the model. */
    cached: boolean;
    error?: string;
  };
  "episode.finished": {
    outcome: "accepted" | "rejected" | "error";
    reason?: string;
    steps: number;
    calls: number;
  };
}

/** The type names of all events. */
export type SimEventType = keyof EventPayloads;

/** One event on the bus: the one discriminated union of toolsim. */
export type SimEvent = { [K in SimEventType]: EventHeader & { type: K } & EventPayloads[K] }[SimEventType];

/** The event of one type. */
export type SimEventOf<K extends SimEventType> = Extract<SimEvent, { type: K }>;

/** Every event type, in the order they usually appear. */
export const EVENT_TYPES: readonly SimEventType[] = [
  "episode.started", "user.plan", "user.instruction", "assistant.thought", "tool.call", "tool.result",
  "assistant.question", "user.reply", "assistant.final", "assistant.gave-up", "tester.verdict", "llm.call", "episode.finished",
];
