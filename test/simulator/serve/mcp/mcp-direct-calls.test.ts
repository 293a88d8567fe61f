import { join } from "node:path";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { loadServedApis } from "../../../../simulator/serve/load-apis.js";
import type { ServedApi } from "../../../../simulator/serve/serve-app.js";
import { startServe, type RunningServe } from "../../../../simulator/serve/start-serve.js";
import { deriveSeed } from "../../../../specs/seed.js";
import { synthesizeArguments } from "../../../../specs/synthesize/synthesize-call.js";
import { bundledToolsetsDir } from "../../../../toolsets/load-toolset.js";

// Plain `tools/call` and `tools/list` requests are answered without the SDK's Streamable HTTP transport and
// protocol layer (the hot path). The answers must be the SDK's own: the same requests, sent to a server answering directly and to
// one answering every message through the SDK, get the same status, headers and JSON-RPC bodies; and every
// request that is not plain (other shapes, headers, versions) still goes to the SDK.

let bookstore: ServedApi;
beforeAll(async () => {
  const loaded = await loadServedApis([join(bundledToolsetsDir(), "bookstore.yaml")]);
  if (!loaded.ok) throw new Error("bookstore does not load");
  bookstore = loaded.apis[0] as ServedApi;
});

const running: RunningServe[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});
afterAll(() => vi.restoreAllMocks());

const ACCEPT = "application/json, text/event-stream";

