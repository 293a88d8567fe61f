import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import { BaseChatModel, type BaseChatModelCallOptions, type BaseChatModelParams, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { AIMessageChunk, BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { createRng, type Rng } from "../../specs/seed.js";
import { ToolsimError } from "../../specs/toolsim-error.js";
import {
  type Cassette,
  type CassetteEntry,
  type CassetteUsage,
  messageFromResponse,
  normalizeRequest,
  redactText,
  requestKey,
  responseFromMessage,
} from "./cassette.js";
import { createChatModel } from "./chat-model-factory.js";
import { endpointOf, MODEL_DEFAULTS, urlSecrets, type ModelSpec } from "./model-spec.js";
import { EndpointLimiter, EndpointLimits, sharedEndpointLimits, sleep, type BackoffOptions, type EndpointLimit, type Sleep } from "./endpoint-limits.js";
import { classify, CODE_OF, messageOf, type Failure } from "./llm-failures.js";
import type { Json } from "../../specs/json-object.js";

export { EndpointLimiter, EndpointLimits, sharedEndpointLimits, sleep, type BackoffOptions, type EndpointLimit, type Sleep };

/*
 * The gateway every LLM call of a run goes through. One `GatewayChatModel` wraps one inner chat model
 * (ChatOpenAI by default) and, per call:
 *   1. computes the cache key from the normalized request (never the key or the base URL);
 *   2. in replay mode answers from the cassette;
 *   3. otherwise waits for its endpoint (a concurrency cap and a requests-per-minute budget shared by every
 *      gateway on the same base URL), calls the inner model with a per-attempt timeout, and retries 429s
 *      (after Retry-After), 5xx, timeouts, connection errors and malformed bodies with exponential backoff
 *      and seeded jitter; the inner model's own retries are 0, so there is one retry policy;
 *   4. records usage and duration, appends to the cassette in record mode, and reports the call to `onCall`.
 * Failures become `ToolsimError`s with an `llm.*` code, so an episode can end with a reason.
 */

/** The role an LLM call is made for (accounting per role). */
export type LlmRole = "user" | "assistant" | "executor" | "tester";

/** What the gateway does with the cassette: nothing, record every call, or answer from it. */
export type CassetteMode = "off" | "record" | "replay";

/** One LLM call as reported to `onCall` (the simulator's `llm.call` event and accounting). */
export interface LlmCallRecord {
  role: LlmRole;
  model: string;
  usage: CassetteUsage;
  /** Wall time of the call: waiting for the endpoint, every attempt and every backoff. */
  durationMs: number;
  /** Answered from the cassette (no endpoint call). */
  cached: boolean;
  /** Attempts made against the endpoint (0 when cached). */
  attempts: number;
  /** The cache key of the request. */
  key: string;
  episodeId?: string;
  /** Why the call failed (the ToolsimError message), when it did. */
  error?: string;
  /** The `llm.*` code of the failure. */
  errorCode?: string;
}


/** Call options of {@link GatewayChatModel}: the inner model's options plus the episode and role of the call. */
export interface GatewayCallOptions extends BaseChatModelCallOptions {
  /** Tools bound with `bindTools` (passed to the inner model). */
  tools?: BindToolsInput[];
  /** OpenAI's `response_format` (e.g. `{type: "json_object"}`), passed to the inner model. */
  response_format?: unknown;
  /** The episode the call belongs to (cassette lookup and accounting); overrides the gateway's. */
  episodeId?: string;
  /** The role the call is made for; overrides the gateway's. */
  role?: LlmRole;
}

/** Options of {@link GatewayChatModel}. */
export interface GatewayOptions extends BaseChatModelParams {
  /** The model spec: the inner model (`createChatModel(spec)`), the endpoint and the call settings. */
  spec?: ModelSpec;
  /** The inner model (default `createChatModel(spec)`, made on the first live call). */
  inner?: BaseChatModel;
  /** The model name in the cache key and reports (default the spec's, else the inner model's `model`). */
  model?: string;
  /** The endpoint the calls are limited against (default the spec's base URL). */
  endpoint?: string;
  /** The role of the calls (default `assistant`). */
  role?: LlmRole;
  /** The episode of the calls (usually set per episode with {@link GatewayChatModel.scoped}). */
  episodeId?: string;
  timeoutMs?: number;
  retries?: number;
  concurrency?: number;
  requestsPerMinute?: number;
  /** Temperature and max tokens of the inner model, for the cache key (default the spec's). */
  temperature?: number;
  maxTokens?: number;
  backoff?: Partial<BackoffOptions>;
  /** Seed of the backoff jitter. */
  seed?: number;
  mode?: CassetteMode;
  cassette?: Cassette;
  /** In replay mode, call the endpoint when the cassette has no answer (and record it) instead of failing. */
  replayFallback?: boolean;
  /** Where endpoint limiters live (default {@link sharedEndpointLimits}). */
  limits?: EndpointLimits;
  /** Sees every call: success, failure or cassette answer. */
  onCall?: (record: LlmCallRecord) => void;
  /** Injectable timers and clock (tests). */
  sleep?: Sleep;
  now?: () => number;
}

/** Counters of a gateway (shared by its scoped copies). */
export interface GatewayStats {
  calls: number;
  cached: number;
  failed: number;
  /** Attempts beyond the first, over all calls. */
  retries: number;
  promptTokens: number;
  completionTokens: number;
}

type LiveOutcome = { ok: true; message: BaseMessage; attempts: number } | { ok: false; error: ToolsimError; attempts: number };

/** The state the scoped copies of a gateway share: the inner model, the gate, the cassette and the counters. */
class GatewayCore {
  private innerModel: BaseChatModel | undefined;
  readonly model: string;
  readonly endpoint: string;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly limit: EndpointLimit;
  readonly backoff: BackoffOptions;
  readonly mode: CassetteMode;
  readonly cassette: Cassette | undefined;
  readonly replayFallback: boolean;
  readonly limits: EndpointLimits;
  readonly temperature: number | undefined;
  readonly maxTokens: number | undefined;
  readonly secrets: string[];
  readonly sleep: Sleep;
  readonly now: () => number;
  readonly rng: Rng;
  readonly stats: GatewayStats = { calls: 0, cached: 0, failed: 0, retries: 0, promptTokens: 0, completionTokens: 0 };
  private readonly occurrences = new Map<string, Map<string, number>>();
  private limiterCache: EndpointLimiter | undefined;

  constructor(private readonly options: GatewayOptions) {
    const spec = options.spec;
    this.innerModel = options.inner;
    const innerFields = (options.inner ?? {}) as { model?: unknown; temperature?: unknown; maxTokens?: unknown };
    this.model = options.model ?? spec?.model ?? (typeof innerFields.model === "string" ? innerFields.model : (options.inner?._llmType() ?? "unknown"));
    this.endpoint = options.endpoint ?? (spec ? endpointOf(spec) : `model:${this.model}`);
    this.timeoutMs = options.timeoutMs ?? spec?.timeoutMs ?? MODEL_DEFAULTS.timeoutMs;
    this.retries = options.retries ?? spec?.retries ?? MODEL_DEFAULTS.retries;
    const rpm = options.requestsPerMinute ?? spec?.requestsPerMinute;
    this.limit = { concurrency: options.concurrency ?? spec?.concurrency ?? MODEL_DEFAULTS.concurrency, ...(rpm !== undefined ? { requestsPerMinute: rpm } : {}) };
    this.backoff = { baseMs: 500, maxMs: 30_000, maxRetryAfterMs: 60_000, ...options.backoff };
    this.mode = options.mode ?? "off";
    this.cassette = options.cassette;
    this.replayFallback = options.replayFallback ?? false;
    this.limits = options.limits ?? sharedEndpointLimits;
    const t = options.temperature ?? spec?.temperature ?? innerFields.temperature;
    this.temperature = typeof t === "number" ? t : undefined;
    const mt = options.maxTokens ?? spec?.maxTokens ?? innerFields.maxTokens;
    this.maxTokens = typeof mt === "number" ? mt : undefined;
    // The key, and the base URL's query values (some endpoints take the key there): scrubbed from all written.
    this.secrets = [...(spec?.apiKey !== undefined ? [spec.apiKey] : []), ...urlSecrets(spec?.baseURL)];
    for (const s of this.secrets) this.cassette?.addSecret(s);
    this.sleep = options.sleep ?? sleep;
    this.now = options.now ?? Date.now;
    this.rng = createRng(options.seed ?? 1);
    if (this.mode !== "off" && this.cassette === undefined) {
      throw new ToolsimError("llm.no-cassette", `cassette mode "${this.mode}" needs a cassette`);
    }
  }

  get inner(): BaseChatModel {
    if (this.innerModel === undefined) {
      if (this.options.spec === undefined) throw new ToolsimError("llm.no-model", "the gateway has neither an inner model nor a model spec");
      this.innerModel = createChatModel(this.options.spec);
    }
    return this.innerModel;
  }

  get limiter(): EndpointLimiter {
    this.limiterCache ??= this.limits.get(this.endpoint, this.limit);
    return this.limiterCache;
  }

  nextOccurrence(episodeId: string | undefined, key: string): number {
    const ep = episodeId ?? "";
    let byKey = this.occurrences.get(ep);
    if (byKey === undefined) {
      byKey = new Map();
      this.occurrences.set(ep, byKey);
    }
    const n = byKey.get(key) ?? 0;
    byKey.set(key, n + 1);
    return n;
  }

  forgetEpisode(episodeId: string): void {
    this.occurrences.delete(episodeId);
  }

  delayFor(attempt: number, failure: Failure): number {
    if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, this.backoff.maxRetryAfterMs);
    const ceiling = Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** (attempt - 1));
    return ceiling / 2 + this.rng.next() * (ceiling / 2);
  }

  /** Calls the inner model under the endpoint gate with timeouts and retries. */
  async callLive(messages: BaseMessage[], callOptions: Json, outer: AbortSignal | undefined): Promise<LiveOutcome> {
    let attempt = 0;
    for (;;) {
      attempt++;
      let release: () => void;
      try {
        release = await this.limiter.acquire(outer);
      } catch (e) {
        return { ok: false, attempts: attempt - 1, error: new ToolsimError("llm.aborted", `${this.model}: the call was aborted while waiting for the endpoint: ${messageOf(e)}`, { cause: e }) };
      }
      const timer = new AbortController();
      const timeout = setTimeout(() => timer.abort(new Error(`timeout after ${this.timeoutMs} ms`)), this.timeoutMs);
      const signal = outer ? AbortSignal.any([outer, timer.signal]) : timer.signal;
      let failure: Failure;
      let cause: unknown;
      try {
        const message = await this.inner.invoke(messages, { ...callOptions, signal });
        return { ok: true, message, attempts: attempt };
      } catch (e) {
        cause = e;
        failure = classify(e, { timedOut: timer.signal.aborted, aborted: outer?.aborted === true, timeoutMs: this.timeoutMs, now: this.now() });
      } finally {
        clearTimeout(timeout);
        release();
      }
      if (!failure.retryable || attempt > this.retries) {
        const after = failure.retryable ? ` after ${attempt} attempt${attempt === 1 ? "" : "s"}` : "";
        const message = redactText(`${this.model}: ${failure.message}${after}`, this.secrets);
        return { ok: false, attempts: attempt, error: new ToolsimError(CODE_OF[failure.kind], message, { cause }) };
      }
      this.stats.retries++;
      try {
        await this.sleep(this.delayFor(attempt, failure), outer);
      } catch (e) {
        return { ok: false, attempts: attempt, error: new ToolsimError("llm.aborted", `${this.model}: the call was aborted during backoff: ${messageOf(e)}`, { cause: e }) };
      }
    }
  }
}

