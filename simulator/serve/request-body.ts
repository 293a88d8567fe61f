import { IncomingMessage } from "node:http";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { Catalog } from "../../specs/catalog/catalog.js";
import { derefNode } from "../../specs/catalog/catalog.js";
import type { Tool } from "../../specs/catalog/tool.js";
import { acceptsMediaType, requestMediaTypes } from "../../specs/call/http-call.js";
import { jsonTextDepth, MAX_JSON_DEPTH, valueDepth } from "../../specs/call/json-depth.js";
import type { ProblemDetails, ValidationIssue } from "../../specs/call/problem-details.js";
import { problem, TOOLSIM } from "./problem-response.js";
import { getAt, toPointer } from "../../specs/json-pointer.js";
import { hasOwn, setOwn } from "../../specs/own-property.js";
import { objectShape } from "../../specs/catalog/object-properties.js";
import { notANumberText, numericType } from "../../specs/call/number-text.js";
import { readStreamLimited } from "../../specs/read-limited.js";

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Why a request body could not be read. */
export type BodyRead = { ok: true; bytes: Uint8Array | undefined } | { ok: false; status: 413 | 415 | 400; detail: string };

/** The problem of a body that could not be read (413, 415 or 400), and the headers it goes with. */
export function bodyReadProblem(read: Extract<BodyRead, { ok: false }>): { details: ProblemDetails; headers: Record<string, string> } {
  const kinds = { 413: ["payload-too-large", "Payload Too Large"], 415: ["unsupported-content-encoding", "Unsupported Media Type"], 400: ["bad-request", "Bad Request"] } as const;
  const [type, title] = kinds[read.status];
  return { details: problem(read.status, `${TOOLSIM}${type}`, title, read.detail), headers: read.status === 415 ? { "accept-encoding": "identity" } : {} };
}

/**
 * Reads a request body up to `limit` bytes (a larger one is a 413, declared or streamed). A request from a socket
 * (`incoming` given) is read from the Node request's stream (a chunked one cut at the limit); with neither
 * Content-Length nor Transfer-Encoding it has no body (HTTP/1.1). A `Request` made in-process (`app.fetch(new
 * Request(url, {body}))` sets no length) is streamed and cut at the limit. `req.body` is touched only then: its
 * getter builds a web stream (and, on a socket's request, a whole undici Request).
 * A request without a body is read at once (no promise): no turn of the event loop for it.
 */
export function readBody(req: Request, limit: number, incoming?: IncomingMessage): BodyRead | Promise<BodyRead> {
  if (req.method === "GET" || req.method === "HEAD") return { ok: true, bytes: undefined };
  // A compressed body (`Content-Encoding: gzip`) is not read as if it were plain (RFC 9110: 415, Accept-Encoding).
  const coding = req.headers.get("content-encoding");
  if (coding !== null && !/^\s*(identity\s*)?$/i.test(coding)) {
    return { ok: false, status: 415, detail: `The request body is encoded (Content-Encoding: ${coding.slice(0, 40)}); send it unencoded.` };
  }
  const declared = req.headers.get("content-length");
  if (declared !== null) {
    const n = Number(declared);
    if (!Number.isSafeInteger(n) || n < 0) return { ok: false, status: 400, detail: `The Content-Length header is not a number of bytes: ${declared.slice(0, 40)}.` };
    if (n > limit) return { ok: false, status: 413, detail: `The request body is ${n} bytes; the limit is ${limit}.` };
    if (n === 0) return { ok: true, bytes: undefined };
    // From a socket: the Node request's own buffers (no ArrayBuffer copy); Node's parser holds it to the length.
    if (incoming !== undefined) return readIncomingLimited(incoming, limit);
    return req.arrayBuffer().then((buffer): BodyRead => ({ ok: true, bytes: new Uint8Array(buffer) }));
  }
  if (incoming !== undefined) return incoming.headers["transfer-encoding"] === undefined ? { ok: true, bytes: undefined } : readIncomingLimited(incoming, limit);
  if (req.body === null) return { ok: true, bytes: undefined };
  return readStreamLimited(req.body, limit).then((bytes): BodyRead => (bytes === undefined ? tooLarge(limit) : { ok: true, bytes: bytes.byteLength === 0 ? undefined : bytes }));
}

