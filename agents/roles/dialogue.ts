import type { ToolResult } from "../../specs/call/tool-result.js";

/** A tool call made by the assistant: a call id, a tool name and arguments. */
export interface AssistantToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

/** One message of a dialogue, in a neutral form that maps onto chat-model messages. */
export type DialogueMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; thought?: string; toolCalls?: AssistantToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string; result: ToolResult };

/**
 * What the assistant does next. `thought`: a short sentence about the step (training text may keep it); `debug`:
 * the model's internals (which tools matched with which scores, where each argument came from), kept in the
 * journal's thought event for debugging and never in a dialogue, a corpus or an export.
 */
export type AssistantTurn =
  | { kind: "calls"; thought: string; debug?: string; calls: AssistantToolCall[] }
  | { kind: "question"; thought?: string; debug?: string; text: string; /** The arguments the question asks for, when the model says (the offline one does). */ asks?: string[] }
  | { kind: "final"; thought?: string; debug?: string; text: string }
  | { kind: "give-up"; thought?: string; debug?: string; reason: string };
