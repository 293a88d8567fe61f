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

/** What the assistant does next. */
export type AssistantTurn =
  | { kind: "calls"; thought: string; calls: AssistantToolCall[] }
  | { kind: "question"; thought?: string; text: string; /** The arguments the question asks for, when the model says (the offline one does). */ asks?: string[] }
  | { kind: "final"; thought?: string; text: string }
  | { kind: "give-up"; thought?: string; reason: string };