/** The core a scoped copy adopts while its constructor runs (see {@link GatewayChatModel.scoped}). */
let adoptedCore: GatewayCore | undefined;

function usageOf(message: BaseMessage): CassetteUsage {
  const u = (message as { usage_metadata?: { input_tokens?: number; output_tokens?: number } }).usage_metadata;
  return { promptTokens: u?.input_tokens ?? 0, completionTokens: u?.output_tokens ?? 0 };
}

/**
 * A chat model that sends every call of a role through the gateway: cassette replay and recording,
 * endpoint limits, timeouts, retries and accounting. `bindTools` passes the tools to the inner model, so it
 * serves the {@link ChatModelAssistant} like any tool-calling model. Make one per role and run with
 * {@link createGateway}, and one per episode with {@link GatewayChatModel.scoped}.
 */
export class GatewayChatModel extends BaseChatModel<GatewayCallOptions> {
  /** The model name (as in the cache key). */
  readonly model: string;
  readonly role: LlmRole;
  readonly episodeId: string | undefined;
  private readonly core: GatewayCore;
  private readonly onCall: ((record: LlmCallRecord) => void) | undefined;

  static override lc_name(): string {
    return "GatewayChatModel";
  }

  constructor(options: GatewayOptions) {
    // Only the tracing fields go to LangChain (which keeps its constructor fields for serialization): never the spec and its key.
    super({
      ...(options.callbacks !== undefined ? { callbacks: options.callbacks } : {}),
      ...(options.tags !== undefined ? { tags: options.tags } : {}),
      ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
      ...(options.verbose !== undefined ? { verbose: options.verbose } : {}),
    });
    this.core = adoptedCore ?? new GatewayCore(options);
    adoptedCore = undefined;
    this.model = this.core.model;
    this.role = options.role ?? "assistant";
    this.episodeId = options.episodeId;
    this.onCall = options.onCall;
  }

