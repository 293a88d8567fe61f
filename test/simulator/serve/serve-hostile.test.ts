import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import type { ServedApi } from "../../../simulator/serve/serve-app.js";
import { startServe, type RunningServe, type StartServeOptions } from "../../../simulator/serve/start-serve.js";

/**
 * `toolsim serve` against the inputs that froze it (issue 14): a ReDoS pattern on a query parameter, a body
 * field and a response field, a recursive schema, huge minimums, and a request past its time budget.
 */

const HOSTILE = fileURLToPath(new URL("../../fixtures/specs/hostile/hostile.yaml", import.meta.url));
const JSON_TYPE = { "content-type": "application/json" };

let api: ServedApi;
beforeAll(async () => {
  const loaded = await loadServedApis([HOSTILE]);
  if (!loaded.ok) throw new Error("the hostile fixture does not load");
  api = loaded.apis[0] as ServedApi;
});

const running: RunningServe[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(options: Partial<StartServeOptions> = {}): Promise<RunningServe> {
  const server = await startServe({ apis: [api], port: 0, log: () => undefined, ...options });
  running.push(server);
  return server;
}

async function call(base: string, path: string, init: RequestInit = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: text === "" ? undefined : JSON.parse(text), headers: res.headers };
}

/** How long the health route takes to answer, in ms. */
async function healthLatency(base: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${base}/__toolsim/health`);
  await res.text();
  expect(res.status).toBe(200);
  return performance.now() - t;
}

/**
 * A POST whose body is sent in two halves: between them (and while the server works on the whole), the
 * request is in flight. Resolves with the status once answered.
 */
function twoPartPost(base: string, path: string, body: string): { sendRest(): void; done: Promise<number> } {
  const url = new URL(path, base);
  const bytes = Buffer.from(body);
  let sendRest = (): void => undefined;
  const done = new Promise<number>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { ...JSON_TYPE, "content-length": String(bytes.length) } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    const half = Math.floor(bytes.length / 2);
    req.write(bytes.subarray(0, half));
    sendRest = () => req.end(bytes.subarray(half));
  });
  return { sendRest, done };
}

describe("toolsim serve under hostile input", () => {
  it("answers ReDoS patterns on a query parameter, a body field and a response field at once, correctly", async () => {
    const s = await start();
    // 8,000 a's and a mismatch: a backtracking engine would take longer than the age of the universe.
    const query = await call(s.url, `/codes?code=${"a".repeat(8000)}!`);
    expect(query.status).toBe(422);
    expect(query.body.validation[0]).toMatchObject({ location: ["query", "code"], code: "pattern" });
    const body = await call(s.url, "/codes", { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ code: `${"a".repeat(500_000)}!` }) });
    expect(body.status).toBe(422);
    expect(body.body.validation[0]).toMatchObject({ location: ["body", "code"], code: "pattern" });
    const created = await call(s.url, "/codes", { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ code: "aaaa" }) });
    expect(created.status).toBe(201);
    for (let seed = 1; seed <= 5; seed++) {
      const answer = await call(s.url, `/codes?code=${"a".repeat(8000)}`, { headers: { prefer: `seed=${seed}` } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("sl-violations")).toBeNull();
      expect(/^a+$/.test(answer.body.code)).toBe(true);
    }
  });

  it("answers /__toolsim/health within 100 ms while a hostile request is in flight", async () => {
    const s = await start();
    const hostile = JSON.stringify({ code: `${"a".repeat(400_000)}!` });
    // A blocked event loop (the engine before issue 14) fails every round: the hostile request never ends.
    // Five rounds absorb the scheduling noise of a machine shared with other work; one must be clean.
    const rounds: number[][] = [];
    for (let round = 0; round < 5; round++) {
      const post = twoPartPost(s.url, "/codes", hostile);
      const latencies: number[] = [];
      for (let i = 0; i < 3; i++) latencies.push(await healthLatency(s.url));
      post.sendRest();
      // Health asked while the server parses and validates the hostile body, and while a hostile query waits.
      const query = fetch(`${s.url}/codes?code=${"a".repeat(8000)}!`).then(async (r) => (await r.text(), r.status));
      latencies.push(...(await Promise.all([healthLatency(s.url), healthLatency(s.url), healthLatency(s.url)])));
      expect(await post.done).toBe(422);
      expect(await query).toBe(422);
      rounds.push(latencies);
      if (Math.max(...latencies) < 100) break;
    }
    expect(Math.min(...rounds.map((l) => Math.max(...l)))).toBeLessThan(100);
  });

  it("answers recursive schemas and huge minimums with bounded bodies, saying which cap it reached", async () => {
    const s = await start();
    const tree = await call(s.url, "/tree");
    expect(tree.status).toBe(200);
    expect(tree.headers.get("sl-violations")).toBeNull();
    const endless = await call(s.url, "/endless-tree");
    expect(endless.status).toBe(200);
    expect(endless.body.children).toEqual([null, null, null]);
    expect(endless.headers.get("x-toolsim-warning")).toContain("has no finite value");
    const huge = await call(s.url, "/huge");
    expect(huge.status).toBe(200);
    expect(huge.body.items).toHaveLength(1000);
    expect(huge.body.text).toHaveLength(10_000);
    expect(huge.headers.get("x-toolsim-warning")).toMatch(/^synthesis cap maxItems \(1000, --max-items\) reached/);
    expect(huge.headers.get("sl-violations")).toContain("minItems");
    // The caps are options of the server.
    const small = await start({ synthesisLimits: { maxItems: 3, maxStringLength: 12 } });
    const capped = await call(small.url, "/huge");
    expect(capped.body.items).toHaveLength(3);
    expect(capped.body.text).toHaveLength(12);
  });

  it("ends a request past its time budget in a 500 problem naming the budget, and goes on serving", async () => {
    let t = 0;
    const lines: string[] = [];
    // A clock that moves 100 ms at every reading: the synthesis of /huge outlasts a 1 s budget.
    const s = await start({ requestBudgetMs: 1000, budgetClock: () => (t += 100), log: (line) => lines.push(line) });
    const over = await call(s.url, "/huge");
    expect(over.status).toBe(500);
    expect(over.headers.get("content-type")).toBe("application/problem+json");
    expect(over.headers.get("x-toolsim-source")).toBe("budget");
    expect(over.body).toMatchObject({ type: "https://toolsim.dev/problems/budget-exceeded", title: "Request budget exceeded", status: 500, budgetMs: 1000 });
    expect(over.body.detail).toContain("time budget of 1000 ms (--request-budget-ms)");
    expect(lines.some((l) => l.includes("GET /huge") && l.includes("1000 ms"))).toBe(true);
    // Small work is checked less often than the clock moves: it fits.
    expect((await call(s.url, "/codes?code=aaa")).status).toBe(200);
    expect((await fetch(`${s.url}/__toolsim/health`)).status).toBe(200);
  });

  it("answers a 9,000-character password (a secret is redacted from the call's seed without a regular expression built from it)", async () => {
    const s = await start();
    const password = `Aa1${"a".repeat(9000)}`;
    const answered = await call(s.url, `/passwords?password=${password}`);
    expect(answered.status).toBe(200);
    expect((await fetch(`${s.url}/__toolsim/health`)).status).toBe(200);
  });
});
