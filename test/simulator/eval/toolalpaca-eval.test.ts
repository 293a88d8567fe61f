import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CliIO } from "../../../simulator/cli/cli-io.js";
import { main } from "../../../simulator/cli/main.js";
import type { SimEvent } from "../../../simulator/core/events.js";
import type { ToolAlpacaSample } from "../../../simulator/eval/toolalpaca/toolalpaca-eval.js";
import { startOpenAIServer } from "../../support/openai-server.js";

/*
 * ToolAlpaca evaluation on the fixture in the real-API format (test/fixtures/toolalpaca): the assistant gets the
 * key as the original agent does (never from the user), one API whose spec cannot load does not stop the others,
 * the LLM judge reads ToolAlpaca's own solution text (results without a body included), and predictions in
 * ToolAlpaca's output format are scored without running an assistant.
 */

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const FIXTURE = join(ROOT, "test", "fixtures", "toolalpaca", "eval_real_sample.json");
const PREDICTIONS = join(ROOT, "test", "fixtures", "toolalpaca", "predictions.json");
const SOURCE_KEY = "0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c";
const PLACEHOLDER = "demo-apilayer-weatherstack-access-key";
const root = mkdtempSync(join(tmpdir(), "toolsim-ta-eval-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function capture(): CliIO & { stdout: string; stderr: string } {
  const io = { stdout: "", stderr: "", isTTY: false, out: (t: string) => void (io.stdout += t), err: (t: string) => void (io.stderr += t) };
  return io;
}

function samplesOf(dir: string): ToolAlpacaSample[] {
  return readFileSync(join(dir, "samples.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as ToolAlpacaSample);
}

function noSourceKeyIn(dir: string): void {
  for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f), "utf8"), f).not.toContain(SOURCE_KEY);
}

let savedKey: string | undefined;
beforeEach(() => {
  savedKey = process.env["OPENAI_API_KEY"];
  process.env["OPENAI_API_KEY"] = "sk-test-TA-0123456789abcdef";
});
afterEach(() => {
  if (savedKey === undefined) delete process.env["OPENAI_API_KEY"];
  else process.env["OPENAI_API_KEY"] = savedKey;
});

