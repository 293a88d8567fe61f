import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatOpenAI } from "@langchain/openai";
import { ToolsimError } from "../specs/toolsim-error.js";
import { DEFAULT_OPENAI_BASE_URL, type ModelSpec } from "./model-spec.js";
import { OfflineChatModel } from "./offline-chat-model.js";

/** Options of {@link createChatModel}. */
export interface CreateChatModelOptions {
  /**
   * Retries inside the client (default 0: the gateway owns the one retry policy; give a number when the
   * model is used without a gateway).
   */
  clientRetries?: number;
}

/**
 * The LangChain chat model of a spec: the offline model, or `ChatOpenAI` pointed at the spec's base URL
 * with its key, temperature, max tokens and timeout.
 */
export function createChatModel(spec: ModelSpec, options: CreateChatModelOptions = {}): BaseChatModel {
  if (spec.provider === "offline") return new OfflineChatModel();
  if (spec.apiKey === undefined) {
    throw new ToolsimError("model.missing-key", `no API key for ${spec.baseURL ?? DEFAULT_OPENAI_BASE_URL}: set OPENAI_API_KEY or --api-key-env NAME`);
  }
  return new ChatOpenAI({
    model: spec.model,
    apiKey: spec.apiKey,
    configuration: { baseURL: spec.baseURL ?? DEFAULT_OPENAI_BASE_URL },
    ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
    ...(spec.maxTokens !== undefined ? { maxTokens: spec.maxTokens } : {}),
    timeout: spec.timeoutMs,
    maxRetries: options.clientRetries ?? 0,
  });
}
