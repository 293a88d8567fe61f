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

/** Backoff between attempts. */
export interface BackoffOptions {
  /** Delay before the first retry, doubled each retry (default 500 ms). */
  baseMs: number;
  /** Longest computed delay (default 30 s). */
  maxMs: number;
  /** Longest Retry-After honoured; longer hints wait this long (default 60 s). */
  maxRetryAfterMs: number;
}

/** Limits of one endpoint. */
export interface EndpointLimit {
  /** Calls in flight at once. */
  concurrency: number;
  /** Requests started per minute (unlimited when absent). */
  requestsPerMinute?: number;
}

/** Sleeps `ms`, or rejects with the signal's reason when it aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The default {@link Sleep}: a timer. */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/**
 * The gate of one endpoint: a FIFO concurrency semaphore and a requests-per-minute budget (GCRA: requests
 * spaced 60000/rpm ms apart, with a burst of one second's worth).
 */
export class EndpointLimiter {
  private active = 0;
  private readonly waiters: Array<() => void> = [];
  private tat = 0;
  private limit: EndpointLimit;
  /** Most calls ever in flight at once (for tests and reports). */
  maxInFlight = 0;

  constructor(
    limit: EndpointLimit,
    private readonly now: () => number = Date.now,
    private readonly wait: Sleep = sleep,
  ) {
    this.limit = { ...limit };
  }

  /** Calls in flight now. */
  get inFlight(): number {
    return this.active;
  }

  /** Calls waiting for a slot. */
  get queued(): number {
    return this.waiters.length;
  }

  /** The limits in force. */
  get limits(): EndpointLimit {
    return { ...this.limit };
  }

  /** Lowers the limits to the stricter of the current ones and these (gateways sharing an endpoint). */
  tighten(limit: EndpointLimit): void {
    this.limit.concurrency = Math.min(this.limit.concurrency, limit.concurrency);
    if (limit.requestsPerMinute !== undefined) {
      this.limit.requestsPerMinute = Math.min(this.limit.requestsPerMinute ?? Infinity, limit.requestsPerMinute);
    }
  }

  /** Waits for a slot and a rate token; returns the release function of the slot. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    await this.takeSlot(signal);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.active--;
      this.pump();
    };
    try {
      await this.takeToken(signal);
    } catch (e) {
      release();
      throw e;
    }
    return release;
  }

  private takeSlot(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.active < this.limit.concurrency && this.waiters.length === 0) {
      this.active++;
      this.maxInFlight = Math.max(this.maxInFlight, this.active);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal?.reason);
      };
      const grant = (): void => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      this.waiters.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private pump(): void {
    while (this.active < this.limit.concurrency && this.waiters.length > 0) {
      this.active++;
      this.maxInFlight = Math.max(this.maxInFlight, this.active);
      this.waiters.shift()?.();
    }
  }

  private async takeToken(signal?: AbortSignal): Promise<void> {
    const rpm = this.limit.requestsPerMinute;
    if (rpm === undefined || !(rpm > 0) || !Number.isFinite(rpm)) return;
    const interval = 60_000 / rpm;
    const burst = Math.max(1, Math.floor(rpm / 60));
    const now = this.now();
    const tat = Math.max(this.tat, now);
    const delay = tat - interval * (burst - 1) - now;
    this.tat = tat + interval;
    if (delay > 0) await this.wait(delay, signal);
  }
}

/** The limiters of endpoints by base URL, shared by the gateways of a run (or of the process). */
export class EndpointLimits {
  private readonly limiters = new Map<string, EndpointLimiter>();

  /** `create` makes the limiter of a new endpoint (tests pass one with a fake clock). */
  constructor(private readonly create: (limit: EndpointLimit) => EndpointLimiter = (limit) => new EndpointLimiter(limit)) {}

  /** The limiter of an endpoint, created with these limits or tightened to them. */
  get(endpoint: string, limit: EndpointLimit): EndpointLimiter {
    const existing = this.limiters.get(endpoint);
    if (existing) {
      existing.tighten(limit);
      return existing;
    }
    const limiter = this.create(limit);
    this.limiters.set(endpoint, limiter);
    return limiter;
  }

  /** The limiter of an endpoint, if any gateway made one. */
  peek(endpoint: string): EndpointLimiter | undefined {
    return this.limiters.get(endpoint);
  }
}

/** The process-wide endpoint limits, used when a gateway is given none. */
export const sharedEndpointLimits = new EndpointLimits();

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

type FailureKind = "timeout" | "rate-limit" | "server" | "connection" | "malformed" | "unauthorized" | "rejected" | "aborted" | "unknown";

interface Failure {
  kind: FailureKind;
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  message: string;
}

type Json = Record<string, unknown>;

/** Any object, arrays included (a JSON value that is not a scalar). */
function isNonNullObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null;
}

