import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_FILES, type RunInfo } from "../../../simulator/runs/run-info.js";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import { startServe, type RunningServe } from "../../../simulator/serve/start-serve.js";
import type { ToolResult } from "../../../specs/call/tool-result.js";
import { startPetsApi, type PetsApi } from "../../support/pets-api.js";
import { runCli as cli } from "../../support/cli-in-process.js";

const TOOLSET = fileURLToPath(new URL("../../fixtures/serve/petshop.yaml", import.meta.url));
const SPEC = fileURLToPath(new URL("../../fixtures/serve/pets.openapi.yaml", import.meta.url));
const KEY = "pets-key-5be81d0c";
const STACK = /\n\s+at .+:\d+:\d+/;

const root = mkdtempSync(join(tmpdir(), "toolsim-generate-upstream-"));
const credentials = join(root, "credentials.yaml");
writeFileSync(credentials, `# the real pets API's key\ndefault: ${KEY}\n`);
let api: PetsApi;
beforeAll(async () => {
  api = await startPetsApi({ key: KEY });
});
afterAll(async () => {
  await api.close();
  rmSync(root, { recursive: true, force: true });
});

/** The tool results of a run's journal, in order. */
function toolResults(dir: string): ToolResult[] {
  return readFileSync(join(dir, RUN_FILES.events), "utf8")
    .split("\n")
    .filter((l) => l.includes('"tool.result"'))
    .map((l) => (JSON.parse(l) as { result: ToolResult }).result);
}

