import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { buildCatalog } from "../../specs/catalog/catalog.js";
import { bodyOf } from "../../specs/call/http-request.js";
import { getAt } from "../../specs/json-pointer.js";
import { loadSpec } from "../../specs/load/load-spec.js";
import { deriveSeed } from "../../specs/seed.js";
import { synthesizeArguments } from "../../specs/synthesize/synthesize-call.js";
import type { Tool } from "../../specs/catalog/tool.js";
import { toolArgumentsSchema } from "../../specs/catalog/tool-schema.js";
import { validateCall } from "../../specs/call/validate-call.js";
import type { ImportedToolset } from "./import-toolalpaca.js";
import type { McpConnection } from "./mcp-connection.js";
import { mcpToolset, type RecordedAnswer } from "./mcp-spec.js";
import { ObservedValues } from "./observed-values.js";

/** Options of {@link importMcp}. */
export interface McpImportOptions {
  /** The toolset's name (default: the server's title or name). */
  name?: string;
  /** Call each read-only tool once with synthesized arguments and keep its answer as the example. */
  record?: boolean;
  /** Seed of the synthesized arguments (default 1). */
  seed?: number;
  /** Progress lines (one per recorded tool). */
  log?: (line: string) => void;
}

/** What an import did. */
export interface McpImportReport {
  tools: number;
  pages: number;
  /** Tool names the server listed more than once (kept once). */
  duplicates: string[];
  /** Tools whose answer was recorded. */
  recorded: string[];
  /** Read-only tools called whose answer could not be kept, with why. */
  failed: Array<{ tool: string; reason: string }>;
  /** Tools not called because they are not marked read-only (or are marked destructive). */
  notCalled: string[];
}

/** Whether a tool may be called to record an example: read-only by its annotations, and never destructive. */
export function isRecordable(tool: McpTool): boolean {
  return tool.annotations?.readOnlyHint === true && tool.annotations.destructiveHint !== true;
}

/**
 * Imports a live MCP server as a toolset: lists its tools (every page) and writes one operation per tool (see
 * `mcp-spec.ts`); with `record`, calls each read-only tool once with arguments synthesized from its input schema
 * and keeps the answer as the example of its result. Tools that are not marked read-only are never called.
 */
export async function importMcp(connection: McpConnection, options: McpImportOptions = {}): Promise<{ imported: ImportedToolset; report: McpImportReport }> {
  const { tools, pages, duplicates } = await connection.listTools();
  const report: McpImportReport = { tools: tools.length, pages, duplicates, recorded: [], failed: [], notCalled: [] };
  const naming = options.name !== undefined ? { name: options.name } : {};
  let imported = mcpToolset(connection.server, tools, naming);
  if (!options.record || tools.length === 0) return { imported, report };

  const spec = await loadSpec(imported.toolset.openapi as object);
  if (!spec.ok) throw new Error(`the spec made from ${connection.server.name}'s tools does not load: ${spec.errors.map((p) => `${p.pointer} ${p.message}`).join("; ")}`);
  const catalog = buildCatalog(spec.value);
  const byMcpName = new Map<string, Tool>();
  for (const t of catalog.tools) {
    const name = (getAt(catalog.spec.document, t.operation.pointer) as Record<string, unknown> | undefined)?.["x-mcp-name"];
    if (typeof name === "string") byMcpName.set(name, t);
  }
  const recorded = new Map<string, RecordedAnswer>();
  const observed = new ObservedValues();
  // Tools that need fewer arguments first (lists before lookups), so that lookups can use the ids lists returned.
  const order = tools.filter(isRecordable).sort((a, b) => requiredCount(a) - requiredCount(b));
  report.notCalled.push(...tools.filter((t) => !isRecordable(t)).map((t) => t.name));
  for (const tool of order) {
    const target = byMcpName.get(tool.name);
    if (!target) {
      report.failed.push({ tool: tool.name, reason: "no operation was made for it" });
      continue;
    }
    // Required arguments only: a bare call answers for the general case (a list unfiltered, with ids to use later).
    const args = withObservedValues(catalog, target, requiredOnly(catalog, target, synthesizeArguments(catalog, target, { seed: deriveSeed(options.seed ?? 1, tool.name), optionals: 0 })), observed);
    const callArgs = (bodyOf(target, args) ?? {}) as Record<string, unknown>;
    try {
      const result = await connection.callTool(tool.name, callArgs);
      if (result.isError === true) {
        const text = result.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join(" ").slice(0, 200);
        report.failed.push({ tool: tool.name, reason: `it answered with an error: ${text}` });
      } else if (tool.outputSchema !== undefined) {
        if (result.structuredContent !== undefined) recorded.set(tool.name, { kind: "structured", value: result.structuredContent });
        else report.failed.push({ tool: tool.name, reason: "it declares an output schema but returned no structured content" });
      } else {
        const texts = result.content.filter((c) => c.type === "text").map((c) => c.text);
        if (texts.length > 0) recorded.set(tool.name, { kind: "text", value: texts.join("\n") });
        else report.failed.push({ tool: tool.name, reason: `it returned no text (${result.content.map((c) => c.type).join(", ") || "no content"})` });
      }
    } catch (e) {
      report.failed.push({ tool: tool.name, reason: (e as Error).message.split("\n")[0] ?? "failed" });
    }
    const answer = recorded.get(tool.name);
    if (answer) observed.add(tool.name, answer.kind === "structured" ? answer.value : parseJson(answer.value));
    if (recorded.has(tool.name)) {
      report.recorded.push(tool.name);
      options.log?.(`recorded ${tool.name}(${JSON.stringify(callArgs).slice(0, 120)})`);
    } else options.log?.(`not recorded: ${tool.name}: ${report.failed.at(-1)?.reason ?? ""}`);
  }
  imported = mcpToolset(connection.server, tools, { ...naming, recorded });
  return { imported, report };
}

function requiredCount(tool: McpTool): number {
  return Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required.length : 0;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Synthesized arguments with the values earlier answers showed where they fit (and the call stays valid). */
function withObservedValues(catalog: Parameters<typeof validateCall>[0], tool: Tool, args: Record<string, unknown>, observed: ObservedValues): Record<string, unknown> {
  const props = (toolArgumentsSchema(catalog, tool)["properties"] ?? {}) as Record<string, { type?: unknown }>;
  const out = { ...args };
  for (const name of new Set([...tool.required, ...Object.keys(args)])) {
    const type = props[name]?.type;
    if (type !== "string" && type !== "number" && type !== "integer") continue;
    const value = observed.valueFor(name, type);
    if (value === undefined) continue;
    const candidate = { ...out, [name]: value };
    if (validateCall(catalog, tool.name, candidate).ok) out[name] = value;
  }
  return out;
}

/** The required arguments alone, when they make a valid call by themselves. */
function requiredOnly(catalog: Parameters<typeof validateCall>[0], tool: Tool, args: Record<string, unknown>): Record<string, unknown> {
  const required = new Set(tool.required);
  const minimal = Object.fromEntries(Object.entries(args).filter(([k]) => required.has(k)));
  return validateCall(catalog, tool.name, minimal).ok ? minimal : args;
}
