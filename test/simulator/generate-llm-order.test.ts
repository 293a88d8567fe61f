/**
 * LLM runs whose episodes finish in another order than they start: the journal must not depend on it.
 * A local OpenAI-protocol server answers every role plausibly after a scripted latency that varies per
 * request, so episodes overtake each other; the user's near-duplicate check and the executor's run cache
 * are the run-wide memory whose use must not depend on completion order.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { main } from "../../simulator/cli/main.js";
import type { CliIO } from "../../simulator/cli/cli-io.js";
import { startOpenAIServer, type OpenAIServer, type ReceivedRequest, type ScriptedReply } from "../support/openai-server.js";

const TOOLSETS = ["toolsets/bundled/holidays.yaml", "toolsets/bundled/weather.yaml", "toolsets/bundled/currency.yaml"];

function capture(): CliIO & { stdout: string; stderr: string } {
  const io = { stdout: "", stderr: "", isTTY: false, out: (t: string) => void (io.stdout += t), err: (t: string) => void (io.stderr += t) };
  return io;
}

type Msg = { role: string; content: unknown };
const messagesOf = (r: ReceivedRequest): Msg[] => (r.body["messages"] ?? []) as Msg[];
const textOf = (m: Msg | undefined): string => (m && typeof m.content === "string" ? m.content : "");

/** A small deterministic hash of a text (latencies and variants that depend on the request only). */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

type Schema = { [k: string]: unknown };

/** A value valid for simple schemas: examples, enums, types and formats. */
function synth(s: unknown, tag: string, depth = 0): unknown {
  if (typeof s !== "object" || s === null || depth > 6) return tag;
  const schema = s as Schema;
  if (schema["example"] !== undefined) return schema["example"];
  if (Array.isArray(schema["enum"])) return schema["enum"][0];
  const alt = (schema["oneOf"] ?? schema["anyOf"]) as unknown[] | undefined;
  if (Array.isArray(alt)) return synth(alt[0], tag, depth + 1);
  if (Array.isArray(schema["allOf"])) return Object.assign({}, ...(schema["allOf"] as unknown[]).map((x) => synth(x, tag, depth + 1)));
  const type = Array.isArray(schema["type"]) ? (schema["type"] as string[]).find((t) => t !== "null") : schema["type"];
  if (type === "object" || schema["properties"] !== undefined) {
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries((schema["properties"] ?? {}) as Record<string, unknown>)) o[k] = synth(v, tag, depth + 1);
    return o;
  }
  if (type === "array") return [synth(schema["items"], tag, depth + 1)];
  if (type === "integer") return (schema["minimum"] as number | undefined) ?? 1;
  if (type === "number") return (schema["minimum"] as number | undefined) ?? 1.5;
  if (type === "boolean") return true;
  if (schema["format"] === "date") return "2024-05-01";
  if (schema["format"] === "date-time") return "2024-05-01T10:00:00Z";
  if (schema["format"] === "email") return "someone@example.com";
  if (schema["format"] === "uri") return "https://example.com/x";
  return tag;
}

const words = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();

/**
 * The assistant's pick: the tool whose required parameters the instruction names most (the user states
 * `<parameter in words> <value>`), with the values read after their names; else the first tool.
 */
function pickCall(tools: { function: { name: string; parameters?: unknown } }[], instruction: string): { name: string; args: Record<string, unknown> } {
  let best: { name: string; args: Record<string, unknown>; score: number } | undefined;
  for (const t of tools) {
    const p = (t.function.parameters ?? {}) as { required?: string[]; properties?: Record<string, { type?: string }> };
    const args: Record<string, unknown> = {};
    let score = 0;
    for (const k of p.required ?? []) {
      const m = new RegExp(`${words(k)} (.+?)(?: and |[?,]| please| for me|\\. |$)`, "i").exec(instruction);
      if (!m || m[1] === undefined) continue;
      const type = p.properties?.[k]?.type;
      args[k] = type === "integer" || type === "number" ? Number(m[1]) : m[1];
      score++;
    }
    if ((p.required ?? []).length === score && (best === undefined || score > best.score)) best = { name: t.function.name, args, score };
  }
  return best ?? { name: tools[0]?.function.name ?? "none", args: {} };
}

/**
 * A model for every role, told apart by their prompts. `variant` makes answers differ from call to call (a
 * sampling model: what a recording captures), else they are a function of the request only.
 */
