import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import type { CliIO } from "../../../simulator/cli/cli-io.js";
import { startOpenAIServer, type OpenAIServer, type ReceivedRequest, type ScriptedReply } from "../../support/openai-server.js";
import { journalWithoutTimes } from "../../support/llm-roles.js";

const SECRET = "sk-test-SECRET-0123456789abcdef";
const TOOLSETS = ["toolsets/bundled/holidays.yaml", "toolsets/bundled/weather.yaml"];

function capture(): CliIO & { stdout: string; stderr: string } {
  const io = { stdout: "", stderr: "", isTTY: false, out: (t: string) => void (io.stdout += t), err: (t: string) => void (io.stderr += t) };
  return io;
}

function systemText(req: ReceivedRequest): string {
  const messages = (req.body["messages"] ?? []) as { role: string; content: unknown }[];
  const first = messages[0];
  return first && typeof first.content === "string" ? first.content : "";
}

const words = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();

/** The tool that takes the most of the values the user named (`<parameter in words> <value>`), all its required ones among them; else the first tool. */
function pickCall(tools: { function: { name: string; parameters?: unknown } }[], said: string): { name: string; args: Record<string, unknown> } {
  let best: { name: string; args: Record<string, unknown> } | undefined;
  for (const t of tools) {
    const p = (t.function.parameters ?? {}) as { required?: string[]; properties?: Record<string, { type?: string }> };
    const args: Record<string, unknown> = {};
    for (const [k, schema] of Object.entries(p.properties ?? {})) {
      const m = new RegExp(`${words(k)} (.+?)(?: and |[?,]| for me| please|\\. |$)`, "i").exec(said);
      if (m?.[1] !== undefined) args[k] = schema.type === "integer" || schema.type === "number" ? Number(m[1]) : m[1];
    }
    if ((p.required ?? []).every((k) => k in args) && (best === undefined || Object.keys(args).length > Object.keys(best.args).length)) best = { name: t.function.name, args };
  }
  return best ?? { name: tools[0]?.function.name ?? "none", args: {} };
}

/**
 * A plausible OpenAI-compatible model for every role, told apart by their prompts: the user states the
 * values its goal lists, the assistant calls the tool those values fit, the executor answers, the judge passes.
 */
function roleScript(req: ReceivedRequest): ScriptedReply {
  const sys = systemText(req);
  const messages = (req.body["messages"] ?? []) as { role: string; content: unknown }[];
  const last = messages[messages.length - 1];
  const text = (m: { content: unknown } | undefined): string => (m && typeof m.content === "string" ? m.content : "");
  if (sys.startsWith("You simulate one operation")) return { kind: "text", content: '{"status": 200, "body": {"note": "simulated"}}' };
  if (sys.startsWith("You review a dialogue")) return { kind: "text", content: '{"solvable": true, "process_correct": true, "response_correct": true, "verdict": "pass", "reason": "fine"}' };
  if (sys.startsWith("You play the user in a conversation")) return { kind: "text", content: `Sure: ${/Give: (.*)$/m.exec(text(last))?.[1] ?? "use what I said"}` };
  if (sys.startsWith("You play a user")) {
    const says = [...text(messages[1]).matchAll(/Say: (.*?)(?: \(.*\))? = (.*)$/gm)].map((x) => `${x[1]} ${String(JSON.parse(x[2] ?? '""'))}`);
    return { kind: "text", content: `1. Could you look up ${says.length > 0 ? says.join(" and ") : "that"} for me please?` };
  }
  const tools = req.body["tools"] as { function: { name: string; parameters?: unknown } }[] | undefined;
  if (tools && tools.length > 0) {
    if (last?.role === "tool") return { kind: "text", content: "Here is what the service returned." };
    const call = pickCall(tools, messages.filter((m) => m.role === "user").map(text).join(" and "));
    return { kind: "tool-calls", calls: [{ name: call.name, arguments: JSON.stringify(call.args) }] };
  }
  return { kind: "text", content: "OK." };
}


function filesContaining(dir: string, needle: string): string[] {
  return readdirSync(dir).filter((f) => readFileSync(join(dir, f), "utf8").includes(needle));
}

