import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpCassette } from "../../../simulator/serve/record/http-cassette.js";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import type { ServedApi } from "../../../simulator/serve/serve-app.js";
import { startServe, type RunningServe } from "../../../simulator/serve/start-serve.js";

const SPEC = fileURLToPath(new URL("../../fixtures/serve/pets.openapi.yaml", import.meta.url));
const SECRETS = { header: "super-secret-key-123", query: "query-secret-789", bearer: "tok-very-secret-456", cookie: "cookie-secret-000" };
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x10]);

/** The real API stand-in: a few pets routes, one answer that breaks the spec, one that echoes credentials. */
interface Upstream {
  server: Server;
  url: string;
  seen: Array<{ method: string; url: string; headers: IncomingMessage["headers"]; body: string }>;
}

async function startUpstream(): Promise<Upstream> {
  const seen: Upstream["seen"] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const url = new URL(req.url ?? "/", "http://upstream");
      const json = (status: number, value: unknown): void => {
        res.writeHead(status, { "content-type": "application/json", "x-upstream": "yes" });
        res.end(JSON.stringify(value));
      };
      const pet = /^\/pets\/(\d+)$/.exec(url.pathname);
      if (req.method === "GET" && pet) {
        const id = Number(pet[1]);
        if (id === 666) return json(200, { id: "six-six-six", name: "", species: "dragon" });
        return json(200, { id, name: `Upstream ${id}`, species: "dog" });
      }
      if (req.method === "POST" && url.pathname === "/pets") return json(201, { id: 99, ...(JSON.parse(body) as object) });
      if (url.pathname === "/whoami") return json(200, { key: req.headers["x-api-key"], auth: req.headers["authorization"] });
      if (url.pathname === "/logo.png") {
        res.writeHead(200, { "content-type": "image/png" });
        return res.end(PNG);
      }
      json(404, { message: "not here" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const tmp = mkdtempSync(join(tmpdir(), "toolsim-serve-proxy-"));
const cassetteFile = join(tmp, "recorded", "cassette.jsonl");
let upstream: Upstream;
let api: ServedApi;

beforeAll(async () => {
  upstream = await startUpstream();
  const loaded = await loadServedApis([SPEC]);
  if (!loaded.ok) throw new Error("spec does not load");
  api = loaded.apis[0] as ServedApi;
});

afterAll(async () => {
  await new Promise<void>((resolve) => upstream.server.close(() => resolve()));
  rmSync(tmp, { recursive: true, force: true });
});

/** The requests sent through the proxy, then again to the replay server. */
const REQUESTS: Array<{ path: string; init: RequestInit }> = [
  { path: "/pets/7", init: { headers: { "x-api-key": SECRETS.header } } },
  { path: `/pets/666?api_key=${SECRETS.query}`, init: {} },
  { path: "/pets", init: { method: "POST", headers: { authorization: `Bearer ${SECRETS.bearer}`, "x-api-key": SECRETS.header, "content-type": "application/json" }, body: JSON.stringify({ name: "Tom", species: "cat" }) } },
  { path: "/whoami", init: { headers: { "x-api-key": SECRETS.header, authorization: `Bearer ${SECRETS.bearer}`, cookie: `session=${SECRETS.cookie}` } } },
  { path: "/logo.png", init: {} },
  { path: "/pets?species=cat&limit=2", init: { headers: { "x-api-key": SECRETS.header } } },
];

interface Answer {
  status: number;
  contentType: string | null;
  bytes: Buffer;
  headers: Headers;
}

async function send(base: string, r: { path: string; init: RequestInit }): Promise<Answer> {
  const res = await fetch(`${base}${r.path}`, r.init);
  return { status: res.status, contentType: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

describe("toolsim serve: proxy, record and replay", () => {
  const proxied: Answer[] = [];
  const logs: string[] = [];
  let proxy: RunningServe;

  it("forwards to the real API, validates its answers, and records every exchange", async () => {
    proxy = await startServe({ apis: [{ ...api, upstream: upstream.url }], mode: "proxy", port: 0, record: cassetteFile, log: (l) => logs.push(l) });
    for (const r of REQUESTS) proxied.push(await send(proxy.url, r));
    expect(proxied.map((a) => a.status)).toEqual([200, 200, 201, 200, 200, 404]);
    const [pet, broken, created, whoami, logo] = proxied as [Answer, Answer, Answer, Answer, Answer];
    expect(JSON.parse(pet.bytes.toString())).toEqual({ id: 7, name: "Upstream 7", species: "dog" });
    expect(pet.headers.get("x-toolsim-source")).toBe("http");
    expect(pet.headers.get("x-upstream")).toBe("yes");
    expect(pet.headers.get("sl-violations")).toBeNull();
    // The real API broke its own spec: a warning header and a log line, the answer passed on as it was.
    const violations = JSON.parse(broken.headers.get("sl-violations") ?? "[]") as Array<{ location: string[] }>;
    expect(violations.map((v) => v.location.join("."))).toEqual(expect.arrayContaining(["response.body.id", "response.body.species"]));
    expect(logs.some((l) => l.includes("/pets/666") && l.includes("does not match the spec"))).toBe(true);
    expect(JSON.parse(created.bytes.toString())).toEqual({ id: 99, name: "Tom", species: "cat" });
    expect(JSON.parse(whoami.bytes.toString())).toEqual({ key: SECRETS.header, auth: `Bearer ${SECRETS.bearer}` });
    expect(whoami.headers.get("sl-violations")).toContain("no-operation");
    expect(logo.contentType).toBe("image/png");
    expect(logo.bytes.equals(PNG)).toBe(true);
    // The real API got the client's credentials and body.
    const post = upstream.seen.find((s) => s.method === "POST");
    expect(post?.headers["authorization"]).toBe(`Bearer ${SECRETS.bearer}`);
    expect(post?.body).toBe(JSON.stringify({ name: "Tom", species: "cat" }));
    expect(upstream.seen.some((s) => s.url === `/pets/666?api_key=${SECRETS.query}`)).toBe(true);
    const health = await (await fetch(`${proxy.url}/__toolsim/health`)).json();
    expect(health).toMatchObject({ mode: "proxy", recorded: REQUESTS.length });
    await proxy.close();
  });

  it("keeps secrets out of the cassette", () => {
    const text = readFileSync(cassetteFile, "utf8");
    const lines = text.trim().split("\n");
    expect(lines).toHaveLength(REQUESTS.length);
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    expect(text).toContain("[redacted]");
    const first = JSON.parse(lines[0] as string);
    expect(first).toMatchObject({ api: "pets", source: "http", request: { method: "GET", path: "/pets/7", headers: { "x-api-key": "[redacted]" } }, response: { status: 200 } });
    const second = JSON.parse(lines[1] as string);
    expect(second.request.query).toBe("api_key=%5Bredacted%5D");
    const whoami = JSON.parse(lines[3] as string);
    expect(JSON.parse(whoami.response.body)).toEqual({ key: "[redacted]", auth: "[redacted]" });
    expect(whoami.request.headers.cookie).toBe("[redacted]");
    expect(JSON.parse(lines[4] as string).response.bodyEncoding).toBe("base64");
  });

  it("replays recordings byte for byte and simulates what was never recorded", async () => {
    const { cassette, skipped } = await HttpCassette.load(cassetteFile);
    expect(skipped).toBe(0);
    const replay = await startServe({ apis: [api], mode: "replay", cassette, port: 0, log: () => undefined });
    try {
      // Other credential values: secrets are not part of what a recording is matched by.
      const again = REQUESTS.map((r) => JSON.parse(JSON.stringify(r).split(SECRETS.header).join("another-key-0000").split(SECRETS.query).join("another-query-key")) as typeof r);
      for (const [i, r] of again.entries()) {
        const answer = await send(replay.url, r);
        const original = proxied[i] as Answer;
        expect(answer.status).toBe(original.status);
        expect(answer.contentType).toBe(original.contentType);
        expect(answer.headers.get("x-toolsim-source")).toBe("replay");
        if (r.path === "/whoami") expect(JSON.parse(answer.bytes.toString())).toEqual({ key: "[redacted]", auth: "[redacted]" });
        else expect(answer.bytes.equals(original.bytes)).toBe(true);
      }
      // A request that differs in its body or query is not a recording: simulated.
      const other = await send(replay.url, { path: "/pets/8", init: { headers: { "x-api-key": "k-1234" } } });
      expect(other.status).toBe(200);
      expect(other.headers.get("x-toolsim-source")).not.toBe("replay");
      const otherPost = await send(replay.url, { path: "/pets", init: { method: "POST", headers: { "x-api-key": "k-1234", "content-type": "application/json" }, body: JSON.stringify({ species: "cat", name: "Tom" }) } });
      expect(otherPost.headers.get("x-toolsim-source")).toBe("replay"); // same JSON body, other key order
      const unknown = await send(replay.url, { path: "/nowhere", init: {} });
      expect(unknown.status).toBe(404);
    } finally {
      await replay.close();
    }
  });

  it("answers 502 when the real API cannot be reached and 504 when it is too slow", async () => {
    const dead = await startServe({ apis: [{ ...api, upstream: "http://127.0.0.1:9" }], mode: "proxy", port: 0, log: () => undefined });
    const slowServer = createServer((_req, res) => setTimeout(() => res.end("{}"), 2000));
    await new Promise<void>((resolve) => slowServer.listen(0, "127.0.0.1", resolve));
    const slow = await startServe({
      apis: [{ ...api, upstream: `http://127.0.0.1:${(slowServer.address() as AddressInfo).port}` }],
      mode: "proxy",
      port: 0,
      upstreamTimeoutMs: 100,
      log: () => undefined,
    });
    try {
      expect((await send(dead.url, { path: "/status", init: {} })).status).toBe(502);
      expect((await send(slow.url, { path: "/status", init: {} })).status).toBe(504);
    } finally {
      await dead.close();
      await slow.close();
      slowServer.closeAllConnections();
      await new Promise<void>((resolve) => slowServer.close(() => resolve()));
    }
  });
});
