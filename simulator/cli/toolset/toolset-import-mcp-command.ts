import { Command } from "commander";
import type { SpecProblem } from "../../../specs/load/spec-problem.js";
import type { ImportedToolset } from "../../../toolsets/import/import-toolalpaca.js";
import { importMcp } from "../../../toolsets/import/import-mcp.js";
import { connectMcp, McpConnectError, type McpSource } from "../../../toolsets/import/mcp-connection.js";
import { UsageError, UserError, type CliIO } from "../cli-io.js";
import { parseInteger } from "../options/parse-options.js";

interface McpImportFlags {
  url?: string;
  header?: string[];
  out: string;
  name?: string;
  record?: boolean;
  seed: string;
  timeout: string;
}

/** Checks and writes imported toolsets (the `toolset import` writer); resolves to whether all were written. */
export type WriteImported = (io: CliIO, out: string, imported: readonly ImportedToolset[], skipped: readonly SpecProblem[]) => Promise<boolean>;

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** `Name: value` header flags as a record (refused when malformed). */
function headersOf(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const colon = v.indexOf(":");
    const name = colon > 0 ? v.slice(0, colon).trim() : "";
    if (name === "" || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) throw new UsageError(`--header must look like "Name: value", got "${v}"`);
    out[name] = v.slice(colon + 1).trim();
  }
  return out;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** `toolsim toolset import mcp [--url URL | -- COMMAND ARGS...]`: a live MCP server's tools as a toolset. */
export function toolsetImportMcpCommand(io: CliIO, setExit: (code: number) => void, writeImported: WriteImported): Command {
  return new Command("mcp")
    .description("a live MCP server's tools -> a toolset (one operation per tool, schemas and annotations kept), to simulate, generate corpora for and serve it without calling it")
    .argument("[command...]", "the server's command and arguments after --, spoken to over stdio (e.g. -- npx -y some-mcp-server)")
    .option("--url <url>", "a Streamable HTTP MCP server instead of a command")
    .option("--header <header>", 'an HTTP header for --url, "Name: value" (repeatable; never written to the toolset)', collect)
    .option("--out <dir>", "folder for the toolset file", "toolsets-mcp")
    .option("--name <name>", "the toolset's name (default: the server's title or name)")
    .option("--record", "call each read-only tool (annotated readOnlyHint, never destructive) once with synthesized arguments and keep its answer as the example")
    .option("--seed <n>", "seed of the synthesized arguments of --record", "1")
    .option("--timeout <ms>", "time allowed to the connection and to each request", "30000")
    .action(async (command: string[], flags: McpImportFlags) => {
      if (flags.url !== undefined && command.length > 0) throw new UsageError("give either --url URL or a command after --, not both");
      if (flags.url === undefined && command.length === 0) throw new UsageError("give the MCP server: a command after -- (e.g. toolsim toolset import mcp -- npx -y some-mcp-server) or --url URL");
      if (flags.header !== undefined && flags.url === undefined) throw new UsageError("--header goes with --url");
      const timeoutMs = parseInteger("--timeout", flags.timeout, 1) ?? 30_000;
      const seed = parseInteger("--seed", flags.seed) ?? 1;
      let source: McpSource;
      if (flags.url !== undefined) {
        try {
          const u = new URL(flags.url);
          if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("not http");
        } catch {
          throw new UsageError(`--url must be an http(s) URL, got "${flags.url}"`);
        }
        source = { kind: "http", url: flags.url, headers: headersOf(flags.header ?? []) };
      } else {
        const [cmd, ...args] = command;
        source = { kind: "stdio", command: cmd as string, args };
      }
      let connection;
      try {
        connection = await connectMcp(source, { timeoutMs });
      } catch (e) {
        if (e instanceof McpConnectError) throw new UserError(e.message);
        throw e;
      }
      try {
        const { imported, report } = await importMcp(connection, {
          record: flags.record === true,
          seed,
          ...(flags.name !== undefined ? { name: flags.name } : {}),
          log: (line) => io.err(`toolsim: ${line}\n`),
        });
        const server = connection.server;
        io.err(`toolsim: ${server.title ?? server.name}${server.version !== undefined ? ` ${server.version}` : ""} (${server.transport}): ${plural(report.tools, "tool")} in ${plural(report.pages, "page")}${report.duplicates.length > 0 ? `; listed twice and kept once: ${report.duplicates.join(", ")}` : ""}\n`);
        if (report.tools === 0) throw new UserError(`the MCP server ${server.name} lists no tools: nothing to import`);
        if (flags.record) {
          io.err(`toolsim: recorded the answers of ${plural(report.recorded.length, "read-only tool")}${report.failed.length > 0 ? `; ${report.failed.length} could not be recorded (${report.failed.map((f) => f.tool).join(", ")})` : ""}; ${plural(report.notCalled.length, "tool")} not called (not marked read-only)\n`);
        }
        setExit((await writeImported(io, flags.out, [imported], [])) ? 0 : 1);
      } catch (e) {
        if (e instanceof McpConnectError) throw new UserError(e.message);
        if (e instanceof Error && e.name === "McpError") throw new UserError(`the MCP server failed: ${e.message}`);
        throw e;
      } finally {
        await connection.close();
      }
    });
}
