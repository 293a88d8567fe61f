import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIO } from "../../../simulator/cli/cli-io.js";
import { main } from "../../../simulator/cli/main.js";
import { startOpenAIServer, type OpenAIServer, type ReceivedRequest, type ScriptedReply } from "../../support/openai-server.js";
import { isObject, type Json } from "../../../specs/json-object.js";

/*
 * `toolsim generate` through the CLI with the text-format assistants (ReAct, API-Bank) and DFSDT, against a
 * local OpenAI-protocol server whose scripted model answers every role in the format its prompt asks for:
 * record (tool calls parsed from text, cassette written), then replay with the server closed (same journal),
 * and `toolsim doctor` against the same server.
 */

const TOOLSETS = ["toolsets/bundled/holidays.yaml", "toolsets/bundled/weather.yaml"];
/** The operations of the two toolsets: every tool call must name one of them. */
const OPERATIONS = new Set([
  ...["listCountries", "getPublicHolidays", "getNextHolidays", "isTodayHoliday", "getLongWeekends"],
  ...["searchLocations", "getCurrentWeather", "getForecast", "getHourlyForecast", "getWeatherAlerts", "getAirQuality"],
]);

function capture(): CliIO & { stdout: string; stderr: string } {
  const io = { stdout: "", stderr: "", isTTY: false, out: (t: string) => void (io.stdout += t), err: (t: string) => void (io.stderr += t) };
  return io;
}

interface Message {
  role: string;
  content: unknown;
}

function messagesOf(req: ReceivedRequest): Message[] {
  return (req.body["messages"] ?? []) as Message[];
}

function textOf(m: Message | undefined): string {
  return m && typeof m.content === "string" ? m.content : "";
}

/** A plausible value for a parameter schema (enum, date, number, boolean, else a country-code-like word). */
function valueFor(schema: unknown): unknown {
  const s = isObject(schema) ? schema : {};
  if (Array.isArray(s["enum"]) && s["enum"].length > 0) return s["enum"][0];
  if (s["example"] !== undefined) return s["example"];
  const type = Array.isArray(s["type"]) ? s["type"].find((t) => t !== "null") : s["type"];
  if (type === "integer" || type === "int") return 2024;
  if (type === "number" || type === "float") return 1.5;
  if (type === "boolean" || type === "bool") return true;
  if (s["format"] === "date") return "2024-05-01";
  return "US";
}

/** Arguments with every required parameter of a JSON Schema filled. */
function argumentsFor(parameters: unknown): Json {
  const p = isObject(parameters) ? parameters : {};
  const props = isObject(p["properties"]) ? p["properties"] : {};
  const required = Array.isArray(p["required"]) ? (p["required"] as string[]) : [];
  return Object.fromEntries(required.map((name) => [name, valueFor(props[name])]));
}

/** The tools a ReAct system prompt lists: `- name: description` then `  Parameters (JSON Schema): {...}`. */
function reactTools(system: string): { name: string; parameters: unknown }[] {
  return [...system.matchAll(/^- ([A-Za-z0-9_.-]+): .*\n {2}Parameters \(JSON Schema\): (.*)$/gm)].map((m) => ({ name: m[1]!, parameters: JSON.parse(m[2]!) as unknown }));
}

/** The APIs an API-Bank system prompt lists, one JSON object a line, as JSON Schemas. */
function apiBankTools(system: string): { name: string; parameters: unknown }[] {
  return system
    .split("\n")
    .filter((l) => l.startsWith('{"name":'))
    .map((l) => {
      const d = JSON.parse(l) as { name: string; input_parameters: Record<string, Json> };
      const required = Object.entries(d.input_parameters)
        .filter(([, v]) => v["required"] === true)
        .map(([k]) => k);
      return { name: d.name, parameters: { type: "object", properties: d.input_parameters, required } };
    });
}

function pyValue(v: unknown): string {
  if (typeof v === "string") return `'${v}'`;
  if (typeof v === "boolean") return v ? "True" : "False";
  return String(v);
}