describe("eval --tasks toolalpaca: credentials, a bad API among good ones", () => {
  it("the offline assistant calls with the toolset's key without asking; the unloadable API's tasks are reported and the rest scored", async () => {
    const out = join(root, "offline");
    const io = capture();
    expect(await main(["eval", "--tasks", `toolalpaca:${FIXTURE}`, "--out", out], io)).toBe(0);
    const samples = samplesOf(out);
    expect(samples.map((s) => s.task)).toEqual([
      "toolalpaca/apilayer weatherstack/0",
      "toolalpaca/apilayer weatherstack/1",
      "toolalpaca/apilayer weatherstack/2",
      "toolalpaca/chucknorris.io/0",
      "toolalpaca/chucknorris.io/1",
      "toolalpaca/chucknorris.io/2",
      "toolalpaca/Random Useless Facts/0",
      "toolalpaca/Random Useless Facts/1",
      "toolalpaca/Broken Things/0",
      "toolalpaca/Broken Things/1",
    ]);
    const weather = samples.filter((s) => s.task.includes("weatherstack"));
    for (const s of weather) {
      const events = s.events as SimEvent[];
      expect(events.some((e) => e.type === "assistant.question"), s.task).toBe(false);
      expect(events.some((e) => e.type === "assistant.gave-up"), s.task).toBe(false);
      expect(s.calls.length, s.task).toBeGreaterThan(0);
      // The harness passed the toolset's credential; the journal and the samples hold its placeholder.
      for (const c of s.calls) expect(c).toMatchObject({ name: "current_get", status: 200, arguments: { access_key: "<credential:access_key>" } });
    }
    // The rule judge does not ask for the literal key: the weather calls with the right city get procedure credit.
    expect(weather.find((s) => s.task.endsWith("/1"))?.process).toBe("Yes");
    const broken = samples.filter((s) => s.task.startsWith("toolalpaca/Broken Things/"));
    expect(broken.every((s) => s.notRun === true && s.process === "No" && /Broken Things: the spec does not load: .*#\/components\/schemas\/Thing/.test(s.error ?? ""))).toBe(true);
    expect(io.stderr).toMatch(/warning: 2 tasks not run \(toolalpaca\/Broken Things\/0, \.\.\.\): Broken Things: the spec does not load/);
    // The spec with `components` inside `paths` is repaired on load: its tasks run.
    expect(samples.filter((s) => s.task.startsWith("toolalpaca/Random Useless Facts/")).every((s) => s.notRun === undefined && s.calls.length > 0)).toBe(true);
    expect(io.stdout).toMatch(/^ToolAlpaca, 10 tasks: procedure \d+\.\d% \(rules: golden steps with their values\), response \d+\.\d% of \d+ \(rules: facts the calls returned, stated in the answer; n\/a for \d+: nothing to check\), overall \d+\.\d% of \d+ \(rules\); 2 tasks with nothing to judge/m);
    const result = JSON.parse(readFileSync(join(out, "eval.json"), "utf8")) as { toolalpaca: { tasks: number; notRun: number; judgedBy: string } };
    expect(result.toolalpaca).toMatchObject({ tasks: 10, notRun: 2, judgedBy: "rules" });
    noSourceKeyIn(out);
  });

  it("exits 1 with the cause when no task could run at all", async () => {
    const only = join(root, "only-broken.json");
    writeFileSync(only, JSON.stringify((JSON.parse(readFileSync(FIXTURE, "utf8")) as Array<{ Name: string }>).filter((e) => e.Name === "Broken Things")));
    const io = capture();
    expect(await main(["eval", "--tasks", `toolalpaca:${only}`], io)).toBe(1);
    expect(io.stderr).toMatch(/warning: 2 tasks not run .*: Broken Things: the spec does not load/);
  });

  it("an LLM assistant (ChatOpenAI) is offered the tool without the key argument, and its call carries the key", async () => {
    const server = await startOpenAIServer((req) =>
      (req.body["messages"] as unknown[]).length <= 2
        ? { kind: "tool-calls", calls: [{ name: "current_get", arguments: '{"query": "Paris", "units": "f"}' }] }
        : { kind: "text", content: "It is 64°F in Paris." },
    );
    try {
      const out = join(root, "llm-assistant");
      const io = capture();
      expect(await main(["eval", "--tasks", `toolalpaca:${FIXTURE}`, "--limit", "1", "--assistant", `openai:asst@${server.baseURL}`, "--out", out], io)).toBe(0);
      const tools = server.requests[0]?.body["tools"] as Array<{ function: { name: string; parameters: { properties: Record<string, unknown>; required?: string[] } } }>;
      expect(tools.map((t) => t.function.name)).toEqual(["current_get"]);
      expect(Object.keys(tools[0]?.function.parameters.properties ?? {})).toEqual(["query", "units"]);
      const [sample] = samplesOf(out);
      expect(sample?.calls).toEqual([{ name: "current_get", arguments: { query: "Paris", units: "f", access_key: "<credential:access_key>" }, status: 200 }]);
      expect(sample?.process).toBe("Yes");
      expect(JSON.stringify(server.requests)).not.toContain(SOURCE_KEY);
    } finally {
      await server.close();
    }
  });
});

describe("eval --judge-model: ToolAlpaca's LLM judge through ChatOpenAI", () => {
  it("judges every task with the paper's prompt and ToolAlpaca's solution text, tool results without a body included", async () => {
    const server = await startOpenAIServer(() => ({ kind: "text", content: "## Analysis\nThe calls match.\n## Results\nProcess Correctness: Yes\nFinal Response Correctness: Uncertain" }));
    try {
      const out = join(root, "judged");
      const io = capture();
      expect(await main(["eval", "--tasks", `toolalpaca:${FIXTURE}`, "--judge-model", `openai:judge-4@${server.baseURL}`, "--out", out], io)).toBe(0);
      // Eight tasks ran (the broken API's two did not): eight judge calls.
      expect(server.requests).toHaveLength(8);
      const prompts = server.requests.map((r) => ((r.body["messages"] as Array<{ content: string }>)[0]?.content ?? ""));
      const today = prompts.find((p) => p.includes("What is today's useless fact?")) ?? "";
      // The operation answers without a body: the solution says so rather than crashing the judge.
      expect(today).toMatch(/1\. Function: api_v2_facts_today_get\nParameters: \{\}\nRetruns: Status Code: 200\. Response: \n2\. Final Response: /);
      expect(today).toContain("## Standard Answer\n1. Function: api_v2_facts_today_get\nParameters: {}\n");
      // The documentation is the source's NLDocumentation, which names the functions as the tools are named.
      expect(today).toContain("## Documentation\napi_v2_facts_random_get: Get random useless fact");
      const weather = prompts.find((p) => p.includes("Paris")) ?? "";
      // Gold and solution both show the credential as the journal does: its placeholder.
      expect(weather).toContain(`## Standard Answer\n1. Function: current_get\nParameters: {"access_key":"<credential:access_key>","query":"Paris","units":"f"}`);
      expect(weather).not.toContain(PLACEHOLDER);
      expect(weather).not.toContain(SOURCE_KEY);
      expect(io.stdout).toContain("ToolAlpaca, 10 tasks: procedure 80.0% (LLM judge openai:judge-4), response 0.0% (LLM judge openai:judge-4), overall 0.0% (LLM judge openai:judge-4); 8 Uncertain; 2 tasks with nothing to judge");
      expect(samplesOf(out).filter((s) => !s.notRun).every((s) => s.judgedBy === "llm" && s.judge === "openai:judge-4" && s.process === "Yes" && s.response === "Uncertain")).toBe(true);
      noSourceKeyIn(out);
    } finally {
      await server.close();
    }
  });

  it("a judge endpoint that fails counts Uncertain with a warning; the evaluation finishes", async () => {
    const server = await startOpenAIServer(() => ({ kind: "status", status: 400, body: { error: { message: "model not found" } } }));
    try {
      const io = capture();
      expect(await main(["eval", "--tasks", `toolalpaca:${FIXTURE}`, "--limit", "2", "--judge-model", `openai:nope@${server.baseURL}`, "--retries", "0", "--json"], io)).toBe(0);
      const r = JSON.parse(io.stdout) as { toolalpaca: { tasks: number; uncertain: number; process: number } };
      expect(r.toolalpaca).toMatchObject({ tasks: 2, uncertain: 2, process: 0 });
      expect(io.stderr).toMatch(/warning: the judge failed on 2 tasks \(counted Uncertain\); first: toolalpaca\/apilayer weatherstack\/0: /);
    } finally {
      await server.close();
    }
  });
});

describe("eval --predictions: ToolAlpaca's output format", () => {
  it("scores a generation file by rules: evidence for the response, errors for instances without steps, keys replaced", async () => {
    const out = join(root, "predictions");
    const io = capture();
    expect(await main(["eval", "--predictions", PREDICTIONS, "--tasks", `toolalpaca:${FIXTURE}`, "--out", out], io)).toBe(0);
    const byTask = new Map(samplesOf(out).map((s) => [s.task, s]));
    // The key the agent typed (from "Authentication information: access_key=...") matches the golden answer's placeholder.
    expect(byTask.get("toolalpaca/apilayer weatherstack/0")).toMatchObject({ process: "Yes", response: "Yes", overall: true });
    // Right call, but an answer that states nothing the call returned.
    expect(byTask.get("toolalpaca/apilayer weatherstack/1")).toMatchObject({ process: "Yes", response: "No", overall: false });
    expect(byTask.get("toolalpaca/apilayer weatherstack/2")).toMatchObject({ process: "No", notRun: true });
    expect(byTask.get("toolalpaca/chucknorris.io/1")).toMatchObject({ process: "Yes", response: "Yes" });
    // A function called by a name the dataset does not have.
    expect(byTask.get("toolalpaca/chucknorris.io/2")?.reasons?.process).toBe("calls getCategories, which the golden answer does not use");
    expect(byTask.get("toolalpaca/Random Useless Facts/0")).toMatchObject({ notRun: true, error: "no prediction for this instruction" });
    expect(io.stderr).toContain("note: 11 occurrence(s) of API keys in");
    expect(io.stderr).toContain("warning: 4 of 10 tasks have no prediction in");
    expect(io.stderr).toContain("warning: 1 instance(s) without intermediate steps judged wrong, as ToolAlpaca's evaluation counts them (first: toolalpaca/apilayer weatherstack/2)");
    // 10 tasks: procedure Yes for weather 0, 1 and jokes 0, 1; response Yes for weather 0 and jokes 0, 1 (the five
    // tasks without a prediction with steps count as wrong, as in ToolAlpaca's evaluation).
    expect(io.stdout).toMatch(/^ToolAlpaca, 10 tasks: procedure 40\.0% \(rules: golden steps with their values\), response 30\.0% \(rules: facts the calls returned, stated in the answer\), overall 30\.0% \(rules\); 5 tasks with nothing to judge/m);
    noSourceKeyIn(out);
  });

  it("with --judge-model, the judge reads the prediction's own steps as evaluation.py writes them", async () => {
    const server = await startOpenAIServer(() => ({ kind: "text", content: "## Analysis\nfine\n## Results\nProcess Correctness: Yes\nFinal Response Correctness: Yes" }));
    try {
      const io = capture();
      expect(await main(["eval", "--predictions", PREDICTIONS, "--tasks", `toolalpaca:${FIXTURE}`, "--judge-model", `openai:judge@${server.baseURL}`, "--json"], io)).toBe(0);
      // Five instances have steps; the others are errors, as in ToolAlpaca's evaluation (no judge call for them).
      expect(server.requests).toHaveLength(5);
      const first = (server.requests[0]?.body["messages"] as Array<{ content: string }>)[0]?.content ?? "";
      // The toolset's credential reads as its placeholder in the solution and in the standard answer alike.
      expect(first).toContain(`1. Function: current_get\nParameters: {"access_key": "<credential:access_key>", "query": "Paris", "units": "f"}\nRetruns: Status Code: 200. Response: {"location"`);
      expect(first).not.toContain(PLACEHOLDER);
      expect(first).toContain("2. Final Response: It is 64°F in Paris right now, partly cloudy.");
      expect(first).not.toContain(SOURCE_KEY);
      const r = JSON.parse(io.stdout) as { toolalpaca: { tasks: number; process: number; overall: number; judgedBy: string; notRun: number } };
      expect(r.toolalpaca).toMatchObject({ tasks: 10, process: 0.5, overall: 0.5, judgedBy: "llm", notRun: 5 });
    } finally {
      await server.close();
    }
  });

  it("reads the golden answers from the predictions file when --tasks is not given; refuses what it cannot read", async () => {
    const io = capture();
    expect(await main(["eval", "--predictions", PREDICTIONS, "--json"], io)).toBe(0);
    expect((JSON.parse(io.stdout) as { toolalpaca: { tasks: number } }).toolalpaca.tasks).toBe(6);
    const bad = capture();
    expect(await main(["eval", "--predictions", FIXTURE], bad)).toBe(1);
    expect(bad.stderr).toContain("not a predictions file toolsim reads");
    const both = capture();
    expect(await main(["eval", "--predictions", PREDICTIONS, "--assistant", "offline"], both)).toBe(2);
    expect(both.stderr).toContain("--assistant shapes an assistant run, and --predictions scores outputs already made");
  });
});
