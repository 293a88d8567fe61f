import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Toolbox } from "../../../agents/roles/toolbox.js";
import { main } from "../../../simulator/cli/main.js";
import type { SimEvent } from "../../../simulator/core/events.js";
import { createSimulation } from "../../../simulator/core/simulation.js";
import { importToolAlpaca, readToolAlpacaEntry } from "../../../toolsets/import/import-toolalpaca.js";
import { scrubSecrets, toolAlpacaCredentials } from "../../../toolsets/import/toolalpaca-credentials.js";
import { applyFunctionProjection } from "../../../toolsets/import/toolalpaca-projection.js";
import { loadToolsets } from "../../../toolsets/load-toolset.js";

/*
 * ToolAlpaca's real-API format (test/fixtures/toolalpaca/eval_real_sample.json, written here in the dataset's exact
 * shape): functions named by Function_Projection, keys named by Authentication and written by the source into its
 * golden answers, one spec with `components` inside `paths`, one whose $ref points nowhere, one that is not JSON.
 */

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const FIXTURE = path.join(ROOT, "test", "fixtures", "toolalpaca", "eval_real_sample.json");
/** The made-up key the fixture's golden answers carry, as the real set carries its authors' key. */
const SOURCE_KEY = "0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c";
const PLACEHOLDER = "demo-apilayer-weatherstack-access-key";
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function entries(): Array<Record<string, unknown>> {
  return JSON.parse(readFileSync(FIXTURE, "utf8")) as Array<Record<string, unknown>>;
}

function capture(): { out: (s: string) => void; err: (s: string) => void; isTTY: boolean; stdout: string; stderr: string } {
  const io = { stdout: "", stderr: "", isTTY: false, out: (s: string) => void (io.stdout += s), err: (s: string) => void (io.stderr += s) };
  return io;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(path.join(dir, d.name)) : [path.join(dir, d.name)]));
}

