import type { ServeApp, ServeOptions } from "../serve-app.js";
import { McpBridge, type McpBridgeOptions } from "./mcp-bridge.js";
import { McpHttpEndpoint } from "./mcp-http.js";

/** The path of the MCP endpoint beside the REST routes. */
export const MCP_PATH = "/mcp";

/** MCP settings of a server: how credentials are presented, paging, and the HTTP sessions' bounds. */
export interface McpServeOptions extends McpBridgeOptions {
  /** Most live MCP sessions over HTTP (default: the server's `maxSessions`, else 1000). */
  maxSessions?: number;
  /** An MCP session unused this long is closed when another starts (default 30 minutes). */
  idleMs?: number;
  /** Answer plain `tools/call` requests without the SDK's transport (default true; see `McpHttpOptions`). */
  directToolCalls?: boolean;
}

/**
 * Answers MCP over Streamable HTTP at `/mcp` on a serve app: one MCP session is one toolsim state session (named
 * by the MCP session id, inspectable with `/__toolsim/state?session=<id>`, dropped when the session ends).
 */
export function mountMcp(app: ServeApp, options: ServeOptions, mcp: McpServeOptions = {}): { bridge: McpBridge; endpoint: McpHttpEndpoint } {
  const bridge = new McpBridge(app, options, mcp);
  const endpoint = new McpHttpEndpoint(bridge, {
    mode: app.mode,
    ...(mcp.maxSessions !== undefined || options.maxSessions !== undefined ? { maxSessions: mcp.maxSessions ?? options.maxSessions } : {}),
    ...(mcp.idleMs !== undefined ? { idleMs: mcp.idleMs } : {}),
    ...(mcp.directToolCalls !== undefined ? { directToolCalls: mcp.directToolCalls } : {}),
    ...(options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit } : {}),
    ...(options.cors ? { anyOrigin: true } : {}),
    onSessionClosed: (id) => void app.sessions.reset(id),
    log: options.log ?? ((line) => void process.stderr.write(`${line}\n`)),
  });
  app.mount(MCP_PATH, endpoint.handle);
  return { bridge, endpoint };
}
