import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { McpBridge } from "./mcp-bridge.js";
import { createMcpServer } from "./mcp-server.js";

/** Options of MCP over stdio. */
export interface McpStdioOptions {
  /** The serve mode (for the server's instructions). */
  mode: string;
  /** The toolsim state session of the client (default `stdio`). */
  session?: string;
  stdin?: Readable;
  stdout?: Writable;
  /** Where problems are reported (never stdout, which carries the protocol). */
  log?: (line: string) => void;
}

/** A running MCP server on stdio. */
export interface McpStdio {
  /** Resolves when the client is gone (stdin ended) or the server was closed. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves MCP on stdin/stdout for one client, for the life of the process (as MCP clients spawn servers). A line
 * that is not JSON gets a JSON-RPC parse error (`-32700`), one that is not a JSON-RPC message an invalid-request
 * error (`-32600`), both with id null, and the server reads on; nothing but protocol is written to stdout.
 */
export async function startMcpStdio(bridge: McpBridge, options: McpStdioOptions): Promise<McpStdio> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const session = options.session ?? "stdio";
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const transport = new StdioServerTransport(stdin, stdout);
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const server = createMcpServer(bridge, {
    mode: options.mode,
    sessionOf: () => session,
    onError: (e) => {
      const malformed = e instanceof SyntaxError ? { code: ErrorCode.ParseError, what: "Parse error" } : e.name === "ZodError" ? { code: ErrorCode.InvalidRequest, what: "Invalid Request: not a JSON-RPC 2.0 message" } : undefined;
      if (malformed) {
        const reply = { jsonrpc: "2.0", id: null, error: { code: malformed.code, message: `${malformed.what}${e instanceof SyntaxError ? `: ${e.message}` : ""}` } };
        void transport.send(reply as unknown as JSONRPCMessage).catch(() => undefined);
        log(`toolsim serve: MCP: a malformed message was answered with ${malformed.code} (${e instanceof SyntaxError ? e.message : "not JSON-RPC"})`);
        return;
      }
      log(`toolsim serve: MCP: ${e.message}`);
    },
  });
  server.onclose = () => resolveClosed();
  const ended = (): void => {
    void server.close().catch(() => undefined).then(() => resolveClosed());
  };
  stdin.once("end", ended);
  stdin.once("close", ended);
  await server.connect(transport);
  return {
    closed,
    async close() {
      stdin.off("end", ended);
      stdin.off("close", ended);
      await server.close().catch(() => undefined);
      resolveClosed();
    },
  };
}
