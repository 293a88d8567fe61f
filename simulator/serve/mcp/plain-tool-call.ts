import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";

/** A `tools/call` request in its plain, common form (what MCP clients send for every call). */
export interface PlainToolCall {
  id: string | number;
  name: string;
  arguments: Record<string, unknown> | undefined;
}

const RELATED_TASK = "io.modelcontextprotocol/related-task";
const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const PARAM_KEYS = new Set(["name", "arguments", "_meta"]);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function onlyKeys(v: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const k in v) if (!allowed.has(k)) return false;
  return true;
}

/**
 * The `tools/call` of a parsed JSON-RPC message when it is a single request the SDK's server would accept and
 * answer with nothing but the tool's result: `jsonrpc` "2.0", an id that is a string or a safe integer, params
 * with a string `name`, `arguments` absent or an object, and `_meta` absent or carrying at most a progress
 * token (no task augmentation, no related task). Anything else (batches, notifications, other methods, any
 * shape the SDK would refuse or treat specially) is undefined: the SDK's transport and server answer it.
 */
export function plainToolCall(message: unknown): PlainToolCall | undefined {
  if (!isPlainObject(message) || message["method"] !== "tools/call" || message["jsonrpc"] !== "2.0" || !onlyKeys(message, REQUEST_KEYS)) return undefined;
  const id = message["id"];
  if (!(typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)))) return undefined;
  const params = message["params"];
  if (!isPlainObject(params) || !onlyKeys(params, PARAM_KEYS) || typeof params["name"] !== "string") return undefined;
  const args = params["arguments"];
  if (args !== undefined && !isPlainObject(args)) return undefined;
  const meta = params["_meta"];
  if (meta !== undefined) {
    if (!isPlainObject(meta) || RELATED_TASK in meta) return undefined;
    const token = meta["progressToken"];
    if (token !== undefined && !(typeof token === "string" || (typeof token === "number" && Number.isSafeInteger(token)))) return undefined;
  }
  return { id, name: params["name"], arguments: args };
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