function roleScript(variant: (r: ReceivedRequest) => string): (r: ReceivedRequest) => ScriptedReply {
  return (r) => {
    const m = messagesOf(r);
    const sys = textOf(m[0]);
    const first = textOf(m[1]);
    const last = m[m.length - 1];
    const v = variant(r);
    if (sys.startsWith("You simulate one operation")) {
      const schema = /^Schema: (.*)$/m.exec(first)?.[1];
      const status = Number(/^Response (\d{3})/m.exec(first)?.[1] ?? 200);
      let body: unknown = { note: `simulated ${v}` };
      try {
        if (schema) body = synth(JSON.parse(schema), `Lisbon ${v}`);
      } catch {
        // keep the note
      }
      return { kind: "text", content: JSON.stringify({ status, body }) };
    }
    if (sys.startsWith("You review a dialogue")) return { kind: "text", content: '{"solvable": true, "process_correct": true, "response_correct": true, "verdict": "pass", "reason": "fine"}' };
    if (sys.startsWith("You play the user in a conversation")) {
      const give = /Give: (.*)$/m.exec(textOf(last))?.[1] ?? "what I said";
      return { kind: "text", content: `Sure: ${give}` };
    }
    if (sys.startsWith("You play a user")) {
      // Candidates that state every value to say; their wording overlaps between episodes, so which one is
      // least like the run's earlier instructions (and which are near-duplicates) depends on them.
      const says = [...first.matchAll(/Say: (.*?)(?: \(.*\))? = (.*)$/gm)].map((x) => `${x[1]} ${String(JSON.parse(x[2] ?? '""'))}`);
      const what = says.length > 0 ? says.join(" and ") : "the usual";
      const forms = [
        `Could you help me with ${what}?`,
        `I need ${what}, please.`,
        `Please look up ${what} for me.`,
        `What do you find for ${what}? Thanks ${v}`,
      ];
      const start = hash(first + v) % forms.length;
      return { kind: "text", content: JSON.stringify({ instructions: [forms[start], forms[(start + 1) % forms.length], forms[(start + 2) % forms.length]] }) };
    }
    const tools = r.body["tools"] as { function: { name: string; parameters?: unknown } }[] | undefined;
    if (tools && tools.length > 0) {
      if (last?.role === "tool") return { kind: "text", content: `Here is what the service returned. ${v}` };
      const call = pickCall(tools, m.filter((x) => x.role === "user").map(textOf).join(" and "));
      // Ids too are a function of the request (the test server's default numbers them in arrival order).
      const id = `call_${hash(JSON.stringify(m) + v).toString(36)}`;
      return { kind: "tool-calls", calls: [{ id, name: call.name, arguments: JSON.stringify(call.args) }] };
    }
    return { kind: "text", content: "OK." };
  };
}

/** Latency scripted per request (0-60 ms), so that completion order differs from start order. */
function latencyOf(r: ReceivedRequest, index: number): number {
  return (hash(JSON.stringify(r.body["messages"])) + index * 7919) % 61;
}

/** A server with scripted latency; `flaky` adds 429s and 500s (retried) by request count. */
async function startServer(options: { sampling: boolean; flaky?: boolean }): Promise<OpenAIServer> {
  // A sampled variant in letters (a number in a final answer would fail the tester's grounding rule).
  const letters = (n: number): string => n.toString(26).replace(/[0-9a-p]/g, (c) => String.fromCharCode(97 + parseInt(c, 26)));
  const script = roleScript((r) => (options.sampling ? `(${letters(hash(JSON.stringify(r.body["messages"]) + String(Math.random())))})` : ""));
  return startOpenAIServer(async (r, index) => {
    await new Promise((resolve) => setTimeout(resolve, latencyOf(r, index)));
    if (options.flaky && index % 9 === 4) return { kind: "status", status: 429, headers: { "retry-after": "0" } };
    if (options.flaky && index % 13 === 7) return { kind: "status", status: 500 };
    return script(r);
  });
}

