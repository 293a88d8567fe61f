import type { Catalog } from "../catalog/catalog.js";
import { securitySchemes } from "../catalog/security-requirements.js";
import { argumentsFromHttp, validateHttpCall } from "../call/http-call.js";
import { toHttpRequest, type HttpRequest } from "../call/http-request.js";
import { OperationRouter } from "../call/operation-router.js";
import { exchangeKey, takeNext, type HttpCassette, type HttpExchange } from "./http-cassette.js";
import type { Responder, ResponderAnswer, ResponseContext } from "./responder.js";

/** Options of the replay responder. */
export interface ReplayOptions {
  /**
   * The recorded API that answers: a name (a toolset's, or a served API's), or the name of a catalog's API when one
   * responder serves several. When the cassette holds no recording of that name but records a single API, that
   * API's recordings answer (a cassette recorded by `serve spec.yaml` replayed for the toolset over the spec).
   */
  api?: string | ((catalog: Catalog) => string | undefined);
  /** Where the recordings come from, for the answers' notes. */
  file?: string;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Lower-case names of the parameters a catalog's security schemes carry credentials in. */
export function schemeParamNames(catalog: Catalog): Set<string> {
  const out = new Set<string>();
  for (const s of securitySchemes(catalog).values()) if (s.paramName) out.add(s.paramName.toLowerCase());
  return out;
}

function scalarText(v: unknown): string {
  return typeof v === "string" ? v : v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
}

/** A request body as it travels: JSON text, a form, or text. */
export function bodyText(request: HttpRequest): string | null {
  if (request.body === undefined) return null;
  const type = request.contentType;
  if (type && /x-www-form-urlencoded/i.test(type) && isObject(request.body)) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(request.body)) for (const x of Array.isArray(v) ? v : [v]) form.append(k, scalarText(x));
    return form.toString();
  }
  if (typeof request.body === "string" && type !== undefined && !/json/i.test(type)) return request.body;
  return JSON.stringify(request.body);
}

/** The query of a request as search parameters (repeated names for exploded arrays). */
export function searchParams(query: HttpRequest["query"]): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const x of Array.isArray(v) ? v : [v]) out.append(k, x);
  return out;
}

/** The key of the request a tool call stands for (the same function as for a recorded exchange). */
export function requestKey(api: string, request: HttpRequest, secretNames: ReadonlySet<string>): string {
  return exchangeKey(api, request.method, request.path, searchParams(request.query), bodyText(request), request.contentType, secretNames);
}

