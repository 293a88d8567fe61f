import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { toPointer } from "../../specs/json-pointer.js";
import { plainText } from "../plain-text.js";
import type { ImportedToolset } from "./import-toolalpaca.js";
import { slugify } from "../slug.js";
import type { ToolsetFile } from "../toolset.js";
import { isObject } from "../../specs/json-object.js";

type Json = Record<string, unknown>;

/** What an MCP server says about itself (its `initialize` answer). */
export interface McpServerInfo {
  name: string;
  version?: string;
  title?: string;
  instructions?: string;
  protocolVersion?: string;
  /** How it was reached: `stdio` or `streamable-http`. */
  transport: "stdio" | "streamable-http";
  /** The URL of a Streamable HTTP server (credentials and query left out). */
  url?: string;
}

/** A tool's answer kept as the example of its success response: its structured content or its text. */
export type RecordedAnswer = { kind: "structured"; value: Json } | { kind: "text"; value: string };

/** Options of {@link mcpToolset}. */
export interface McpToolsetOptions {
  /** The toolset's name (default: the server's title or name). */
  name?: string;
  /** Answers of read-only tools, by tool name, kept as examples. */
  recorded?: ReadonlyMap<string, RecordedAnswer>;
}

/** The operation extensions of an imported MCP tool, read back by `serve --mcp` (see `simulator/serve/mcp`). */
const EXT = { name: "x-mcp-name", annotations: "x-mcp-annotations", title: "x-mcp-title", meta: "x-mcp-meta", server: "x-mcp-server" } as const;

/** A path segment and component-name prefix from a tool name: letters, digits, `_`, `-` and `.` (others as `_`). */
function safeSegment(name: string): string {
  const s = name.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^\.+/, "_");
  return s === "" ? "tool" : s;
}

/**
 * A tool's JSON Schema placed inside the OpenAPI document at `at`: `$schema` and `$id` dropped, its `$defs` (or
 * `definitions`) moved to `components/schemas` under `<prefix><name>`, and its document-local `$ref`s rewritten
 * to point where the schemas now are; draft-07 tuple `items` become 2020-12 `prefixItems`.
 */
export function placeSchema(schema: Json, at: string, prefix: string, components: Json): Json {
  const defs: Json = { ...(isObject(schema["definitions"]) ? schema["definitions"] : {}), ...(isObject(schema["$defs"]) ? schema["$defs"] : {}) };
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === "$schema" || k === "$id") continue;
      if (k === "$ref" && typeof v === "string" && v.startsWith("#")) {
        const defsRef = /^#\/(\$defs|definitions)\/(.+)$/.exec(v);
        out[k] = defsRef ? `#/components/schemas/${prefix}${defsRef[2] ?? ""}` : `#${at}${v.slice(1)}`;
        continue;
      }
      if (k === "items" && Array.isArray(v)) {
        out["prefixItems"] = v.map(rewrite);
        continue;
      }
      if (k === "additionalItems" && Array.isArray(node["items"])) {
        out["items"] = rewrite(v);
        continue;
      }
      out[k] = rewrite(v);
    }
    return out;
  };
  for (const [name, def] of Object.entries(defs)) components[`${prefix}${name.replace(/[^A-Za-z0-9._-]/g, "_")}`] = rewrite(def);
  const { $defs: _defs, definitions: _definitions, ...rest } = schema;
  return rewrite(rest) as Json;
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const end = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf("! "), cut.lastIndexOf("? "));
  return end > max / 2 ? cut.slice(0, end + 1) : `${cut.slice(0, max - 1)}…`;
}

/**
 * The OpenAPI 3.1 document of an MCP server's tools: one `POST /<tool>` operation per tool, its arguments the
 * JSON request body (the tool's `inputSchema`, so the tool's arguments stay its arguments), its result the 200
 * answer (the `outputSchema` as JSON, or text when it has none, with a recorded answer as the example); the MCP
 * name, title, annotations and `_meta` kept as `x-mcp-*` extensions.
 */
