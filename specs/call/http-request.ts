import type { Tool } from "../catalog/tool.js";
import { setOwn } from "../own-property.js";

/** The HTTP request a tool call stands for. */
export interface HttpRequest {
  /** Upper-case method. */
  method: string;
  /** The concrete path, parameters substituted and encoded: `/pets/12`. */
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body?: unknown;
  contentType?: string;
}

function scalar(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === null || v === undefined) return "";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

function serializeSimple(v: unknown, explode: boolean): string {
  if (Array.isArray(v)) return v.map(scalar).join(",");
  if (v !== null && typeof v === "object") {
    return Object.entries(v)
      .map(([k, x]) => (explode ? `${k}=${scalar(x)}` : `${k},${scalar(x)}`))
      .join(",");
  }
  return scalar(v);
}

function addQuery(query: Record<string, string | string[]>, name: string, value: unknown, style: string, explode: boolean, delimiter: string | undefined): void {
  if (Array.isArray(value)) {
    if (delimiter === "\t") query[name] = value.map(scalar).join(delimiter); // Swagger 2.0 `tsv`
    else if (style === "form" && explode) query[name] = value.map(scalar);
    else query[name] = value.map(scalar).join(style === "spaceDelimited" ? " " : style === "pipeDelimited" ? "|" : ",");
    return;
  }
  if (value !== null && typeof value === "object") {
    if (style === "deepObject") {
      for (const [k, x] of Object.entries(value)) query[`${name}[${k}]`] = scalar(x);
    } else if (explode) {
      for (const [k, x] of Object.entries(value)) query[k] = scalar(x);
    } else {
      query[name] = Object.entries(value).map(([k, x]) => `${k},${scalar(x)}`).join(",");
    }
    return;
  }
  query[name] = scalar(value);
}

/** Characters of a path template that end or break a URL's path where they stand (`#` starts a fragment, `?` a query). */
const UNSAFE_IN_PATH = /[#?\s"<>\\^`|]/;
const UNSAFE_IN_PATH_ALL = new RegExp(UNSAFE_IN_PATH.source, "g");

/** Maps a tool call's arguments onto the HTTP request of its operation (OpenAPI parameter serialization). */
export function toHttpRequest(tool: Tool, args: Record<string, unknown>): HttpRequest {
  // The template's own characters that a URL cannot carry as they are (`/#CreateCluster`, spaces) are escaped.
  let path = UNSAFE_IN_PATH.test(tool.operation.path) ? tool.operation.path.replace(UNSAFE_IN_PATH_ALL, (c) => encodeURIComponent(c)) : tool.operation.path;
  const query: Record<string, string | string[]> = {};
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const p of tool.parameters) {
    const value = args[p.arg];
    if (value === undefined) continue;
    switch (p.in) {
      case "path":
        path = path.split(`{${p.name}}`).join(encodeURIComponent(serializeSimple(value, p.explode)).replace(/%2C/g, ","));
        break;
      case "query":
        addQuery(query, p.name, value, p.style, p.explode, p.delimiter);
        break;
      case "header":
        headers[p.name.toLowerCase()] = serializeSimple(value, p.explode);
        break;
      case "cookie":
        cookies.push(`${p.name}=${encodeURIComponent(serializeSimple(value, false))}`);
        break;
    }
  }
  if (cookies.length > 0) headers["cookie"] = cookies.join("; ");
  const request: HttpRequest = { method: tool.operation.method.toUpperCase(), path, query, headers };
  const body = bodyOf(tool, args);
  if (body !== undefined && tool.body) {
    request.body = body;
    request.contentType = tool.body.mediaType;
    headers["content-type"] = tool.body.mediaType;
  }
  return request;
}

/** The request body carried by a call's arguments, if any. */
export function bodyOf(tool: Tool, args: Record<string, unknown>): unknown {
  const body = tool.body;
  if (!body) return undefined;
  if (body.mode === "wrapped") return body.arg !== undefined ? args[body.arg] : undefined;
  const out: Record<string, unknown> = {};
  let any = false;
  const paramArgs = parameterArgs(tool);
  for (const k of Object.keys(args)) {
    const v = args[k];
    if (v === undefined || paramArgs.has(k)) continue;
    setOwn(out, k, v);
    any = true;
  }
  return any || body.required ? out : undefined;
}

/** The argument names of a tool's parameters (worked out once per tool). */
function parameterArgs(tool: Tool): ReadonlySet<string> {
  let names = paramArgsOf.get(tool);
  if (names === undefined) {
    names = new Set(tool.parameters.map((p) => p.arg));
    paramArgsOf.set(tool, names);
  }
  return names;
}

const paramArgsOf = new WeakMap<Tool, ReadonlySet<string>>();
