import { readFile } from "node:fs/promises";
import { isSecretName, REDACTED, redactSecretsDeep } from "../secret-redaction.js";
import { stableStringify } from "../stable-stringify.js";

/** One recorded HTTP exchange (a line of a serve cassette, JSON Lines; `toolsim serve --record` writes them). */
export interface HttpExchange {
  /** The served API's name (its URL prefix; a toolset's name). */
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

/** A path with each segment percent-decoded and encoded again, so `/pets/%37` and `/pets/7` are one path. */
function normalizePath(path: string): string {
  return path
    .split("/")
    .map((segment) => {
      try {
        return encodeURIComponent(decodeURIComponent(segment));
      } catch {
        return segment;
      }
    })
    .join("/");
}

function sortedPairs(pairs: Array<[string, string]>): Array<[string, string]> {
  return pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
}

/**
 * The key a recording is found by: the API, method, path (segments normalized), the query (sorted; secret
 * parameters and redacted values left out) and the body (JSON normalized with secrets redacted as when
 * recorded; form bodies sorted).
 */
export function exchangeKey(api: string, method: string, path: string, query: URLSearchParams, body: string | null, contentType: string | null | undefined, extra: ReadonlySet<string>): string {
  const pairs: Array<[string, string]> = [];
  for (const [k, v] of query) if (!isSecretName(k, extra) && v !== REDACTED) pairs.push([k, v]);
  let normalized = "";
  if (body !== null && body !== "") {
    normalized = body;
    if (contentType && /x-www-form-urlencoded/i.test(contentType)) {
      const form: Array<[string, string]> = [];
      for (const [k, v] of new URLSearchParams(body)) form.push([k, isSecretName(k, extra) ? REDACTED : v]);
      normalized = new URLSearchParams(sortedPairs(form)).toString();
    } else if (!contentType || /json/i.test(contentType)) {
      try {
        normalized = stableStringify(redactSecretsDeep(JSON.parse(body)));
      } catch {
        // kept as text
      }
    }
  }
  return `${api}\n${method.toUpperCase()}\n${normalizePath(path)}\n${new URLSearchParams(sortedPairs(pairs)).toString()}\n${normalized}`;
}

/** The key of a recorded exchange (the same function as for a live request). */
export function keyOfExchange(e: HttpExchange, extra: ReadonlySet<string>): string {
  return exchangeKey(e.api, e.request.method, e.request.path, new URLSearchParams(e.request.query), e.request.body, e.request.headers["content-type"], extra);
}

/** Whether a parsed line is a recorded exchange. */
function isExchange(e: unknown): e is HttpExchange {
  if (typeof e !== "object" || e === null) return false;
  const x = e as Partial<HttpExchange>;
  return (
    typeof x.api === "string" &&
    typeof x.request === "object" &&
    x.request !== null &&
    typeof x.request.method === "string" &&
    typeof x.request.path === "string" &&
    typeof x.response === "object" &&
    x.response !== null &&
    typeof x.response.status === "number"
  );
}

/**
 * Recordings by key; several recordings of one request are served in order, the last one repeatedly. The order
 * is kept per scope (a session's or an episode's state) when one is given, else for the whole cassette.
 */
export class HttpCassette {
  private readonly byKey = new Map<string, HttpExchange[]>();
  private served = new Map<string, number>();
  private scoped = new WeakMap<object, Map<string, number>>();
  readonly size: number;
  /** The recordings, in the order they were recorded. */
  readonly exchanges: readonly HttpExchange[];

  constructor(exchanges: readonly HttpExchange[], extra: ReadonlySet<string> = new Set()) {
    for (const e of exchanges) {
      const key = keyOfExchange(e, extra);
      const list = this.byKey.get(key);
      if (list) list.push(e);
      else this.byKey.set(key, [e]);
    }
    this.exchanges = exchanges;
    this.size = exchanges.length;
  }

  /** Reads a cassette file; lines that do not parse (or are no recordings) are counted and skipped. */
  static async load(file: string, extra: ReadonlySet<string> = new Set()): Promise<{ cassette: HttpCassette; skipped: number }> {
    const text = await readFile(file, "utf8");
    const exchanges: HttpExchange[] = [];
    let skipped = 0;
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      try {
        const e: unknown = JSON.parse(line);
        if (isExchange(e)) exchanges.push(e);
        else skipped++;
      } catch {
        skipped++;
      }
    }
    return { cassette: new HttpCassette(exchanges, extra), skipped };
  }

  /** The names of the APIs recorded, in order of first appearance. */
  apis(): string[] {
    return [...new Set(this.exchanges.map((e) => e.api))];
  }

  /** The recording of a request key, if any (the next one of several, in the scope's order). */
  take(key: string, scope?: object): HttpExchange | undefined {
    return takeNext(this.byKey.get(key), key, this.counters(scope));
  }

  /** The served counters of a scope (the cassette's own without one). */
  counters(scope?: object): Map<string, number> {
    if (scope === undefined) return this.served;
    let counters = this.scoped.get(scope);
    if (!counters) this.scoped.set(scope, (counters = new Map()));
    return counters;
  }

  /** Serves every recording from its first again (admin reset). */
  rewind(): void {
    this.served = new Map();
    this.scoped = new WeakMap();
  }
}

/** The next of a list of recordings of one key (the last one repeatedly), counting in `counters`. */
export function takeNext(list: readonly HttpExchange[] | undefined, key: string, counters: Map<string, number>): HttpExchange | undefined {
  if (!list || list.length === 0) return undefined;
  const i = counters.get(key) ?? 0;
  counters.set(key, i + 1);
  return list[Math.min(i, list.length - 1)];
}
