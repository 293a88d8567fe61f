import type { Json } from "../../specs/json-object.js";

/*
 * LLM call failures, classified for the gateway's retry policy: timeouts, rate limits (with Retry-After), server
 * errors, connection errors, malformed bodies, refusals and aborts, each with its `llm.*` code.
 */

/** What kind of failure an LLM call met. */
export type FailureKind = "timeout" | "rate-limit" | "server" | "connection" | "malformed" | "unauthorized" | "rejected" | "aborted" | "unknown";

/** A failed LLM call, classified: whether to retry, and after how long. */
export interface Failure {
  kind: FailureKind;
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  message: string;
}

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

/** The message of an error, whatever was thrown. */
export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n\nTroubleshooting URL")[0]?.trim() ?? text;
}

/** What kind of failure an error of the inner model is, and whether another attempt can help. */
/** Classifies an error of an LLM call (status, Retry-After, connection codes, timeouts, aborts). */
export function classify(error: unknown, ctx: { timedOut: boolean; aborted: boolean; timeoutMs: number; now: number }): Failure {
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

/** The `llm.*` error code of each kind of failure. */
export const CODE_OF: Record<FailureKind, string> = {
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
