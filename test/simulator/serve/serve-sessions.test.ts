import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import type { ServedApi } from "../../../simulator/serve/serve-app.js";
import { SessionStates } from "../../../simulator/serve/sessions.js";
import { startServe, type RunningServe, type StartServeOptions } from "../../../simulator/serve/start-serve.js";

/**
 * Sessions are bounded and their eviction is visible: 1,001 clients with new session ids do not silently replace
 * another client's data. The evicted session answers a 410 problem that says so (never fixture or synthesized data)
 * until it is reset; reads alone create no session, so they evict nobody; the default session is never evicted.
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
  const server = await startServe({ apis: [api], port: 0, enforceAuth: false, log: () => undefined, ...options });
  running.push(server);
  return server;
}

async function call(s: RunningServe, path: string, session: string | undefined, init: RequestInit = {}): Promise<{ status: number; body: any; type: string | null }> {
  const headers = { "content-type": "application/json", ...(session !== undefined ? { "x-toolsim-session": session } : {}), ...(init.headers as Record<string, string> | undefined) };
  const res = await fetch(`${s.url}${path}`, { ...init, headers });
  const text = await res.text();
  return { status: res.status, body: text === "" ? undefined : JSON.parse(text), type: res.headers.get("content-type") };
}

const create = (s: RunningServe, session: string | undefined, name: string) => call(s, "/pets", session, { method: "POST", body: JSON.stringify({ name, species: "cat" }) });

/** Sends requests a few at a time (a busy server, not one request after another). */
async function inBatches(n: number, send: (i: number) => Promise<{ status: number }>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += 50) statuses.push(...(await Promise.all(Array.from({ length: Math.min(50, n - i) }, (_, k) => send(i + k).then((r) => r.status)))));
  return statuses;
}

describe("toolsim serve: bounded sessions, visible eviction", () => {
  it("1,001 clients with new session ids: the evicted client gets a 410 that says so, never other data; a reset revives it", { timeout: 60_000 }, async () => {
    const s = await start();
    const mine = await create(s, "alice", "Tom");
    expect(mine.status).toBe(201);
    const id = mine.body.id as number;
    expect((await create(s, undefined, "Shared")).status).toBe(201);

    const statuses = await inBatches(1001, (i) => create(s, `client-${i}`, `Pet ${i}`));
    expect(statuses.every((st) => st === 201)).toBe(true);

    const evicted = await call(s, `/pets/${id}`, "alice");
    expect(evicted.status).toBe(410);
    expect(evicted.type).toBe("application/problem+json");
    expect(evicted.body).toMatchObject({ type: "https://toolsim.dev/problems/session-evicted", title: "Session evicted", status: 410 });
    expect(evicted.body.detail).toContain('session "alice"');
    expect(evicted.body.detail).toContain("at most 1000 sessions");
    // Every request of the session says so, reads and writes, and the admin state too: no silently fresh data.
    expect((await call(s, "/pets", "alice")).status).toBe(410);
    expect((await create(s, "alice", "Again")).status).toBe(410);
    expect((await call(s, "/__toolsim/state?session=alice", undefined)).status).toBe(410);

    // The default session (no header) is never evicted; the most recent clients are live.
    const shared = await call(s, "/pets", undefined);
    expect(shared.body.map((p: { name: string }) => p.name)).toContain("Shared");
    expect((await call(s, "/pets", "client-1000")).body.map((p: { name: string }) => p.name)).toContain("Pet 1000");
    const health = await call(s, "/__toolsim/health", undefined);
    expect(health.body).toMatchObject({ sessions: 1001, maxSessions: 1000, evictions: 2 });
    expect((await call(s, "/__toolsim/sessions", undefined)).body).toMatchObject({ maxSessions: 1000, evicted: 2 });

    // A reset of the session makes it usable again, from the fixtures.
    const reset = await call(s, "/__toolsim/reset", undefined, { method: "POST", body: JSON.stringify({ session: "alice" }) });
    expect(reset.body).toEqual({ reset: ["alice"], all: false });
    const fresh = await call(s, "/pets", "alice");
    expect(fresh.status).toBe(200);
    expect(fresh.body.map((p: { name: string }) => p.name)).not.toContain("Tom");
  });

  it("reads with new session ids create no session and evict nobody", { timeout: 60_000 }, async () => {
    const s = await start({ maxSessions: 10 });
    const mine = await create(s, "alice", "Tom");
    const statuses = await inBatches(1001, (i) => call(s, "/pets", `reader-${i}`));
    expect(statuses.every((st) => st === 200)).toBe(true);
    const read = await call(s, `/pets/${mine.body.id}`, "alice");
    expect(read.status).toBe(200);
    expect(read.body.name).toBe("Tom");
    expect((await call(s, "/__toolsim/sessions", undefined)).body.sessions).toEqual(["alice"]);
  });

  it("refuses a session id longer than 256 characters", async () => {
    const s = await start();
    const r = await create(s, "x".repeat(257), "Tom");
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain("at most 256");
  });

  it("remembers a bounded number of evictions, oldest forgotten first; a reset of everything forgets them", () => {
    let now = 0;
    const states = new SessionStates(new Map([["api", {}]]), { maxSessions: 2, maxEvicted: 3 }, () => now++);
    for (const session of ["a", "b", "c", "d", "e", "f"]) expect(states.store("api", session, { write: true }).ok).toBe(true);
    expect(states.list()).toEqual(["e", "f"]);
    expect(states.evictions).toBe(4);
    expect(["a", "b", "c", "d"].map((x) => states.status(x))).toEqual(["unknown", "evicted", "evicted", "evicted"]);
    expect(states.store("api", "b", { write: false })).toMatchObject({ ok: false, evicted: { maxSessions: 2 } });
    states.reset();
    expect(states.status("b")).toBe("unknown");
  });
});