/** Every file of a run folder, as text. */
function runText(dir: string): string {
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("\n");
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("toolsim generate --upstream (the real API answers tool calls)", () => {
  it("answers every tool call from the real API with the credentials, and writes them nowhere", async () => {
    const dir = join(root, "upstream");
    const before = api.seen.length;
    const ran = await cli(["generate", "--toolsets", TOOLSET, "--episodes", "8", "--seed", "3", "--out", dir, "--upstream", api.url, "--upstream-credentials", credentials]);
    expect(ran.err).not.toMatch(STACK);
    expect(ran.code).toBe(0);
    expect(ran.err).toContain(`petshop from the real API at ${api.url}`);
    const results = toolResults(dir);
    const valid = results.filter((r) => r.source !== "validation" && r.source !== "route");
    expect(valid.length).toBeGreaterThanOrEqual(6);
    expect(valid.every((r) => r.source === "http")).toBe(true);
    // The server saw exactly those calls, each with the key where the spec wants it.
    const seen = api.seen.slice(before);
    expect(seen.map((s) => `${s.method} ${s.url.split("?")[0]}`).sort()).toEqual(valid.map((r) => `${r.request?.method} ${r.request?.path}`).sort());
    // `/status` is public (`security: []`): no credential goes there.
    expect(seen.every((s) => s.headers["x-api-key"] === (s.url === "/status" ? undefined : KEY))).toBe(true);
    expect(valid.filter((r) => r.status >= 200 && r.status < 300).length).toBeGreaterThanOrEqual(valid.length - 1);
    expect(runText(dir)).not.toContain(KEY);
    const info = JSON.parse(readFileSync(join(dir, RUN_FILES.run), "utf8")) as RunInfo;
    expect(info.config["responses"]).toEqual({ upstream: [{ url: api.url }], authFile: credentials });
    // A replay cannot recompute the real API's answers offline: it takes them from the journal, and asks nobody.
    const seenBefore = api.seen.length;
    const replayed = await cli(["replay", dir]);
    expect(replayed.code).toBe(0);
    expect(replayed.out).toContain("results from the journal");
    expect(api.seen.length).toBe(seenBefore);
  });

  it("--resume takes the real API and credentials file from run.json, without repeating the flags", async () => {
    const dir = join(root, "resumed");
    const first = await cli(["generate", "--toolsets", TOOLSET, "--episodes", "2", "--out", dir, "--upstream", api.url, "--upstream-credentials", credentials]);
    expect(first.code).toBe(0);
    // Without them, the run's settings would differ from the recorded ones and the resume would be refused.
    const resumed = await cli(["generate", "--resume", "--out", dir]);
    expect(resumed.err).not.toMatch(STACK);
    expect(resumed.code).toBe(0);
    expect(resumed.err).toContain(`petshop from the real API at ${api.url}`);
    const elsewhere = await cli(["generate", "--resume", "--out", dir, "--tool-cassette", join(root, "recorded", "pets.jsonl"), "--upstream", api.url]);
    expect(elsewhere.code).not.toBe(0);
    expect(elsewhere.err).not.toMatch(STACK);
  });

  it("exits 1 with the cause when the real API cannot be reached, every call a 502 with source http", async () => {
    const dir = join(root, "dead");
    const port = await closedPort();
    const ran = await cli(["generate", "--toolsets", TOOLSET, "--episodes", "3", "--out", dir, "--upstream", `http://127.0.0.1:${port}`]);
    expect(ran.err).not.toMatch(STACK);
    expect(ran.code).toBe(1);
    expect(ran.err).toMatch(new RegExp(`the real API answered none of \\d+ calls?: The real API at http://127\\.0\\.0\\.1:${port} could not be reached: .*ECONNREFUSED`));
    const results = toolResults(dir).filter((r) => r.source !== "validation" && r.source !== "route");
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.status === 502 && r.source === "http")).toBe(true);
  });

  it("refuses flags that do not fit, without a stack trace", async () => {
    const cases: Array<[string[], number, RegExp]> = [
      [["--upstream", "ftp://example"], 2, /--upstream must be an http\(s\) URL/],
      [["--upstream", `nowhere=${api.url}`], 2, /no toolset of the run is named nowhere/],
      [["--upstream-timeout", "100"], 2, /--upstream-timeout goes with --upstream/],
      [["--upstream-credentials", credentials], 2, /--upstream-credentials goes with --upstream/],
      [["--upstream", api.url, "--upstream-credentials", join(root, "none.yaml")], 1, /no credentials file at/],
      [["--tool-cassette", join(root, "none.jsonl")], 1, /no cassette at/],
    ];
    for (const [flags, code, message] of cases) {
      const ran = await cli(["generate", "--toolsets", TOOLSET, "--episodes", "1", "--out", join(root, "refused"), ...flags]);
      expect(ran.code, flags.join(" ")).toBe(code);
      expect(ran.err, flags.join(" ")).toMatch(message);
      expect(ran.err).not.toMatch(STACK);
    }
  });
  it("warns when a cassette holds no recording of a toolset", async () => {
    const file = join(root, "other-apis.jsonl");
    const line = (api: string): string => JSON.stringify({ api, request: { method: "GET", path: "/pets", query: "", headers: {}, body: null }, response: { status: 200, headers: {}, body: "[]" }, source: "http", recordedAt: "" });
    writeFileSync(file, `${line("weather")}\n${line("books")}\n`);
    const ran = await cli(["generate", "--toolsets", TOOLSET, "--episodes", "1", "--out", join(root, "other-apis"), "--tool-cassette", file]);
    expect(ran.code).toBe(0);
    expect(ran.err).toContain(`warning: ${file} has no recordings of petshop (recorded: weather, books): its calls are simulated`);
  });
});