export function mcpOpenApi(server: McpServerInfo, tools: readonly McpTool[], recorded: ReadonlyMap<string, RecordedAnswer> = new Map()): Json {
  const paths: Json = {};
  const components: Json = {};
  const taken = new Set<string>();
  for (const tool of tools) {
    let segment = safeSegment(tool.name);
    for (let i = 2; taken.has(segment.toLowerCase()); i++) segment = `${safeSegment(tool.name)}_${i}`;
    taken.add(segment.toLowerCase());
    const path = `/${segment}`;
    const opPointer = toPointer(["paths", path, "post"]);
    const title = tool.title ?? tool.annotations?.title;
    const op: Json = {
      operationId: tool.name,
      description: tool.description !== undefined && tool.description.trim() !== "" ? tool.description : `The ${tool.name} tool of ${server.title ?? server.name}.`,
      [EXT.name]: tool.name,
      ...(title !== undefined ? { [EXT.title]: title } : {}),
      ...(tool.annotations !== undefined ? { [EXT.annotations]: tool.annotations } : {}),
      ...(tool._meta !== undefined ? { [EXT.meta]: tool._meta } : {}),
    };
    const input = placeSchema(tool.inputSchema as Json, `${opPointer}/requestBody/content/application~1json/schema`, `${segment}.input.`, components);
    const props = isObject(input["properties"]) ? input["properties"] : {};
    const required = Array.isArray(input["required"]) ? input["required"] : [];
    if (Object.keys(props).length > 0 || input["additionalProperties"] !== undefined || required.length > 0) {
      op["requestBody"] = { required: required.length > 0, description: `The arguments of ${tool.name}.`, content: { "application/json": { schema: { ...input, type: "object" } } } };
    }
    const answer = recorded.get(tool.name);
    if (tool.outputSchema !== undefined) {
      const output = placeSchema(tool.outputSchema as Json, `${opPointer}/responses/200/content/application~1json/schema`, `${segment}.output.`, components);
      const example = answer?.kind === "structured" ? { example: answer.value } : {};
      op["responses"] = { "200": { description: `The structured result of ${tool.name}.`, content: { "application/json": { schema: { ...output, type: "object" }, ...example } } } };
    } else {
      const media = { schema: { type: "string" }, ...(answer?.kind === "text" ? { example: answer.value } : {}) };
      op["responses"] = { "200": { description: `The result of ${tool.name} (its text content).`, content: { "text/plain": media } } };
    }
    paths[path] = { post: op };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: server.title ?? server.name,
      version: server.version ?? "1.0.0",
      ...(server.instructions !== undefined && server.instructions.trim() !== "" ? { description: server.instructions } : {}),
      [EXT.server]: {
        name: server.name,
        ...(server.version !== undefined ? { version: server.version } : {}),
        ...(server.protocolVersion !== undefined ? { protocolVersion: server.protocolVersion } : {}),
        transport: server.transport,
        ...(server.url !== undefined ? { url: server.url } : {}),
      },
    },
    paths,
    ...(Object.keys(components).length > 0 ? { components: { schemas: components } } : {}),
  };
}

/**
 * A toolset of an MCP server's tools (see {@link mcpOpenApi}): name from the server's title or name,
 * introduction and description from its instructions and tools; function documentation is left for the writer
 * to derive from the spec.
 */
export function mcpToolset(server: McpServerInfo, tools: readonly McpTool[], options: McpToolsetOptions = {}): ImportedToolset {
  const name = options.name ?? server.title ?? server.name;
  const about = plainText(server.instructions ?? "");
  const names = tools.map((t) => t.name);
  const listed = `${names.slice(0, 12).join(", ")}${names.length > 12 ? ` and ${names.length - 12} more` : ""}`;
  const firstSentence = /^(.{10,200}?[.!?])(\s|$)/.exec(about)?.[1];
  const introduction = clip(firstSentence ?? (about !== "" ? about : `${name}: an MCP server with ${tools.length} tool${tools.length === 1 ? "" : "s"} (${listed}).`), 200);
  const features = tools
    .slice(0, 12)
    .map((t, i) => `${i + 1}) ${clip(plainText(t.title ?? t.description ?? t.name).replace(/[.]$/, ""), 120)}`)
    .join(". ");
  const description = `${about !== "" ? `${clip(about, 1200).replace(/[.!?]?$/, ".")} ` : `The MCP server ${server.name}${server.version !== undefined ? ` ${server.version}` : ""} offers ${tools.length} tool${tools.length === 1 ? "" : "s"}. `}It provides the following functions: ${features}${tools.length > 12 ? ` and ${tools.length - 12} more` : ""}.`;
  const toolset: ToolsetFile = {
    name,
    category: "MCP",
    introduction,
    description,
    ...(server.url !== undefined ? { link: server.url } : {}),
    functions: "",
    openapi: mcpOpenApi(server, tools, options.recorded),
  };
  return { slug: slugify(name), toolset };
}
