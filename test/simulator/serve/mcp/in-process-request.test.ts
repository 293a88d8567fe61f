import { getRequestListener } from "@hono/node-server";
import { describe, expect, it } from "vitest";
import { inProcessRequest } from "../../../../simulator/serve/mcp/in-process-request.js";
import { responseParts } from "../../../../simulator/serve/mcp/light-response.js";

// The MCP bridge's light request is a Request to every reader, and reads its body once, as a Request does.

describe("inProcessRequest", () => {
  it("is a Request with its method, URL and headers, and a body read once", async () => {
    const headers = new Headers({ "content-type": "application/json" });
    const req = inProcessRequest("POST", "http://toolsim.mcp/books?x=1", headers, '{"a":"é"}');
    expect(req).toBeInstanceOf(Request);
    expect(req.method).toBe("POST");
    expect(req.url).toBe("http://toolsim.mcp/books?x=1");
    expect(req.headers.get("content-type")).toBe("application/json");
    expect(req.bodyUsed).toBe(false);
    expect(new TextDecoder().decode(await req.arrayBuffer())).toBe('{"a":"é"}');
    expect(req.bodyUsed).toBe(true);
    await expect(req.text()).rejects.toThrow(TypeError);
    expect(() => req.clone()).toThrow(TypeError);
  });

  it("gives what the light fields do not cover from a real Request: its stream, signal, clone", async () => {
    const req = inProcessRequest("PUT", "http://toolsim.mcp/books/1", new Headers({ "x-k": "v" }), "hello");
    expect(req.signal.aborted).toBe(false);
    expect(req.redirect).toBe("follow");
    const copy = req.clone();
    expect(await copy.text()).toBe("hello");
    expect(await new Response(req.body).text()).toBe("hello");
    expect(req.bodyUsed).toBe(true);
    await expect(req.json()).rejects.toThrow(TypeError);
  });

  it("stays a Request after @hono/node-server put its own subclass in place of the global Request (as serve runs)", async () => {
    const original = globalThis.Request;
    getRequestListener(() => new globalThis.Response(""));
    const req = inProcessRequest("POST", "http://toolsim.mcp/books", new Headers(), "x");
    expect(req).toBeInstanceOf(globalThis.Request);
    expect(req).toBeInstanceOf(original);
    expect(await req.text()).toBe("x");
  });

  it("without a body reads as empty, as a bodiless Request does", async () => {
    const req = inProcessRequest("GET", "http://toolsim.mcp/books", new Headers());
    expect(await req.text()).toBe("");
    expect(inProcessRequest("GET", "http://toolsim.mcp/books", new Headers()).body).toBeNull();
  });
});

describe("responseParts", () => {
  it("reads any response's text and headers (the standard way when it is not @hono/node-server's light one)", async () => {
    const response = new Response('{"ok":true}', { status: 201, headers: { "Content-Type": "application/json", "X-Toolsim-Source": "state" } });
    const parts = responseParts(response);
    expect(parts.header("content-type")).toBe("application/json");
    expect(parts.header("x-toolsim-source")).toBe("state");
    expect(parts.header("sl-violations")).toBeNull();
    expect(parts.text ?? (await response.text())).toBe('{"ok":true}');
  });

  it("reads @hono/node-server's light response from what it keeps, without building a stream or Headers", () => {
    // As `serve` runs: @hono/node-server puts its light Response in place of the global one.
    getRequestListener(() => new globalThis.Response(""));
    const response = new globalThis.Response('{"id":"bk-1"}', { status: 200, headers: { "Content-Type": "application/json", "sl-violations": "[]" } });
    const parts = responseParts(response);
    expect(parts.text).toBe('{"id":"bk-1"}');
    expect(parts.header("content-type")).toBe("application/json");
    expect(parts.header("sl-violations")).toBe("[]");
    expect(parts.header("x-toolsim-source")).toBeNull();
    expect(responseParts(new globalThis.Response(null, { status: 204 })).header("content-type")).toBeNull();
  });
});
