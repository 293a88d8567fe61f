import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { ToolResult } from "../../specs/call/tool-result.js";
import type { AssistantToolCall, DialogueMessage } from "../roles/dialogue.js";
import { argumentsFromObject, argumentsObject, messageText, parseToolResultText, toolResultText, type ToolResultTextOptions } from "./dialogue-text.js";
import { isObject } from "../../specs/json-object.js";

export {
  argumentsFromObject,
  argumentsObject,
  GIVE_UP_PREFIX,
  messageText,
  parseToolResultText,
  RAW_ARGUMENTS_KEY,
  toolResultText,
  type ToolResultTextOptions,
} from "./dialogue-text.js";

/** Options of {@link toLangChainMessages}. */
export interface ToLangChainOptions {
  /** A system message put first. */
  system?: string;
  toolResult?: ToolResultTextOptions;
}

/** Converts a neutral dialogue into LangChain messages (system prompt first when given). */
export function toLangChainMessages(dialogue: readonly DialogueMessage[], options: ToLangChainOptions = {}): BaseMessage[] {
  const out: BaseMessage[] = [];
  if (options.system !== undefined && options.system !== "") out.push(new SystemMessage(options.system));
  for (const m of dialogue) {
    if (m.role === "user") out.push(new HumanMessage(m.content));
    else if (m.role === "assistant") {
      const calls = m.toolCalls ?? [];
      out.push(
        new AIMessage({
          content: m.content,
          ...(m.thought !== undefined ? { additional_kwargs: { thought: m.thought } } : {}),
          ...(calls.length > 0
            ? { tool_calls: calls.map((c) => ({ id: c.id, name: c.name, args: argumentsObject(c.arguments), type: "tool_call" as const })) }
            : {}),
        }),
      );
    } else {
      out.push(
        new ToolMessage({
          content: toolResultText(m.result, options.toolResult),
          tool_call_id: m.toolCallId,
          name: m.name,
          status: m.result.status >= 400 ? "error" : "success",
          artifact: m.result,
        }),
      );
    }
  }
  return out;
}

function isToolResult(v: unknown): v is ToolResult {
  return isObject(v) && typeof v["status"] === "number" && Array.isArray(v["errors"]) && typeof v["tool"] === "string";
}

/** Converts LangChain messages back into the neutral dialogue (system messages are dropped). */
export function fromLangChainMessages(messages: readonly BaseMessage[]): DialogueMessage[] {
  const out: DialogueMessage[] = [];
  for (const m of messages) {
    const type = m.type;
    const text = messageText(m);
    if (type === "human") out.push({ role: "user", content: text });
    else if (type === "ai") {
      const ai = m as AIMessage;
      const thought = ai.additional_kwargs["thought"];
      const calls: AssistantToolCall[] = (ai.tool_calls ?? []).map((c, i) => ({
        id: c.id ?? `call_${i + 1}`,
        name: c.name,
        arguments: argumentsFromObject(c.args),
      }));
      out.push({
        role: "assistant",
        content: text,
        ...(typeof thought === "string" ? { thought } : {}),
        ...(calls.length > 0 ? { toolCalls: calls } : {}),
      });
    } else if (type === "tool") {
      const tm = m as ToolMessage;
      const name = tm.name ?? "";
      let result: ToolResult;
      if (isToolResult(tm.artifact)) result = tm.artifact;
      else {
        const parsed = parseToolResultText(text);
        result = { tool: name, status: parsed.status, body: parsed.body, errors: [], responseErrors: [], source: "replay", notes: [] };
      }
      out.push({ role: "tool", toolCallId: tm.tool_call_id, name, content: text, result });
    }
  }
  return out;
}