/** The start of DFSDT's diversity note (see `defaultDfsdtHint`): the search backtracked to this point. */
const DIVERSITY_NOTE = "[Note from the search, not from the user]";

/** How the scripted model behaves in a run. */
interface ScriptState {
  /** Tool names the assistant asked for. */
  called: Set<string>;
  /** Give up on a first try (no diversity note yet): DFSDT must backtrack and try again. */
  giveUpFirst: boolean;
  /** Requests answered with a give-up. */
  giveUps: number;
}

/**
 * One scripted model for every role, told apart by the prompts: the assistant answers in the format its
 * prompt asks for (ReAct text, API-Bank text, or native tool calls), calling the first tool it is offered
 * with its required parameters filled, then answering once an observation came back. With `giveUpFirst`
 * it gives up (in the format's words) until DFSDT's diversity note shows it a failed earlier try.
 */
function formatScript(state: ScriptState): (req: ReceivedRequest) => ScriptedReply {
  const { called } = state;
  return (req) => {
    const messages = messagesOf(req);
    const sys = textOf(messages[0]);
    const last = messages[messages.length - 1];
    const observed = last?.role === "tool" || (last?.role === "user" && textOf(last).startsWith("Observation"));
    const giveUp = state.giveUpFirst && !observed && !messages.some((m) => textOf(m).startsWith(DIVERSITY_NOTE));
    if (giveUp && (sys.startsWith("You are an assistant that completes") || sys.startsWith("You are an AI assistant") || Array.isArray(req.body["tools"]))) state.giveUps++;
    // toolsim doctor's probes
    if (sys.startsWith("You are a health check")) return { kind: "text", content: "ok" };
    if (sys.startsWith("You answer with JSON only")) return { kind: "text", content: '{"ok": true, "n": 2}' };
    // the other roles
    if (sys.startsWith("You simulate one operation")) return { kind: "text", content: '{"status": 200, "body": {"note": "simulated"}}' };
    if (sys.startsWith("You review a dialogue")) return { kind: "text", content: '{"solvable": true, "process_correct": true, "response_correct": true, "verdict": "pass", "reason": "fine"}' };
    if (sys.startsWith("You play the user in a conversation")) return { kind: "text", content: "Sure, use what I said." };
    if (sys.startsWith("You play a user")) return { kind: "text", content: "1. Could you look up the public holidays for me please?" };
    // ReAct (ToolAlpaca figure 10)
    if (sys.startsWith("You are an assistant that completes the user's requests by calling tools.")) {
      if (observed) return { kind: "text", content: "Thought: The observation has what the user asked for.\nFinal Answer: Here is what the service returned." };
      if (giveUp) return { kind: "text", content: 'Thought: This cannot work.\nAction: give_up_and_restart\nAction Input: {"reason": "a wrong start"}' };
      const tool = reactTools(sys)[0];
      if (!tool) return { kind: "text", content: "Thought: No tool fits.\nFinal Answer: I cannot do that with these tools." };
      called.add(tool.name);
      return { kind: "text", content: `Thought: I should call ${tool.name}.\nAction: ${tool.name}\nAction Input: ${JSON.stringify(argumentsFor(tool.parameters))}` };
    }
    // API-Bank
    if (sys.startsWith("You are an AI assistant that completes the user's requests by calling APIs.")) {
      if (observed) return { kind: "text", content: "Here is what the service returned." };
      if (giveUp) return { kind: "text", content: "GIVE UP: a wrong start" };
      const tool = apiBankTools(sys)[0];
      if (!tool) return { kind: "text", content: "I cannot do that with these APIs." };
      called.add(tool.name);
      const args = Object.entries(argumentsFor(tool.parameters)).map(([k, v]) => `${k}=${pyValue(v)}`);
      return { kind: "text", content: `I will look that up.\nAPI-Request: [${tool.name}(${args.join(", ")})]` };
    }
    // native function calling (the doctor's get_weather, and the native assistant under DFSDT)
    const tools = req.body["tools"] as { function: { name: string; parameters?: unknown } }[] | undefined;
    if (tools && tools.length > 0) {
      const choice = req.body["tool_choice"];
      if (isObject(choice) && isObject(choice["function"])) return { kind: "tool-calls", calls: [{ name: String(choice["function"]["name"]), arguments: '{"city":"Paris"}' }] };
      if (tools[0]!.function.name === "get_weather") return { kind: "tool-calls", calls: [{ name: "get_weather", arguments: '{"city":"Lyon"}' }] };
      if (observed) return { kind: "text", content: "Here is what the service returned." };
      if (giveUp) return { kind: "text", content: "GIVE UP: a wrong start" };
      const tool = tools[0]!.function;
      called.add(tool.name);
      return { kind: "tool-calls", calls: [{ name: tool.name, arguments: JSON.stringify(argumentsFor(tool.parameters)) }] };
    }
    return { kind: "text", content: "OK." };
  };
}

