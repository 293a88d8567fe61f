import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { dirname } from "node:path";
import { isSecretName, REDACTED, redactText } from "../../../specs/secret-redaction.js";
import type { HttpExchange } from "../../../specs/respond/http-cassette.js";
import { redactRecord, scrubText, secretValues as fieldSecrets } from "../../../specs/redact-secrets.js";

// The cassette format, its key and its reader are the replay responder's (specs/respond): serve records what
// `generate --tool-cassette` and serve's replay mode read.
export { exchangeKey, HttpCassette, keyOfExchange, type HttpExchange } from "../../../specs/respond/http-cassette.js";
export { isSecretName, REDACTED } from "../../../specs/secret-redaction.js";

/** Request headers that say nothing about the call (transport, client), left out of cassettes. */
const SKIPPED_HEADERS = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding", "accept-encoding", "user-agent", "te", "upgrade", "x-toolsim-session", "sec-fetch-mode", "accept-language"]);
/** Response headers not replayed (transport, or describing an encoding the replay does not use). */
const SKIPPED_RESPONSE_HEADERS = new Set(["connection", "keep-alive", "content-length", "transfer-encoding", "content-encoding", "date", "x-toolsim-source"]);

/** A request body as data, when it is JSON or a url-encoded form (to find the values of its secret fields). */
function bodyData(text: string | null, contentType: string | null | undefined): unknown {
  if (text === null || text === "") return undefined;
  if (!contentType || /json/i.test(contentType)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }
  if (/x-www-form-urlencoded/i.test(contentType)) return Object.fromEntries(new URLSearchParams(text));
  return undefined;
}

/**
 * The secret values of a request, to scrub from everything recorded of its exchange: the values of secret headers
 * and query parameters, and of the secret fields of its JSON or url-encoded body (`webhookToken`, `password`).
 */
export function secretValues(headers: Headers, query: URLSearchParams, extra: ReadonlySet<string>, body?: { text: string | null; contentType: string | null | undefined }): string[] {
  const out: string[] = [];
  headers.forEach((value, name) => {
    if (!isSecretName(name, extra)) return;
    out.push(value);
    const sp = value.indexOf(" ");
    if (sp > 0) out.push(value.slice(sp + 1).trim());
  });
  for (const [name, value] of query) if (isSecretName(name, extra)) out.push(value);
  const data = body ? bodyData(body.text, body.contentType) : undefined;
  if (data !== undefined) out.push(...fieldSecrets(data, new Set(), extra));
  return [...new Set(out.filter((v) => v.length >= 4))];
}

/** The query string with secret parameters redacted, parameters in their order. */
export function redactQuery(query: URLSearchParams, extra: ReadonlySet<string>): string {
  const out = new URLSearchParams();
  for (const [k, v] of query) out.append(k, isSecretName(k, extra) ? REDACTED : v);
  return out.toString();
}

/** Request headers for a cassette: transport headers left out, secret ones redacted. */
export function redactRequestHeaders(headers: Headers, extra: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (SKIPPED_HEADERS.has(name)) return;
    out[name] = isSecretName(name, extra) ? REDACTED : value;
  });
  return out;
}

/** Response headers for a cassette: transport headers left out, cookies redacted. */
export function responseHeadersOf(headers: Headers, secrets: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (SKIPPED_RESPONSE_HEADERS.has(name) || name.startsWith("x-ratelimit") || name.startsWith("x-quota")) return;
    out[name] = name === "set-cookie" ? REDACTED : redactText(value, secrets);
  });
  return out;
}

/**
 * A body (request or response) for a cassette: JSON with the values of secret fields redacted and the secrets
 * scrubbed from its other strings, a url-encoded form likewise field by field, other text scrubbed of the secrets.
 */
export function redactBody(text: string, contentType: string | null | undefined, secrets: readonly string[], extra: ReadonlySet<string> = new Set()): string {
  if (contentType && /json/i.test(contentType)) {
    try {
      return JSON.stringify(redactRecord(JSON.parse(text) as unknown, secrets, extra).value);
    } catch {
      // not JSON after all: scrubbed as text
    }
  }
  if (contentType && /x-www-form-urlencoded/i.test(contentType)) {
    const out = new URLSearchParams();
    for (const [k, v] of new URLSearchParams(text)) out.append(k, isSecretName(k, extra) ? REDACTED : scrubText(v, secrets));
    return out.toString();
  }
  return redactText(scrubText(text, secrets), secrets);
}

/** Whether a content type is text (stored as is) rather than binary (stored as base64). */
export function isTextual(contentType: string | null | undefined): boolean {
  return contentType === null || contentType === undefined || /json|text|xml|javascript|x-www-form-urlencoded|yaml|csv|html/i.test(contentType);
}

/** Appends exchanges to a cassette file (JSON Lines), in the order they complete. */
export class HttpRecorder {
  private readonly stream: WriteStream;
  count = 0;

  constructor(
    readonly file: string,
    onError: (error: Error) => void = () => undefined,
  ) {
    mkdirSync(dirname(file), { recursive: true });
    this.stream = createWriteStream(file, { flags: "a" });
    this.stream.on("error", onError);
  }

  record(exchange: HttpExchange): void {
    this.count++;
    this.stream.write(JSON.stringify(exchange) + "\n");
  }

  /** Flushes and closes the file. */
  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.stream.destroyed) return resolve();
      this.stream.end((err?: Error | null) => (err ? reject(err) : resolve()));
    });
  }
}
