import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";

/** A `tools/call` or `tools/list` request in its plain, common form (what MCP clients send for every call). */
export type PlainRequest =
  | { method: "tools/call"; id: string | number; name: string; arguments: Record<string, unknown> | undefined }
  | { method: "tools/list"; id: string | number; cursor: string | undefined };

const RELATED_TASK = "io.modelcontextprotocol/related-task";
const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const CALL_KEYS = new Set(["name", "arguments", "_meta"]);
const LIST_KEYS = new Set(["cursor", "_meta"]);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function onlyKeys(v: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const k in v) if (!allowed.has(k)) return false;
  return true;
}

function isId(v: unknown): v is string | number {
  return typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v));
}

/** `_meta` absent, or carrying at most a progress token (no related task). */
function plainMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isPlainObject(meta) || RELATED_TASK in meta) return false;
  const token = meta["progressToken"];
  return token === undefined || isId(token);
}

/**
 * A parsed JSON-RPC message as a plain `tools/call` or `tools/list`, when it is a single request that the SDK's
 * server would accept and answer with nothing but its result: `jsonrpc` "2.0", an id that is a string or a safe
 * integer, and params of the method's common shape (`tools/call`: a string `name`, `arguments` absent or an
 * object; `tools/list`: at most a string `cursor`; `_meta` at most a progress token, no task augmentation).
 * Anything else (batches, notifications, other methods, any shape the SDK would refuse or treat specially) is
 * undefined: the SDK's transport and server answer it.
 */
export function plainRequest(message: unknown): PlainRequest | undefined {
  if (!isPlainObject(message) || message["jsonrpc"] !== "2.0" || !onlyKeys(message, REQUEST_KEYS)) return undefined;
  const id = message["id"];
  if (!isId(id)) return undefined;
  const method = message["method"];
  const params = message["params"];
  if (method === "tools/call") {
    if (!isPlainObject(params) || !onlyKeys(params, CALL_KEYS) || typeof params["name"] !== "string" || !plainMeta(params["_meta"])) return undefined;
    const args = params["arguments"];
    if (args !== undefined && !isPlainObject(args)) return undefined;
    return { method, id, name: params["name"], arguments: args };
  }
  if (method === "tools/list") {
    if (params === undefined) return { method, id, cursor: undefined };
    if (!isPlainObject(params) || !onlyKeys(params, LIST_KEYS) || !plainMeta(params["_meta"])) return undefined;
    const cursor = params["cursor"];
    if (cursor !== undefined && typeof cursor !== "string") return undefined;
    return { method, id, cursor };
  }
  return undefined;
}

/**
 * Whether a POST's headers are ones the SDK's Streamable HTTP transport accepts as they are: an `Accept` that
 * lists both `application/json` and `text/event-stream` (as the transport checks it), `Content-Type` exactly
 * `application/json`, and an `Mcp-Protocol-Version` that is absent or supported. Others (which the transport
 * refuses with 406, 415 or 400, or parses more carefully) are left to it.
 */
export function plainHeaders(headers: Headers): boolean {
  const accept = headers.get("accept");
  if (accept === null || !accept.includes("application/json") || !accept.includes("text/event-stream")) return false;
  if (headers.get("content-type") !== "application/json") return false;
  const version = headers.get("mcp-protocol-version");
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}
