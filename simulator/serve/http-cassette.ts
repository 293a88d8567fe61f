import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { redactText } from "../../agents/llm/cassette.js";
import { isSecretName as isSecretField, redactRecord, scrubText, secretValues as fieldSecrets } from "../../specs/redact-secrets.js";
import { stableStringify } from "../../specs/stable-stringify.js";

/** What replaces a secret in a cassette. */
export const REDACTED = "[redacted]";

/** One recorded HTTP exchange (a line of a serve cassette, JSON Lines). */
export interface HttpExchange {
  /** The served API's name (its URL prefix). */
  api: string;
  request: {
    method: string;
    /** The path below the API's prefix, as sent. */
    path: string;
    /** The query string, secrets redacted. */
    query: string;
    headers: Record<string, string>;
    /** The body as text (secrets redacted), null when none was sent. */
    body: string | null;
  };
  response: {
    status: number;
    headers: Record<string, string>;
    /** The body as sent: text, or base64 for binary bodies (`bodyEncoding`). */
    body: string;
    bodyEncoding?: "base64";
  };
  /** Who answered: `http` (the real API) or a simulator responder. */
  source: string;
  recordedAt: string;
}

const SECRET_NAME = /^(key|token|auth|sig|signature|secret|password|passwd|appid|app_id|session|cookie|credentials?)$|(api[-_]?key|apikey|access[-_]?token|auth[-_]?token|refresh[-_]?token|id[-_]?token|client[-_]?secret|private[-_]?key|secret[-_]?key|password|session[-_]?id)$/i;
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "apikey", "x-auth-token", "x-access-token"]);
/** Request headers that say nothing about the call (transport, client), left out of cassettes. */
const SKIPPED_HEADERS = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding", "accept-encoding", "user-agent", "te", "upgrade", "x-toolsim-session", "sec-fetch-mode", "accept-language"]);
/** Response headers not replayed (transport, or describing an encoding the replay does not use). */
const SKIPPED_RESPONSE_HEADERS = new Set(["connection", "keep-alive", "content-length", "transfer-encoding", "content-encoding", "date", "x-toolsim-source"]);

/**
 * Whether a header, query or cookie name carries a credential: by name (`key`, `sig` and the like in a URL, and
 * every spelling of a secret name: `x-api-key`, `webhookToken`, `client_secret`), or because a security scheme
 * says so.
 */
export function isSecretName(name: string, extra: ReadonlySet<string> = new Set()): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADERS.has(lower) || extra.has(lower) || SECRET_NAME.test(lower) || isSecretField(name);
}

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

/**
 * The key a recording is found by: the API, method, path, the query (sorted, secret parameters left out)
 * and the body (JSON normalized, secrets redacted as when recorded).
 */
export function exchangeKey(api: string, method: string, path: string, query: URLSearchParams, body: string | null, contentType: string | null | undefined, extra: ReadonlySet<string>): string {
  const pairs: Array<[string, string]> = [];
  for (const [k, v] of query) if (!isSecretName(k, extra)) pairs.push([k, v]);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  let normalized = "";
  if (body !== null && body !== "") {
    normalized = body;
    if (!contentType || /json/i.test(contentType)) {
      try {
        // As recorded: secret fields redacted and their values scrubbed elsewhere (redacting again changes nothing).
        const data = JSON.parse(body) as unknown;
        normalized = stableStringify(redactRecord(data, fieldSecrets(data, new Set(), extra), extra).value);
      } catch {
        // kept as text
      }
    } else if (/x-www-form-urlencoded/i.test(contentType)) normalized = redactBody(body, contentType, [...fieldSecrets(bodyData(body, contentType), new Set(), extra)], extra);
  }
  return `${api}\n${method.toUpperCase()}\n${path}\n${new URLSearchParams(pairs).toString()}\n${normalized}`;
}

/** The key of a recorded exchange (the same function as for a live request). */
export function keyOfExchange(e: HttpExchange, extra: ReadonlySet<string>): string {
  return exchangeKey(e.api, e.request.method, e.request.path, new URLSearchParams(e.request.query), e.request.body, e.request.headers["content-type"], extra);
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

/** Recordings by key; several recordings of one request are served in order, the last one repeatedly. */
export class HttpCassette {
  private readonly byKey = new Map<string, HttpExchange[]>();
  private readonly served = new Map<string, number>();
  readonly size: number;

  constructor(exchanges: readonly HttpExchange[], extra: ReadonlySet<string> = new Set()) {
    for (const e of exchanges) {
      const key = keyOfExchange(e, extra);
      const list = this.byKey.get(key);
      if (list) list.push(e);
      else this.byKey.set(key, [e]);
    }
    this.size = exchanges.length;
  }

  /** Reads a cassette file; lines that do not parse are counted and skipped. */
  static async load(file: string, extra: ReadonlySet<string> = new Set()): Promise<{ cassette: HttpCassette; skipped: number }> {
    const text = await readFile(file, "utf8");
    const exchanges: HttpExchange[] = [];
    let skipped = 0;
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      try {
        const e = JSON.parse(line) as HttpExchange;
        if (typeof e.api === "string" && e.request && e.response && typeof e.response.status === "number") exchanges.push(e);
        else skipped++;
      } catch {
        skipped++;
      }
    }
    return { cassette: new HttpCassette(exchanges, extra), skipped };
  }

  /** The recording of a request key, if any. */
  take(key: string): HttpExchange | undefined {
    const list = this.byKey.get(key);
    if (!list || list.length === 0) return undefined;
    const i = this.served.get(key) ?? 0;
    this.served.set(key, i + 1);
    return list[Math.min(i, list.length - 1)];
  }

  /** Serves every recording from its first again (admin reset). */
  rewind(): void {
    this.served.clear();
  }
}