/** The Node HTTP/1 request behind a Hono context's env (@hono/node-server passes `{incoming, outgoing}`), if any. */
export function incomingOf(env: unknown): IncomingMessage | undefined {
  const incoming = typeof env === "object" && env !== null ? (env as { incoming?: unknown }).incoming : undefined;
  return incoming instanceof IncomingMessage ? incoming : undefined;
}

function tooLarge(limit: number): BodyRead {
  return { ok: false, status: 413, detail: `The request body is larger than the limit of ${limit} bytes.` };
}

/**
 * A Node request's body to its end, or a 413 past `limit` bytes: reading stops there (the stream is paused, not
 * destroyed, so that the 413 still reaches the client; the server discards the rest). A body the client cut
 * short is a 400.
 */
function readIncomingLimited(incoming: IncomingMessage, limit: number): Promise<BodyRead> {
  if (incoming.destroyed) return Promise.resolve({ ok: false, status: 400, detail: "The request body ended before it was complete." });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (read: BodyRead): void => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onEnd);
      incoming.off("close", onEnd);
      resolve(read);
    };
    const onData = (chunk: Buffer | string): void => {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      total += buf.byteLength;
      if (total > limit) {
        incoming.pause();
        finish(tooLarge(limit));
      } else chunks.push(buf);
    };
    const onEnd = (): void => {
      if (!incoming.complete) return finish({ ok: false, status: 400, detail: "The request body ended before it was complete." });
      finish({ ok: true, bytes: total === 0 ? undefined : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks) });
    };
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onEnd);
    incoming.on("close", onEnd);
  });
}

/** A body's bytes as text (null: no body). */
export function bodyText(bytes: Uint8Array | undefined): string | null {
  return bytes === undefined || bytes.length === 0 ? null : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

/** A form body as an object: repeated names become arrays; every name, `__proto__` included, is just a name. */
export function formObject(entries: Iterable<[string, unknown]>): Json {
  const out: Json = {};
  for (const [k, v] of entries) {
    const prev = Object.prototype.hasOwnProperty.call(out, k) ? out[k] : undefined;
    setOwn(out, k, prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v]);
  }
  return out;
}

/** The kinds of request bodies toolsim reads. */
export type BodyKind = "json" | "form" | "multipart" | "xml" | "text";

/** How a media type's body is read. */
export function bodyKind(contentType: string): BodyKind {
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  if (/[/+]json$/.test(type) || type === "application/json") return "json";
  if (type === "application/x-www-form-urlencoded") return "form";
  if (type === "multipart/form-data") return "multipart";
  if (/[/+]xml$/.test(type)) return "xml";
  return "text";
}

/** A parsed body, or why it could not be parsed (a 400 or 415 for the client). */
export type ParsedBody = { ok: true; body: unknown } | { ok: false; status: 400 | 415; detail: string; issue: ValidationIssue };

function badRequest(message: string, code = "parse"): ParsedBody {
  return { ok: false, status: 400, detail: `The request body ${message}`, issue: { location: ["body"], code, message, severity: "Error" } };
}

/** The pointer of the schema an operation declares for one of its request media types (the received one). */
function schemaPointerFor(catalog: Catalog, tool: Tool, contentType: string): string | undefined {
  const doc = catalog.spec.document as unknown;
  const op = getAt(doc, tool.operation.pointer);
  if (!isObject(op) || op["requestBody"] === undefined) return tool.body?.schemaPointer;
  const { node, pointer } = derefNode(doc, op["requestBody"], `${tool.operation.pointer}/requestBody`);
  const content = isObject(node) ? node["content"] : undefined;
  if (!isObject(content)) return tool.body?.schemaPointer;
  const key = Object.keys(content).find((k) => acceptsMediaType([k], contentType));
  const media = key !== undefined ? content[key] : undefined;
  if (key === undefined || !isObject(media) || media["schema"] === undefined) return tool.body?.schemaPointer;
  return `${pointer}/content${toPointer([key])}/schema`;
}