describe("generate with LLM agents in all four roles (real ChatOpenAI, local OpenAI-protocol server)", () => {
  let server: OpenAIServer;
  const dirs: string[] = [];
  const tmp = (): string => {
    const d = mkdtempSync(join(tmpdir(), "toolsim-llm-"));
    dirs.push(d);
    return d;
  };
  const savedKey = process.env["OPENAI_API_KEY"];

  beforeAll(async () => {
    server = await startOpenAIServer(roleScript);
  });
  afterAll(async () => {
    await server.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  afterEach(() => {
    if (savedKey === undefined) delete process.env["OPENAI_API_KEY"];
    else process.env["OPENAI_API_KEY"] = savedKey;
  });

  it("records a run, never writes the key, and replays it with no endpoint into the same journal", async () => {
    process.env["OPENAI_API_KEY"] = SECRET;
    const a = join(tmp(), "run");
    const common = ["generate", "--toolsets", ...TOOLSETS, "--episodes", "4", "--seed", "3", "--model", "openai:test-model", "--base-url", server.baseURL];
    const io = capture();
    const code = await main([...common, "--out", a], io);
    expect(io.stderr).not.toContain("internal error");
    expect(code).toBe(0);
    const summary = JSON.parse(readFileSync(join(a, "summary.json"), "utf8")) as {
      episodes: number;
      llm: { calls: number; byRole: Record<string, { calls: number }>; promptTokens: number };
    };
    expect(summary.episodes).toBe(4);
    expect(Object.keys(summary.llm.byRole).sort()).toEqual(["assistant", "executor", "tester", "user"]);
    expect(summary.llm.calls).toBeGreaterThan(8);
    expect(summary.llm.promptTokens).toBeGreaterThan(0);
    expect(readFileSync(join(a, "cassette.jsonl"), "utf8").trim().split("\n").length).toBe(summary.llm.calls);
    expect(filesContaining(a, SECRET)).toEqual([]);
    // The server saw the key: the requests were really authorised with it.
    expect(server.requests.some((r) => r.headers["authorization"] === `Bearer ${SECRET}`)).toBe(true);

    delete process.env["OPENAI_API_KEY"];
    const before = server.requests.length;
    const b = join(tmp(), "replay");
    const replayIO = capture();
    const replayCode = await main([...common, "--replay", a, "--out", b], replayIO);
    expect(replayIO.stderr).not.toContain("internal error");
    expect(replayCode).toBe(0);
    expect(server.requests.length).toBe(before);
    expect(journalWithoutTimes(b)).toEqual(journalWithoutTimes(a));
    expect(readFileSync(join(b, "corpus.jsonl"), "utf8")).toBe(readFileSync(join(a, "corpus.jsonl"), "utf8"));
  });

  it("survives 429s, 500s, hangs and garbage: retries, then ends only the affected episodes", async () => {
    process.env["OPENAI_API_KEY"] = SECRET;
    let n = 0;
    const flaky = await startOpenAIServer((req) => {
      n++;
      if (n === 1) return { kind: "status", status: 429, headers: { "retry-after": "0" } };
      if (n === 2) return { kind: "status", status: 500 };
      if (n === 3) return { kind: "hang" };
      return roleScript(req);
    });
    try {
      const dir = join(tmp(), "flaky");
      const io = capture();
      const code = await main(
        ["generate", "--toolsets", TOOLSETS[0]!, "--episodes", "2", "--model", "openai:test-model", "--base-url", flaky.baseURL, "--timeout", "400", "--retries", "4", "--out", dir],
        io,
      );
      expect(io.stderr).not.toContain("internal error");
      expect(code).toBe(0);
      const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as { episodes: number; errors: number };
      expect(summary.episodes).toBe(2);
      expect(summary.errors).toBe(0);
    } finally {
      await flaky.close();
    }

    const garbage = await startOpenAIServer(() => ({ kind: "raw", status: 200, text: "{not json" }));
    try {
      const dir = join(tmp(), "garbage");
      const io = capture();
      const code = await main(
        ["generate", "--toolsets", TOOLSETS[0]!, "--episodes", "2", "--assistant-model", "openai:test-model", "--base-url", garbage.baseURL, "--retries", "1", "--out", dir],
        io,
      );
      expect(io.stderr).not.toContain("internal error");
      // Every episode ended with an error: generate says why and exits 1 (the run folder is still written).
      expect(code).toBe(1);
      const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as { episodes: number; errors: number; errorReasons: { reason: string }[] };
      expect(summary.episodes).toBe(2);
      expect(summary.errors).toBe(2);
      expect(summary.errorReasons[0]?.reason).toMatch(/model|llm|response|json/i);
      expect(filesContaining(dir, SECRET)).toEqual([]);
    } finally {
      await garbage.close();
    }
  });

  it("stops cleanly at --max-calls and resumes", async () => {
    process.env["OPENAI_API_KEY"] = SECRET;
    const dir = join(tmp(), "budget");
    const args = ["generate", "--toolsets", TOOLSETS[0]!, "--episodes", "6", "--assistant-model", "openai:test-model", "--base-url", server.baseURL, "--out", dir];
    const io = capture();
    const code = await main([...args, "--max-calls", "3"], io);
    expect(code).toBe(3);
    expect(io.stdout).toContain("budget reached");
    const partial = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as { episodes: number };
    expect(partial.episodes).toBeGreaterThan(0);
    expect(partial.episodes).toBeLessThan(6);
    const resumed = capture();
    expect(await main(["generate", "--resume", "--out", dir, "--max-calls", "1000"], resumed)).toBe(0);
    const done = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as { episodes: number };
    expect(done.episodes).toBe(6);
  });

  it("prices a local endpoint's calls with a configured price, stops cleanly at --max-cost and resumes", async () => {
    process.env["OPENAI_API_KEY"] = SECRET;
    const root = tmp();
    const dir = join(root, "cost");
    // 100000 USD per 1M tokens: a call of the server's 10 + 5 tokens costs $1.50.
    const config = join(root, "toolsim.config.yaml");
    writeFileSync(config, "llm:\n  prices:\n    test-model: {input: 100000, output: 100000}\n");
    const args = ["generate", "--toolsets", TOOLSETS[0]!, "--episodes", "6", "--concurrency", "2", "--assistant-model", "openai:test-model", "--base-url", server.baseURL, "--out", dir];
    const io = capture();
    const code = await main([...args, "--config", config, "--max-cost", "4"], io);
    expect(io.stderr).not.toContain("internal error");
    expect(code).toBe(3);
    expect(io.stdout).toContain("budget reached");
    const partial = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as { episodes: number; llm: { calls: number; cost: number } };
    expect(partial.episodes).toBeGreaterThan(0);
    expect(partial.episodes).toBeLessThan(6);
    expect(partial.llm.cost).toBeCloseTo(partial.llm.calls * 1.5, 6);
    expect(partial.llm.cost).toBeGreaterThanOrEqual(4);
    // Every episode written is whole: the journal holds as many finished episodes as the summary counts.
    expect(readFileSync(join(dir, "events.jsonl"), "utf8").split('"type":"episode.finished"').length - 1).toBe(partial.episodes);
    const resumed = capture();
    expect(await main(["generate", "--resume", "--out", dir, "--max-cost", "1000000"], resumed)).toBe(0);
    const done = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as { episodes: number; llm: { calls: number; cost: number } };
    expect(done.episodes).toBe(6);
    expect(done.llm.cost).toBeCloseTo(done.llm.calls * 1.5, 6);
  });

  it("never writes a base URL's query values (run.json, logs, any file) and asks for the URL again on resume", async () => {
    process.env["OPENAI_API_KEY"] = SECRET;
    const QUERY_KEY = "QKEY-0123456789-secret";
    const dir = join(tmp(), "query");
    const url = `${server.baseURL}?api-key=${QUERY_KEY}`;
    const args = ["generate", "--toolsets", TOOLSETS[0]!, "--episodes", "3", "--concurrency", "1", "--model", "openai:test-model", "--base-url", url, "--out", dir];
    const io = capture();
    expect(await main([...args, "--max-calls", "2"], io)).toBe(3);
    expect(io.stderr + io.stdout).not.toContain(QUERY_KEY);
    expect(io.stderr).toContain("?api-key=[redacted]");
    expect(filesContaining(dir, QUERY_KEY)).toEqual([]);
    const info = JSON.parse(readFileSync(join(dir, "run.json"), "utf8")) as { config: { llm: { baseUrl: string } } };
    expect(info.config.llm.baseUrl).toBe(`${server.baseURL}?api-key=[redacted]`);
    // The key really went to the endpoint (in the query): it was used, not dropped.
    expect(server.requests.some((r) => r.path.includes(QUERY_KEY))).toBe(true);
    const again = capture();
    expect(await main(["generate", "--resume", "--out", dir, "--max-calls", "1000"], again)).toBe(2);
    expect(again.stderr).toContain("give the URL again with --base-url");
    expect(again.stderr).not.toContain(QUERY_KEY);
    const resumed = capture();
    expect(await main(["generate", "--resume", "--out", dir, "--base-url", url, "--max-calls", "1000"], resumed)).toBe(0);
    expect(resumed.stderr + resumed.stdout).not.toContain(QUERY_KEY);
    expect(filesContaining(dir, QUERY_KEY)).toEqual([]);
  });

  it("--replay without --model takes the models from the recorded run.json, or says it cannot", async () => {
    process.env["OPENAI_API_KEY"] = SECRET;
    const root = tmp();
    const recorded = join(root, "recorded");
    const io = capture();
    expect(await main(["generate", "--toolsets", TOOLSETS[0]!, "--episodes", "2", "--assistant-model", "openai:test-model", "--base-url", server.baseURL, "--out", recorded], io)).toBe(0);
    delete process.env["OPENAI_API_KEY"];
    const replayed = join(root, "replayed");
    const replayIO = capture();
    expect(await main(["generate", "--toolsets", TOOLSETS[0]!, "--episodes", "2", "--replay", recorded, "--out", replayed], replayIO)).toBe(0);
    expect(replayIO.stderr).toContain("assistant openai:test-model");
    const runId = (d: string): string => (JSON.parse(readFileSync(join(d, "run.json"), "utf8")) as { id: string }).id;
    expect(runId(replayed)).toBe(runId(recorded)); // no --base-url given: the id does not depend on it
    expect(journalWithoutTimes(replayed)).toEqual(journalWithoutTimes(recorded));
    // A cassette file with no run.json beside it: a clear usage error, not a silent offline run.
    const lone = join(root, "lone");
    mkdirSync(lone);
    copyFileSync(join(recorded, "cassette.jsonl"), join(lone, "cassette.jsonl"));
    const loneIO = capture();
    expect(await main(["generate", "--toolsets", TOOLSETS[0]!, "--episodes", "2", "--replay", join(lone, "cassette.jsonl"), "--out", join(root, "x")], loneIO)).toBe(2);
    expect(loneIO.stderr).toMatch(/no run\.json next to it.*--model/);
    const withModel = capture();
    expect(await main(["generate", "--toolsets", TOOLSETS[0]!, "--episodes", "2", "--assistant-model", "openai:test-model", "--replay", join(lone, "cassette.jsonl"), "--out", join(root, "y")], withModel)).toBe(0);
  });

  it("costs nothing on a local endpoint without a configured price", async () => {
    process.env["OPENAI_API_KEY"] = SECRET;
    const dir = join(tmp(), "free");
    const io = capture();
    expect(await main(["generate", "--toolsets", TOOLSETS[0]!, "--episodes", "1", "--assistant-model", "openai:gpt-4o", "--base-url", server.baseURL, "--out", dir], io)).toBe(0);
    const s = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as { llm: { calls: number; cost: number } };
    expect(s.llm.calls).toBeGreaterThan(0);
    expect(s.llm.cost).toBe(0); // gpt-4o has a default price, but this endpoint is on this machine
  });
});
