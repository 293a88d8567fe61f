import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CallToolRequestSchema, ToolSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIO } from "../../../../simulator/cli/cli-io.js";
import { main } from "../../../../simulator/cli/main.js";
import { serveCommand } from "../../../../simulator/cli/serve-command.js";
import { exportRun } from "../../../../simulator/export/export-run.js";
import { createSimulation } from "../../../../simulator/core/simulation.js";
import { loadToolsets } from "../../../../toolsets/load-toolset.js";
import { ensureBuiltCli, ROOT, TOOLSIM_BIN } from "../../../support/built-cli.js";

// `toolsim serve --mcp` as MCP clients run it: the compiled CLI (`node bin/toolsim.js`) spawned by the SDK's
// stdio client; malformed lines on its stdin; and the round trip serve --mcp -> toolset import mcp -> serve --mcp,
// whose toolset the simulator generates over and exports in MCP's shapes.

const BOOKSTORE = join(ROOT, "toolsets", "bundled", "bookstore.yaml");
const tmp = mkdtempSync(join(tmpdir(), "toolsim-mcp-stdio-"));

beforeAll(() => ensureBuiltCli(), 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function captureIO(): CliIO & { stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  return { out: (s) => void (out += s), err: (s) => void (err += s), isTTY: false, stdout: () => out, stderr: () => err };
}

async function stdioClient(file: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [TOOLSIM_BIN, "serve", file, "--mcp"], cwd: ROOT, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => void (stderr += d.toString()));
  const client = new Client({ name: "test", version: "1" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe("toolsim serve --mcp (stdio, the compiled CLI)", () => {
  it("serves the toolset to the SDK's stdio client for the life of the process, state kept between calls", async () => {
    const { client, stderr } = await stdioClient(BOOKSTORE);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(8);
      for (const t of tools) expect(ToolSchema.safeParse(t).success).toBe(true);
      const created = (await client.callTool({ name: "createBook", arguments: { isbn: "9781234567897", title: "Stdio Tales", authors: ["Ada Byte"], genre: "fiction", price: 9.5 } })) as CallToolResult;
      expect(CallToolResultSchema.safeParse(created).success).toBe(true);
      const id = (created.structuredContent as { id: string }).id;
      const read = (await client.callTool({ name: "getBook", arguments: { bookId: id } })) as CallToolResult;
      expect((read.structuredContent as { title: string }).title).toBe("Stdio Tales");
      const doc = await client.readResource({ uri: "toolsim://bookstore/documentation" });
      expect((doc.contents[0] as { text: string }).text).toContain("# Bookstore (bookstore)");
    } finally {
      await client.close();
    }
    expect(stderr()).toMatch(/toolsim serve: schema mode, seed 1; .*\n {2}mcp +stdio {2}8 tools \(state session "stdio"\)/);
  });

  it("answers malformed lines with JSON-RPC errors on stdout and nothing else, reads on, and exits 0 when stdin closes", async () => {
    const child = spawn(process.execPath, [TOOLSIM_BIN, "serve", BOOKSTORE, "--mcp"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => void (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => void (err += d.toString()));
    const lines = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } },
      "this is not json",
      { jsonrpc: "1.0", hello: "world" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "no/such/method" },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "getBook", arguments: { bookId: "bk-1001" } } },
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "nope", arguments: {} } },
    ];
    const replies = new Promise<void>((resolve) => {
      const check = (): void => {
        if (out.split("\n").filter((l) => l.trim() !== "").length >= 6) resolve();
      };
      child.stdout.on("data", check);
    });
    for (const line of lines) child.stdin.write(`${typeof line === "string" ? line : JSON.stringify(line)}\n`);
    await replies;
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    const messages = out.trim().split("\n").map((l) => JSON.parse(l) as { id: number | null; result?: any; error?: { code: number; message: string } });
    const byId = (id: number | null): typeof messages => messages.filter((m) => m.id === id);
    expect(byId(null).map((m) => m.error?.code ?? 0).sort((a, b) => a - b)).toEqual([-32700, -32600]);
    expect(byId(1)[0]?.result.serverInfo.name).toBe("toolsim");
    expect(byId(2)[0]?.error?.code).toBe(-32601);
    expect(byId(3)[0]?.result.structuredContent.id).toBe("bk-1001");
    expect(byId(4)[0]?.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Unknown tool: nope/) });
    expect(err).toMatch(/malformed message was answered with -32700/);
    expect(err).toMatch(/the MCP client closed stdin, stopping/);
  });

  it("serve --mcp-http prints the MCP URL beside the APIs; --mcp-credential none leaves auth to the client", async () => {
    const io = captureIO();
    const signals = new EventEmitter();
    const done = serveCommand(io, () => undefined, signals).exitOverride().parseAsync([BOOKSTORE, "--port", "0", "--mcp-http", "--mcp-credential", "none"], { from: "user" });
    try {
      for (let i = 0; i < 200 && !io.stdout().includes("Press Ctrl-C"); i++) await new Promise((r) => setTimeout(r, 25));
      const url = /\n {2}mcp +(http:\/\/127\.0\.0\.1:\d+\/mcp) {2}MCP over Streamable HTTP/.exec(io.stdout())?.[1];
      expect(url).toBeDefined();
      const client = new Client({ name: "test", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url as string)));
      const bare = (await client.callTool({ name: "getBook", arguments: { bookId: "bk-1001" } })) as CallToolResult;
      expect(bare.isError).toBe(true);
      expect((bare._meta as Record<string, unknown>)["dev.toolsim/status"]).toBe(401);
      await client.close();
    } finally {
      signals.emit("SIGINT");
      await done;
    }
    expect(io.stdout()).toContain("SIGINT, stopping");
  });

  it("refuses HTTP flags with --mcp alone (exit 2)", async () => {
    const io = captureIO();
    expect(await main(["serve", BOOKSTORE, "--mcp", "--port", "4999"], io)).toBe(2);
    expect(io.stderr()).toMatch(/--port: with --mcp alone, MCP goes over stdin\/stdout and no HTTP port is opened; add --mcp-http/);
  });
});