/** The resolved schema at a pointer (through `$ref`s), for the shape of form fields. */
function schemaAt(catalog: Catalog, pointer: string | undefined): Json | undefined {
  if (pointer === undefined) return undefined;
  const { schema } = catalog.registry.resolve("request", pointer);
  return isObject(schema) ? schema : undefined;
}

/** Properties of an object schema (its own and its `allOf` members'), resolved. */
function propertySchemas(catalog: Catalog, schema: Json | undefined, pointer: string | undefined, depth = 0): Map<string, Json> {
  const out = new Map<string, Json>();
  if (!schema || pointer === undefined || depth > 4) return out;
  if (isObject(schema["properties"])) {
    for (const name of Object.keys(schema["properties"])) {
      const at = `${catalog.registry.resolve("request", pointer).pointer ?? pointer}/properties${toPointer([name])}`;
      const resolved = schemaAt(catalog, at);
      if (resolved) out.set(name, resolved);
    }
  }
  if (Array.isArray(schema["allOf"])) {
    schema["allOf"].forEach((_, i) => {
      const at = `${catalog.registry.resolve("request", pointer).pointer ?? pointer}/allOf/${i}`;
      for (const [k, v] of propertySchemas(catalog, schemaAt(catalog, at), at, depth + 1)) out.set(k, v);
    });
  }
  return out;
}

function typesOf(schema: Json | undefined): string[] {
  const t = schema?.["type"];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : typeof t === "string" ? [t] : [];
}

/**
 * Form and multipart fields travel as text: a field whose schema wants an object (or an array of objects) may be
 * sent as JSON text (OpenAPI's default encoding for such parts); it is parsed so that validation sees its shape.
 */
function decodeJsonFields(body: Json, properties: Map<string, Json>): void {
  const SCALARS = ["string", "number", "integer", "boolean", "null"];
  for (const [name, schema] of properties) {
    if (!Object.prototype.hasOwnProperty.call(body, name)) continue;
    const types = typesOf(schema);
    const itemTypes = typesOf(isObject(schema["items"]) ? schema["items"] : undefined);
    // Items or a value of no stated type (a `$ref`, an `anyOf` of objects) may be structured: JSON text is read as JSON.
    const scalarItems = itemTypes.length > 0 && itemTypes.every((t) => SCALARS.includes(t));
    const isArray = types.includes("array");
    const structured = types.includes("object") || isObject(schema["properties"]) || (isArray && !scalarItems) || (types.length === 0 && !isObject(schema["items"]));
    if (!structured) continue;
    const decode = (v: unknown): unknown => {
      if (typeof v !== "string") return v;
      const t = v.trim();
      if (!t.startsWith("{") && !t.startsWith("[")) return v;
      try {
        return JSON.parse(t) as unknown;
      } catch {
        return v;
      }
    };
    const v = body[name];
    if (!isArray) setOwn(body, name, Array.isArray(v) ? v.map(decode) : decode(v));
    // A list travels as one field per item (or as one JSON array): one item's field is still a list of one.
    else if (Array.isArray(v)) setOwn(body, name, v.map(decode));
    else {
      const one = decode(v);
      setOwn(body, name, Array.isArray(one) || typeof v !== "string" || one === v ? one : [one]);
    }
  }
}

/** The XML parser of request bodies: attributes become properties, values stay text (coerced by the schema). */
const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  removeNSPrefix: true,
  maxNestedTags: MAX_JSON_DEPTH,
});

/** The value of an XML document's root element (its name is the schema's `xml.name`, not a property). */
function xmlRootValue(doc: unknown): unknown {
  if (!isObject(doc)) return doc;
  const keys = Object.keys(doc);
  if (keys.length !== 1) return doc;
  const root = doc[keys[0] as string];
  return root === "" ? {} : root;
}

