import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { Toolbox } from "../../agents/roles/toolbox.js";
import { callToolResult } from "../serve/mcp/call-tool-result.js";
import { mcpToolDefinition } from "../serve/mcp/mcp-tool-definition.js";
import { chatMessages, type ConversationCall } from "./conversation.js";
import { lineMeta, type EpisodeFormat, type ExportEpisode, type ResolvedExportOptions } from "./export-format.js";
import { redactSchemaSecrets } from "./redact-record.js";
import { isObject } from "../../specs/json-object.js";

/** A tool call as MCP carries it: a `tools/call` request's params, with the model's call id. */
export interface McpToolCall {
  id: string;
  method: "tools/call";
  params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> };
}

/** A message of the MCP export: chat turns, with tool calls as `tools/call` params and results as `CallToolResult`. */
export type McpMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content?: string; tool_calls?: McpToolCall[] }
  | { role: "tool"; tool_call_id: string; name: string; result: CallToolResult };

/** The episode's tools as MCP `tools/list` entries (output schemas and annotations from the toolsets' specs). */
export function mcpTools(episode: ExportEpisode): McpTool[] {
  const toolbox = episode.toolsets.length > 0 ? Toolbox.for(episode.toolsets) : undefined;
  return episode.tools.map((t) => {
    const entry = toolbox?.get(t.name);
    if (!entry) return { name: t.name, description: t.description, inputSchema: { type: "object", ...t.parameters } as McpTool["inputSchema"] };
    const definition = mcpToolDefinition(entry.toolset.catalog, entry.tool, t.name, t.parameters);
    if (definition.outputSchema !== undefined) definition.outputSchema = redactSchemaSecrets(definition.outputSchema).value;
    return { ...definition, description: t.description };
  });
}

/** A call's arguments as MCP's `arguments` object; raw text that never parsed is kept in `_meta`. */
function callParams(call: ConversationCall): McpToolCall["params"] {
  if (typeof call.arguments !== "string") return { name: call.name, arguments: call.arguments };
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    if (isObject(parsed)) return { name: call.name, arguments: parsed };
  } catch {
    // kept as raw text below
  }
  return { name: call.name, arguments: {}, _meta: { "dev.toolsim/raw-arguments": call.arguments } };
}

/**
 * The turns as MCP-shaped chat messages: user messages, assistant messages whose `tool_calls` are `tools/call`
 * params (`{name, arguments}`), one `tool` message per call holding its `CallToolResult` as `serve --mcp` answers
 * it (structured content and a JSON text block, `isError` with problem details), and the assistant's questions
 * and answers. Calls whose result never came are left out.
 */
export function mcpMessages(episode: ExportEpisode, tools: readonly McpTool[], options: Pick<ResolvedExportOptions, "system" | "thoughts">): McpMessage[] {
  const withOutput = new Set(tools.filter((t) => t.outputSchema !== undefined).map((t) => t.name));
  const contentTypes = new Map(episode.record.steps.map((s) => [s.call.id, s.observation?.contentType]));
  return chatMessages(episode.turns, options, {
    toolCall: (c): McpToolCall => ({ id: c.id, method: "tools/call", params: callParams(c) }),
    result(c): McpMessage {
      const r = c.result;
      const contentType = contentTypes.get(c.id);
      const status = r?.status ?? 0;
      const result = callToolResult(
        { status, body: r?.body, ...(contentType !== undefined ? { contentType } : {}), ...(r?.source !== undefined ? { source: r.source } : {}) },
        { outputSchema: withOutput.has(c.name) && status >= 200 && status < 400 },
      );
      return { role: "tool", tool_call_id: c.id, name: c.name, result };
    },
  });
}

/**
 * MCP's shapes in a chat JSONL: `{tools, messages}` per episode, `tools` the `tools/list` entries (name,
 * description, inputSchema, outputSchema, annotations), tool calls as `tools/call` params and results as
 * `CallToolResult`, for training and evaluating agents that reach tools through MCP.
 */
export const mcpFormat: EpisodeFormat = {
  name: "mcp",
  lines(episode: ExportEpisode, options: ResolvedExportOptions) {
    const tools = mcpTools(episode);
    return [
      {
        tools,
        messages: mcpMessages(episode, tools, options),
        ...(options.meta ? { meta: lineMeta(episode.record) } : {}),
      },
    ];
  },
};
