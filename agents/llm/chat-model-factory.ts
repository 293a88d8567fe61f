import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatOpenAI } from "@langchain/openai";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { DEFAULT_OPENAI_BASE_URL, redactUrl, type ModelSpec } from "./model-spec.js";
import { OfflineChatModel } from "../assistant/offline/offline-chat-model.js";

/** Options of {@link createChatModel}. */
export interface CreateChatModelOptions {
  /**
   * Retries inside the client (default 0: the gateway owns the one retry policy; give a number when the
   * model is used without a gateway).
   */
  clientRetries?: number;
}

/** A base URL split for the OpenAI client: the URL up to its path, and its query parameters (absent when it has none). */
export interface SplitBaseUrl {
  baseURL: string;
  query?: Record<string, string>;
}

/**
 * Splits a base URL's query off (a fragment is dropped): the OpenAI client appends the request path to the
 * base URL as text, so `https://host/openai?api-version=2024-06-01` would become
 * `https://host/openai?api-version=2024-06-01/chat/completions`. The query goes to the client's
 * `defaultQuery` instead, which it adds to every request. A parameter given twice keeps its last value.
 */
export function splitBaseUrl(url: string): SplitBaseUrl {
  const hash = url.indexOf("#");
  const withoutHash = hash < 0 ? url : url.slice(0, hash);
  const q = withoutHash.indexOf("?");
  if (q < 0) return { baseURL: withoutHash };
  const baseURL = withoutHash.slice(0, q).replace(/\/+$/, "");
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(withoutHash.slice(q + 1))) query[name] = value;
  return Object.keys(query).length > 0 ? { baseURL, query } : { baseURL };
}

/** The URL of an endpoint path under a base URL (`/models`), with the base URL's query kept after the path. */
export function endpointUrl(baseURL: string, path: string): string {
  const split = splitBaseUrl(baseURL);
  const url = `${split.baseURL}${path.startsWith("/") ? path : `/${path}`}`;
  return split.query ? `${url}?${new URLSearchParams(split.query).toString()}` : url;
}

/**
 * The LangChain chat model of a spec: the offline model, or `ChatOpenAI` pointed at the spec's base URL
 * with its key, temperature, max tokens and timeout. A query in the base URL (Azure-style `?api-version=...`)
 * is sent with every request through the client's `defaultQuery`.
 */
export function createChatModel(spec: ModelSpec, options: CreateChatModelOptions = {}): BaseChatModel {
  if (spec.provider === "offline") return new OfflineChatModel();
  if (spec.apiKey === undefined) {
    throw new ToolsimError("model.missing-key", `no API key for ${redactUrl(spec.baseURL ?? DEFAULT_OPENAI_BASE_URL)}: set OPENAI_API_KEY or --api-key-env NAME`);
  }
  const { baseURL, query } = splitBaseUrl(spec.baseURL ?? DEFAULT_OPENAI_BASE_URL);
  return new ChatOpenAI({
    model: spec.model,
    apiKey: spec.apiKey,
    configuration: { baseURL, ...(query ? { defaultQuery: query } : {}) },
    ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
    ...(spec.maxTokens !== undefined ? { maxTokens: spec.maxTokens } : {}),
    timeout: spec.timeoutMs,
    maxRetries: options.clientRetries ?? 0,
  });
}
