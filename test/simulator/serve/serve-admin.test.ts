import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import type { ServedApi } from "../../../simulator/serve/serve-app.js";
import { startServe, type RunningServe, type StartServeOptions } from "../../../simulator/serve/start-serve.js";

/**
 * The admin routes cannot be reached by web pages: a cross-origin `text/plain` POST reset (what any page can send
 * without a preflight) is refused and changes nothing, a DNS-rebinding `Host` is refused, `--cors` never applies to
 * them, `reset` takes bounded JSON bodies only (even without an admin token), and health shows no upstream URL.
 * Requests are sent with node:http, so that Origin, Host and Sec-Fetch-Site are exactly what a browser would send.
 */

const TOOLSET = join(fileURLToPath(new URL("../../fixtures/serve", import.meta.url)), "petshop.yaml");
let api: ServedApi;
beforeAll(async () => {
  const loaded = await loadServedApis([TOOLSET]);
  if (!loaded.ok) throw new Error("fixture does not load");
  api = loaded.apis[0] as ServedApi;
});

const running: RunningServe[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(options: Partial<StartServeOptions> = {}): Promise<RunningServe> {
  const server = await startServe({ apis: [{ ...api }], port: 0, enforceAuth: false, log: () => undefined, ...options });
  running.push(server);
  return server;
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request with exactly these headers (Host included when given). */
function raw(server: RunningServe, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Raw> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest({ host: "127.0.0.1", port: server.port, method, path, headers, setHost: headers["host"] === undefined, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown = text;
        try {
          parsed = text === "" ? undefined : JSON.parse(text);
        } catch {
          // text
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        // Stop sending what the server did not want (a body it answered with a 413).
        req.destroy();
      });
    });
    // A server that answers (413) before the body is sent may close the connection while it is still being written.
    req.on("error", (e) => (answered ? undefined : reject(e)));
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const JSON_HEADERS = { "content-type": "application/json" };

/** Alice's session with one created pet, and the way to see whether it is still there. */
async function aliceWithAPet(s: RunningServe): Promise<() => Promise<string[]>> {
  const created = await raw(s, "POST", "/pets", { ...JSON_HEADERS, "x-toolsim-session": "alice" }, JSON.stringify({ name: "Tom", species: "cat" }));
  expect(created.status).toBe(201);
  return async () => {
    const state = await raw(s, "GET", "/__toolsim/state?session=alice");
    return (state.body.apis.petshop["/pets"] as Array<{ name: string }>).map((p) => p.name);
  };
}

describe("toolsim serve: admin routes that web pages cannot reach", () => {
  it("refuses a cross-origin text/plain POST /__toolsim/reset (no admin token): 403, and the state stays", async () => {
    const s = await start();
    const names = await aliceWithAPet(s);
    expect(await names()).toContain("Tom");
    // What `fetch("http://127.0.0.1:4010/__toolsim/reset", {method: "POST", mode: "no-cors", body: "x"})` sends from a page.
    const attack = await raw(s, "POST", "/__toolsim/reset", { "content-type": "text/plain;charset=UTF-8", origin: "http://evil.example", "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors" }, "x");
    expect(attack.status).toBe(403);
    expect(attack.headers["content-type"]).toBe("application/problem+json");
    expect(attack.body.detail).toContain("Origin: http://evil.example");
    // Without Sec-Fetch headers (older browsers), the Origin alone is enough; with neither, the body type is.
    expect((await raw(s, "POST", "/__toolsim/reset", { "content-type": "text/plain", origin: "http://evil.example" }, "x")).status).toBe(403);
    expect((await raw(s, "POST", "/__toolsim/reset", { origin: "null" })).status).toBe(403);
    const form = await raw(s, "POST", "/__toolsim/reset", { "content-type": "application/x-www-form-urlencoded" }, "session=alice");
    expect(form.status).toBe(415);
    expect(await names()).toContain("Tom");
    // A same-origin request (what a client on the machine sends) resets.
    const ok = await raw(s, "POST", "/__toolsim/reset", { ...JSON_HEADERS, origin: `http://127.0.0.1:${s.port}` }, JSON.stringify({ session: "alice" }));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ reset: ["alice"], all: false });
    expect(await names()).not.toContain("Tom");
  });

  it("refuses a Host a page could borrow through DNS rebinding (reads included), unless allowed or a token is set", async () => {
    const s = await start({ allowedHosts: ["toolsim.internal"] });
    await aliceWithAPet(s);
    const rebound = await raw(s, "GET", "/__toolsim/state?session=alice", { host: `rebind.evil.example:${s.port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body.detail).toContain("rebind.evil.example");
    expect((await raw(s, "POST", "/__toolsim/reset", { host: `rebind.evil.example:${s.port}` })).status).toBe(403);
    for (const host of [`localhost:${s.port}`, `127.0.0.1:${s.port}`, `[::1]:${s.port}`, `10.1.2.3:${s.port}`, `toolsim.internal:${s.port}`]) {
      expect((await raw(s, "GET", "/__toolsim/sessions", { host })).status, host).toBe(200);
    }
    const withToken = await start({ adminToken: "s3cret-admin-token" });
    expect((await raw(withToken, "GET", "/__toolsim/sessions", { host: "toolsim:4010", "x-toolsim-admin-token": "s3cret-admin-token" })).status).toBe(200);
  });

  it("never applies CORS to the admin routes, even with --cors (the API routes keep it)", async () => {
    const s = await start({ cors: true });
    await aliceWithAPet(s);
    const page = { origin: "http://evil.example" };
    const preflight = await raw(s, "OPTIONS", "/__toolsim/reset", { ...page, "access-control-request-method": "POST", "access-control-request-headers": "content-type" });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    expect(preflight.status).toBe(403);
    const state = await raw(s, "GET", "/__toolsim/state?session=alice", page);
    expect(state.status).toBe(403);
    expect(state.headers["access-control-allow-origin"]).toBeUndefined();
    expect(JSON.stringify(state.body)).not.toContain("Tom");
    const apiRoute = await raw(s, "GET", "/pets", page);
    expect(apiRoute.status).toBe(200);
    expect(apiRoute.headers["access-control-allow-origin"]).toBe("*");
  });

  it("takes JSON bodies of at most 16 KiB on reset, without an admin token too (eight 50 MB bodies do not get read)", async () => {
    const s = await start();
    const big = Buffer.alloc(50 * 1024 * 1024, 0x20);
    for (let i = 0; i < 8; i++) {
      const r = await raw(s, "POST", "/__toolsim/reset", { ...JSON_HEADERS, "content-length": String(big.length) }, big);
      expect(r.status).toBe(413);
    }
    const chunked = await raw(s, "POST", "/__toolsim/reset", { ...JSON_HEADERS, "transfer-encoding": "chunked" }, Buffer.alloc(64 * 1024, 0x20));
    expect(chunked.status).toBe(413);
    expect((await raw(s, "POST", "/__toolsim/reset", JSON_HEADERS, "{not json")).status).toBe(400);
    expect((await raw(s, "POST", "/__toolsim/reset", JSON_HEADERS, JSON.stringify({ session: 5 }))).status).toBe(400);
    expect((await raw(s, "POST", "/__toolsim/reset", JSON_HEADERS, JSON.stringify({ sessions: "a" }))).status).toBe(400);
    expect((await raw(s, "POST", "/__toolsim/reset")).body).toEqual({ reset: [], all: true });
    expect((await raw(s, "POST", "/__toolsim/reset", JSON_HEADERS, "{}")).status).toBe(200);
  });

  it("refuses an encoded body (Content-Encoding: gzip) with 415 and Accept-Encoding: identity, on reset and on the API", async () => {
    const s = await start();
    for (const path of ["/__toolsim/reset", "/pets"]) {
      const r = await raw(s, "POST", path, { ...JSON_HEADERS, "content-encoding": "gzip" }, "{}");
      expect(r.status, path).toBe(415);
      expect(r.headers["accept-encoding"]).toBe("identity");
    }
    expect((await raw(s, "POST", "/__toolsim/reset", { ...JSON_HEADERS, "content-encoding": "identity" }, "{}")).status).toBe(200);
  });

  it("names the route meant for a trailing slash (404, not a 405 that allows the method asked), and refuses session ids the API refuses", async () => {
    const s = await start();
    const slash = await raw(s, "GET", "/__toolsim/health/");
    expect(slash.status).toBe(404);
    expect(slash.body.detail).toContain("did you mean /__toolsim/health?");
    const long = "s".repeat(300);
    expect((await raw(s, "GET", `/__toolsim/state?session=${long}`)).status).toBe(400);
    expect((await raw(s, "POST", `/__toolsim/reset?session=${long}`)).status).toBe(400);
    expect((await raw(s, "GET", "/__toolsim/state?session=alice")).status).toBe(200);
  });

  it("keeps upstream URLs and their credentials out of /__toolsim/health", async () => {
    const upstream = "https://user:pa55word@api.example.com/v1?api_key=sk-upstream-123";
    const s = await start({ apis: [{ ...api, upstream }], mode: "proxy", fetch: async () => new Response("{}", { status: 200 }) });
    const health = await raw(s, "GET", "/__toolsim/health");
    expect(health.status).toBe(200);
    expect(health.body.apis).toEqual([{ name: "petshop", prefix: "", title: expect.any(String), operations: expect.any(Number) }]);
    const text = JSON.stringify(health.body);
    for (const secret of ["pa55word", "sk-upstream-123", "api.example.com", "user:"]) expect(text).not.toContain(secret);
  });
});