/** The journal without times: `at` on every event, `durationMs` on llm.call. */
function journalWithoutTimes(dir: string): string[] {
  return readFileSync(join(dir, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => {
      const e = JSON.parse(line) as Record<string, unknown>;
      delete e["at"];
      if (e["type"] === "llm.call") delete e["durationMs"];
      return JSON.stringify(e);
    });
}

function summaryOf(dir: string): { episodes: number; errors: number; accepted: number; llm: { calls: number; byRole: Record<string, { calls: number }> } } {
  return JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as ReturnType<typeof summaryOf>;
}

function countIn(dir: string, needle: string): number {
  return readFileSync(join(dir, "events.jsonl"), "utf8").split(needle).length - 1;
}

describe("LLM runs do not depend on the order episodes finish in", () => {
  const dirs: string[] = [];
  const tmp = (): string => {
    const d = mkdtempSync(join(tmpdir(), "toolsim-llm-order-"));
    dirs.push(d);
    return d;
  };
  const savedKey = process.env["OPENAI_API_KEY"];
  let server: OpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (savedKey === undefined) delete process.env["OPENAI_API_KEY"];
    else process.env["OPENAI_API_KEY"] = savedKey;
  });
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const base = ["generate", "--toolsets", ...TOOLSETS, "--episodes", "12", "--seed", "5"];

  /** Records a run at concurrency 6 against a sampling, flaky server with variable latency; replays it with the server closed. */
  async function recordThenReplay(extra: string[]): Promise<{ recorded: string; replayed: string; replayOut: string }> {
    process.env["OPENAI_API_KEY"] = "sk-test-order-0123456789";
    server = await startServer({ sampling: true, flaky: true });
    const recorded = join(tmp(), "recorded");
    const io = capture();
    const code = await main([...base, "--concurrency", "6", "--model", "openai:test-model", "--base-url", server.baseURL, "--retries", "6", ...extra, "--out", recorded], io);
    expect(io.stderr).not.toContain("internal error");
    expect(code, io.stderr).toBe(0);
    await server.close();
    server = undefined;
    delete process.env["OPENAI_API_KEY"];
    // No --model, no --base-url: the models come from the recorded run.json, and the run id is the same.
    const replayed = join(tmp(), "replayed");
    const replayIO = capture();
    const replayCode = await main([...base, "--concurrency", "6", ...extra, "--replay", recorded, "--out", replayed], replayIO);
    expect(replayIO.stderr).not.toContain("internal error");
    expect(replayCode).toBe(0);
    return { recorded, replayed, replayOut: replayIO.stdout };
  }

  it("replays a run recorded at concurrency 6 (all four roles LLM, latency varying per request) into the same journal", async () => {
    const { recorded, replayed, replayOut } = await recordThenReplay([]);
    const s = summaryOf(recorded);
    expect(s.episodes).toBe(12);
    expect(s.accepted).toBeGreaterThan(0); // so the LLM judge ran too
    expect(Object.keys(s.llm.byRole).sort()).toEqual(["assistant", "executor", "tester", "user"]);
    expect(journalWithoutTimes(replayed)).toEqual(journalWithoutTimes(recorded));
    expect(readFileSync(join(replayed, "corpus.jsonl"), "utf8")).toBe(readFileSync(join(recorded, "corpus.jsonl"), "utf8"));
    expect(countIn(replayed, "cassette has no answer")).toBe(0);
    expect(replayOut).toContain(`replayed: ${s.llm.calls} of ${s.llm.calls} model calls answered from the cassette`);
  });

  it("replays a --run-cache run recorded at concurrency 6 into the same journal, answers shared across episodes", async () => {
    const { recorded, replayed } = await recordThenReplay(["--run-cache"]);
    expect(summaryOf(recorded).episodes).toBe(12);
    // The cache did share answers between episodes (else this test would prove nothing about it).
    expect(countIn(recorded, "llm cache hit")).toBeGreaterThan(0);
    expect(existsSync(join(recorded, "executor-cache.jsonl"))).toBe(true);
    expect(journalWithoutTimes(replayed)).toEqual(journalWithoutTimes(recorded));
    expect(readFileSync(join(replayed, "corpus.jsonl"), "utf8")).toBe(readFileSync(join(recorded, "corpus.jsonl"), "utf8"));
    expect(countIn(replayed, "cassette has no answer")).toBe(0);
  });

  it("gives the same journal and corpus at concurrency 1 and 8 (answers a function of the request, latency varying)", async () => {
    process.env["OPENAI_API_KEY"] = "sk-test-order-0123456789";
    server = await startServer({ sampling: false });
    const run = async (concurrency: number): Promise<string> => {
      const dir = join(tmp(), `c${concurrency}`);
      const io = capture();
      const code = await main([...base, "--concurrency", String(concurrency), "--model", "openai:test-model", "--base-url", server?.baseURL ?? "", "--run-cache", "--out", dir], io);
      expect(io.stderr).not.toContain("internal error");
      expect(code, io.stderr).toBe(0);
      return dir;
    };
    const one = await run(1);
    const eight = await run(8);
    expect(summaryOf(one).episodes).toBe(12);
    expect(readFileSync(join(eight, "corpus.jsonl"), "utf8")).toBe(readFileSync(join(one, "corpus.jsonl"), "utf8"));
    expect(journalWithoutTimes(eight)).toEqual(journalWithoutTimes(one));
  });

  it("resumes an interrupted --run-cache run as the uninterrupted one goes on: its replay is the same journal", async () => {
    process.env["OPENAI_API_KEY"] = "sk-test-order-0123456789";
    server = await startServer({ sampling: true });
    const dir = join(tmp(), "interrupted");
    const args = [...base, "--concurrency", "4", "--model", "openai:test-model", "--base-url", server.baseURL, "--run-cache", "--out", dir];
    const first = capture();
    expect(await main([...args, "--max-calls", "40"], first), first.stderr).toBe(3);
    const partial = summaryOf(dir).episodes;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(12);
    const resumed = capture();
    expect(await main(["generate", "--resume", "--out", dir, "--base-url", server.baseURL, "--max-calls", "100000"], resumed)).toBe(0);
    expect(summaryOf(dir).episodes).toBe(12);
    await server.close();
    server = undefined;
    delete process.env["OPENAI_API_KEY"];
    // The replay runs all 12 episodes in one go: equal only if the resumed part saw what the first part decided.
    const replayed = join(tmp(), "replayed");
    const io = capture();
    expect(await main([...base, "--concurrency", "4", "--run-cache", "--replay", dir, "--out", replayed], io)).toBe(0);
    expect(countIn(replayed, "cassette has no answer")).toBe(0);
    expect(journalWithoutTimes(replayed)).toEqual(journalWithoutTimes(dir));
  });
});