describe("round trip: serve --mcp -> toolset import mcp -> serve --mcp", () => {
  it("keeps every tool's name, schemas and annotations; the imported toolset is simulated, generated over and exported", async () => {
    const out = join(tmp, "imported");
    const io = captureIO();
    const code = await main(["toolset", "import", "mcp", "--out", out, "--record", "--", process.execPath, TOOLSIM_BIN, "serve", BOOKSTORE, "--mcp"], io);
    expect(code).toBe(0);
    const file = join(out, "bookstore-api.yaml");
    expect(io.stdout()).toContain(`wrote ${file} (Bookstore API: 8 operations)`);

    const original = await stdioClient(BOOKSTORE);
    const again = await stdioClient(file);
    let first: Tool[];
    let second: Tool[];
    try {
      first = (await original.client.listTools()).tools;
      second = (await again.client.listTools()).tools;
      const pick = (t: Tool): unknown => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, outputSchema: t.outputSchema, annotations: t.annotations });
      expect(second.map(pick)).toEqual(first.map(pick));
      // The imported server answers from its recordings, in the shapes the output schemas promise.
      const result = (await again.client.callTool({ name: "getOrder", arguments: { orderId: "ord-50001" } })) as CallToolResult;
      expect(result.isError).toBeUndefined();
      const validate = new AjvJsonSchemaValidator().getValidator(second.find((t) => t.name === "getOrder")?.outputSchema as object);
      expect(validate(result.structuredContent).valid).toBe(true);
    } finally {
      await original.client.close();
      await again.client.close();
    }

    // generate --toolsets accepts it; the openai, sharegpt and mcp exports write it.
    const { toolsets, problems } = await loadToolsets([file]);
    expect(problems).toEqual([]);
    const runDir = join(tmp, "run");
    const { summary } = await createSimulation({ toolsets, episodes: 12, seed: 5, out: runDir }).run();
    expect(summary.accepted).toBeGreaterThan(0);
    const outputs: Record<string, string> = {};
    for (const format of ["openai", "sharegpt", "mcp"] as const) {
      outputs[format] = join(tmp, `export-${format}.jsonl`);
      const result = await exportRun({ dir: runDir, format, out: outputs[format] as string, toolsets: [file] });
      expect(result.exported).toBe(summary.accepted);
    }
    const lines = readFileSync(outputs["mcp"] as string, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { tools: Tool[]; messages: any[] });
    for (const line of lines) {
      expect(line.tools.map((t) => t.name).sort()).toEqual(first.map((t) => t.name).sort());
      for (const t of line.tools) expect(ToolSchema.safeParse(t).success).toBe(true);
      const calls = line.messages.flatMap((m) => (m.role === "assistant" && m.tool_calls ? m.tool_calls : []));
      const results = line.messages.filter((m) => m.role === "tool");
      expect(calls.length).toBeGreaterThan(0);
      expect(results.map((r) => r.tool_call_id)).toEqual(calls.map((c: { id: string }) => c.id));
      for (const c of calls) expect(CallToolRequestSchema.safeParse({ method: c.method, params: c.params }).success).toBe(true);
      for (const r of results) expect(CallToolResultSchema.safeParse(r.result).success).toBe(true);
    }
  });
});