describe("serve --record, then generate --tool-cassette", () => {
  let proxy: RunningServe;
  const cassette = join(root, "recorded", "pets.jsonl");
  const recordedRun = join(root, "recorded-run");

  beforeAll(async () => {
    const loaded = await loadServedApis([TOOLSET]);
    if (!loaded.ok) throw new Error("petshop does not load");
    const [served] = loaded.apis;
    if (!served) throw new Error("no API");
    // serve in front of the real API, recording every exchange; generate talks to it as its real API.
    proxy = await startServe({ apis: [{ ...served, upstream: api.url }], mode: "proxy", port: 0, record: cassette, log: () => undefined });
    const ran = await cli(["generate", "--toolsets", TOOLSET, "--episodes", "10", "--seed", "5", "--concurrency", "1", "--out", recordedRun, "--upstream", proxy.url, "--upstream-credentials", credentials]);
    expect(ran.code).toBe(0);
    await proxy.close();
  });

  it("answers from the recording what was recorded, simulates the rest, and never calls the real API", async () => {
    const recorded = readFileSync(cassette, "utf8").trim().split("\n");
    expect(recorded.length).toBe(toolResults(recordedRun).filter((r) => r.source === "http").length);
    expect(readFileSync(cassette, "utf8")).not.toContain(KEY);
    const keys = new Set(recorded.map((l) => JSON.parse(l) as { request: { method: string; path: string; body: string | null } }).map((e) => `${e.request.method} ${e.request.path} ${e.request.body ?? ""}`));

    const dir = join(root, "replayed");
    const before = api.seen.length;
    const ran = await cli(["generate", "--toolsets", TOOLSET, "--episodes", "10", "--seed", "5", "--out", dir, "--tool-cassette", cassette]);
    expect(ran.err).not.toMatch(STACK);
    expect(ran.code).toBe(0);
    expect(ran.err).toContain(`${recorded.length} recordings from ${cassette}`);
    expect(api.seen.length).toBe(before);
    const results = toolResults(dir).filter((r) => r.source !== "validation" && r.source !== "route");
    const replayed = results.filter((r) => r.source === "replay");
    // Measured: 16 of 16 (the same seed makes the recorded calls again).
    expect(replayed.length).toBeGreaterThanOrEqual(Math.ceil(results.length * 0.9));
    // A call is answered from the recording exactly when the same request was recorded; another seed makes calls
    // that were not, which fall through to the simulator.
    const other = join(root, "replayed-other-seed");
    expect((await cli(["generate", "--toolsets", TOOLSET, "--episodes", "10", "--seed", "6", "--out", other, "--tool-cassette", cassette])).code).toBe(0);
    const otherResults = toolResults(other).filter((r) => r.source !== "validation" && r.source !== "route");
    expect(otherResults.some((r) => r.source === "replay")).toBe(true);
    expect(otherResults.some((r) => r.source === "state" || r.source === "schema" || r.source === "example")).toBe(true);
    for (const r of [...results, ...otherResults]) {
      const key = `${r.request?.method} ${r.request?.path} ${r.request?.body === undefined ? "" : JSON.stringify(r.request.body)}`;
      expect(r.source === "replay", key).toBe(keys.has(key));
    }
    expect(replayed.every((r) => r.notes.some((n) => n.startsWith(`replayed from ${cassette}`)))).toBe(true);

    // The same seed and cassette give the same journal, byte for byte but for times.
    const again = join(root, "replayed-again");
    expect((await cli(["generate", "--toolsets", TOOLSET, "--episodes", "10", "--seed", "5", "--concurrency", "3", "--out", again, "--tool-cassette", cassette])).code).toBe(0);
    const strip = (d: string): string => readFileSync(join(d, RUN_FILES.events), "utf8").replace(/"at":"[^"]*"/g, "").replace(/"runId":"[^"]*"/g, "");
    expect(strip(again)).toBe(strip(dir));
  });

  it("toolsim call answers from the recording or the real API", async () => {
    const listed = await cli(["call", SPEC, "listPets", "--tool-cassette", cassette, "--json"]);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out)).toMatchObject({ status: 200, source: "replay" });
    const real = await cli(["call", SPEC, "getPet", "--args", '{"petId":2}', "--upstream", api.url, "--upstream-credentials", credentials, "--json"]);
    expect(real.code).toBe(0);
    expect(JSON.parse(real.out)).toMatchObject({ status: 200, source: "http", body: { id: 2, name: "Rex" } });
    expect(real.out).not.toContain(KEY);
    const port = await closedPort();
    const dead = await cli(["call", SPEC, "getStatus", "--upstream", `http://127.0.0.1:${port}`, "--json"]);
    expect(dead.code).toBe(1);
    expect(JSON.parse(dead.out)).toMatchObject({ status: 502, source: "http" });
    expect(dead.err).toMatch(/could not be reached: .*ECONNREFUSED/);
    expect(dead.err).not.toMatch(STACK);
  });
});