function headerOf(error: Json, name: string): string | undefined {
  const headers = error["headers"] ?? (isNonNullObject(error["response"]) ? error["response"]["headers"] : undefined);
  if (!isNonNullObject(headers)) return undefined;
  const get = headers["get"];
  if (typeof get === "function") {
    const v: unknown = (get as (n: string) => unknown).call(headers, name);
    return typeof v === "string" ? v : undefined;
  }
  const v = headers[name] ?? headers[name.toLowerCase()];
  return typeof v === "string" ? v : undefined;
}

/** Retry-After in ms from `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
function retryAfterOf(error: Json, now: number): number | undefined {
  const ms = headerOf(error, "retry-after-ms");
  if (ms !== undefined && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const ra = headerOf(error, "retry-after");
  if (ra === undefined || ra.trim() === "") return undefined;
  const seconds = Number(ra);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT"]);

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let e: unknown = error;
  for (let depth = 0; depth < 4 && isNonNullObject(e); depth++) {
    if (typeof e["code"] === "string") codes.push(e["code"]);
    e = e["cause"];
  }
  return codes;
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n\nTroubleshooting URL")[0]?.trim() ?? text;
}

/** What kind of failure an error of the inner model is, and whether another attempt can help. */
function classify(error: unknown, ctx: { timedOut: boolean; aborted: boolean; timeoutMs: number; now: number }): Failure {
  if (ctx.aborted) return { kind: "aborted", retryable: false, message: `the call was aborted: ${messageOf(error)}` };
  if (ctx.timedOut) return { kind: "timeout", retryable: true, message: `no answer within ${ctx.timeoutMs} ms` };
  const e: Json = isNonNullObject(error) ? error : {};
  const status = typeof e["status"] === "number" ? e["status"] : isNonNullObject(e["response"]) && typeof e["response"]["status"] === "number" ? e["response"]["status"] : undefined;
  const retryAfterMs = retryAfterOf(e, ctx.now);
  const withRetryAfter = retryAfterMs !== undefined ? { retryAfterMs } : {};
  if (status !== undefined) {
    const msg = `HTTP ${status}: ${messageOf(error)}`;
    if (status === 429) {
      const code = isNonNullObject(e["error"]) ? e["error"]["code"] : e["code"];
      if (code === "insufficient_quota") return { kind: "rejected", retryable: false, status, message: `${msg} (the account has no quota left)` };
      return { kind: "rate-limit", retryable: true, status, ...withRetryAfter, message: msg };
    }
    if (status >= 500 || status === 408 || status === 425) return { kind: "server", retryable: true, status, ...withRetryAfter, message: msg };
    if (status === 401 || status === 403) {
      return { kind: "unauthorized", retryable: false, status, message: `${msg} (the endpoint refused the key: check OPENAI_API_KEY or --api-key-env)` };
    }
    return { kind: "rejected", retryable: false, status, message: msg };
  }
  const name = error instanceof Error ? error.name : "";
  const ctor = isNonNullObject(error) ? (error.constructor?.name ?? "") : "";
  if (name === "TimeoutError" || ctor === "APIConnectionTimeoutError") return { kind: "timeout", retryable: true, message: `timed out: ${messageOf(error)}` };
  if (ctor === "APIConnectionError" || codesOf(error).some((c) => CONNECTION_CODES.has(c)) || /connection error|fetch failed|socket hang up/i.test(messageOf(error))) {
    return { kind: "connection", retryable: true, message: `cannot connect: ${messageOf(error)}` };
  }
  if (error instanceof SyntaxError || /Unexpected token|in JSON at position|JSON\.parse|invalid json/i.test(messageOf(error))) {
    return { kind: "malformed", retryable: true, message: `malformed response body: ${messageOf(error)}` };
  }
  if (name === "AbortError") return { kind: "aborted", retryable: false, message: `the call was aborted: ${messageOf(error)}` };
  return { kind: "unknown", retryable: false, message: messageOf(error) };
}

const CODE_OF: Record<FailureKind, string> = {
  timeout: "llm.unavailable",
  "rate-limit": "llm.unavailable",
  server: "llm.unavailable",
  connection: "llm.unavailable",
  malformed: "llm.unavailable",
  unauthorized: "llm.rejected",
  rejected: "llm.rejected",
  aborted: "llm.aborted",
  unknown: "llm.error",
};

/** How the live calls of one request ended. */
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
