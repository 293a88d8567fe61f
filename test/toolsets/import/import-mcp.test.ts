import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { parse as parseYaml } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import type { CliIO } from "../../../simulator/cli/cli-io.js";
import { main } from "../../../simulator/cli/main.js";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import { McpBridge } from "../../../simulator/serve/mcp/mcp-bridge.js";
import { createMcpServer } from "../../../simulator/serve/mcp/mcp-server.js";
import { createServeApp, type ServeOptions } from "../../../simulator/serve/serve-app.js";
import { startServe } from "../../../simulator/serve/start-serve.js";
import { mcpOpenApi, placeSchema } from "../../../toolsets/import/mcp-spec.js";
import { loadToolset } from "../../../toolsets/load-toolset.js";

// `toolset import mcp` against live MCP servers: a third-party-style server over stdio (test/fixtures/mcp/
// notes-server.ts: dotted names, `$defs`, two tools per page, a destructive tool marked read-only) and toolsim's
// own server over Streamable HTTP; and the spec it writes, unit by unit.

const TSX = createRequire(import.meta.url).resolve("tsx");
const NOTES = fileURLToPath(new URL("../../fixtures/mcp/notes-server.ts", import.meta.url));
const BOOKSTORE = fileURLToPath(new URL("../../../toolsets/bundled/bookstore.yaml", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "toolsim-import-mcp-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function captureIO(): CliIO & { stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  return { out: (s) => void (out += s), err: (s) => void (err += s), isTTY: false, stdout: () => out, stderr: () => err };
}

async function serveOverMcp(file: string): Promise<{ client: Client; close: () => Promise<void> }> {
  const loaded = await loadServedApis([file]);
  if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join("; "));
  const options: ServeOptions = { apis: loaded.apis, log: () => undefined };
  const app = createServeApp(options);
  const server = createMcpServer(new McpBridge(app, options), { mode: "schema", sessionOf: () => "test" });
  const client = new Client({ name: "test", version: "1" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  await client.connect(a);
  return { client, close: async () => void (await client.close(), await server.close(), await app.close()) };
}

describe("toolset import mcp (a stdio server)", () => {
  it("lists every page, keeps names, schemas and annotations, and records only read-only, non-destructive tools", async () => {
    const out = join(tmp, "notes");
    const calls = join(tmp, "notes-calls.jsonl");
    process.env["NOTES_CALLS"] = calls;
    const io = captureIO();
    const code = await main(["toolset", "import", "mcp", "--out", out, "--record", "--", process.execPath, "--import", TSX, NOTES], io);
    delete process.env["NOTES_CALLS"];
    expect(io.stderr()).toContain("Notes 2.1.0 (stdio): 5 tools in 3 pages");
    expect(code).toBe(0);
    expect(io.stdout()).toMatch(/wrote .*notes\.yaml \(Notes: 5 operations\)/);

    // Called: the read-only tools, search before get (which used an id search returned); never purge or create.
    const called = readFileSync(calls, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { name: string; arguments: Record<string, unknown> });
    expect(called.map((c) => c.name).sort()).toEqual(["notes.get", "notes.search", "stats"]);
    expect(called.find((c) => c.name === "notes.get")?.arguments).toEqual({ note_id: "n-1" });
    expect(io.stderr()).toMatch(/recorded the answers of 3 read-only tools; 2 tools not called/);

    const file = join(out, "notes.yaml");
    const data = parseYaml(readFileSync(file, "utf8")) as { name: string; category: string; introduction: string; openapi: any };
    expect(data).toMatchObject({ name: "Notes", category: "MCP", introduction: "Notes keeps short notes with tags." });
    const paths = data.openapi.paths;
    expect(Object.keys(paths)).toEqual(["/notes.search", "/notes.get", "/notes.purge", "/notes.create", "/stats"]);
    expect(paths["/notes.purge"].post["x-mcp-annotations"]).toEqual({ readOnlyHint: true, destructiveHint: true });
    expect(paths["/notes.search"].post["x-mcp-title"]).toBe("Search notes");
    // $defs moved to components, references rewritten; recorded answers kept as examples.
    expect(data.openapi.components.schemas["notes.create.input.NewNote"]).toMatchObject({ required: ["title"] });
    expect(paths["/notes.create"].post.requestBody.content["application/json"].schema.properties.note).toEqual({ $ref: "#/components/schemas/notes.create.input.NewNote" });
    expect(paths["/notes.search"].post.responses["200"].content["application/json"].example.notes).toHaveLength(3);
    expect(paths["/notes.get"].post.responses["200"].content["application/json"].example).toEqual({ id: "n-1", title: "Buy milk", tags: ["home"] });
    expect(paths["/stats"].post.responses["200"].content["text/plain"].example).toBe("There are 3 notes.");

    // The toolset loads, and served over MCP its tools have their MCP names, schemas and annotations back.
    const toolset = await loadToolset(file);
    expect(toolset.ok).toBe(true);
    const served = await serveOverMcp(file);
    try {
      const { tools } = await served.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["notes.search", "notes.get", "notes.purge", "notes.create", "stats"]);
      const byName = new Map(tools.map((t) => [t.name, t]));
      expect(byName.get("notes.create")?.inputSchema).toEqual({
        type: "object",
        properties: { note: { type: "object", properties: { title: { type: "string", minLength: 1 }, tags: { type: "array", items: { type: "string" } } }, required: ["title"] } },
        required: ["note"],
      });
      expect(byName.get("notes.get")?.outputSchema).toMatchObject({ type: "object", properties: { id: { type: "string", pattern: "^n-[0-9]+$" } }, required: ["id", "title"] });
      expect(byName.get("notes.purge")?.annotations).toEqual({ readOnlyHint: true, destructiveHint: true });
      expect(byName.get("notes.search")?.title).toBe("Search notes");
      // The simulated server answers from the recordings.
      const got = await served.client.callTool({ name: "notes.get", arguments: { note_id: "n-1" } });
      expect(got.structuredContent).toEqual({ id: "n-1", title: "Buy milk", tags: ["home"] });
      const stats = await served.client.callTool({ name: "stats", arguments: {} });
      expect(stats.content).toEqual([{ type: "text", text: "There are 3 notes." }]);
      expect(stats.structuredContent).toBeUndefined();
      const bad = await served.client.callTool({ name: "notes.create", arguments: { note: { tags: ["x"] } } });
      expect(bad.isError).toBe(true);
    } finally {
      await served.close();
    }
  });

  it("without --record, calls no tool at all", async () => {
    const calls = join(tmp, "no-record-calls.jsonl");
    process.env["NOTES_CALLS"] = calls;
    const code = await main(["toolset", "import", "mcp", "--out", join(tmp, "plain"), "--name", "My Notes", "--", process.execPath, "--import", TSX, NOTES], captureIO());
    delete process.env["NOTES_CALLS"];
    expect(code).toBe(0);
    expect(existsSync(calls)).toBe(false);
    expect(existsSync(join(tmp, "plain", "my-notes.yaml"))).toBe(true);
  });
});

describe("toolset import mcp (Streamable HTTP)", () => {
  it("reads toolsim's own server page by page over HTTP, with headers that never reach the file", async () => {
    const loaded = await loadServedApis([BOOKSTORE]);
    if (!loaded.ok) throw new Error("bookstore");
    const server = await startServe({ apis: loaded.apis, port: 0, log: () => undefined, mcp: { pageSize: 3, credential: false } });
    try {
      const out = join(tmp, "http");
      const io = captureIO();
      const code = await main(["toolset", "import", "mcp", "--url", server.mcpUrl as string, "--header", "X-Api-Key: demo-key-123", "--record", "--out", out], io);
      expect(io.stderr()).toContain("Bookstore API 0.1.0 (streamable-http): 8 tools in 3 pages");
      expect(code).toBe(0);
      // With credential: false the server checks the client's own key: the recordings needed the header.
      expect(io.stderr()).toMatch(/recorded the answers of 4 read-only tools; 4 tools not called/);
      const text = readFileSync(join(out, "bookstore-api.yaml"), "utf8");
      expect(text).not.toContain("demo-key-123");
      expect(text).toContain(`link: ${server.mcpUrl}`);
    } finally {
      await server.close();
    }
  });
});

describe("toolset import mcp: bad input", () => {
  it("refuses a missing or doubled source (exit 2) and reports a server that cannot be reached in one line (exit 1)", async () => {
    const none = captureIO();
    expect(await main(["toolset", "import", "mcp"], none)).toBe(2);
    expect(none.stderr()).toMatch(/give the MCP server: a command after --/);
    const both = captureIO();
    expect(await main(["toolset", "import", "mcp", "--url", "http://127.0.0.1:9/mcp", "--", "node"], both)).toBe(2);
    const missing = captureIO();
    expect(await main(["toolset", "import", "mcp", "--timeout", "5000", "--", "toolsim-no-such-command-xyz"], missing)).toBe(1);
    expect(missing.stderr()).toMatch(/^toolsim: cannot connect to the MCP server toolsim-no-such-command-xyz: .*\n$/);
    const closed = captureIO();
    expect(await main(["toolset", "import", "mcp", "--timeout", "5000", "--url", "http://127.0.0.1:9/mcp"], closed)).toBe(1);
    expect(closed.stderr()).toMatch(/^toolsim: cannot connect to the MCP server http:\/\/127\.0\.0\.1:9\/mcp: /);
    expect(closed.stderr().trim().split("\n")).toHaveLength(1);
  });
});

describe("the spec of an MCP server's tools", () => {
  it("places $defs in components and rewrites every local reference", () => {
    const components: Record<string, unknown> = {};
    const placed = placeSchema(
      {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { tree: { $ref: "#/definitions/Node" }, self: { $ref: "#" }, pair: { type: "array", items: [{ type: "string" }, { type: "integer" }], additionalItems: false } },
        definitions: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/definitions/Node" } } } } },
      },
      "/paths/~1t/post/requestBody/content/application~1json/schema",
      "t.input.",
      components,
    );
    expect(placed).toEqual({
      type: "object",
      properties: {
        tree: { $ref: "#/components/schemas/t.input.Node" },
        self: { $ref: "#/paths/~1t/post/requestBody/content/application~1json/schema" },
        pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false },
      },
    });
    expect(components["t.input.Node"]).toEqual({ type: "object", properties: { children: { type: "array", items: { $ref: "#/components/schemas/t.input.Node" } } } });
  });

  it("makes one POST operation per tool, unique paths for names that differ in case, text answers for tools without an output schema", () => {
    const tools: McpTool[] = [
      { name: "Get", inputSchema: { type: "object", properties: {} } },
      { name: "get", inputSchema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] }, outputSchema: { type: "object", properties: { v: { type: "number" } } } },
    ];
    const doc = mcpOpenApi({ name: "s", transport: "stdio" }, tools) as any;
    expect(Object.keys(doc.paths)).toEqual(["/Get", "/get_2"]);
    expect(doc.paths["/Get"].post.requestBody).toBeUndefined();
    expect(doc.paths["/Get"].post.responses["200"].content).toHaveProperty("text/plain");
    expect(doc.paths["/get_2"].post.requestBody).toMatchObject({ required: true });
    expect(doc.paths["/get_2"].post.responses["200"].content["application/json"].schema).toEqual({ type: "object", properties: { v: { type: "number" } } });
    expect(doc.paths["/get_2"].post["x-mcp-name"]).toBe("get");
  });
});
