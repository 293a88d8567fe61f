import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { fakeModel } from "@langchain/core/testing";
import {
  buildCatalog,
  bundledToolsetsDir,
  Cassette,
  ChatModelAssistant,
  createSimulation,
  DfsdtAssistant,
  GatewayChatModel,
  LlmJudgeTester,
  LlmResponder,
  LlmUser,
  loadSpec,
  loadToolsets,
  RuleTester,
  RunAnswerCache,
  RunInstructions,
  RUN_FILES,
  schemaResponder,
  SimulatedExecutor,
  simulateCall,
  stateResponder,
  TextProtocolAssistant,
  toOpenAIFunctions,
  validateCall,
  validateResponse,
  type AssistantAgent,
  type EpisodeAgents,
  type LoadedToolset,
  type SimEvent,
  type Tester,
  type Verdict,
} from "../../simulator/library.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const README = join(ROOT, "README.md");
const FIXTURE = fileURLToPath(new URL("../fixtures/readme-library.ts", import.meta.url));
const TSX_CLI = createRequire(import.meta.url).resolve("tsx/cli");

const tmp = mkdtempSync(join(tmpdir(), "toolsim-library-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The first TypeScript block of the README's "Library" section. */
function readmeExample(): string {
  const text = readFileSync(README, "utf8");
  const section = text.split(/^## Library\s*$/m)[1];
  if (section === undefined) throw new Error("README.md has no '## Library' section");
  const block = /```ts\n([\s\S]*?)```/.exec(section.split(/^## /m)[0] ?? "")?.[1];
  if (block === undefined) throw new Error("the Library section has no ```ts block");
  return block;
}

describe("the README's Library example", () => {
  it("is the type-checked copy in test/fixtures/readme-library.ts (import path aside)", () => {
    const text = readFileSync(FIXTURE, "utf8");
    // The fixture's own header comment stops at the first import.
    const fixture = text
      .slice(text.search(/^import /m))
      .replace('from "../../simulator/library.js"', 'from "./simulator/library.js"');
    expect(fixture).toBe(readmeExample());
  });

  it("runs as written from the root of a checkout", async () => {
    const code = readmeExample();
    const child = spawn(process.execPath, [TSX_CLI, "--input-type=module", "-e", code], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => void (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => void (err += d.toString()));
    const exit = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(err).toBe("");
    expect(exit).toBe(0);
    const lines = out.trim().split("\n");
    // The tool.call subscriber printed calls with their HTTP requests, the episode.finished one each outcome.
    expect(lines.some((l) => /^ep-\d{6} \w+ -> (GET|POST|PUT|PATCH|DELETE) \/\S*$/.test(l))).toBe(true);
    expect(lines.filter((l) => /^ep-\d{6} (accepted|rejected|error)/.test(l))).toHaveLength(12);
    expect(lines.at(-1)).toMatch(/^\d+ of 12 episodes accepted$/);
  });
});

describe("the library API", () => {
  let toolsets: LoadedToolset[];
  beforeAll(async () => {
    const loaded = await loadToolsets(["holidays", "weather", "bookstore"].map((n) => join(bundledToolsetsDir(), `${n}.yaml`)));
    toolsets = loaded.toolsets;
    expect(toolsets).toHaveLength(3);
  });

  it("runs in memory, delivers typed events to subscribers, and uses a custom tester", async () => {
    const judged: number[] = [];
    const rules = new RuleTester();
    // Rejects every episode with more than one call, at a stage of its own.
    const tester: Tester = {
      async judge(episode, ctx) {
        judged.push(ctx.index);
        const verdict = await rules.judge(episode, ctx);
        const reasons = episode.calls.length > 1 ? ["more than one call"] : [];
        const stages = [...verdict.stages, { stage: "judge" as const, pass: reasons.length === 0, reasons }];
        if (!verdict.accepted) return { ...verdict, stages };
        return reasons.length === 0 ? ({ accepted: true, stages } satisfies Verdict) : { accepted: false, stages, failedStage: "judge" };
      },
    };
    const sim = createSimulation({ toolsets, episodes: 9, seed: 3, agents: { tester } });
    const calls: string[] = [];
    const finished: SimEvent[] = [];
    const all: SimEvent[] = [];
    sim.on("tool.call", (e) => {
      expect(e.type).toBe("tool.call");
      if (e.operation) calls.push(`${e.operation.method} ${e.operation.path} ${e.request?.path}`);
    });
    sim.on("episode.finished", (e) => void finished.push(e));
    const off = sim.on("*", (e) => void all.push(e));
    const result = await sim.run();

    expect(result.ran).toBe(9);
    expect(result.interrupted).toBe(false);
    expect(result.dir).toBeUndefined();
    expect(result.runId).toBe(sim.runId);
    expect(judged.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => /^(get|post|put|patch|delete) \/\S+ \/\S*$/.test(c))).toBe(true);
    expect(finished).toHaveLength(9);
    expect(result.summary.episodes).toBe(9);
    expect(result.summary.accepted + result.summary.rejected + result.summary.errors).toBe(9);
    // The custom stage appears in the funnel when it discarded something.
    const discardedAtJudge = finished.filter((e) => e.type === "episode.finished" && e.reason === "judge").length;
    expect(result.summary.stages.judge?.discarded ?? 0).toBe(discardedAtJudge);
    // Events of one episode are in seq order.
    const first = all.filter((e) => e.episodeId === "ep-000000");
    expect(first.map((e) => e.seq)).toEqual(first.map((_, i) => i));

    // Unsubscribed: a second run does not reach the listener.
    off();
    const count = all.length;
    await sim.run();
    expect(all.length).toBe(count);
  });

  it("plugs in a custom assistant; the other agents stay the offline ones", async () => {
    const assistant: AssistantAgent = { step: async () => ({ kind: "give-up", reason: "I only watch." }) };
    const sim = createSimulation({ toolsets, episodes: 4, seed: 1, agents: { assistant } });
    const gaveUp: string[] = [];
    sim.on("assistant.gave-up", (e) => void gaveUp.push(e.reason));
    const { summary } = await sim.run();
    expect(gaveUp).toEqual(["I only watch.", "I only watch.", "I only watch.", "I only watch."]);
    expect(summary.accepted).toBe(0);
    expect(summary.rejected).toBe(4);
  });

  it("writes a run folder whose journal is what the subscribers saw", async () => {
    const out = join(tmp, "run");
    const at = new Date("2025-05-05T05:05:05.000Z");
    const sim = createSimulation({ toolsets, episodes: 5, seed: 9, concurrency: 3, out, clock: () => at });
    const seen: SimEvent[] = [];
    sim.on("*", (e) => void seen.push(e));
    const result = await sim.run();
    expect(result.dir).toBe(out);
    const journal = readFileSync(join(out, RUN_FILES.events), "utf8");
    // Episodes are written whole and in index order; subscribers see them as they happen (interleaved).
    const byEpisode = [...seen].sort((a, b) => a.episodeId.localeCompare(b.episodeId) || a.seq - b.seq);
    expect(journal).toBe(byEpisode.map((e) => `${JSON.stringify(e)}\n`).join(""));
    const info = JSON.parse(readFileSync(join(out, RUN_FILES.run), "utf8")) as { toolsetFiles?: string[]; createdAt: string };
    expect(info.toolsetFiles).toEqual(toolsets.map((t) => t.file));
    expect(info.createdAt).toBe(at.toISOString());
  });

  it("stop() from a subscriber: the episodes in flight finish, the rest do not start", async () => {
    const sim = createSimulation({ toolsets, episodes: 50, seed: 2, concurrency: 2 });
    sim.on("episode.finished", (e) => {
      if (e.episodeId === "ep-000002") sim.stop();
    });
    const result = await sim.run();
    expect(result.interrupted).toBe(true);
    expect(result.ran).toBeGreaterThanOrEqual(3);
    expect(result.ran).toBeLessThan(10);
    expect(result.summary.episodes).toBe(result.ran);
  });

  it("a subscriber that throws does not disturb the run; its errors go to onListenerError", async () => {
    const errors: string[] = [];
    const sim = createSimulation({ toolsets, episodes: 3, seed: 4, onListenerError: (err, event) => void errors.push(`${event.type}: ${(err as Error).message}`) });
    let calls = 0;
    sim.on("tool.call", () => {
      calls++;
      throw new Error("observer bug");
    });
    const { summary } = await sim.run();
    expect(summary.episodes).toBe(3);
    expect(summary.errors).toBe(0);
    expect(summary.calls.total).toBe(calls);
    expect(errors).toEqual(Array.from({ length: calls }, () => "tool.call: observer bug"));
  });

  it("refuses a simulation without toolsets", () => {
    expect(() => createSimulation({ toolsets: [] })).toThrow(/at least one toolset/);
  });
});

/** The text of a LangChain message. */
function textOf(m: BaseMessage | undefined): string {
  return typeof m?.content === "string" ? m.content : "";
}

/** What the LLM user says: every value its goal lists, as `<name> <value>` (what the fake assistants read back). */
function instructionFor(messages: BaseMessage[]): AIMessage {
  const goal = textOf(messages[1]);
  const says = [...goal.matchAll(/Say: (.*?)(?: \(.*\))? = (.*)$/gm)].map((x) => `${x[1]} ${String(JSON.parse(x[2] ?? '""'))}`);
  return new AIMessage(JSON.stringify({ instructions: [`Please look up ${says.length > 0 ? says.join(" and ") : "the usual"} for me.`] }));
}

/** A tool call for the user's request: the first tool all of whose required parameters the user named. */
function callFor(tools: ReturnType<typeof toOpenAIFunctions>, said: string): { name: string; args: Record<string, unknown> } {
  const words = (k: string): string => k.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();
  for (const t of tools) {
    const params = t.function.parameters as { required?: string[]; properties?: Record<string, { type?: string }> };
    const args: Record<string, unknown> = {};
    for (const k of params.required ?? []) {
      const m = new RegExp(`${words(k)} (.+?)(?: and | for me|[?.,]|$)`, "i").exec(said);
      if (m?.[1] !== undefined) args[k] = params.properties?.[k]?.type === "integer" ? Number(m[1]) : m[1];
    }
    if ((params.required ?? []).every((k) => k in args)) return { name: t.function.name, args };
  }
  return { name: tools[0]?.function.name ?? "none", args: {} };
}

/** A hand-written BaseChatModel that speaks ReAct: any LangChain chat model serves the text-protocol assistant. */
class ReactScriptModel extends BaseChatModel {
  calls = 0;
  constructor(private readonly tools: ReturnType<typeof toOpenAIFunctions>) {
    super({});
  }
  _llmType(): string {
    return "react-script";
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.calls++;
    const said = messages.filter((m) => m.getType() === "human").map(textOf).join(" and ");
    const call = callFor(this.tools, said.split("Observation:")[0] ?? said);
    const text = /Observation:/.test(textOf(messages.at(-1)))
      ? "Thought: I have the answer.\nFinal Answer: Here is what the service returned."
      : `Thought: I call ${call.name}.\nAction: ${call.name}\nAction Input: ${JSON.stringify(call.args)}`;
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}

describe("the library API's LLM side: any BaseChatModel in every role", () => {
  let weather: LoadedToolset[];
  beforeAll(async () => {
    weather = (await loadToolsets([join(bundledToolsetsDir(), "weather.yaml")])).toolsets;
  });

  /** A fake model whose every call is answered by `answer` (fakeModel() answers a queue: one entry per call). */
  const fakeOf = (answer: (messages: BaseMessage[]) => BaseMessage, calls = 400): ReturnType<typeof fakeModel> => {
    const model = fakeModel();
    for (let i = 0; i < calls; i++) model.respond(answer);
    return model;
  };

  for (const strategy of ["native", "react", "dfsdt"] as const) {
    it(`runs episodes with a fake user, ${strategy} assistant, LLM executor and LLM judge`, async () => {
      const tools = toOpenAIFunctions(weather[0]!.catalog);
      const user = fakeOf(instructionFor);
      const assistantModel = fakeOf((messages) => {
        if (messages.at(-1)?.getType() === "tool") return new AIMessage("Here is what the service returned.");
        const call = callFor(tools, messages.filter((m) => m.getType() === "human").map(textOf).join(" and "));
        return new AIMessage({ content: "", tool_calls: [{ id: `call_${messages.length}`, name: call.name, args: call.args, type: "tool_call" }] });
      });
      const react = new ReactScriptModel(tools);
      // The executor answers with the example its prompt shows (a valid body).
      const executor = fakeOf((messages) => {
        const prompt = textOf(messages[1]);
        const example = /^Example: (.*)$/m.exec(prompt)?.[1];
        return new AIMessage(JSON.stringify({ status: Number(/^Response (\d{3})/m.exec(prompt)?.[1] ?? 200), body: example !== undefined ? (JSON.parse(example) as unknown) : {} }));
      });
      const judge = fakeOf(() => new AIMessage('{"solvable": true, "process_correct": true, "response_correct": true, "verdict": "pass", "reason": "fine"}'));
      const history = new RunInstructions();
      const runCache = new RunAnswerCache();
      const sim = createSimulation({
        toolsets: weather,
        episodes: 3,
        seed: 11,
        concurrency: 2,
        agents: ({ index, onFinish }): Partial<EpisodeAgents> => {
          history.enter(index);
          runCache.enter(index);
          onFinish?.(() => {
            history.finish(index);
            runCache.finish(index);
          });
          const native = new ChatModelAssistant(assistantModel);
          const assistant: AssistantAgent =
            strategy === "native" ? native : strategy === "react" ? new TextProtocolAssistant(react, { protocol: "react" }) : new DfsdtAssistant(native, { maxCalls: 8 });
          return {
            user: new LlmUser({ model: user, history }),
            assistant,
            executor: new SimulatedExecutor({ stages: { responders: [stateResponder, new LlmResponder({ model: executor, runCache: runCache.forEpisode(index) }), schemaResponder] } }),
            tester: new LlmJudgeTester({ model: judge, k: 1, judgeAfterRuleFailure: true }),
          };
        },
      });
      const instructions: string[] = [];
      const sources: string[] = [];
      const verdicts: Verdict[] = [];
      sim.on("user.instruction", (e) => void instructions.push(e.text));
      sim.on("tool.result", (e) => void sources.push(e.result.source));
      sim.on("tester.verdict", (e) => void verdicts.push(e.verdict));
      const { summary } = await sim.run();
      expect(summary.episodes).toBe(3);
      expect(summary.errors).toBe(0);
      expect(instructions.every((t) => t.startsWith("Please look up "))).toBe(true);
      expect(user.callCount).toBe(3);
      expect(strategy === "react" ? react.calls : assistantModel.callCount).toBeGreaterThan(0);
      expect(sources).toContain("llm");
      expect(executor.callCount).toBeGreaterThan(0);
      expect(judge.callCount).toBe(3);
      expect(verdicts.every((v) => v.stages.some((s) => s.stage === "judge" && s.pass))).toBe(true);
    });
  }

  it("records any BaseChatModel's calls through the gateway into a cassette and replays them with no model", async () => {
    const inner = fakeOf(() => new AIMessage("recorded answer"), 1);
    const cassette = new Cassette();
    const live = new GatewayChatModel({ inner, model: "fake", mode: "record", cassette, episodeId: "ep-000000" });
    expect((await live.invoke([new HumanMessage("hello")])).content).toBe("recorded answer");
    expect(cassette.entries).toHaveLength(1);
    const replay = new GatewayChatModel({ model: "fake", mode: "replay", cassette, episodeId: "ep-000000" });
    expect((await replay.invoke([new HumanMessage("hello")])).content).toBe("recorded answer");
    expect(inner.callCount).toBe(1);
  });

  it("exposes the OpenAPI core: load, catalog, OpenAI functions, call validation, simulation, response validation", async () => {
    const loaded = await loadSpec(join(ROOT, "test", "fixtures", "agents", "forecast.openapi.yaml"));
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("; "));
    const catalog = buildCatalog(loaded.value);
    expect(toOpenAIFunctions(catalog).map((f) => f.function.name)).toContain("getWeatherForecast");
    const bad = validateCall(catalog, "getWeatherForecast", { days: "many" });
    expect(bad.ok).toBe(false);
    const result = await simulateCall(catalog, { name: "getWeatherForecast", arguments: { city: "Lisbon", days: 2 } }, { seed: 1 });
    expect(result.status).toBe(200);
    const tool = catalog.tools.find((t) => t.name === "getWeatherForecast");
    if (!tool) throw new Error("no tool");
    expect(validateResponse(catalog, tool, 200, result.body)).toEqual([]);
    expect(validateResponse(catalog, tool, 200, { city: 3 }).length).toBeGreaterThan(0);
  });
});
