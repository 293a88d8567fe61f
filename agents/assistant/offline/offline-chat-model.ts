import { BaseChatModel, type BaseChatModelCallOptions, type BaseChatModelParams, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { convertToOpenAITool, isLangChainTool } from "@langchain/core/utils/function_calling";
import { isObject } from "../../../specs/json-object.js";
import { messageText } from "../dialogue-text.js";
import { decideOffline, OfflineToolboxes, type OfflineDecision, type OfflineToolSpec } from "./offline-decision.js";

export {
  decideOffline,
  humanize,
  OfflineToolboxes,
  rankToolsFor,
  type ChatMessageLike,
  type OfflineDecision,
  type OfflineIntent,
  type OfflineToolSpec,
} from "./offline-decision.js";

/*
 * The offline assistant as a LangChain chat model. The decision itself (how it reads the dialogue and chooses
 * a tool call, a question, an answer or a give-up) is in `offline-decision.ts`.
 */

/** Constructor fields of {@link OfflineChatModel}. */
export interface OfflineChatModelFields extends BaseChatModelParams {
  /** Tools known without `bindTools` (bound tools come first). */
  tools?: BindToolsInput[];
  /** Tool calls allowed per user request before answering with what it has (default 6). */
  maxCallsPerRequest?: number;
}

/** Call options of {@link OfflineChatModel}: the tools bound by `bindTools`. */
export interface OfflineChatModelCallOptions extends BaseChatModelCallOptions {
  tools?: BindToolsInput[];
}


/** Reads any tool form `bindTools` accepts (OpenAI tool, `{name, description, parameters}`, StructuredTool). */
export function toOfflineToolSpec(tool: BindToolsInput): OfflineToolSpec | undefined {
  if (!isObject(tool)) return undefined;
  let def: unknown = tool;
  if (isLangChainTool(tool)) def = convertToOpenAITool(tool);
  if (!isObject(def)) return undefined;
  const fn = isObject(def["function"]) ? def["function"] : def;
  const name = fn["name"];
  if (typeof name !== "string" || name === "") return undefined;
  const description = typeof fn["description"] === "string" ? fn["description"] : "";
  const rawParams = fn["parameters"] ?? fn["input_schema"] ?? fn["schema"];
  const parameters = isObject(rawParams) ? rawParams : { type: "object", properties: {} };
  return { name, description, parameters };
}
// ---------------------------------------------------------------------------------------------------------
// The chat model
// ---------------------------------------------------------------------------------------------------------

/**
 * The offline assistant as a LangChain chat model: deterministic, no network. Bind tools with `bindTools`
 * (OpenAI-form tools, `{name, description, parameters}` or StructuredTools) and invoke it with a message
 * history; it answers with an AIMessage carrying one tool call, a question, a final answer or a give-up
 * (`additional_kwargs.intent`), and its reasoning in `additional_kwargs.thought`.
 */
export class OfflineChatModel extends BaseChatModel<OfflineChatModelCallOptions> {
  readonly tools: BindToolsInput[];
  readonly maxCallsPerRequest: number;
  /** The model's caches, per list of tools: this model's own. */
  private readonly toolboxes = new OfflineToolboxes();

  static override lc_name(): string {
    return "OfflineChatModel";
  }

  constructor(fields: OfflineChatModelFields = {}) {
    const { tools, maxCallsPerRequest, ...rest } = fields;
    super(rest);
    this.tools = tools ?? [];
    this.maxCallsPerRequest = maxCallsPerRequest ?? 6;
  }

  _llmType(): string {
    return "toolsim-offline";
  }

  override get callKeys(): string[] {
    return [...super.callKeys, "tools"];
  }

  override bindTools(tools: BindToolsInput[], kwargs?: Partial<OfflineChatModelCallOptions>): Runnable<BaseLanguageModelInput, AIMessageChunk, OfflineChatModelCallOptions> {
    return this.withConfig({ ...kwargs, tools: [...(kwargs?.tools ?? []), ...tools] });
  }

  /** The decision for a message history with the given tools (what `_generate` wraps). */
  decide(messages: readonly BaseMessage[], tools: readonly BindToolsInput[] = []): OfflineDecision {
    const specs: OfflineToolSpec[] = [];
    const seen = new Set<string>();
    for (const t of [...tools, ...this.tools]) {
      const spec = toOfflineToolSpec(t);
      if (spec && !seen.has(spec.name)) {
        seen.add(spec.name);
        specs.push(spec);
      }
    }
    return decideOffline(messages, specs, { maxCallsPerRequest: this.maxCallsPerRequest, toolboxes: this.toolboxes });
  }

  /** The answer as an AIMessage without going through `invoke` (no callbacks): what `_generate` returns. */
  respond(messages: readonly BaseMessage[], tools: readonly BindToolsInput[] = []): AIMessage {
    const decision = this.decide(messages, tools);
    return new AIMessage({
      content: decision.text,
      additional_kwargs: { thought: decision.thought, ...(decision.debug !== undefined ? { debug: decision.debug } : {}), intent: decision.intent, ...(decision.asks ? { asks: decision.asks } : {}) },
      tool_calls: decision.calls.map((c) => ({ id: c.id, name: c.name, args: c.args, type: "tool_call" as const })),
      response_metadata: { model: "toolsim-offline", finish_reason: decision.intent === "call" ? "tool_calls" : "stop" },
    });
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const message = this.respond(messages, options.tools ?? []);
    return { generations: [{ text: messageText(message), message }] };
  }
}