describe("Function_Projection: the tools are called what the golden answers call them", () => {
  it("names each operation by its function, whatever the operationId or path says", () => {
    const doc = {
      openapi: "3.0.0",
      info: { title: "x", version: "1" },
      paths: {
        "/current": { get: { responses: { "200": { description: "ok" } } } },
        "/jokes/categories/": { get: { operationId: "listCategories", responses: { "200": { description: "ok" } } } },
        "/other": { get: { operationId: "categories", responses: { "200": { description: "ok" } } } },
      },
    };
    const report = applyFunctionProjection(doc, { current_get: ["/current", "GET"], categories: ["/jokes/categories", "get"], gone: ["/nowhere", "get"] });
    expect(doc.paths["/current"].get).toMatchObject({ operationId: "current_get" });
    expect(doc.paths["/jokes/categories/"].get.operationId).toBe("categories");
    // The operation outside the projection whose own name is taken gives it up.
    expect(doc.paths["/other"].get.operationId).toBe("categories_op");
    expect(report).toEqual({ renamed: ["get_current -> current_get", "listCategories -> categories"], unmatched: ["gone (GET /nowhere)"], unsafe: [], displaced: ["GET /other: categories -> categories_op"] });
  });

  it("imports the fixture's APIs with the dataset's names: the golden answers' tools all exist", async () => {
    const imported = importToolAlpaca(entries(), "eval_real_sample.json");
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    const names = Object.fromEntries(imported.value.toolsets.map((t) => [t.toolset.name, t.toolset]));
    expect(Object.keys(names)).toEqual(["apilayer weatherstack", "chucknorris.io", "Random Useless Facts", "Broken Things"]);
    const dir = mkdtempSync(path.join(tmpdir(), "toolsim-ta-names-"));
    dirs.push(dir);
    const io = capture();
    // Broken Things is reported and not written (its spec does not load); the others are.
    expect(await main(["toolset", "import", "toolalpaca", FIXTURE, "--out", dir], io)).toBe(1);
    expect(io.stdout).toContain("FAIL Broken Things: not written");
    expect(io.stdout).toContain("names: 3 functions named as Function_Projection names them (get_jokes_random -> jokes_random_get, get_jokes_search -> jokes_search_get, listCategories -> categories)");
    expect(io.stderr).toMatch(/skipped: eval_real_sample\.json#\/4\/Documentation: error: Garbled: Documentation is not JSON/);
    const { toolsets, problems } = await loadToolsets([dir]);
    expect(problems).toEqual([]);
    for (const ts of toolsets) {
      const projection = entries().find((e) => e["Name"] === ts.title)?.["Function_Projection"] as Record<string, [string, string]>;
      expect(ts.catalog.tools.map((t) => t.name).sort(), ts.title).toEqual(Object.keys(projection).sort());
      for (const task of ts.tasks ?? []) for (const call of task.calls ?? []) expect(ts.catalog.get(call.tool), `${ts.title}: ${call.tool}`).toBeDefined();
    }
  });
});

describe("Authentication: toolset credentials, and the source's keys never written", () => {
  it("reads which parameter carries the key, and finds the keys the golden answers hold", () => {
    const weather = entries()[0] as Record<string, unknown>;
    const c = toolAlpacaCredentials(weather, "apilayer weatherstack", () => "query");
    expect(c).toEqual({
      auth: { type: "apiKey", in: "query", name: "access_key", credentials: [PLACEHOLDER] },
      placeholder: PLACEHOLDER,
      secrets: [SOURCE_KEY],
      parameters: [{ name: "access_key", placeholder: PLACEHOLDER, secrets: [SOURCE_KEY] }],
    });
    // A masked Authentication value is not a key; an unmasked one is.
    expect(toolAlpacaCredentials({ Authentication: { api_key: "<YOUR_API_KEY>" } }, "X", () => undefined)?.secrets).toEqual([]);
    expect(toolAlpacaCredentials({ Authentication: { api_key: "sk-live-abcdef123456" } }, "X", () => undefined)?.secrets).toEqual(["sk-live-abcdef123456"]);
    expect(toolAlpacaCredentials({ Authentication: {} }, "X", () => undefined)).toBeUndefined();
    const scrubbed = scrubSecrets({ a: [`key=${SOURCE_KEY}`, { [SOURCE_KEY]: 1 }] }, [SOURCE_KEY], PLACEHOLDER);
    expect(scrubbed).toEqual({ value: { a: [`key=${PLACEHOLDER}`, { [PLACEHOLDER]: 1 }] }, replaced: 2 });
  });

  it("writes auth with the placeholder, golden answers with the placeholder, and a note; no file holds the source key", async () => {
    const read = readToolAlpacaEntry(entries()[0], "eval_real_sample.json", "/0");
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.toolset.auth).toEqual({ type: "apiKey", in: "query", name: "access_key", credentials: [PLACEHOLDER] });
    expect(read.value.toolset.tasks?.[0]?.calls?.[0]).toEqual({ tool: "current_get", arguments: { access_key: PLACEHOLDER, query: "Paris", units: "f" } });
    expect(read.value.changes?.[0]).toMatch(/the source's key \(4 occurrences, golden answers included\) replaced by the placeholder and written nowhere/);
    expect(JSON.stringify(read.value)).not.toContain(SOURCE_KEY);
    const dir = mkdtempSync(path.join(tmpdir(), "toolsim-ta-keys-"));
    dirs.push(dir);
    const io = capture();
    await main(["toolset", "import", "toolalpaca", FIXTURE, "--out", path.join(dir, "toolsets")], io);
    expect(await main(["tasks", "import", "toolalpaca", FIXTURE, "--out", path.join(dir, "tasks.jsonl")], io)).toBe(0);
    expect(io.stdout + io.stderr).not.toContain(SOURCE_KEY);
    expect(io.stderr).toContain(`note: apilayer weatherstack: credentials: Authentication names access_key (an API key in the query): the toolset accepts the placeholder ${PLACEHOLDER}`);
    const written = filesUnder(dir);
    expect(written.length).toBe(4);
    for (const f of written) expect(readFileSync(f, "utf8"), f).not.toContain(SOURCE_KEY);
    expect(readFileSync(path.join(dir, "tasks.jsonl"), "utf8")).toContain(PLACEHOLDER);
  });

  it("an Authentication with several keys: each gets its placeholder, its source keys scrubbed, and the harness passes all", async () => {
    const entry = {
      Name: "Edamam Recipes",
      Description: "Search recipes.",
      Authentication: { app_id: "***", app_key: "***" },
      Documentation: JSON.stringify({
        openapi: "3.0.0",
        info: { title: "Edamam", version: "1" },
        paths: {
          "/search": {
            get: {
              operationId: "search",
              parameters: ["q", "app_id", "app_key"].map((name) => ({ name, in: "query", required: true, schema: { type: "string" } })),
              responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { count: { type: "integer" } } } } } } },
            },
          },
        },
      }),
      Instructions: ["Find chicken recipes."],
      Golden_Answers: [[{ Action: "search", Action_Input: '{"q": "chicken", "app_id": "3f2a1b9c", "app_key": "9d8c7b6a5f4e3d2c1b0a"}' }]],
    };
    const read = readToolAlpacaEntry(entry, "multi.json", "/0");
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const ID = "demo-edamam-recipes-app-id";
    const KEY = "demo-edamam-recipes-app-key";
    expect(read.value.toolset.auth).toEqual({ type: "apiKey", in: "query", name: "app_id", credentials: [ID], keys: { app_key: KEY } });
    expect(read.value.toolset.tasks?.[0]?.calls?.[0]?.arguments).toEqual({ q: "chicken", app_id: ID, app_key: KEY });
    const text = JSON.stringify(read.value);
    expect(text).not.toContain("3f2a1b9c");
    expect(text).not.toContain("9d8c7b6a5f4e3d2c1b0a");
    expect(read.value.changes?.[0]).toContain(`also app_key (placeholder ${KEY}), passed the same way`);
    const dir = mkdtempSync(path.join(tmpdir(), "toolsim-ta-multikey-"));
    dirs.push(dir);
    writeFileSync(path.join(dir, "multi.json"), JSON.stringify([entry]));
    expect(await main(["toolset", "import", "toolalpaca", path.join(dir, "multi.json"), "--out", path.join(dir, "out")], capture())).toBe(0);
    const { toolsets, problems } = await loadToolsets([path.join(dir, "out")]);
    expect(problems).toEqual([]);
    const box = Toolbox.for(toolsets);
    expect(Object.keys((box.tool("search")?.parameters as { properties: object }).properties)).toEqual(["q"]);
    expect(box.supplyCredentials({ id: "c", name: "search", arguments: { q: "beef" } }).arguments).toEqual({ q: "beef", app_id: ID, app_key: KEY });
  });

  it("the toolbox offers the tool without its credential argument and fills it into the assistant's calls", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolsim-ta-toolbox-"));
    dirs.push(dir);
    await main(["toolset", "import", "toolalpaca", FIXTURE, "--out", dir], capture());
    const { toolsets } = await loadToolsets([path.join(dir, "apilayer-weatherstack.yaml")]);
    const toolbox = Toolbox.for(toolsets);
    const offered = toolbox.tool("current_get")?.parameters as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(offered.properties)).toEqual(["query", "units"]);
    expect(offered.required).toEqual(["query"]);
    expect(toolbox.get("current_get")?.credentials).toEqual({ access_key: PLACEHOLDER });
    expect(toolbox.supplyCredentials({ id: "c1", name: "current_get", arguments: { query: "Paris" } })).toEqual({ id: "c1", name: "current_get", arguments: { query: "Paris", access_key: PLACEHOLDER } });
    expect(toolbox.supplyCredentials({ id: "c2", name: "current_get", arguments: '{"query": "Rome"}' }).arguments).toEqual({ query: "Rome", access_key: PLACEHOLDER });
    // A key the assistant passes itself is left alone (a wrong one fails at the API, as it would for real).
    expect(toolbox.supplyCredentials({ id: "c3", name: "current_get", arguments: { query: "Oslo", access_key: "mine" } }).arguments).toEqual({ query: "Oslo", access_key: "mine" });
  });

  it("in generated episodes the user never plans or says a key, the assistant never asks for one, and the tester does not object to the one the harness gave", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolsim-ta-generate-"));
    dirs.push(dir);
    await main(["toolset", "import", "toolalpaca", FIXTURE, "--out", dir], capture());
    const { toolsets } = await loadToolsets([path.join(dir, "apilayer-weatherstack.yaml")]);
    const events: SimEvent[] = [];
    const sim = createSimulation({ toolsets, episodes: 8, seed: 3 });
    sim.on("*", (e) => void events.push(e));
    await sim.run();
    const plans = events.flatMap((e) => (e.type === "user.plan" ? e.plan.requests.flatMap((r) => r.steps) : []));
    expect(plans.length).toBe(8);
    expect(plans.every((st) => !("access_key" in st.args))).toBe(true);
    expect(events.some((e) => e.type === "user.instruction" && /access[ _]key|demo-apilayer/i.test(e.text))).toBe(false);
    expect(events.some((e) => e.type === "assistant.question")).toBe(false);
    // The harness passes the toolset's credential; what it publishes holds a placeholder of it, never the value.
    const calls = events.flatMap((e) => (e.type === "tool.call" ? [e] : []));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((e) => (e.call.arguments as Record<string, unknown>)["access_key"] === "<credential:access_key>" && e.supplied?.[0] === "access_key")).toBe(true);
    expect(JSON.stringify(events)).not.toContain(PLACEHOLDER);
    const reasons = events.flatMap((e) => (e.type === "tester.verdict" ? e.verdict.stages.flatMap((st) => st.reasons) : []));
    expect(reasons.filter((r) => r.includes("access_key"))).toEqual([]);
  });
});
