import { formFields } from "../call/form-fields.js";
import type { HttpRequest } from "../call/http-request.js";
import { redactText } from "../secret-redaction.js";
import { bodyText, searchParams } from "./replay-responder.js";
import type { Responder, ResponderAnswer, ResponseContext } from "./responder.js";
import { applyCredentials, type UpstreamCredentials } from "./upstream-credentials.js";
import { displayUrl, networkCause, upstreamProblem, upstreamUrl } from "./upstream.js";
import { readStreamLimited } from "../read-limited.js";

/** Options of the real-API responder. */
export interface HttpResponderOptions {
  /** The real API's base URL, with its base path (`https://api.example.com/v1`). */
  baseUrl: string;
  /** What to present to the real API (never written anywhere). */
  credentials?: UpstreamCredentials;
  /** Time allowed to one request, in ms (default 30 s); beyond it the answer is a 504 problem. */
  timeoutMs?: number;
  /** Largest answer read, in bytes (default 10 MiB); a larger one is a 502 problem. */
  maxBodyBytes?: number;
  /** The fetch used (tests). */
  fetch?: typeof fetch;
  /** Ends requests in flight (shutdown). */
  signal?: AbortSignal;
}

/** What a real-API responder has done so far: calls, and those the real API did not answer (502/504). */
export interface HttpResponderStats {
  calls: number;
  failures: number;
  /** The last failure, in a line (no credentials). */
  lastFailure?: string;
}

/** The default time allowed to the real API: 30 s. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;
/** The default largest answer read from the real API: 10 MiB. */
export const DEFAULT_UPSTREAM_MAX_BODY = 10 * 1024 * 1024;

const PROBLEM_JSON = "application/problem+json";

/** Whether a content type is text (read as text) rather than binary (kept as base64). */
function isTextual(contentType: string | null): boolean {
  return contentType === null || /json|text|xml|javascript|x-www-form-urlencoded|yaml|csv|html/i.test(contentType);
}

/** The body of a request as fetch sends it, with its content type (multipart: fetch writes the boundary). */
function outgoingBody(request: HttpRequest, headers: Headers): RequestInit["body"] | undefined {
  if (request.body === undefined || request.method === "GET" || request.method === "HEAD") return undefined;
  const type = request.contentType ?? "";
  if (/multipart\/form-data/i.test(type) && typeof request.body === "object" && request.body !== null && !Array.isArray(request.body)) {
    const form = new FormData();
    for (const [k, v] of formFields(request.body)) form.append(k, v);
    headers.delete("content-type");
    return form;
  }
  return bodyText(request) ?? undefined;
}

/** Reads an answer's body up to a limit; undefined when it is larger. */
async function readLimited(res: Response, limit: number): Promise<Uint8Array | undefined> {
  if (!res.body) return new Uint8Array();
  const declared = Number(res.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) {
    await res.body.cancel().catch(() => undefined);
    return undefined;
  }
  return readStreamLimited(res.body, limit);
}

/**
 * The real-API responder (opt-in): sends the HTTP request a validated call stands for to the real API (base URL
 * and credentials from its options), and answers with what comes back, read by its media type; the pipeline then
 * validates it like any answer. It answers every call it gets: a network error is a 502 problem, a timeout a 504,
 * both with source `http`. Credentials go into the outgoing request only, and their values are scrubbed from the
 * answer, so no tool result, journal or recording holds them.
 */
export class HttpResponder implements Responder {
  readonly name = "http";
  readonly stats: HttpResponderStats = { calls: 0, failures: 0 };
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;

  constructor(private readonly options: HttpResponderOptions) {
    const u = new URL(options.baseUrl);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new RangeError(`the real API's base URL must be http(s), got ${displayUrl(options.baseUrl)}`);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_UPSTREAM_MAX_BODY;
  }

  /** The base URL as shown in notes and messages (no credentials). */
  get shownUrl(): string {
    return displayUrl(this.options.baseUrl);
  }

  async respond(ctx: ResponseContext): Promise<ResponderAnswer | undefined> {
    if (ctx.status !== undefined) return undefined;
    this.stats.calls++;
    const request = ctx.call.request;
    const headers = new Headers(request.headers);
    const query = searchParams(request.query);
    const cookies: string[] = [];
    const secrets = applyCredentials(ctx.catalog, ctx.call.tool, this.options.credentials, { headers, query, cookies });
    if (cookies.length > 0) headers.set("cookie", [headers.get("cookie"), ...cookies].filter((c) => c !== null && c !== "").join("; "));
    if (!headers.has("accept")) headers.set("accept", "application/json, */*;q=0.5");
    const url = upstreamUrl(this.options.baseUrl, request.path, query.toString());
    const where = `${request.method} ${request.path} at ${this.shownUrl}`;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let status: number;
    let contentType: string | null;
    let bytes: Uint8Array | undefined;
    try {
      const body = outgoingBody(request, headers);
      const res = await (this.options.fetch ?? fetch)(url, {
        method: request.method,
        headers,
        ...(body !== undefined ? { body } : {}),
        redirect: "manual",
        signal: this.options.signal ? AbortSignal.any([timeout, this.options.signal]) : timeout,
      });
      status = res.status;
      contentType = res.headers.get("content-type");
      bytes = await readLimited(res, this.maxBodyBytes);
    } catch (e) {
      const problem = upstreamProblem(e, this.options.baseUrl, this.timeoutMs);
      this.stats.failures++;
      this.stats.lastFailure = redactText(problem.detail ?? problem.title, secrets);
      const detail = redactText(problem.detail ?? "", secrets);
      return { status: problem.status, body: { ...problem, detail }, contentType: PROBLEM_JSON, source: "http", notes: [`real API: ${where}: ${problem.status === 504 ? "timed out" : `unreachable (${redactText(networkCause(e), secrets)})`}`] };
    }
    if (bytes === undefined) {
      this.stats.failures++;
      const detail = `The real API at ${this.shownUrl} answered ${request.method} ${request.path} with a body larger than ${this.maxBodyBytes} bytes.`;
      this.stats.lastFailure = detail;
      return { status: 502, body: { type: "https://toolsim.dev/problems/upstream-error", title: "Bad Gateway", status: 502, detail }, contentType: PROBLEM_JSON, source: "http", notes: [`real API: ${where}: answer too large`] };
    }
    const notes = [`real API: ${where} -> ${status}`];
    let body: unknown;
    if (bytes.length > 0 && status !== 204 && status !== 304 && request.method !== "HEAD") {
      if (!isTextual(contentType)) {
        body = Buffer.from(bytes).toString("base64");
        notes.push(`binary body (${contentType ?? "no content type"}) as base64`);
      } else {
        const text = redactText(Buffer.from(bytes).toString("utf8"), secrets);
        body = text;
        if (contentType === null || /json/i.test(contentType)) {
          try {
            body = JSON.parse(text) as unknown;
          } catch {
            if (contentType !== null) notes.push("the real API's JSON body does not parse: kept as text");
          }
        }
      }
    }
    return { status, body, ...(contentType !== null ? { contentType } : {}), source: "http", notes };
  }
}

/** The real-API responder over a base URL (see {@link HttpResponder}). */
export function httpResponder(options: HttpResponderOptions): HttpResponder {
  return new HttpResponder(options);
}
