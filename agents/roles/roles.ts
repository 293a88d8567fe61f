import type { ToolResult } from "../../specs/call/tool-result.js";
import type { AgentContext } from "./agent-context.js";
import type { AssistantToolCall, AssistantTurn, DialogueMessage } from "./dialogue.js";
import type { EpisodeState } from "./episode-state.js";
import type { Plan } from "./plan.js";
import type { Verdict } from "./verdict.js";
import type { AgentTool } from "./agent-tool.js";

export type { AgentTool };


/** What the user agent knows when it speaks: its plan, which request it is on, and the dialogue so far. */
export interface UserTurn {
  plan: Plan;
  request: number;
  dialogue: readonly DialogueMessage[];
  /** When answering a question: the arguments the assistant said it asks for (its names), if it said. */
  asks?: readonly string[];
}

/** The user: has a hidden goal, states it, and answers the assistant's questions consistently with it. */
export interface UserAgent {
  plan(ctx: AgentContext): Promise<Plan>;
  instruct(turn: UserTurn, ctx: AgentContext): Promise<string>;
  reply(question: string, turn: UserTurn, ctx: AgentContext): Promise<string>;
}

/** The assistant under simulation: calls tools, asks, answers or gives up. It never sees the plan. */
export interface AssistantAgent {
  step(dialogue: readonly DialogueMessage[], tools: readonly AgentTool[], ctx: AgentContext): Promise<AssistantTurn>;
}

/** The tool executor: answers a tool call against the episode's state. */
export interface ToolExecutor {
  execute(call: AssistantToolCall, state: EpisodeState, ctx: AgentContext): Promise<ToolResult>;
}

/** One tool call with its result, as the tester reads it. */
export interface CallRecord {
  /** The call as executed, with the toolset's credentials as `<credential:NAME>` placeholders (see `CredentialMask`). */
  call: AssistantToolCall;
  result: ToolResult;
  /** Index of the user request it served. */
  request: number;
  /** The toolset that served it (undefined for unknown tools). */
  toolset?: string;
  /** Arguments the harness filled into the call (credentials, see `ToolboxEntry.credentials`), not the assistant. */
  supplied?: string[];
}

/** How an episode ended. */
export type EpisodeEnd =
  | { kind: "final"; text: string }
  | { kind: "give-up"; reason: string }
  | { kind: "budget"; reason: string }
  | { kind: "error"; reason: string };

/** Everything the tester judges: the hidden plan, the dialogue, the calls and how it ended (per request). */
export interface EpisodeTranscript {
  plan: Plan;
  dialogue: readonly DialogueMessage[];
  calls: readonly CallRecord[];
  /** One end per request of the plan that was reached. */
  ends: readonly EpisodeEnd[];
}

/** The tester: judges an episode in stages; rejected episodes carry reasons. */
export interface Tester {
  judge(episode: EpisodeTranscript, ctx: AgentContext): Promise<Verdict>;
}