  _llmType(): string {
    return "toolsim-gateway";
  }

  override get callKeys(): string[] {
    return [...super.callKeys, "tools", "tool_choice", "response_format", "episodeId", "role"];
  }

  /** The endpoint the calls are limited against. */
  get endpoint(): string {
    return this.core.endpoint;
  }

  /** Counters over all calls of this gateway and its scoped copies. */
  get stats(): Readonly<GatewayStats> {
    return { ...this.core.stats };
  }

  /** The limiter of the endpoint (in-flight and queued calls). */
  get limiter(): EndpointLimiter {
    return this.core.limiter;
  }

  /** A copy for one episode (or role) that shares the inner model, the gate, the cassette and the counters. */
  scoped(scope: { episodeId?: string; role?: LlmRole; onCall?: (record: LlmCallRecord) => void }): GatewayChatModel {
    const episodeId = scope.episodeId ?? this.episodeId;
    const onCall = scope.onCall ?? this.onCall;
    adoptedCore = this.core;
    try {
      return new GatewayChatModel({ role: scope.role ?? this.role, ...(episodeId !== undefined ? { episodeId } : {}), ...(onCall !== undefined ? { onCall } : {}) });
    } finally {
      adoptedCore = undefined;
    }
  }

  /** Drops the occurrence counters of a finished episode (memory of long runs). */
  forgetEpisode(episodeId: string): void {
    this.core.forgetEpisode(episodeId);
  }

