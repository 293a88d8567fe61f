import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog } from "../../../specs/catalog/catalog.js";
import type { LoadedSpec, OpenApiDocument } from "../../../specs/load/loaded-spec.js";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import { parseRate } from "../../../simulator/serve/rate-limits.js";
import type { ServedApi } from "../../../simulator/serve/serve-app.js";
import { startServe, type RunningServe, type StartServeOptions } from "../../../simulator/serve/start-serve.js";
import { bundledToolsetsDir } from "../../../toolsets/load-toolset.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/serve", import.meta.url));
const KEY = { "x-api-key": "key-1" };

let errorsApi: ServedApi;
let petsApi: ServedApi;
let bookstoreApi: ServedApi;

beforeAll(async () => {
  const loaded = await Promise.all([
    loadServedApis([join(FIXTURES, "errors.openapi.yaml")]),
    loadServedApis([join(FIXTURES, "pets.openapi.yaml")]),
    loadServedApis([join(bundledToolsetsDir(), "bookstore.yaml")]),
  ]);
  const apis = loaded.map((l) => {
    if (!l.ok) throw new Error("fixtures do not load");
    return l.apis[0] as ServedApi;
  });
  [errorsApi, petsApi, bookstoreApi] = apis as [ServedApi, ServedApi, ServedApi];
});

const running: RunningServe[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(options: Partial<StartServeOptions>): Promise<RunningServe> {
  const server = await startServe({ apis: [errorsApi], port: 0, log: () => undefined, ...options });
  running.push(server);
  return server;
}

async function call(base: string, path: string, init: RequestInit = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: text === "" ? undefined : JSON.parse(text), headers: res.headers };
}

const violations = (h: Headers): string[] => (JSON.parse(h.get("sl-violations") ?? "[]") as Array<{ location: string[] }>).map((v) => v.location.join("."));

describe("toolsim serve: the spec's own error answers (Prism's [422, 400])", () => {
  it("keeps a generated 422 when the operation declares neither 422 nor 400, with an sl-violations header", async () => {
    const s = await start({ apis: [petsApi], enforceAuth: false });
    const r = await call(s.url, "/pets?limit=0");
    expect(r.status).toBe(422);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.body.type).toBe("https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY");
    expect(violations(r.headers)).toEqual(["query.limit"]);
  });

  it("answers the declared 422 with problem details when its schema accepts them", async () => {
    const s = await start({ enforceAuth: false });
    const r = await call(s.url, "/items?limit=50");
    expect(r.status).toBe(422);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.body.validation[0].location).toEqual(["query", "limit"]);
  });

  it("answers the declared 400 (no 422 declared) in the spec's shape, the problem's text where fields allow", async () => {
    const s = await start({ enforceAuth: false });
    const r = await call(s.url, "/widgets?limit=50");
    expect(r.status).toBe(400);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(Object.keys(r.body)).toEqual(["error"]);
    expect(r.body.error.code).toBe(400);
    expect(r.body.error.message).toMatch(/limit/);
    expect(violations(r.headers)).toEqual(["query.limit"]);
    expect(r.headers.get("x-toolsim-source")).toBe("validation");
  });

  it("prefers the declared 422 over the declared 400", async () => {
    const s = await start({ enforceAuth: false });
    const r = await call(s.url, "/gadgets?limit=50");
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ message: expect.stringMatching(/limit/) });
  });

  it("keeps a 500 for an operation whose own schema cannot be used (the spec's fault, not the request's)", async () => {
    const document = {
      openapi: "3.0.3",
      info: { title: "raw", version: "1" },
      paths: {
        "/regex": {
          get: {
            operationId: "badRegex",
            parameters: [{ name: "q", in: "query", required: true, schema: { type: "string", pattern: "(?i)^abc$" } }],
            responses: { "200": { description: "ok" }, "400": { description: "bad", content: { "application/json": { schema: { type: "object", required: ["message"], properties: { message: { type: "string" } } } } } } },
          },
        },
      },
    } as unknown as OpenApiDocument;
    const spec: LoadedSpec = { file: "<raw>", sourceVersion: "3.0", dialect: "3.0", document, hash: "", warnings: [] };
    const s = await start({ apis: [{ name: "raw", catalog: buildCatalog(spec) }], enforceAuth: false });
    const r = await call(s.url, "/regex?q=abc");
    expect(r.status).toBe(500);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.body.title).toBe("Unusable operation");
  });

  it("answers a missing credential with the declared 401's shape, the challenge kept", async () => {
    const s = await start({ credentials: [{ value: "key-1" }] });
    const r = await call(s.url, "/widgets");
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toContain("X-Api-Key");
    expect(r.body).toEqual({ message: expect.stringMatching(/Missing credentials/), code: "unauthorized" });
    // Operations without a declared 401 keep problem details.
    const items = await call(s.url, "/items");
    expect(items.status).toBe(401);
    expect(items.headers.get("content-type")).toBe("application/problem+json");
    expect((await call(s.url, "/widgets", { headers: KEY })).status).toBe(200);
  });

  it("a proxy that validates against the spec does not flag serve's own error answers (bookstore: 400 and 401)", async () => {
    const upstream = await startServe({ apis: [bookstoreApi], port: 0, log: () => undefined });
    running.push(upstream);
    const logs: string[] = [];
    const proxy = await startServe({ apis: [{ ...bookstoreApi, upstream: upstream.url }], mode: "proxy", port: 0, log: (l) => logs.push(l) });
    running.push(proxy);
    const invalid = await call(proxy.url, "/books?pageSize=500", { headers: { "x-api-key": "demo-key-123" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ message: expect.stringMatching(/pageSize/) });
    expect(invalid.body.details).toEqual([expect.objectContaining({ field: "pageSize", issue: "maximum" })]);
    const unauthorised = await call(proxy.url, "/books/bk-1001");
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.body).toMatchObject({ error: "unauthorized", message: expect.stringMatching(/Missing credentials/), details: [] });
    expect(logs.filter((l) => l.includes("does not match the spec"))).toEqual([]);
  });
});

