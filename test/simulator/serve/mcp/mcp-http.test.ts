import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { CallToolResultSchema, ToolSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HttpCassette } from "../../../../simulator/serve/record/http-cassette.js";
import { loadServedApis } from "../../../../simulator/serve/load-apis.js";
import { parseRate } from "../../../../simulator/serve/rate-limits.js";
import type { ServedApi } from "../../../../simulator/serve/serve-app.js";
import { startServe, type RunningServe, type StartServeOptions } from "../../../../simulator/serve/start-serve.js";
import { toolArgumentsSchema } from "../../../../specs/catalog/tool-schema.js";
import { bundledToolsetsDir } from "../../../../toolsets/load-toolset.js";

// `serve` with MCP over Streamable HTTP at /mcp, driven by the SDK's own Client: the tool list, calls answered by
// the same pipeline as REST (state per MCP session, auth, limits, faults, record and replay), and bad input.

let bookstore: ServedApi;
const tmp = mkdtempSync(join(tmpdir(), "toolsim-mcp-http-"));

beforeAll(async () => {
  const loaded = await loadServedApis([join(bundledToolsetsDir(), "bookstore.yaml")]);
  if (!loaded.ok) throw new Error("bookstore does not load");
  bookstore = loaded.apis[0] as ServedApi;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const running: RunningServe[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(options: Partial<StartServeOptions> = {}): Promise<RunningServe> {
  const server = await startServe({ apis: [bookstore], port: 0, log: () => undefined, mcp: true, ...options });
  running.push(server);
  return server;
}

async function connect(server: RunningServe, headers: Record<string, string> = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "test", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(server.mcpUrl as string), { requestInit: { headers } });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

function statusOf(result: CallToolResult): number {
  return Number((result._meta as Record<string, unknown> | undefined)?.["dev.toolsim/status"]);
}

function textOf(result: CallToolResult): string {
  const block = result.content[0];
  return block?.type === "text" ? block.text : "";
}

async function rpc(url: string, body: string, headers: Record<string, string> = {}, method = "POST"): Promise<{ status: number; json: any }> {
  const res = await fetch(url, { method, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, ...(method === "POST" ? { body } : {}) });
  const text = await res.text();
  return { status: res.status, json: text === "" ? undefined : JSON.parse(text) };
}

describe("serve --mcp-http: tools", () => {
  it("lists every operation with its argument schema, object output schemas and annotations by method", async () => {
    const server = await start();
    const { client } = await connect(server);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(bookstore.catalog.tools.map((t) => t.name));
    for (const tool of tools) {
      expect(ToolSchema.safeParse(tool).success).toBe(true);
      const catalogTool = bookstore.catalog.get(tool.name);
      if (!catalogTool) throw new Error(tool.name);
      expect(tool.inputSchema).toEqual(toolArgumentsSchema(bookstore.catalog, catalogTool));
      expect(tool.description).toBe(catalogTool.description);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("getBook")?.annotations).toEqual({ readOnlyHint: true });
    expect(byName.get("deleteBook")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get("updateBook")?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(byName.get("createOrder")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    // deleteBook answers 204 (no body): no output schema; the others answer JSON objects.
    expect(byName.get("deleteBook")?.outputSchema).toBeUndefined();
    expect(byName.get("getBook")?.outputSchema).toMatchObject({ type: "object", properties: { id: { type: "string" }, title: { type: "string" } } });
    expect(byName.get("listBooks")?.outputSchema?.["properties"]).toHaveProperty("items");
  });

  it("answers a call as the REST route does: structured content, a JSON text block, and the same body", async () => {
    const server = await start();
    const { client } = await connect(server);
    const result = (await client.callTool({ name: "getBook", arguments: { bookId: "bk-1002" } })) as CallToolResult;
    expect(CallToolResultSchema.safeParse(result).success).toBe(true);
    expect(result.isError).toBeUndefined();
    expect(statusOf(result)).toBe(200);
    const rest = await fetch(`${server.apis[0]?.url}/books/bk-1002`, { headers: { "x-api-key": "demo-key-123" } });
    const restBody = await rest.json();
    expect(result.structuredContent).toEqual(restBody);
    expect(JSON.parse(textOf(result))).toEqual(restBody);
    const validator = new AjvJsonSchemaValidator().getValidator((await client.listTools()).tools.find((t) => t.name === "getBook")?.outputSchema as object);
    expect(validator(result.structuredContent).valid).toBe(true);
  });

  it("keeps one state per MCP session, visible in the admin routes and dropped when the session ends", async () => {
    const server = await start();
    const a = await connect(server);
    const b = await connect(server);
    const created = (await a.client.callTool({
      name: "createBook",
      arguments: { isbn: "9781234567897", title: "Session Notes", authors: ["Ada Byte"], genre: "science", price: 12.5 },
    })) as CallToolResult;
    expect(statusOf(created)).toBe(201);
    const id = (created.structuredContent as { id: string }).id;
    expect(id).toMatch(/^bk-/);
    const mine = (await a.client.callTool({ name: "getBook", arguments: { bookId: id } })) as CallToolResult;
    expect((mine.structuredContent as { title: string }).title).toBe("Session Notes");
    const theirs = (await b.client.callTool({ name: "getBook", arguments: { bookId: id } })) as CallToolResult;
    expect(theirs.isError).toBe(true);
    expect(statusOf(theirs)).toBe(404);
    const sessionA = a.transport.sessionId as string;
    const state = (await (await fetch(`${server.url}/__toolsim/state?session=${sessionA}`)).json()) as { apis: { bookstore: { "/books": Array<{ id: string }> } } };
    expect(state.apis.bookstore["/books"].map((x) => x.id)).toContain(id);
    // Ending the session (DELETE /mcp) drops its state; its id is then unknown (404: start a new session).
    await a.transport.terminateSession();
    const sessions = (await (await fetch(`${server.url}/__toolsim/sessions`)).json()) as { sessions: string[] };
    expect(sessions.sessions).not.toContain(sessionA);
    const gone = await rpc(server.mcpUrl as string, JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }), { "mcp-session-id": sessionA, "mcp-protocol-version": "2025-06-18" });
    expect(gone.status).toBe(404);
    expect(gone.json.error.code).toBe(-32001);
  });

  it("offers each toolset's documentation and OpenAPI document as resources", async () => {
    const server = await start();
    const { client } = await connect(server);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["toolsim://bookstore/documentation", "toolsim://bookstore/openapi.json"]);
    const doc = await client.readResource({ uri: "toolsim://bookstore/documentation" });
    const text = (doc.contents[0] as { text: string }).text;
    expect(text).toContain("## Introduction");
    expect(text).toContain("### getBook");
    const spec = await client.readResource({ uri: "toolsim://bookstore/openapi.json" });
    expect(JSON.parse((spec.contents[0] as { text: string }).text).info.title).toBe(bookstore.catalog.title);
    await expect(client.readResource({ uri: "toolsim://nope/documentation" })).rejects.toThrow(/Unknown resource: toolsim:\/\/nope\/documentation; this server offers toolsim:\/\/bookstore\/documentation/);
    expect(client.getInstructions()).toMatch(/^Bookstore API: An online bookshop/);
  });
});

describe("serve --mcp-http: the serve pipeline", () => {
  it("presents the toolset's credential for clients that bring none, and checks the client's own when it sends one", async () => {
    const server = await start();
    const anonymous = await connect(server);
    expect(statusOf((await anonymous.client.callTool({ name: "getBook", arguments: { bookId: "bk-1001" } })) as CallToolResult)).toBe(200);
    const wrong = await connect(server, { "X-Api-Key": "not-a-key" });
    const refused = (await wrong.client.callTool({ name: "getBook", arguments: { bookId: "bk-1001" } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(statusOf(refused)).toBe(401);
    // The bookstore declares its own 401 body: the MCP result carries it, as the REST route does.
    expect(JSON.parse(textOf(refused))).toMatchObject({ error: "unauthorized", message: expect.stringMatching(/Invalid credentials/) });
  });

  it("with credential: false, clients must send the API's own auth header", async () => {
    const server = await start({ mcp: { credential: false } });
    const bare = await connect(server);
    const refused = (await bare.client.callTool({ name: "getBook", arguments: { bookId: "bk-1001" } })) as CallToolResult;
    expect(statusOf(refused)).toBe(401);
    const keyed = await connect(server, { "X-Api-Key": "bookstore-staff-key-9f2c" });
    expect(statusOf((await keyed.client.callTool({ name: "getBook", arguments: { bookId: "bk-1001" } })) as CallToolResult)).toBe(200);
  });

  it("applies rate limits and injected faults as isError results", async () => {
    const limited = await start({ rateLimit: parseRate("2/min") });
    const { client } = await connect(limited);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push(statusOf((await client.callTool({ name: "getBook", arguments: { bookId: "bk-1001" } })) as CallToolResult));
    expect(statuses).toEqual([200, 200, 429]);
    const faulty = await start({ faults: { rate: 1, kinds: ["5xx"] } });
    const f = await connect(faulty);
    const failed = (await f.client.callTool({ name: "getBook", arguments: { bookId: "bk-1001" } })) as CallToolResult;
    expect(failed.isError).toBe(true);
    expect(statusOf(failed)).toBeGreaterThanOrEqual(500);
    expect(JSON.parse(textOf(failed)).type).toBe("https://toolsim.dev/problems/injected-fault");
  });

  it("records MCP calls to a cassette that a replaying server answers byte for byte", async () => {
    const cassettePath = join(tmp, "mcp-cassette.jsonl");
    const recorder = await start({ record: cassettePath });
    const r = await connect(recorder);
    const first = (await r.client.callTool({ name: "listBooks", arguments: { genre: "mystery" } })) as CallToolResult;
    await r.client.close();
    await recorder.close();
    const lines = readFileSync(cassettePath, "utf8").trim().split("\n");
    expect(lines.length).toBe(1);
    expect(JSON.parse(lines[0] as string).request).toMatchObject({ method: "GET", path: "/books" });
    const { cassette } = await HttpCassette.load(cassettePath);
    const replay = await start({ mode: "replay", cassette });
    const p = await connect(replay);
    const again = (await p.client.callTool({ name: "listBooks", arguments: { genre: "mystery" } })) as CallToolResult;
    expect((again._meta as Record<string, unknown>)["dev.toolsim/source"]).toBe("replay");
    expect(again.structuredContent).toEqual(first.structuredContent);
  });
});

describe("serve --mcp-http: bad input", () => {
  it("answers invalid and unknown arguments with isError problem details listing every error", async () => {
    const server = await start();
    const { client } = await connect(server);
    const invalid = (await client.callTool({ name: "createBook", arguments: { title: 5, genre: "poetry" } })) as CallToolResult;
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toBeUndefined();
    // The bookstore declares its own 400 shape (as REST answers); every issue is in it and in _meta.
    expect(statusOf(invalid)).toBe(400);
    const body = JSON.parse(textOf(invalid));
    expect(body.details.map((d: { field: string }) => d.field).sort()).toEqual(["authors", "genre", "isbn", "price", "title"]);
    const violations = (invalid._meta as Record<string, unknown>)["dev.toolsim/violations"] as Array<{ location: string[] }>;
    expect(violations.map((v) => v.location.join("."))).toEqual(expect.arrayContaining(["body.title", "body.genre", "body.isbn"]));
    const unknown = (await client.callTool({ name: "getBook", arguments: { bookId: 7, colour: "red" } })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    // getBook declares no 400 or 422: the refusal is problem details (Prism's 422), every error in it.
    expect(statusOf(unknown)).toBe(422);
    const problem = JSON.parse(textOf(unknown));
    expect(problem).toMatchObject({ status: 422, title: "Invalid request" });
    const issues = problem.validation.map((v: { location: string[]; message: string }) => `${v.location.join(".")}: ${v.message}`);
    expect(issues).toEqual(expect.arrayContaining(['arguments.colour: unknown argument "colour"']));
    expect(issues.some((i: string) => i.startsWith("path.bookId: must match pattern"))).toBe(true);
    expect((unknown._meta as Record<string, unknown>)["dev.toolsim/violations"]).toEqual(problem.validation);
  });

  it("refuses an unknown tool with a JSON-RPC error naming the nearest tools, and goes on", async () => {
    const server = await start();
    const { client } = await connect(server);
    const error = await client.callTool({ name: "getBok", arguments: {} }).then(
      () => undefined,
      (e: unknown) => e as { code: number; message: string; data: { suggestions: string[] } },
    );
    expect(error?.code).toBe(-32602);
    expect(error?.message).toMatch(/Unknown tool: getBok; did you mean getBook/);
    expect(error?.data.suggestions).toContain("getBook");
    expect(statusOf((await client.callTool({ name: "getBook", arguments: { bookId: "bk-1001" } })) as CallToolResult)).toBe(200);
  });

  it("answers malformed JSON-RPC with JSON-RPC errors and 4xx statuses, without disturbing open sessions", async () => {
    const server = await start();
    const { client, transport } = await connect(server);
    const url = server.mcpUrl as string;
    const notJson = await rpc(url, "{not json");
    expect(notJson.status).toBe(400);
    expect(notJson.json).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    const noSession = await rpc(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    expect(noSession.status).toBe(400);
    expect(noSession.json.error.message).toMatch(/first request of a session must be initialize/);
    const session = { "mcp-session-id": transport.sessionId as string, "mcp-protocol-version": "2025-06-18" };
    const badInSession = await rpc(url, "[[[", session);
    expect(badInSession.status).toBe(400);
    expect(badInSession.json.error.code).toBe(-32700);
    const notRpc = await rpc(url, JSON.stringify({ hello: "world" }), session);
    expect(notRpc.status).toBe(400);
    const get = await rpc(url, "", {}, "GET");
    expect(get.status).toBe(400);
    const evil = await rpc(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }), { origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    expect(statusOf((await client.callTool({ name: "getBook", arguments: { bookId: "bk-1001" } })) as CallToolResult)).toBe(200);
  });

  it("survives a client that disconnects mid-call; other sessions are unaffected", async () => {
    // Every call waits 400 ms (an injected latency fault), long enough to hang up in the middle of one.
    const server = await start({ faults: { rate: 1, kinds: ["latency"], latencyMs: 400 } });
    const leaving = await connect(server);
    const staying = await connect(server);
    const abort = new AbortController();
    const pending = leaving.client.callTool({ name: "getBook", arguments: { bookId: "bk-1001" } }, undefined, { signal: abort.signal });
    const other = staying.client.callTool({ name: "getBook", arguments: { bookId: "bk-1003" } });
    setTimeout(() => abort.abort(), 50);
    await expect(pending).rejects.toThrow();
    await leaving.client.close();
    const answer = (await other) as CallToolResult;
    expect(statusOf(answer)).toBe(200);
    expect((answer.structuredContent as { id: string }).id).toBe("bk-1003");
    const later = await connect(server);
    expect(statusOf((await later.client.callTool({ name: "listOrders", arguments: {} })) as CallToolResult)).toBe(200);
    const health = await fetch(`${server.url}/__toolsim/health`);
    expect(health.status).toBe(200);
  });
});