  override bindTools(tools: BindToolsInput[], kwargs?: Partial<GatewayCallOptions>): Runnable<BaseLanguageModelInput, AIMessageChunk, GatewayCallOptions> {
    return this.withConfig({ ...kwargs, tools: [...(kwargs?.tools ?? []), ...tools] });
  }

  /** The cache key of a call (what the cassette is indexed by). */
  keyOf(messages: readonly BaseMessage[], options: Partial<GatewayCallOptions> = {}): string {
    return requestKey(this.normalize(messages, options));
  }

  private normalize(messages: readonly BaseMessage[], options: Partial<GatewayCallOptions>): ReturnType<typeof normalizeRequest> {
    const stop = options.stop;
    return normalizeRequest({
      model: this.core.model,
      messages,
      ...(options.tools !== undefined ? { tools: options.tools } : {}),
      ...(options.tool_choice !== undefined ? { tool_choice: options.tool_choice } : {}),
      ...(this.core.temperature !== undefined ? { temperature: this.core.temperature } : {}),
      ...(this.core.maxTokens !== undefined ? { maxTokens: this.core.maxTokens } : {}),
      ...(options.response_format !== undefined ? { response_format: options.response_format } : {}),
      ...(Array.isArray(stop) ? { stop } : {}),
    });
  }

