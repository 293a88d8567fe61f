import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadCredentials, type Credential } from "../../../simulator/serve/auth.js";
import { faultAt, type FaultOptions } from "../../../simulator/serve/faults.js";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import { parseRate } from "../../../simulator/serve/rate-limits.js";
import type { ServedApi } from "../../../simulator/serve/serve-app.js";
import { startServe, type RunningServe, type StartServeOptions } from "../../../simulator/serve/start-serve.js";
import { bundledToolsetsDir } from "../../../toolsets/load-toolset.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/serve", import.meta.url));
const SPEC = join(FIXTURES, "pets.openapi.yaml");
const TOOLSET = join(FIXTURES, "petshop.yaml");
const KEY = { "x-api-key": "key-full" };
const JSON_KEY = { ...KEY, "content-type": "application/json" };

let specApi: ServedApi;
let toolsetApi: ServedApi;
let credentials: Credential[];

beforeAll(async () => {
  const spec = await loadServedApis([SPEC]);
  const toolset = await loadServedApis([TOOLSET]);
  if (!spec.ok || !toolset.ok) throw new Error("fixtures do not load");
  specApi = spec.apis[0] as ServedApi;
  toolsetApi = toolset.apis[0] as ServedApi;
  const read = await loadCredentials(join(FIXTURES, "credentials.yaml"));
  if (!read.ok) throw new Error(read.message);
  credentials = read.value;
});

const running: RunningServe[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(options: Partial<StartServeOptions> = {}): Promise<RunningServe> {
  const server = await startServe({ apis: [toolsetApi], port: 0, credentials, log: () => undefined, ...options });
  running.push(server);
  return server;
}

async function call(base: string, path: string, init: RequestInit = {}): Promise<{ status: number; body: any; headers: Headers; text: string }> {
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    // text
  }
  return { status: res.status, body, headers: res.headers, text };
}