/**
 * Parses a request body by its media type, as the operation declares it: JSON (nesting bounded: deeper than
 * {@link MAX_JSON_DEPTH} levels is a 400), url-encoded and multipart forms (fields coerced to the body schema's
 * types, JSON-encoded parts decoded), XML (parsed, the root element's content; kept as text where the schema is
 * a string), anything else as text. A media type the operation does not accept is a 415.
 */
export async function parseRequestBody(catalog: Catalog, tool: Tool, bytes: Uint8Array, text: string, contentType: string | null): Promise<ParsedBody> {
  const accepted = requestMediaTypes(catalog, tool);
  const type = contentType ?? tool.body?.mediaType ?? "application/json";
  if (accepted.length > 0 && !acceptsMediaType(accepted, type)) {
    return { ok: false, status: 415, detail: `Supported content types: ${accepted.join(", ")}; got ${type}.`, issue: { location: ["header", "content-type"], code: "media-type", message: `must be one of: ${accepted.join(", ")}`, severity: "Error" } };
  }
  const kind = bodyKind(type);
  if (kind === "json") {
    // Each level takes a character: a text no longer than the limit cannot pass it.
    const depth = text.length > MAX_JSON_DEPTH ? jsonTextDepth(text) : 0;
    if (depth > MAX_JSON_DEPTH) return badRequest(`is nested ${depth > 100_000 ? "over 100,000" : depth} levels deep; at most ${MAX_JSON_DEPTH} are accepted`, "depth");
    try {
      return { ok: true, body: JSON.parse(text) as unknown };
    } catch (e) {
      return badRequest(`is not valid JSON: ${(e as Error).message}`);
    }
  }
  // Forms and XML are read by the body schema of their media type.
  const pointer = schemaPointerFor(catalog, tool, type);
  const coerce = (body: unknown): unknown => {
    // Form, multipart and XML values are text: coerced to the body schema's types, as parameters are (a number's
    // text that is no number, `0x10` or `Infinity`, is held as an empty object, which fails as the type it is not).
    if (pointer === undefined) return body;
    const shape = isObject(body) ? objectShape(catalog.registry, "request", pointer) : undefined;
    if (shape && isObject(body)) {
      for (const [name, at] of Object.entries(shape.properties)) {
        if (hasOwn(body, name) && numericType(catalog.registry, "request", at) !== undefined && notANumberText(body[name])) body[name] = {};
      }
    }
    catalog.registry.validatorAt("request", pointer, true)(body);
    return body;
  };
  switch (kind) {
    case "form": {
      const body = formObject(new URLSearchParams(text));
      decodeJsonFields(body, propertySchemas(catalog, schemaAt(catalog, pointer), pointer));
      return checkDepth(coerce(body));
    }
    case "multipart": {
      let form: FormData;
      try {
        form = await new Response(bytes, { headers: { "content-type": type } }).formData();
      } catch (e) {
        return badRequest(`is not valid multipart/form-data: ${(e as Error).message}`);
      }
      const entries: Array<[string, unknown]> = [];
      for (const [name, value] of form) entries.push([name, typeof value === "string" ? value : await value.text()]);
      const body = formObject(entries);
      decodeJsonFields(body, propertySchemas(catalog, schemaAt(catalog, pointer), pointer));
      return checkDepth(coerce(body));
    }
    case "xml": {
      // A body the schema calls a string (a document uploaded as it is) is that text, as declared.
      if (typesOf(schemaAt(catalog, pointer)).includes("string")) return { ok: true, body: text };
      const valid = XMLValidator.validate(text);
      if (valid !== true) return badRequest(`is not well-formed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
      let doc: unknown;
      try {
        doc = xmlParser.parse(text);
      } catch (e) {
        return badRequest(`cannot be read as XML: ${(e as Error).message}`);
      }
      return checkDepth(coerce(xmlRootValue(doc)));
    }
    default:
      return { ok: true, body: text };
  }
}

function checkDepth(body: unknown): ParsedBody {
  const depth = valueDepth(body, MAX_JSON_DEPTH + 1);
  return depth > MAX_JSON_DEPTH ? badRequest(`is nested more than ${MAX_JSON_DEPTH} levels deep`, "depth") : { ok: true, body };
}