interface JournalEvent {
  type: string;
  episodeId: string;
  call?: { name: string };
  [key: string]: unknown;
}

function journal(dir: string): JournalEvent[] {
  return readFileSync(join(dir, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as JournalEvent);
}

/** The journal without what differs between a recorded run and its replay: event times and call durations. */
function normalizedJournal(dir: string): string[] {
  return journal(dir).map((e) => {
    const copy: Json = { ...e };
    delete copy["at"];
    if (copy["type"] === "llm.call") delete copy["durationMs"];
    return JSON.stringify(copy);
  });
}

describe("generate with text-format assistants and DFSDT (real ChatOpenAI, local OpenAI-protocol server)", () => {
  let server: OpenAIServer;
  const state: ScriptState = { called: new Set(), giveUpFirst: false, giveUps: 0 };
  const root = mkdtempSync(join(tmpdir(), "toolsim-llm-formats-"));
  let recorded: { name: string; dir: string; args: string[] }[] = [];

  beforeAll(async () => {
    server = await startOpenAIServer(formatScript(state), { model: "test" });
  });
  let open = true;
  const closeServer = async (): Promise<void> => {
    if (open) await server.close();
    open = false;
  };
  afterAll(async () => {
    await closeServer();
    rmSync(root, { recursive: true, force: true });
  });

  const variants: { name: string; flags: string[]; format: "react" | "apibank" | "native"; dfsdt: boolean }[] = [
    // More episodes in flight than the endpoint's cap of model calls (default 8): the CLI says so.
    { name: "react", flags: ["--assistant-format", "react", "--concurrency", "12"], format: "react", dfsdt: false },
    { name: "apibank", flags: ["--assistant-format", "apibank"], format: "apibank", dfsdt: false },
    { name: "dfsdt", flags: ["--dfsdt"], format: "native", dfsdt: true },
    { name: "dfsdt-react", flags: ["--dfsdt", "--assistant-format", "react"], format: "react", dfsdt: true },
    { name: "dfsdt-apibank", flags: ["--dfsdt", "--assistant-format", "apibank"], format: "apibank", dfsdt: true },
  ];

  it.each(variants)("records a run with $name: tool calls read from the model's answers, a cassette", async ({ name, flags, format, dfsdt }) => {
    const { called } = state;
    called.clear();
    state.giveUpFirst = dfsdt;
    state.giveUps = 0;
    const before = server.requests.length;
    const dir = join(root, name);
    const args = ["generate", "--toolsets", ...TOOLSETS, "--episodes", "3", "--seed", "5", "--model", "openai:test", ...flags];
    const io = capture();
    const code = await main([...args, "--base-url", server.baseURL, "--out", dir], io);
    expect(io.stderr).not.toContain("internal error");
    expect(code).toBe(0);
    const capNote = "--concurrency 12 with --llm-concurrency 8: at most 8 model calls in flight per endpoint";
    if (flags.includes("--concurrency")) expect(io.stderr).toContain(capNote);
    else expect(io.stderr).not.toContain("model calls in flight");

    const events = journal(dir);
    const toolNames = events.filter((e) => e.type === "tool.call").map((e) => e.call?.name);
    expect(toolNames.length).toBeGreaterThan(0);
    // The calls the journal holds are the ones the model wrote, read from its text (or native tool calls).
    expect(new Set(toolNames)).toEqual(called);
    for (const n of toolNames) expect(OPERATIONS.has(n ?? ""), n).toBe(true);
    // Every assistant answer was readable: no episode gave up on unparseable output.
    expect(events.filter((e) => e.type === "assistant.gave-up" && String(e["reason"]).startsWith("unparseable"))).toEqual([]);
    expect(events.filter((e) => e.type === "assistant.final").length).toBeGreaterThan(0);
    if (dfsdt) {
      // Every first try gave up; the search hid the give-ups from the loop, backtracked with the diversity
      // note, and the second try went through.
      expect(state.giveUps).toBeGreaterThan(0);
      expect(server.requests.slice(before).some((r) => messagesOf(r).some((m) => textOf(m).startsWith(DIVERSITY_NOTE)))).toBe(true);
      expect(events.filter((e) => e.type === "assistant.gave-up")).toEqual([]);
    }

    // The server saw the format's prompt (text formats send no tools; native sends them).
    const assistantRequests = server.requests.slice(before).filter((r) => {
      const sys = textOf(messagesOf(r)[0]);
      return format === "react" ? sys.startsWith("You are an assistant that completes") : format === "apibank" ? sys.startsWith("You are an AI assistant") : Array.isArray(r.body["tools"]);
    });
    expect(assistantRequests.length).toBeGreaterThan(0);
    if (format !== "native") expect(assistantRequests.every((r) => r.body["tools"] === undefined)).toBe(true);

    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as { episodes: number; errors: number; llm: { calls: number; byRole: Record<string, unknown> } };
    expect(summary.episodes).toBe(3);
    expect(summary.errors).toBe(0);
    // The judge only runs after the rule stages pass (the scripted assistant calls whatever tool comes first).
    expect(Object.keys(summary.llm.byRole)).toEqual(expect.arrayContaining(["assistant", "executor", "user"]));
    expect(existsSync(join(dir, "cassette.jsonl"))).toBe(true);
    expect(readFileSync(join(dir, "cassette.jsonl"), "utf8").trim().split("\n").length).toBe(summary.llm.calls);
    recorded.push({ name, dir, args });
  });

  it("toolsim doctor passes every check against the same scripted server", async () => {
    const io = capture();
    const code = await main(["doctor", "--model", "openai:test", "--base-url", server.baseURL, "--timeout", "5000"], io);
    const lines = io.stdout.trimEnd().split("\n");
    expect(lines[0]).toContain(`toolsim doctor: openai:test at ${server.baseURL}`);
    expect(lines.slice(1, 7).map((l) => l.slice(0, 16))).toEqual(["ok   reachable  ", "ok   authorised ", "ok   model      ", "ok   chat       ", "ok   tools      ", "ok   json       "]);
    expect(io.stdout).toContain("test is served");
    expect(io.stdout).toContain('a forced call came back as get_weather({"city":"Paris"}); tool_choice auto works');
    expect(lines.at(-1)).toBe("all checks passed");
    expect(code).toBe(0);
  });

  it("replays every recorded run with the server closed into the same journal (except times)", async () => {
    expect(recorded.map((r) => r.name)).toEqual(variants.map((v) => v.name));
    await closeServer();
    for (const { name, dir, args } of recorded) {
      const out = join(root, `${name}-replay`);
      const io = capture();
      // The closed server's base URL: a call that missed the cassette would fail the run.
      const code = await main([...args, "--base-url", server.baseURL, "--replay", dir, "--out", out], io);
      expect(io.stderr, name).not.toContain("internal error");
      expect(code, name).toBe(0);
      expect(normalizedJournal(out), name).toEqual(normalizedJournal(dir));
      expect(readFileSync(join(out, "corpus.jsonl"), "utf8"), name).toBe(readFileSync(join(dir, "corpus.jsonl"), "utf8"));
    }
    recorded = [];
  });
});
