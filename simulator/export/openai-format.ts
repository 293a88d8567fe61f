import type { AgentTool } from "../../agents/roles/roles.js";
import { chatMessages, type ConversationTurn } from "./conversation.js";
import { lineMeta, type EpisodeFormat, type ExportEpisode, type ResolvedExportOptions } from "./export-format.js";

/** A tool call in OpenAI's chat format: arguments are a JSON string. */
export interface OpenAIToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A message of OpenAI's chat fine-tuning format. */
export type OpenAIMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content?: string; tool_calls?: OpenAIToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

/** A tool in OpenAI's function form. */
export interface OpenAITool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** Call arguments as OpenAI writes them: a JSON string (raw text that never parsed stays as it was). */
export function argumentsString(args: Record<string, unknown> | string): string {
  return typeof args === "string" ? args : JSON.stringify(args);
}

/** The tools in OpenAI's function form. */
export function openaiTools(tools: readonly AgentTool[]): OpenAITool[] {
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

/**
 * The turns as OpenAI chat messages: user messages, assistant messages with `tool_calls` (their thought as the
 * content when thoughts are kept), one `tool` message per call answering its `tool_call_id`, and the assistant's
 * questions and answers (a give-up as `GIVE UP: reason`). Calls whose result never came (an episode that broke
 * off) are left out, so every `tool_call` has its `tool` message.
 */
export function openaiMessages(turns: readonly ConversationTurn[], options: Pick<ResolvedExportOptions, "system" | "thoughts">): OpenAIMessage[] {
  return chatMessages(turns, options, {
    toolCall: (c): OpenAIToolCall => ({ id: c.id, type: "function", function: { name: c.name, arguments: argumentsString(c.arguments) } }),
    result: (c): OpenAIMessage => ({ role: "tool", tool_call_id: c.id, content: c.result?.content ?? "" }),
  });
}

/**
 * OpenAI's chat fine-tuning JSONL: `{messages, tools}` per episode (`tools` left out when the episode had
 * none), as the fine-tuning API and most trainers (TRL, Axolotl, LLaMA-Factory's openai layout) read it.
 */
export const openaiFormat: EpisodeFormat = {
  name: "openai",
  lines(episode: ExportEpisode, options: ResolvedExportOptions) {
    const tools = openaiTools(episode.tools);
    return [
      {
        messages: openaiMessages(episode.turns, options),
        ...(tools.length > 0 ? { tools } : {}),
        ...(options.meta ? { meta: lineMeta(episode.record) } : {}),
      },
    ];
  },
};
