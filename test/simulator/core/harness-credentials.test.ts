import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CredentialMask, credentialPlaceholder, isCredentialPlaceholder } from "../../../agents/roles/credential-mask.js";
import type { AssistantToolCall } from "../../../agents/roles/dialogue.js";
import { SimulatedExecutor } from "../../../agents/executor/simulated-executor.js";
import { Toolbox } from "../../../agents/roles/toolbox.js";
import type { SimEvent } from "../../../simulator/core/events.js";
import { createSimulation } from "../../../simulator/core/simulation.js";
import { suppliedArguments, withoutSuppliedArguments } from "../../../simulator/export/supplied-arguments.js";
import { projectEpisode, type CorpusRecord } from "../../../simulator/runs/corpus-projection.js";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import { startOpenAIServer } from "../../support/openai-server.js";
import type { LoadedToolset } from "../../../toolsets/toolset.js";
import { runCli as cli } from "../../support/cli-in-process.js";

/*
 * A toolset's API keys (auth `name` and `keys`, passed by the harness as ordinary arguments, as ToolAlpaca's real
 * APIs take them) reach the executor in clear and nothing else: events carry `<credential:NAME>` placeholders, the
 * dialogue holds the calls as the assistant made them, exports leave the harness's arguments out of their calls
 * (their tool lists do not declare them), and no file a run or an export writes holds a key.
 */

const FIXTURE = fileURLToPath(new URL("../../fixtures/credentials/recipe-keys.yaml", import.meta.url));
const APP_ID = "zq7-PLANTED-app-id-4821";
const APP_KEY = "kx9-PLANTED-app-key-7730";
const root = mkdtempSync(path.join(tmpdir(), "toolsim-harness-credentials-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let toolset: LoadedToolset;
beforeAll(async () => {
  const loaded = await loadToolset(FIXTURE);
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("; "));
  toolset = loaded.value;
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(path.join(dir, d.name)) : [path.join(dir, d.name)]));
}

function jsonLines(file: string): Array<Record<string, any>> {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, any>);
}

describe("the toolbox: every key of the toolset, filled in and published as placeholders", () => {
  it("offers the tools without any key argument and fills all of them (auth.name and auth.keys)", () => {
    const box = Toolbox.for([toolset]);
    const offered = box.tool("searchRecipes")?.parameters as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(offered.properties)).toEqual(["q"]);
    expect(offered.required).toEqual(["q"]);
    expect(box.get("getRecipe")?.credentials).toEqual({ app_id: APP_ID, app_key: APP_KEY });
    const filled = box.fillCredentials({ id: "c1", name: "searchRecipes", arguments: { q: "chicken" } });
    expect(filled.call.arguments).toEqual({ q: "chicken", app_id: APP_ID, app_key: APP_KEY });
    expect(filled.published.arguments).toEqual({ q: "chicken", app_id: "<credential:app_id>", app_key: "<credential:app_key>" });
    expect(filled.supplied).toEqual(["app_id", "app_key"]);
    // A placeholder (a replayed journal, a model repeating what it read) stands for the key and is filled again.
    expect(box.fillCredentials(filled.published).call.arguments).toEqual(filled.call.arguments);
    // A key the assistant typed itself is not filled, but is still never published in clear.
    const typed = box.fillCredentials({ id: "c2", name: "getRecipe", arguments: { recipeId: "rc-1", app_id: APP_ID, app_key: "mine" } });
    expect(typed.supplied).toEqual([]);
    expect(typed.published.arguments).toEqual({ recipeId: "rc-1", app_id: "<credential:app_id>", app_key: "mine" });
  });

  it("masks keys wherever they appear: whole values, inside text, in object keys; short ones only as whole values", () => {
    const mask = new CredentialMask(new Map([[APP_ID, credentialPlaceholder("app_id")], ["k1", credentialPlaceholder("short")]]));
    expect(mask.value({ url: `https://x/?app_id=${APP_ID}&q=1`, [APP_ID]: [APP_ID, "k1", "k10"] })).toEqual({
      url: "https://x/?app_id=<credential:app_id>&q=1",
      "<credential:app_id>": ["<credential:app_id>", "<credential:short>", "k10"],
    });
    const untouched = { a: ["b", { c: 1 }] };
    expect(mask.value(untouched)).toBe(untouched);
    expect(isCredentialPlaceholder("<credential:app_id>")).toBe(true);
    expect(isCredentialPlaceholder("app_id")).toBe(false);
  });
});

