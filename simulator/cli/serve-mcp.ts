import { McpBridge } from "../serve/mcp/mcp-bridge.js";
import { startMcpStdio } from "../serve/mcp/mcp-stdio.js";
import type { McpServeOptions } from "../serve/mcp/mount-mcp.js";
import { createServeApp, type ServeOptions } from "../serve/serve-app.js";
import type { RunningServe } from "../serve/start-serve.js";
import { UsageError, type CliIO } from "./cli-io.js";
import { parseInteger } from "./options/parse-options.js";

/** The MCP flags of `toolsim serve`. */
export interface McpFlags {
  mcp?: boolean;
  mcpHttp?: boolean;
  mcpCredential?: string;
  mcpPageSize?: string;
}

/** Checks the MCP flags: whether MCP goes over stdio alone (no HTTP listener), and the bridge's options. */
export function mcpFlagsOf(flags: McpFlags, givenOnCommandLine: (option: string) => boolean): { stdioOnly: boolean; options: McpServeOptions } {
  const any = flags.mcp === true || flags.mcpHttp === true;
  if (!any && flags.mcpCredential !== undefined) throw new UsageError("--mcp-credential goes with --mcp or --mcp-http");
  if (!any && flags.mcpPageSize !== undefined) throw new UsageError("--mcp-page-size goes with --mcp or --mcp-http");
  const stdioOnly = flags.mcp === true && flags.mcpHttp !== true;
  if (stdioOnly) {
    const http = ["port", "host", "adminToken", "cors"].filter(givenOnCommandLine);
    if (http.length > 0) {
      const names = http.map((o) => `--${o.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(", ");
      throw new UsageError(`${names}: with --mcp alone, MCP goes over stdin/stdout and no HTTP port is opened; add --mcp-http to serve HTTP as well`);
    }
  }
  const pageSize = parseInteger("--mcp-page-size", flags.mcpPageSize, 1);
  const credential = flags.mcpCredential === undefined ? undefined : flags.mcpCredential.trim().toLowerCase() === "none" ? false : flags.mcpCredential;
  if (credential === "") throw new UsageError('--mcp-credential needs a key (or "none")');
  return {
    stdioOnly,
    options: { ...(credential !== undefined ? { credential } : {}), ...(pageSize !== undefined ? { pageSize } : {}) },
  };
}

/**
 * `toolsim serve --mcp`: MCP on stdin/stdout until the client goes (stdin ends) or a signal comes, over the
 * listening server's app when HTTP is served too, else over an app of its own. Messages go to stderr.
 */
export async function serveMcpStdio(
  io: CliIO,
  setExit: (code: number) => void,
  signals: NodeJS.EventEmitter,
  options: ServeOptions,
  mcp: McpServeOptions,
  server?: RunningServe,
): Promise<void> {
  const app = server?.app ?? createServeApp(options);
  const bridge = new McpBridge(app, options, mcp);
  const stdio = await startMcpStdio(bridge, { mode: app.mode, log: (line) => io.err(`${line}\n`) });
  const tools = bridge.tools.length;
  io.err(`  ${"mcp".padEnd(5)}  stdio  ${tools} tool${tools === 1 ? "" : "s"} (state session "stdio"); the client speaks on stdin, Ctrl-C stops\n`);
  let onInt = (): void => undefined;
  let onTerm = (): void => undefined;
  const reason = await new Promise<string>((resolve) => {
    onInt = () => resolve("SIGINT");
    onTerm = () => resolve("SIGTERM");
    signals.on("SIGINT", onInt);
    signals.on("SIGTERM", onTerm);
    void stdio.closed.then(() => resolve("the MCP client closed stdin"));
  });
  signals.off("SIGINT", onInt);
  signals.off("SIGTERM", onTerm);
  io.err(`toolsim serve: ${reason}, stopping\n`);
  await stdio.close();
  try {
    if (server) await server.close();
    else await app.close();
  } catch (e) {
    io.err(`toolsim serve: error while stopping: ${(e as Error).message}\n`);
    setExit(1);
  }
}
