import { createRequire } from "node:module";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpBridge } from "./mcp-bridge.js";
import { listResources, readResource, serverInstructions } from "./mcp-resources.js";

/** Options of one MCP server (one per MCP session). */
export interface McpServerOptions {
  /** The serve mode (the instructions say whether answers are simulated). */
  mode: string;
  /** The toolsim state session of a request (over HTTP: the MCP session's; over stdio: one for the process). */
  sessionOf: (mcpSessionId: string | undefined) => string;
  /** Reports errors of the protocol layer (malformed messages, failed sends). */
  onError?: (error: Error) => void;
}

const require = createRequire(import.meta.url);

/** toolsim's version, for the MCP `serverInfo`. */
function version(): string {
  for (const p of ["../../../package.json", "../../../../package.json"]) {
    try {
      return (require(p) as { version: string }).version;
    } catch {
      // source vs dist
    }
  }
  return "0.0.0";
}

const VERSION = version();

/**
 * An MCP server (the SDK's low-level `Server`) over the bridge: `tools/list` and `tools/call` for the served
 * operations, `resources/list` and `resources/read` for their documentation and OpenAPI documents.
 */
export function createMcpServer(bridge: McpBridge, options: McpServerOptions): Server {
  const titles = bridge.apis.map((a) => a.catalog.title);
  const server = new Server(
    { name: "toolsim", title: titles.join(", ").slice(0, 200), version: VERSION },
    { capabilities: { tools: { listChanged: false }, resources: {} }, instructions: serverInstructions(bridge.apis, options.mode) },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => bridge.list(request.params?.cursor));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    bridge.call(request.params.name, request.params.arguments, {
      session: options.sessionOf(extra.sessionId),
      ...(extra.requestInfo?.headers ? { headers: extra.requestInfo.headers } : {}),
    }),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: listResources(bridge.apis) }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(bridge.apis, request.params.uri));
  if (options.onError) server.onerror = options.onError;
  return server;
}
