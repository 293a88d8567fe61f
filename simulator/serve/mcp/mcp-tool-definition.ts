import type { Tool as McpTool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { derefNode, pickMediaType, type Catalog } from "../../../specs/catalog/catalog.js";
import { getAt, toPointer } from "../../../specs/json-pointer.js";
import { isJsonMediaType } from "../../../specs/call/select-response.js";
import type { Tool } from "../../../specs/catalog/tool.js";
import { toolArgumentsSchema } from "../../../specs/catalog/tool-schema.js";
import { boundedResponseSchema } from "./output-schema.js";

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The operation extensions an imported MCP toolset keeps (see `toolsets/import/mcp-spec.ts`). */
export const MCP_EXTENSIONS = {
  /** The tool's name on its MCP server (catalog names are sanitized: `files.read` -> `files_read`). */
  name: "x-mcp-name",
  /** The tool's MCP annotations, as the server declared them. */
  annotations: "x-mcp-annotations",
  /** The tool's display title. */
  title: "x-mcp-title",
} as const;

/** MCP tool names: 1 to 128 letters, digits, `_`, `-`, `.` and `/`. */
const MCP_NAME = /^[A-Za-z0-9_.\/-]{1,128}$/;

/** Whether a string is a usable MCP tool name. */
export function isMcpToolName(name: string): boolean {
  return MCP_NAME.test(name);
}

function operationOf(catalog: Catalog, tool: Tool): Json {
  const op = getAt(catalog.spec.document, tool.operation.pointer);
  return isObject(op) ? op : {};
}

/** The name a tool should have over MCP: its `x-mcp-name` when valid (an imported MCP tool), else its catalog name. */
export function preferredMcpName(catalog: Catalog, tool: Tool): string {
  const declared = operationOf(catalog, tool)[MCP_EXTENSIONS.name];
  return typeof declared === "string" && isMcpToolName(declared) ? declared : tool.name;
}

/**
 * A tool's MCP annotations: `readOnlyHint` for GET (and HEAD), `destructiveHint` for DELETE, `idempotentHint` for
 * PUT and DELETE (HTTP's own semantics), `destructiveHint: false` for POST (it adds); an imported tool's declared
 * annotations (`x-mcp-annotations`) win.
 */
export function mcpAnnotations(catalog: Catalog, tool: Tool): ToolAnnotations {
  const op = operationOf(catalog, tool);
  const method = tool.operation.method;
  const derived: ToolAnnotations =
    method === "get" || method === "head" || method === "options"
      ? { readOnlyHint: true }
      : method === "delete"
        ? { readOnlyHint: false, destructiveHint: true, idempotentHint: true }
        : method === "put"
          ? { readOnlyHint: false, idempotentHint: true }
          : method === "post"
            ? { readOnlyHint: false, destructiveHint: false }
            : { readOnlyHint: false };
  const declared = op[MCP_EXTENSIONS.annotations];
  if (!isObject(declared)) return derived;
  const out: ToolAnnotations = {};
  for (const key of ["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    const v = declared[key];
    if (key === "title" ? typeof v === "string" : typeof v === "boolean") (out as Json)[key] = v;
  }
  return out;
}

/** Whether a (self-contained) schema only admits JSON objects. */
function objectOnly(schema: Json): boolean {
  const type = schema["type"];
  if (type === "object") return true;
  if (Array.isArray(type)) return type.length > 0 && type.every((t) => t === "object");
  if (type !== undefined) return false;
  for (const key of ["allOf", "anyOf", "oneOf"] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0) {
      if (key === "allOf" ? list.some((s) => isObject(s) && objectOnly(s)) : list.every((s) => isObject(s) && objectOnly(s))) return true;
    }
  }
  return isObject(schema["properties"]) || isObject(schema["additionalProperties"]);
}

/**
 * The MCP `outputSchema` of a tool: its success responses' JSON schema when every success response (2xx, else
 * `default`) has a JSON body that can only be an object (MCP's `structuredContent` is an object); several
 * different ones become `anyOf` (see `boundedResponseSchema` for how it is made self-contained). Undefined when a
 * success response has no body, or one that is not an object.
 */
export function mcpOutputSchema(catalog: Catalog, tool: Tool): Json | undefined {
  const doc = catalog.spec.document as unknown;
  const responsesPointer = `${tool.operation.pointer}/responses`;
  const responses = getAt(doc, responsesPointer);
  if (!isObject(responses)) return undefined;
  const keys = Object.keys(responses);
  let success = keys.filter((k) => /^2(\d\d|XX)$/i.test(k));
  if (success.length === 0) success = keys.filter((k) => k === "default");
  if (success.length === 0) return undefined;
  const schemas: Json[] = [];
  const seen = new Set<string>();
  // A 204 or 205 answer, and any answer to HEAD, has no body whatever the spec declares.
  if (tool.operation.method === "head" || success.some((k) => k === "204" || k === "205")) return undefined;
  for (const key of success) {
    const { node, pointer } = derefNode(doc, responses[key], `${responsesPointer}${toPointer([key])}`);
    if (!isObject(node) || !isObject(node["content"])) return undefined;
    const mediaType = pickMediaType(node["content"]);
    if (mediaType === undefined || !isJsonMediaType(mediaType)) return undefined;
    const media = node["content"][mediaType];
    if (!isObject(media) || !isObject(media["schema"])) return undefined;
    const schema = boundedResponseSchema(catalog.registry, `${pointer}/content${toPointer([mediaType])}/schema`);
    if (!objectOnly(schema)) return undefined;
    const text = JSON.stringify(schema);
    if (!seen.has(text)) schemas.push(schema);
    seen.add(text);
  }
  const [only] = schemas;
  if (schemas.length === 1 && only) return { ...only, type: "object" };
  return { type: "object", anyOf: schemas };
}

/** A tool's display title: an imported tool's `x-mcp-title`, else the operation's summary when it is short. */
function titleOf(catalog: Catalog, tool: Tool): string | undefined {
  const op = operationOf(catalog, tool);
  const declared = op[MCP_EXTENSIONS.title];
  if (typeof declared === "string" && declared.trim() !== "") return declared.trim();
  const summary = typeof op["summary"] === "string" ? op["summary"].replace(/\s+/g, " ").trim() : "";
  return summary !== "" && summary.length <= 80 ? summary : undefined;
}

/**
 * A tool as an MCP `tools/list` entry: its name, title and description from the catalog, `inputSchema` the
 * tool's argument schema, `outputSchema` its object response schema (when it has one) and its annotations.
 */
export function mcpToolDefinition(catalog: Catalog, tool: Tool, name: string = preferredMcpName(catalog, tool), inputSchema?: Json): McpTool {
  const output = mcpOutputSchema(catalog, tool);
  const title = titleOf(catalog, tool);
  return {
    name,
    ...(title !== undefined ? { title } : {}),
    description: tool.description,
    inputSchema: (inputSchema ?? toolArgumentsSchema(catalog, tool)) as McpTool["inputSchema"],
    ...(output !== undefined ? { outputSchema: output as McpTool["outputSchema"] } : {}),
    annotations: mcpAnnotations(catalog, tool),
  };
}