describe("episodes: the executor gets the keys, the events and the dialogue get placeholders", () => {
  it("publishes tool.call with placeholders and the supplied names, while the executor receives the keys", async () => {
    const received: AssistantToolCall[] = [];
    const inner = new SimulatedExecutor();
    const events: SimEvent[] = [];
    const sim = createSimulation({
      toolsets: [toolset],
      episodes: 6,
      seed: 5,
      agents: { executor: { execute: (call, state, ctx) => (received.push(call), inner.execute(call, state, ctx)) } },
    });
    sim.on("*", (e) => void events.push(e));
    await sim.run();
    expect(received.length).toBeGreaterThan(0);
    for (const c of received) expect(c.arguments).toMatchObject({ app_id: APP_ID, app_key: APP_KEY });
    const calls = events.flatMap((e) => (e.type === "tool.call" ? [e] : []));
    expect(calls.length).toBe(received.length);
    for (const e of calls) {
      expect(e.call.arguments).toMatchObject({ app_id: "<credential:app_id>", app_key: "<credential:app_key>" });
      expect(e.supplied).toEqual(["app_id", "app_key"]);
      expect(e.request?.query).toMatchObject({ app_id: "<credential:app_id>", app_key: "<credential:app_key>" });
    }
    // The search echoes the app id it was called with: the result carries the placeholder.
    const echoed = events.flatMap((e) => (e.type === "tool.result" && e.name === "searchRecipes" && e.result.status === 200 ? [(e.result.body as { app_id: string }).app_id] : []));
    expect(echoed.length).toBeGreaterThan(0);
    expect(new Set(echoed)).toEqual(new Set(["<credential:app_id>"]));
    expect(JSON.stringify(events).includes("PLANTED")).toBe(false);
    // The corpus dialogue holds the calls as the assistant made them; the steps keep what was executed, masked.
    const byEpisode = new Map<string, SimEvent[]>();
    for (const e of events) byEpisode.set(e.episodeId, [...(byEpisode.get(e.episodeId) ?? []), e]);
    const record = projectEpisode([...byEpisode.values()].find((es) => es.some((e) => e.type === "tool.call")) ?? []);
    const dialogueCalls = record.dialogue.flatMap((t) => (t.role === "assistant" ? (t.toolCalls ?? []) : []));
    expect(dialogueCalls.length).toBeGreaterThan(0);
    for (const c of dialogueCalls) expect(Object.keys(c.arguments as object).some((k) => k.startsWith("app_"))).toBe(false);
    for (const s of record.steps) expect(s.call.supplied).toEqual(["app_id", "app_key"]);
  });
});