describe("toolsim serve: routing and validation", () => {
  it("answers a valid request from state, binds loopback, and serves under the spec's server path too", async () => {
    const s = await start();
    expect(s.host).toBe("127.0.0.1");
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await call(s.url, "/pets/1", { headers: KEY });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.headers.get("x-toolsim-source")).toBe("state");
    expect(r.body).toEqual({ id: 1, name: "Whiskers", species: "cat", age: 3 });
    const v1 = await call(s.url, "/v1/pets/2", { headers: KEY });
    expect(v1.status).toBe(200);
    expect(v1.body.name).toBe("Rex");
  });

  it("rejects an invalid request with 422 and every validation error in Prism's shape", async () => {
    const s = await start();
    const r = await call(s.url, "/pets?species=fish&limit=0", { headers: KEY });
    expect(r.status).toBe(422);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.body.type).toBe("https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY");
    expect(r.body.validation.map((v: { location: string[] }) => v.location.join("."))).toEqual(["query.species", "query.limit"]);
    const body = await call(s.url, "/pets", { method: "POST", headers: JSON_KEY, body: JSON.stringify({ species: "cat", colour: "red" }) });
    expect(body.status).toBe(422);
    const locations = body.body.validation.map((v: { location: string[] }) => v.location.join("."));
    expect(locations).toContain("body.name");
    expect(locations).toContain("body.colour");
    const path = await call(s.url, "/pets/abc", { headers: KEY });
    expect(path.status).toBe(422);
    expect(path.body.validation[0].location).toEqual(["path", "petId"]);
  });

  it("answers 404 for an unknown path, 405 with Allow for a wrong method, literal segments before parameters", async () => {
    const s = await start();
    const missing = await call(s.url, "/cats", { headers: KEY });
    expect(missing.status).toBe(404);
    expect(missing.body.type).toBe("https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR");
    const wrong = await call(s.url, "/pets/1", { method: "PATCH", headers: KEY });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, DELETE");
    expect(wrong.body.type).toBe("https://stoplight.io/prism/errors#NO_METHOD_MATCHED_ERROR");
    // /pets/mine is its own operation (bearer auth), not getPet with petId "mine".
    const mine = await call(s.url, "/pets/mine", { headers: KEY });
    expect(mine.status).toBe(401);
    expect(mine.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("answers 415 for an unsupported content type, 400 for malformed JSON, and accepts form bodies", async () => {
    const s = await start();
    const text = await call(s.url, "/pets", { method: "POST", headers: { ...KEY, "content-type": "text/plain" }, body: "name=Tom" });
    expect(text.status).toBe(415);
    expect(text.body.title).toBe("Invalid content type");
    const bad = await call(s.url, "/pets", { method: "POST", headers: JSON_KEY, body: "{name:" });
    expect(bad.status).toBe(400);
    expect(bad.body.validation[0].location).toEqual(["body"]);
    const form = await call(s.url, "/pets", { method: "POST", headers: { ...KEY, "content-type": "application/x-www-form-urlencoded" }, body: "name=Tom&species=cat&age=2" });
    expect(form.status).toBe(201);
    expect(form.body).toMatchObject({ name: "Tom", species: "cat", age: 2 });
  });

  it("answers 413 for a body over the limit, with or without Content-Length", async () => {
    const s = await start({ bodyLimit: 1024 });
    const big = JSON.stringify({ name: "x".repeat(2000), species: "cat" });
    const declared = await call(s.url, "/pets", { method: "POST", headers: JSON_KEY, body: big });
    expect(declared.status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode("x".repeat(600)));
        controller.close();
      },
    });
    const chunked = await call(s.url, "/pets", { method: "POST", headers: JSON_KEY, body: stream, duplex: "half" } as RequestInit);
    expect(chunked.status).toBe(413);
    const ok = await call(s.url, "/pets", { method: "POST", headers: JSON_KEY, body: JSON.stringify({ name: "Tom", species: "cat" }) });
    expect(ok.status).toBe(201);
  });

  it("answers HEAD like GET without a body, and CORS preflights when asked", async () => {
    const s = await start({ cors: true });
    const head = await call(s.url, "/pets/1", { method: "HEAD", headers: KEY });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    const preflight = await call(s.url, "/pets", { method: "OPTIONS", headers: { origin: "http://agent.local", "access-control-request-method": "POST" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    const get = await call(s.url, "/pets/1", { headers: { ...KEY, origin: "http://agent.local" } });
    expect(get.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("serves several APIs under prefixes and 404s an unknown prefix", async () => {
    const s = await start({ apis: [toolsetApi, { ...specApi, name: "plain" }] });
    expect(s.apis.map((a) => a.url)).toEqual([`${s.url}/petshop`, `${s.url}/plain`]);
    expect((await call(s.url, "/petshop/pets/1", { headers: KEY })).body.name).toBe("Whiskers");
    expect((await call(s.url, "/plain/status")).status).toBe(200);
    expect((await call(s.url, "/nope/status")).status).toBe(404);
  });
});

describe("toolsim serve: Prefer headers", () => {
  it("honours code=, example=, dynamic= and seed=", async () => {
    const s = await start({ apis: [specApi], stateless: true });
    const code = await call(s.url, "/pets/1", { headers: { ...KEY, prefer: "code=404" } });
    expect(code.status).toBe(404);
    expect(code.body).toEqual({ message: "no such pet" });
    const rex = await call(s.url, "/pets/1", { headers: { ...KEY, prefer: "example=rex" } });
    expect(rex.status).toBe(200);
    expect(rex.body).toEqual({ id: 2, name: "Rex", species: "dog", age: 4 });
    const noExample = await call(s.url, "/pets/1", { headers: { ...KEY, prefer: "example=garfield" } });
    expect(noExample.status).toBe(404);
    expect(noExample.body.detail).toContain("exampleKey: garfield");
    const undeclared = await call(s.url, "/pets/1", { headers: { ...KEY, prefer: "code=418" } });
    expect(undeclared.status).toBe(404);
    expect(undeclared.body.detail).toContain("418");
    const fixed = await call(s.url, "/status");
    expect(fixed.body).toEqual({ ok: true, region: "eu" });
    expect(fixed.headers.get("x-toolsim-source")).toBe("example");
    const dynamic = await call(s.url, "/status", { headers: { prefer: "dynamic=true" } });
    expect(dynamic.headers.get("x-toolsim-source")).toBe("schema");
    expect(typeof dynamic.body.ok).toBe("boolean");
    const bodies = new Set<string>();
    for (const seed of [1, 1, 2, 3, 4, 5]) bodies.add((await call(s.url, "/pets?limit=3", { headers: { ...KEY, prefer: `dynamic=true, seed=${seed}` } })).text);
    expect(bodies.size).toBeGreaterThan(1);
    const a = await call(s.url, "/pets?limit=3", { headers: { ...KEY, prefer: "seed=9" } });
    const b = await call(s.url, "/pets?limit=3", { headers: { ...KEY, prefer: "seed=9" } });
    expect(a.text).toBe(b.text);
  });
});

describe("toolsim serve: state and sessions", () => {
  it("keeps state across requests: POST, GET, DELETE, then 404", async () => {
    const s = await start();
    const created = await call(s.url, "/pets", { method: "POST", headers: JSON_KEY, body: JSON.stringify({ name: "Tom", species: "cat", age: 1 }) });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect(id).toBe(3);
    const read = await call(s.url, `/pets/${id}`, { headers: KEY });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const list = await call(s.url, "/pets", { headers: KEY });
    expect(list.body.map((p: { name: string }) => p.name)).toEqual(["Whiskers", "Rex", "Tom"]);
    const removed = await call(s.url, `/pets/${id}`, { method: "DELETE", headers: KEY });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe("");
    const gone = await call(s.url, `/pets/${id}`, { headers: KEY });
    expect(gone.status).toBe(404);
  });

  it("isolates sessions (X-Toolsim-Session) and inspects and resets them through the admin routes", async () => {
    const s = await start();
    const a = { ...JSON_KEY, "x-toolsim-session": "alice" };
    const b = { ...KEY, "x-toolsim-session": "bob" };
    const created = await call(s.url, "/pets", { method: "POST", headers: a, body: JSON.stringify({ name: "Tom", species: "cat" }) });
    expect((await call(s.url, `/pets/${created.body.id}`, { headers: a })).status).toBe(200);
    expect((await call(s.url, `/pets/${created.body.id}`, { headers: b })).status).toBe(404);
    expect((await call(s.url, `/pets/${created.body.id}`, { headers: KEY })).status).toBe(404);

    const health = await call(s.url, "/__toolsim/health");
    expect(health.body).toMatchObject({ status: "ok", mode: "schema", seed: 1, apis: [{ name: "petshop", prefix: "", operations: 8 }] });
    const sessions = await call(s.url, "/__toolsim/sessions");
    // Only a request that may write creates a session: bob and the default session only read the fixtures.
    expect(sessions.body.sessions).toEqual(["alice"]);
    const state = await call(s.url, "/__toolsim/state?session=alice");
    expect(state.body.apis["petshop"]["/pets"].map((p: { name: string }) => p.name)).toEqual(["Whiskers", "Rex", "Tom"]);
    const reset = await call(s.url, "/__toolsim/reset?session=alice", { method: "POST" });
    expect(reset.body).toEqual({ reset: ["alice"], all: false });
    expect((await call(s.url, `/pets/${created.body.id}`, { headers: a })).status).toBe(404);
    const all = await call(s.url, "/__toolsim/reset", { method: "POST" });
    expect(all.body.all).toBe(true);
    expect((await call(s.url, "/__toolsim/sessions")).body.sessions).toEqual([]);
    expect((await call(s.url, "/__toolsim/nope")).status).toBe(404);
  });
});

describe("toolsim serve: restricted APIs", () => {
  it("enforces API keys in a header or the query, bearer tokens, and OAuth2 scopes (401 / 403)", async () => {
    const s = await start();
    const none = await call(s.url, "/pets/1");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain('name="X-Api-Key"');
    expect(none.body.detail).toMatch(/Missing credentials/);
    const wrong = await call(s.url, "/pets/1", { headers: { "x-api-key": "guess" } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.detail).toMatch(/Invalid credentials/);
    expect((await call(s.url, "/pets/1?api_key=key-full")).status).toBe(200);
    expect((await call(s.url, "/status")).status).toBe(200);
    expect((await call(s.url, "/pets/mine", { headers: { authorization: "Bearer key-full" } })).status).toBe(200);
    const readOnly = await call(s.url, "/admin/pets/1", { method: "DELETE", headers: { authorization: "Bearer token-read" } });
    expect(readOnly.status).toBe(403);
    expect(readOnly.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(readOnly.body.detail).toContain("pets:write");
    expect((await call(s.url, "/admin/stats", { headers: { authorization: "Bearer token-read" } })).status).toBe(200);
    expect((await call(s.url, "/admin/pets/1", { method: "DELETE", headers: { authorization: "Bearer token-write" } })).status).toBe(204);
  });

  it("accepts any presented credential when none is configured (as Prism), and nothing with --no-auth", async () => {
    const presence = await start({ credentials: [] });
    expect((await call(presence.url, "/pets/1", { headers: { "x-api-key": "anything" } })).status).toBe(200);
    expect((await call(presence.url, "/pets/1")).status).toBe(401);
    const open = await start({ enforceAuth: false });
    expect((await call(open.url, "/pets/1")).status).toBe(200);
  });

  it("enforces a bundled toolset's own credentials", async () => {
    const loaded = await loadServedApis([join(bundledToolsetsDir(), "bookstore.yaml")]);
    if (!loaded.ok) throw new Error("bookstore does not load");
    const s = await start({ apis: loaded.apis, credentials: [] });
    expect((await call(s.url, "/books/bk-1001", { headers: { "x-api-key": "nope" } })).status).toBe(401);
    expect((await call(s.url, "/books/bk-1001", { headers: { "x-api-key": "demo-key-123" } })).status).toBe(200);
  });

  it("rate-limits per credential: 429 with Retry-After and X-RateLimit headers, then allows again after the window", async () => {
    let now = 1_000_000;
    const s = await start({ rateLimit: parseRate("3/min"), now: () => now });
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 4; i++) {
      last = await call(s.url, "/pets/1", { headers: KEY });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get("x-ratelimit-limit")).toBe("3");
        expect(last.headers.get("x-ratelimit-remaining")).toBe("2");
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last?.headers.get("retry-after")).toBe("60");
    expect(last?.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(last?.body.title).toBe("Too Many Requests");
    // Another credential has its own window; a credential's own limit overrides the server's.
    expect((await call(s.url, "/pets/1?api_key=token-read")).status).toBe(200);
    const limited = [];
    for (let i = 0; i < 3; i++) limited.push((await call(s.url, "/pets/1", { headers: { "x-api-key": "key-limited" } })).status);
    expect(limited).toEqual([200, 200, 429]);
    now += 30_000;
    const later = await call(s.url, "/pets/1", { headers: KEY });
    expect(later.status).toBe(429);
    expect(later.headers.get("retry-after")).toBe("30");
    now += 30_001;
    expect((await call(s.url, "/pets/1", { headers: KEY })).status).toBe(200);
  });

  it("enforces a quota per credential (429 with Retry-After until the day ends)", async () => {
    const now = 5_000_000;
    const s = await start({ quota: parseRate("2/day"), now: () => now });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await call(s.url, "/pets/1", { headers: KEY }));
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(statuses[2]?.headers.get("retry-after")).toBe("86400");
    expect(statuses[2]?.body.detail).toMatch(/Quota exceeded/);
    expect(statuses[0]?.headers.get("x-quota-remaining")).toBe("1");
  });

  it("injects 5xx faults at the seeded rate, the same sequence for the same seed", async () => {
    const faults: FaultOptions = { rate: 0.2, kinds: ["5xx"] };
    const run = async (): Promise<number[]> => {
      const s = await start({ faults, seed: 42 });
      const out: number[] = [];
      for (let i = 0; i < 100; i++) out.push((await call(s.url, "/status")).status);
      return out;
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    const expected = Array.from({ length: 100 }, (_, n) => faultAt(42, faults, n)?.status ?? 200);
    expect(first).toEqual(expected);
    const faulted = first.filter((x) => x >= 500).length;
    expect(faulted).toBeGreaterThan(8);
    expect(faulted).toBeLessThan(35);
    expect(new Set(first.filter((x) => x >= 500)).size).toBeGreaterThan(1);
  });

  it("injects latency and timeouts", async () => {
    const slow = await start({ faults: { rate: 1, kinds: ["latency"], latencyMs: 150 } });
    const t = performance.now();
    const r = await call(slow.url, "/status");
    expect(performance.now() - t).toBeGreaterThanOrEqual(140);
    expect(r.status).toBe(200);
    expect(r.headers.get("x-toolsim-fault")).toBe("latency");
    const hang = await start({ faults: { rate: 1, kinds: ["timeout"], timeoutMs: 100 } });
    const timedOut = await call(hang.url, "/status");
    expect(timedOut.status).toBe(504);
    expect(timedOut.headers.get("x-toolsim-fault")).toBe("timeout");
    // A client that gives up first sees its own timeout; closing the server ends the pending delay.
    const long = await start({ faults: { rate: 1, kinds: ["timeout"], timeoutMs: 60_000 } });
    await expect(fetch(`${long.url}/status`, { signal: AbortSignal.timeout(100) })).rejects.toThrow();
  });
});

describe("toolsim serve: llm mode", () => {
  it("answers non-CRUD operations from the model, validated against the response schema", async () => {
    const model = new FakeListChatModel({ responses: ['{"status": 200, "body": {"pets": 41}}'] });
    const s = await start({ mode: "llm", llm: { model } });
    const r = await call(s.url, "/admin/stats", { headers: { authorization: "Bearer token-read" } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ pets: 41 });
    expect(r.headers.get("x-toolsim-source")).toBe("llm");
    // CRUD operations still come from state.
    expect((await call(s.url, "/pets/1", { headers: KEY })).headers.get("x-toolsim-source")).toBe("state");
  });
});
