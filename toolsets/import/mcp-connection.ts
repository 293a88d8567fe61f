import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerInfo } from "./mcp-spec.js";

/** Where a live MCP server is: a command that speaks MCP on stdio, or a Streamable HTTP URL. */
export type McpSource =
  | { kind: "stdio"; command: string; args: readonly string[]; cwd?: string; env?: Record<string, string> }
  | { kind: "http"; url: string; headers?: Record<string, string> };

/** An open connection to an MCP server. */
export interface McpConnection {
  server: McpServerInfo;
  /** Every tool, page after page; a tool listed twice is kept once (`duplicates` says which). */
  listTools(): Promise<{ tools: McpTool[]; pages: number; duplicates: string[] }>;
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** A connection that failed, with what the server wrote on stderr (a stdio server's own explanation). */
export class McpConnectError extends Error {
  override name = "McpConnectError";
}

/** Most `tools/list` pages read (a server whose cursors never end stops here). */
const MAX_PAGES = 10_000;

/** The URL without credentials, query or fragment: safe to write into a toolset. */
export function publicUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url;
  }
}

/**
 * Connects to an MCP server with the SDK's client: spawns a stdio server (with this process's environment;
 * its stderr kept for error messages) or opens a Streamable HTTP session (with the given headers).
 */
export async function connectMcp(source: McpSource, options: { timeoutMs?: number } = {}): Promise<McpConnection> {
  const timeout = options.timeoutMs ?? 30_000;
  const client = new Client({ name: "toolsim-import", version: "1" }, { capabilities: {} });
  let stderr = "";
  let transport: StdioClientTransport | StreamableHTTPClientTransport;
  if (source.kind === "stdio") {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(source.env ?? process.env)) if (v !== undefined) env[k] = v;
    const stdio = new StdioClientTransport({ command: source.command, args: [...source.args], env, stderr: "pipe", ...(source.cwd !== undefined ? { cwd: source.cwd } : {}) });
    stdio.stderr?.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    transport = stdio;
  } else {
    transport = new StreamableHTTPClientTransport(new URL(source.url), { requestInit: { headers: source.headers ?? {} } });
  }
  const where = source.kind === "stdio" ? [source.command, ...source.args].join(" ") : publicUrl(source.url);
  try {
    await client.connect(transport, { timeout });
  } catch (e) {
    await client.close().catch(() => undefined);
    const tail = stderr.trim().split("\n").slice(-5).join(" | ");
    throw new McpConnectError(`cannot connect to the MCP server ${where}: ${(e as Error).message}${tail !== "" ? ` (its stderr: ${tail})` : ""}`);
  }
  const info = client.getServerVersion();
  const instructions = client.getInstructions();
  const server: McpServerInfo = {
    name: info?.name ?? "mcp-server",
    ...(info?.version !== undefined ? { version: info.version } : {}),
    ...(info?.title !== undefined ? { title: info.title } : {}),
    ...(instructions !== undefined ? { instructions } : {}),
    transport: source.kind === "stdio" ? "stdio" : "streamable-http",
    ...(source.kind === "http" ? { url: publicUrl(source.url) } : {}),
  };
  return {
    server,
    async listTools() {
      const tools: McpTool[] = [];
      const seen = new Set<string>();
      const duplicates: string[] = [];
      const cursors = new Set<string>();
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await client.listTools(cursor !== undefined ? { cursor } : {}, { timeout });
        pages++;
        for (const t of page.tools) {
          if (seen.has(t.name)) duplicates.push(t.name);
          else tools.push(t);
          seen.add(t.name);
        }
        cursor = page.nextCursor;
        if (cursor !== undefined) {
          if (cursors.has(cursor)) throw new McpConnectError(`the MCP server ${where} repeated the tools/list cursor ${JSON.stringify(cursor)}: its pages never end`);
          cursors.add(cursor);
        }
      } while (cursor !== undefined && pages < MAX_PAGES);
      return { tools, pages, duplicates };
    },
    async callTool(name, args) {
      return (await client.callTool({ name, arguments: args }, undefined, { timeout })) as CallToolResult;
    },
    async close() {
      await client.close().catch(() => undefined);
    },
  };
}