describe("toolsim serve: limits and admin routes", () => {
  it("a rejected request consumes nothing: the other window's remaining count is unchanged on a 429", async () => {
    const now = 7_000_000;
    const s = await start({ apis: [petsApi], enforceAuth: false, rateLimit: parseRate("2/min"), quota: parseRate("10/day"), now: () => now });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await call(s.url, "/pets/1"));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429, 429]);
    expect(answers.map((a) => a.headers.get("x-quota-remaining"))).toEqual(["9", "8", "8", "8"]);
    expect(answers.map((a) => a.headers.get("x-ratelimit-remaining"))).toEqual(["1", "0", "0", "0"]);
    const q = await start({ apis: [petsApi], enforceAuth: false, rateLimit: parseRate("5/min"), quota: parseRate("1/day"), now: () => now });
    const quota = [await call(q.url, "/pets/1"), await call(q.url, "/pets/1")];
    expect(quota.map((a) => a.status)).toEqual([200, 429]);
    expect(quota.map((a) => a.headers.get("x-ratelimit-remaining"))).toEqual(["4", "4"]);
    expect(quota.map((a) => a.headers.get("x-quota-remaining"))).toEqual(["0", "0"]);
  });

  it("answers a known admin route with another method with 405 and Allow, an unknown one with 404", async () => {
    const s = await start({ apis: [petsApi] });
    const getReset = await call(s.url, "/__toolsim/reset");
    expect(getReset.status).toBe(405);
    expect(getReset.headers.get("allow")).toBe("POST");
    const postHealth = await call(s.url, "/__toolsim/health", { method: "POST" });
    expect(postHealth.status).toBe(405);
    expect(postHealth.headers.get("allow")).toBe("GET, HEAD");
    expect((await fetch(`${s.url}/__toolsim/health`, { method: "HEAD" })).status).toBe(200);
    expect((await call(s.url, "/__toolsim/nope")).status).toBe(404);
    expect((await call(s.url, "/__toolsim/reset", { method: "POST" })).status).toBe(200);
  });

  it("with an admin token, state, sessions and reset need it (health stays open)", async () => {
    const s = await start({ apis: [petsApi], adminToken: "s3cret-admin" });
    for (const [path, method] of [["/__toolsim/state", "GET"], ["/__toolsim/sessions", "GET"], ["/__toolsim/reset", "POST"]] as const) {
      const denied = await call(s.url, path, { method });
      expect(denied.status, path).toBe(401);
      expect(denied.body.title).toBe("Admin token required");
      expect((await call(s.url, path, { method, headers: { "x-toolsim-admin-token": "wrong-token" } })).status, path).toBe(401);
      expect((await call(s.url, path, { method, headers: { "x-toolsim-admin-token": "s3cret-admin" } })).status, path).toBe(200);
    }
    expect((await call(s.url, "/__toolsim/health")).status).toBe(200);
  });
});