  private report(record: LlmCallRecord): void {
    this.core.stats.calls++;
    if (record.cached) this.core.stats.cached++;
    if (record.error !== undefined) this.core.stats.failed++;
    this.core.stats.promptTokens += record.usage.promptTokens;
    this.core.stats.completionTokens += record.usage.completionTokens;
    this.onCall?.(record);
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"], _runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const core = this.core;
    const started = core.now();
    const { signal, episodeId: optEpisode, role: optRole, timeout: _timeout, promptIndex: _promptIndex, ...rest } = options as GatewayCallOptions & { promptIndex?: number };
    const episodeId = typeof optEpisode === "string" ? optEpisode : this.episodeId;
    const role = optRole ?? this.role;
    const request = this.normalize(messages, options);
    const key = requestKey(request);
    // Occurrences matter only to cassettes; without one nothing is counted (no memory held per episode).
    const occurrence = core.mode === "off" ? 0 : core.nextOccurrence(episodeId, key);
    const base = { role, model: core.model, key, ...(episodeId !== undefined ? { episodeId } : {}) };
    const result = (message: BaseMessage, usage: CassetteUsage): ChatResult => ({
      generations: [{ text: typeof message.content === "string" ? message.content : "", message }],
      llmOutput: { tokenUsage: { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, totalTokens: usage.promptTokens + usage.completionTokens } },
    });

    if (core.mode === "replay") {
      const hit = core.cassette?.lookup(key, episodeId, occurrence);
      if (hit?.error !== undefined) {
        const error = new ToolsimError(hit.error.code, hit.error.message);
        this.report({ ...base, usage: hit.usage, durationMs: core.now() - started, cached: true, attempts: 0, error: error.message, errorCode: error.code });
        throw error;
      }
      if (hit) {
        const message = messageFromResponse(hit.response, hit.usage, core.model);
        this.report({ ...base, usage: hit.usage, durationMs: core.now() - started, cached: true, attempts: 0 });
        return result(message, hit.usage);
      }
      if (!core.replayFallback) {
        const error = new ToolsimError(
          "llm.cassette-miss",
          `the cassette has no answer for ${role} call ${key} (model ${core.model}${episodeId !== undefined ? `, episode ${episodeId}` : ""}, occurrence ${occurrence}): ` +
            `the request differs from the recorded run; record again, or allow calls to the endpoint on a miss`,
        );
        this.report({ ...base, usage: { promptTokens: 0, completionTokens: 0 }, durationMs: core.now() - started, cached: false, attempts: 0, error: error.message, errorCode: error.code });
        throw error;
      }
    }

    const callOptions: Json = { ...rest };
    const recording = core.cassette !== undefined && (core.mode === "record" || core.mode === "replay");
    const live = await core.callLive(messages, callOptions, signal);
    if (!live.ok) {
      const { error, attempts } = live;
      if (recording && error.code !== "llm.aborted") {
        // A failure for good is part of the run: replay fails the same way (an abort is the caller's choice, not recorded).
        const empty = { content: "", tool_calls: [], additional_kwargs: {} };
        const usage = { promptTokens: 0, completionTokens: 0 };
        const entry: CassetteEntry = { key, ...(episodeId !== undefined ? { episodeId } : {}), occurrence, role, model: core.model, request, response: empty, usage, error: { code: error.code, message: error.message } };
        core.cassette?.append(entry, core.secrets);
      }
      this.report({ ...base, usage: { promptTokens: 0, completionTokens: 0 }, durationMs: core.now() - started, cached: false, attempts, error: error.message, errorCode: error.code });
      throw error;
    }
    const usage = usageOf(live.message);
    let response = responseFromMessage(live.message);
    if (recording && core.cassette !== undefined) {
      const entry: CassetteEntry = { key, ...(episodeId !== undefined ? { episodeId } : {}), occurrence, role, model: core.model, request, response, usage };
      response = core.cassette.append(entry, core.secrets).response;
    }
    const message = messageFromResponse(response, usage, core.model);
    this.report({ ...base, usage, durationMs: core.now() - started, cached: false, attempts: live.attempts });
    return result(message, usage);
  }
}

/** Builds the gateway of a spec (ChatOpenAI or the offline model inside). */
export function createGateway(spec: ModelSpec, options: Omit<GatewayOptions, "spec"> = {}): GatewayChatModel {
  return new GatewayChatModel({ ...options, spec });
}