/** A raw MCP session over HTTP: initialize, the initialized notification, then POSTs of raw bodies. */
async function session(server: RunningServe): Promise<(body: unknown, headers?: Record<string, string>) => Promise<{ status: number; type: string | null; json: unknown }>> {
  const url = server.mcpUrl as string;
  const init = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT },
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "parity", version: "1" } } }),
  });
  const id = init.headers.get("mcp-session-id") as string;
  await init.text();
  const base = { "content-type": "application/json", accept: ACCEPT, "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" };
  await (await fetch(url, { method: "POST", headers: base, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  return async (body, headers = {}) => {
    const res = await fetch(url, { method: "POST", headers: { ...base, ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
    const text = await res.text();
    // The session id header is the session's own: present on both or neither.
    expect(res.headers.get("mcp-session-id") === null || res.headers.get("mcp-session-id") === id).toBe(true);
    return { status: res.status, type: res.headers.get("content-type"), json: text === "" ? undefined : (JSON.parse(text) as unknown) };
  };
}

function call(id: string | number, name: string, args?: unknown, extra: Record<string, unknown> = {}): unknown {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, ...(args !== undefined ? { arguments: args } : {}), ...extra } };
}

/** The requests both servers get, in order: plain calls of every tool, refused ones, and ones that are not plain. */
function requests(): Array<{ body: unknown; headers?: Record<string, string>; plain: boolean }> {
  const out: Array<{ body: unknown; headers?: Record<string, string>; plain: boolean }> = [];
  let n = 1;
  for (const tool of bookstore.catalog.tools) {
    for (let s = 0; s < 3; s++) out.push({ body: call(n++, tool.name, synthesizeArguments(bookstore.catalog, tool, { seed: deriveSeed(3, tool.name, s) })), plain: true });
  }
  out.push(
    { body: call("string-id", "getBook", { bookId: "bk-1001" }), plain: true },
    { body: call(n++, "getBook", { bookId: "bk-1001" }, { _meta: { progressToken: "p-1" } }), plain: true },
    { body: call(n++, "listOrders"), plain: true },
    { body: call(n++, "createBook", { title: 5, genre: "poetry" }), plain: true },
    { body: call(n++, "getBook", { bookId: 7, colour: "red" }), plain: true },
    { body: call(n++, "getBok", {}), plain: true },
    // Not plain: left to the SDK, answered alike by both servers.
    { body: call(n++, "getBook", { bookId: "bk-1001" }), headers: { "content-type": "application/json; charset=utf-8" }, plain: false },
    { body: call(n++, "getBook", { bookId: "bk-1001" }), headers: { "mcp-protocol-version": "1999-01-01" }, plain: false },
    { body: call(n++, "getBook", { bookId: "bk-1001" }), headers: { accept: "application/json" }, plain: false },
    { body: call(n++, "getBook", ["bk-1001"]), plain: false },
    { body: call(n++, 42 as unknown as string, {}), plain: false },
    { body: call(1.5, "getBook", { bookId: "bk-1001" }), plain: false },
    { body: { ...(call(n++, "getBook", { bookId: "bk-1001" }) as object), extra: true }, plain: false },
    { body: call(n++, "getBook", { bookId: "bk-1001" }, { _meta: { progressToken: { not: "a token" } } }), plain: false },
    { body: [call(n++, "getBook", { bookId: "bk-1001" })], plain: false },
    { body: { jsonrpc: "2.0", id: n++, method: "tools/list" }, plain: true },
    { body: { jsonrpc: "2.0", id: "list", method: "tools/list", params: { _meta: { progressToken: 1 } } }, plain: true },
    { body: { jsonrpc: "2.0", id: n++, method: "tools/list", params: { cursor: "3" } }, plain: true },
    { body: { jsonrpc: "2.0", id: n++, method: "tools/list", params: { cursor: 3 } }, plain: false },
    { body: { jsonrpc: "2.0", id: n++, method: "resources/list" }, plain: false },
  );
  return out;
}

type Answer = { status: number; type: string | null; json: unknown };

/** The same requests to a server answering directly and to one answering through the SDK: both sides' answers. */
async function bothSides(all: Array<{ body: unknown; headers?: Record<string, string>; plain: boolean }>, pageSize?: number): Promise<Answer[]> {
  const handled = vi.spyOn(WebStandardStreamableHTTPServerTransport.prototype, "handleRequest");
  const answers: Record<"direct" | "sdk", Answer[]> = { direct: [], sdk: [] };
  const throughSdk: Record<"direct" | "sdk", number> = { direct: 0, sdk: 0 };
  for (const side of ["direct", "sdk"] as const) {
    const server = await startServe({ apis: [bookstore], port: 0, log: () => undefined, stateless: true, mcp: { directToolCalls: side === "direct", ...(pageSize ? { pageSize } : {}) } });
    running.push(server);
    const post = await session(server);
    const before = handled.mock.calls.length;
    for (const r of all) answers[side].push(await post(r.body, r.headers));
    throughSdk[side] = handled.mock.calls.length - before;
  }
  expect(throughSdk.sdk).toBe(all.length);
  expect(throughSdk.direct).toBe(all.filter((r) => !r.plain).length);
  for (let i = 0; i < all.length; i++) expect({ request: all[i]?.body, ...answers.direct[i] }).toEqual({ request: all[i]?.body, ...answers.sdk[i] });
  return answers.direct;
}

describe("serve --mcp-http: plain tools/call and tools/list answered directly", () => {
  it("answers every request as the SDK's transport and server answer it, and only plain requests skip them", async () => {
    const all = requests();
    const direct = await bothSides(all);
    // The requests are what they claim: successful calls, isError results, a protocol error, HTTP refusals.
    const results = direct.map((a) => a.json as { result?: { isError?: boolean; structuredContent?: unknown }; error?: { code: number } });
    expect(results.filter((r) => r.result !== undefined && r.result.isError !== true).length).toBeGreaterThanOrEqual(bookstore.catalog.tools.length);
    expect(results.filter((r) => r.result?.isError === true).length).toBeGreaterThanOrEqual(2);
    expect(results.some((r) => r.error?.code === -32602)).toBe(true);
    expect(direct.map((a) => a.status)).toEqual(expect.arrayContaining([400, 406]));
  });

  it("pages tools/list as the SDK does, cursors and invalid cursors alike", async () => {
    const list = (id: number, cursor?: unknown): unknown => ({ jsonrpc: "2.0", id, method: "tools/list", ...(cursor !== undefined ? { params: { cursor } } : {}) });
    const all = [list(1), list(2, "3"), list(3, "6"), list(4, "3"), list(5, "99"), list(6, "abc"), list(7, "-3")].map((body) => ({ body, plain: true }));
    const direct = await bothSides(all, 3);
    const pages = direct.slice(0, 3).map((a) => a.json as { result: { tools: Array<{ name: string }>; nextCursor?: string } });
    expect(pages.flatMap((p) => p.result.tools.map((t) => t.name))).toEqual(bookstore.catalog.tools.map((t) => t.name));
    expect(pages.map((p) => p.result.nextCursor)).toEqual(["3", "6", undefined]);
    expect((direct[3]?.json as { result: unknown }).result).toEqual(pages[1]?.result);
    for (const bad of direct.slice(4)) expect((bad.json as { error: { code: number } }).error.code).toBe(-32602);
  });

  it("keeps state per session on the direct path (a created book is found again in the same session only)", async () => {
    const server = await startServe({ apis: [bookstore], port: 0, log: () => undefined, mcp: true });
    running.push(server);
    const one = await session(server);
    const two = await session(server);
    const created = (await one(call(1, "createBook", { isbn: "9781234567897", title: "Direct", authors: ["Ada Byte"], genre: "science", price: 12.5 }))).json as { result: { structuredContent: { id: string }; isError?: boolean } };
    expect(created.result.isError).toBeUndefined();
    const id = created.result.structuredContent.id;
    const mine = (await one(call(2, "getBook", { bookId: id }))).json as { result: { structuredContent: { title: string } } };
    expect(mine.result.structuredContent.title).toBe("Direct");
    const theirs = (await two(call(2, "getBook", { bookId: id }))).json as { result: { isError?: boolean; _meta: Record<string, unknown> } };
    expect(theirs.result.isError).toBe(true);
    expect(theirs.result._meta["dev.toolsim/status"]).toBe(404);
  });
});