describe("generate, export and replay: no file holds a key, exported calls match their tool lists", () => {
  const run = path.join(root, "run");
  const out = path.join(root, "exports");

  it("writes no key into the run folder, and replay (results recomputed) equals the journal", async () => {
    const g = await cli(["generate", "--toolsets", FIXTURE, "--episodes", "24", "--seed", "7", "--out", run]);
    expect(g.code, g.err).toBe(0);
    expect(jsonLines(path.join(run, "corpus.jsonl")).length).toBeGreaterThan(10);
    const written = filesUnder(run);
    expect(written.length).toBeGreaterThanOrEqual(4);
    for (const f of written) {
      const text = readFileSync(f, "utf8");
      expect(text.includes(APP_ID) || text.includes(APP_KEY), f).toBe(false);
    }
    expect(readFileSync(path.join(run, "events.jsonl"), "utf8")).toContain("<credential:app_key>");
    const r = await cli(["replay", run]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain("equal: the new journal equals the recorded one");
  });

  it("exports every format without a key, and without key arguments in the calls", async () => {
    for (const format of ["openai", "sharegpt", "toolalpaca", "apibank", "alpaca"]) {
      const r = await cli(["export", run, "--format", format, "--out", path.join(out, `${format}.jsonl`), "--include-rejected", "--meta"]);
      expect(r.code, `${format}: ${r.err}`).toBe(0);
    }
    // dpo pairs accepted episodes with rejected ones of the same plan, when the run has any; never with a key.
    await cli(["export", run, "--format", "dpo", "--out", path.join(out, "dpo.jsonl")]);
    const written = filesUnder(out);
    expect(written.length).toBeGreaterThanOrEqual(5);
    for (const f of written) {
      const text = readFileSync(f, "utf8");
      expect(text.includes(APP_ID) || text.includes(APP_KEY), f).toBe(false);
    }
    const openai = jsonLines(path.join(out, "openai.jsonl"));
    let calls = 0;
    for (const line of openai) {
      const declared = new Map((line["tools"] as Array<{ function: { name: string; parameters: { properties: Record<string, unknown> } } }>).map((t) => [t.function.name, Object.keys(t.function.parameters.properties)]));
      for (const m of line["messages"] as Array<{ tool_calls?: Array<{ function: { name: string; arguments: string } }> }>) {
        for (const c of m.tool_calls ?? []) {
          calls++;
          for (const arg of Object.keys(JSON.parse(c.function.arguments) as object)) expect(declared.get(c.function.name), `${c.function.name}(${arg})`).toContain(arg);
        }
      }
    }
    expect(calls).toBeGreaterThan(10);
    const alpaca = jsonLines(path.join(out, "toolalpaca.jsonl"));
    expect(alpaca[0]?.["Authentication"]).toEqual({ app_id: "***", app_key: "***" });
    const inputs = alpaca.flatMap((l) => (l["Instances"] as Array<{ intermediate_steps: Array<[[string, string, string], string]> }>).flatMap((i) => i.intermediate_steps.map((s) => s[0][1])));
    expect(inputs.length).toBeGreaterThan(0);
    for (const input of inputs) expect(input).not.toMatch(/app_id|app_key/);
  });

  it("an LLM executor gets the request with the key and echoes it: the cassette and the journal hold neither", async () => {
    const seen: string[] = [];
    const server = await startOpenAIServer((req) => {
      const messages = req.body["messages"] as Array<{ content: string }>;
      const prompt = messages.map((m) => m.content).join("\n");
      seen.push(prompt);
      const id = /app_id=([^&\s]+)/.exec(prompt)?.[1] ?? "none";
      // The simulated service echoes the app id it was called with (as some real APIs do).
      const body = prompt.includes("/nutrition-data") ? { calories: 206, app_id: `echo ${id}` } : prompt.includes("GET /recipes/") ? { id: "rc-101", label: "Lemon chicken", ingredients: ["lemon"] } : { app_id: id, hits: [] };
      return { kind: "text", content: JSON.stringify({ status: 200, body }) };
    });
    const prior = process.env["OPENAI_API_KEY"];
    process.env["OPENAI_API_KEY"] = "sk-test-0123456789";
    try {
      const dir = path.join(root, "llm-executor");
      const g = await cli(["generate", "--toolsets", FIXTURE, "--episodes", "12", "--executor-model", `openai:sim@${server.baseURL}`, "--out", dir]);
      expect(g.code, g.err).toBe(0);
      // The executor received the key in clear (it simulates the real API); nothing written holds it.
      expect(seen.some((p) => p.includes(APP_ID))).toBe(true);
      expect(readFileSync(path.join(dir, "cassette.jsonl"), "utf8").length).toBeGreaterThan(0);
      for (const f of filesUnder(dir)) {
        const text = readFileSync(f, "utf8");
        expect(text.includes(APP_ID) || text.includes(APP_KEY), f).toBe(false);
      }
      // The model's answer echoed the key: it reaches the episode as the cassette recorded it (scrubbed), so a
      // replay from the cassette reads the same.
      // (The answer's app_id field is bound to the call's app_id argument, so the world echoes the argument: its placeholder.)
      expect(readFileSync(path.join(dir, "events.jsonl"), "utf8")).toMatch(/"body":\{"calories":206,"app_id":"(echo \[redacted\]|<credential:app_id>)"\}/);
    } finally {
      if (prior === undefined) delete process.env["OPENAI_API_KEY"];
      else process.env["OPENAI_API_KEY"] = prior;
      await server.close();
    }
  });

  it("journals written before calls were marked: the credential arguments are still left out of exported calls", () => {
    const record = {
      dialogue: [{ role: "assistant", content: "", toolCalls: [{ id: "c1", name: "getRecipe", arguments: { recipeId: "rc-1", app_id: APP_ID, app_key: APP_KEY } }] }],
      steps: [{ request: 0, call: { id: "c1", name: "getRecipe", arguments: { recipeId: "rc-1", app_id: APP_ID, app_key: APP_KEY } } }],
    } as unknown as Pick<CorpusRecord, "dialogue" | "steps">;
    const credentialsOf = (tool: string) => Toolbox.for([toolset]).get(tool)?.credentials;
    expect(suppliedArguments(record, credentialsOf)).toEqual(new Map([["c1", ["app_id", "app_key"]]]));
    const stripped = withoutSuppliedArguments(record, credentialsOf);
    expect(stripped.dialogue[0]).toMatchObject({ toolCalls: [{ arguments: { recipeId: "rc-1" } }] });
    // A key the assistant passed that is not the harness's stays (it was the assistant's argument).
    const own = { ...record, steps: [{ request: 0, call: { id: "c1", name: "getRecipe", arguments: { recipeId: "rc-1", app_id: "theirs" } } }] } as unknown as Pick<CorpusRecord, "dialogue" | "steps">;
    expect(suppliedArguments(own, credentialsOf)).toEqual(new Map());
  });
});