/** A recorded request body as the operation reads it: parsed JSON, a form as an object, or text. */
function recordedBody(e: HttpExchange): unknown {
  const text = e.request.body;
  if (text === null || text === "") return undefined;
  const type = e.request.headers["content-type"];
  if (type && /x-www-form-urlencoded/i.test(type)) {
    const out: Json = {};
    for (const [k, v] of new URLSearchParams(text)) {
      const prev = out[k];
      out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    return out;
  }
  if (!type || /json/i.test(type)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The request a recording stands for, as a tool call would send it: routed to its operation, deserialized and
 * (where it validates) coerced, then serialized the one way the executor does. So a recording made from any HTTP
 * client (`?limit=02`, `%37`, keys in another order) is found by the call that means the same. Undefined when the
 * recording is of no operation of the catalog.
 */
function canonicalRequest(catalog: Catalog, router: OperationRouter, e: HttpExchange): HttpRequest | undefined {
  const match = router.match(e.request.method, e.request.path);
  if (match.kind !== "match") return undefined;
  const headers = new Map(Object.entries(e.request.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const body = recordedBody(e);
  const input = { pathParams: match.params, query: new URLSearchParams(e.request.query), header: (n: string) => headers.get(n), ...(body !== undefined ? { body } : {}) };
  const checked = validateHttpCall(catalog, match.tool, input);
  if (checked.ok) return checked.value.request;
  return toHttpRequest(match.tool, argumentsFromHttp(catalog, match.tool, input).args);
}

/** Recordings of one API by the key of their canonical request. */
type ReplayIndex = Map<string, HttpExchange[]>;

const indexes = new WeakMap<HttpCassette, WeakMap<Catalog, Map<string, ReplayIndex>>>();

/** The recordings of an API indexed for a catalog, worked out once per cassette, catalog and API. */
function indexOf(cassette: HttpCassette, catalog: Catalog, api: string): ReplayIndex {
  let byCatalog = indexes.get(cassette);
  if (!byCatalog) indexes.set(cassette, (byCatalog = new WeakMap()));
  let byApi = byCatalog.get(catalog);
  if (!byApi) byCatalog.set(catalog, (byApi = new Map()));
  let index = byApi.get(api);
  if (index) return index;
  index = new Map();
  const router = OperationRouter.of(catalog);
  const secretNames = schemeParamNames(catalog);
  for (const e of cassette.exchanges) {
    if (e.api !== api) continue;
    const request = canonicalRequest(catalog, router, e);
    if (!request) continue;
    const key = requestKey(api, request, secretNames);
    const list = index.get(key);
    if (list) list.push(e);
    else index.set(key, [e]);
  }
  byApi.set(api, index);
  return index;
}

/** The recorded API whose recordings answer the calls of an API of this name, if the cassette has one. */
export function recordedApiFor(cassette: HttpCassette, name: string | undefined): string | undefined {
  const apis = cassette.apis();
  if (name !== undefined && apis.includes(name)) return name;
  return apis.length === 1 ? apis[0] : undefined;
}

/** The recorded API whose recordings answer a catalog's calls, if the cassette has one. */
function recordedApi(cassette: HttpCassette, catalog: Catalog, wanted: ReplayOptions["api"]): string | undefined {
  return recordedApiFor(cassette, typeof wanted === "function" ? wanted(catalog) : wanted);
}

/** A recorded response as a responder's answer: the body parsed by its media type, where it came from in the notes. */
export function answerOfExchange(e: HttpExchange, file?: string): ResponderAnswer {
  let contentType: string | undefined;
  for (const [k, v] of Object.entries(e.response.headers ?? {})) if (k.toLowerCase() === "content-type") contentType = v;
  const notes = [`replayed from ${file ?? "a recording"}: ${e.request.method} ${e.request.path} as answered by ${e.source}${e.recordedAt ? ` at ${e.recordedAt}` : ""}`];
  let body: unknown;
  const text = typeof e.response.body === "string" ? e.response.body : "";
  if (e.response.bodyEncoding === "base64") {
    body = text;
    notes.push(`binary body (${contentType ?? "no content type"}) as base64`);
  } else if (text !== "" && e.response.status !== 204 && e.response.status !== 304) {
    body = text;
    if (contentType === undefined || /json/i.test(contentType)) {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        if (contentType !== undefined) notes.push("the recorded JSON body does not parse: kept as text");
      }
    }
  }
  return { status: e.response.status, body, ...(contentType !== undefined ? { contentType } : {}), source: "replay", notes };
}

/**
 * The replay responder: answers a call with its recorded response (a `toolsim serve --record` cassette), matched by
 * method, path, query and body (credentials left out); several recordings of one call are answered in order per
 * episode (per state), the last one repeatedly. An unrecorded call passes to the next responder, and so does a call
 * that asks for a status of its own.
 */
export function replayResponder(cassette: HttpCassette, options: ReplayOptions = {}): Responder {
  return {
    name: "replay",
    respond(ctx: ResponseContext): ResponderAnswer | undefined {
      if (ctx.status !== undefined) return undefined;
      const api = recordedApi(cassette, ctx.catalog, options.api);
      if (api === undefined) return undefined;
      const key = requestKey(api, ctx.call.request, schemeParamNames(ctx.catalog));
      const hit = takeNext(indexOf(cassette, ctx.catalog, api).get(key), key, cassette.counters(ctx.state));
      return hit ? answerOfExchange(hit, options.file) : undefined;
    },
  };
}
