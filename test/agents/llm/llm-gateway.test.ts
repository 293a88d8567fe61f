import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentContext } from "../../../agents/roles/agent-context.js";
import { Cassette, containsSecret } from "../../../agents/llm/cassette.js";
import { ChatModelAssistant } from "../../../agents/assistant/chat-model-assistant.js";
import { EndpointLimiter, EndpointLimits, GatewayChatModel, type GatewayOptions, type LlmCallRecord } from "../../../agents/llm/llm-gateway.js";
import { parseModelSpec, type ModelSpec } from "../../../agents/llm/model-spec.js";
import { OfflineChatModel } from "../../../agents/assistant/offline/offline-chat-model.js";
import { ToolsimError } from "../../../specs/toolsim-error.js";
import { startOpenAIServer, type OpenAIServer, type Script, type ScriptedReply } from "../../support/openai-server.js";

const KEY = "sk-toolsim-test-SECRET-0123456789abcdef";
const OTHER_KEY = "sk-toolsim-other-SECRET-fedcba9876543210";

const WEATHER = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Get the weather of a city.",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

function specFor(baseURL: string, key = KEY, extra: Partial<Parameters<typeof parseModelSpec>[1]> = {}): ModelSpec {
  const parsed = parseModelSpec("openai:test-model", { baseURL, env: { OPENAI_API_KEY: key }, ...extra });
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join("; "));
  return parsed.value;
}

const servers: OpenAIServer[] = [];
let dir = "";

async function server(script: Script | ScriptedReply[], options: { latencyMs?: number } = {}): Promise<OpenAIServer> {
  const s = await startOpenAIServer(script, options);
  servers.push(s);
  return s;
}

/** A gateway with small timeouts and backoff, its own endpoint limits, and a call log. */
function gateway(spec: ModelSpec, options: Partial<GatewayOptions> = {}): { model: GatewayChatModel; calls: LlmCallRecord[] } {
  const calls: LlmCallRecord[] = [];
  const model = new GatewayChatModel({
    spec,
    limits: new EndpointLimits(),
    timeoutMs: 1000,
    retries: 2,
    backoff: { baseMs: 5, maxMs: 20 },
    seed: 7,
    onCall: (r) => calls.push(r),
    ...options,
  });
  return { model, calls };
}

const hello = (): BaseMessage[] => [new SystemMessage("You are terse."), new HumanMessage("Say hello.")];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "toolsim-gateway-"));
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe("GatewayChatModel over the real ChatOpenAI", () => {
  it("answers text and reports usage, role, model and duration", async () => {
    const s = await server([{ kind: "text", content: "Hello!", usage: { prompt: 12, completion: 3 } }]);
    const { model, calls } = gateway(specFor(s.baseURL), { role: "user" });
    const answer = await model.invoke(hello());
    expect(answer.content).toBe("Hello!");
    expect(answer.usage_metadata?.input_tokens).toBe(12);
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]?.body["model"]).toBe("test-model");
    expect(s.requests[0]?.headers["authorization"]).toBe(`Bearer ${KEY}`);
    expect(s.requests[0]?.headers["x-stainless-retry-count"]).toBe("0");
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ role: "user", model: "test-model", usage: { promptTokens: 12, completionTokens: 3 }, cached: false, attempts: 1 });
    expect(calls[0]?.error).toBeUndefined();
    expect(calls[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(model.stats).toMatchObject({ calls: 1, promptTokens: 12, completionTokens: 3, retries: 0 });
  });

  it("passes bound tools and tool_choice to ChatOpenAI and returns its tool calls", async () => {
    const s = await server([{ kind: "tool-calls", calls: [{ name: "get_weather", arguments: '{"city":"Lyon"}', id: "call_a" }] }]);
    const { model } = gateway(specFor(s.baseURL));
    const answer = await model.bindTools([WEATHER], { tool_choice: "auto" }).invoke([new HumanMessage("Weather in Lyon?")]);
    expect(answer.tool_calls).toEqual([{ type: "tool_call", id: "call_a", name: "get_weather", args: { city: "Lyon" } }]);
    const body = s.requests[0]?.body ?? {};
    expect(body["tool_choice"]).toBe("auto");
    expect((body["tools"] as Array<{ function: { name: string } }>)[0]?.function.name).toBe("get_weather");
  });

  it("serves the ChatModelAssistant as a tool-calling model", async () => {
    const s = await server([{ kind: "tool-calls", calls: [{ name: "get_weather", arguments: '{"city":"Oslo"}', id: "call_1" }] }]);
    const { model } = gateway(specFor(s.baseURL));
    const assistant = new ChatModelAssistant(model.scoped({ episodeId: "ep-0", role: "assistant" }));
    const tools = [{ name: "get_weather", description: "Get the weather of a city.", parameters: WEATHER.function.parameters }];
    const turn = await assistant.step([{ role: "user", content: "Weather in Oslo?" }], tools, {} as AgentContext);
    expect(turn.kind).toBe("calls");
    if (turn.kind === "calls") expect(turn.calls[0]).toMatchObject({ name: "get_weather", arguments: { city: "Oslo" } });
  });

  it("wraps any BaseChatModel (the offline model) with tools passed through", async () => {
    const inner = new OfflineChatModel();
    const { model, calls } = gateway(specFor("http://127.0.0.1:9/v1"), { inner, model: "offline", endpoint: "offline" });
    const answer = await model.bindTools([WEATHER]).invoke([new HumanMessage("What is the weather in Paris?")]);
    expect(answer.tool_calls?.[0]?.name).toBe("get_weather");
    expect(calls[0]?.model).toBe("offline");
  });
});

describe("retries, timeouts and limits", () => {
  it("retries a 429 after its Retry-After and then succeeds", async () => {
    const s = await server([{ kind: "status", status: 429, headers: { "retry-after": "0.15" } }, { kind: "text", content: "after the limit" }]);
    const waits: number[] = [];
    const { model, calls } = gateway(specFor(s.baseURL), { backoff: { baseMs: 1, maxMs: 2 }, sleep: async (ms) => void waits.push(ms) });
    const answer = await model.invoke(hello());
    expect(answer.content).toBe("after the limit");
    expect(s.requests).toHaveLength(2);
    expect(calls[0]?.attempts).toBe(2);
    expect(model.stats.retries).toBe(1);
    expect(waits).toEqual([150]); // the hint (150 ms), not the 1-2 ms backoff
  });

  it("retries a 500 and then succeeds", async () => {
    const s = await server([{ kind: "status", status: 500 }, { kind: "text", content: "recovered" }]);
    const { model, calls } = gateway(specFor(s.baseURL));
    expect((await model.invoke(hello())).content).toBe("recovered");
    expect(s.requests).toHaveLength(2);
    expect(calls[0]?.attempts).toBe(2);
  });

  it("times out a hanging request, retries, and succeeds", async () => {
    const s = await server([{ kind: "hang" }, { kind: "text", content: "awake" }]);
    const { model, calls } = gateway(specFor(s.baseURL), { timeoutMs: 150 });
    expect((await model.invoke(hello())).content).toBe("awake");
    expect(s.requests).toHaveLength(2);
    expect(calls[0]?.attempts).toBe(2);
    expect(calls[0]?.durationMs).toBeGreaterThanOrEqual(140);
  });

  it("gives up on malformed JSON after the retry budget with a ToolsimError, and the process goes on", async () => {
    const s = await server([{ kind: "raw", status: 200, text: '{"id": "x", "choices": [' }]);
    const { model, calls } = gateway(specFor(s.baseURL), { retries: 2 });
    const error = await model.invoke(hello()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolsimError);
    expect((error as ToolsimError).code).toBe("llm.unavailable");
    expect((error as ToolsimError).message).toMatch(/malformed response body.*after 3 attempts/);
    expect(s.requests).toHaveLength(3);
    expect(calls[0]).toMatchObject({ errorCode: "llm.unavailable", attempts: 3, cached: false });
    // the same gateway still works afterwards
    const ok = await server([{ kind: "text", content: "fine" }]);
    const { model: again } = gateway(specFor(ok.baseURL));
    expect((await again.invoke(hello())).content).toBe("fine");
  });

  it("does not retry a 401 and says to check the key", async () => {
    const s = await server([{ kind: "status", status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } }]);
    const { model } = gateway(specFor(s.baseURL));
    const error = (await model.invoke(hello()).catch((e: unknown) => e)) as ToolsimError;
    expect(error.code).toBe("llm.rejected");
    expect(error.message).toMatch(/401.*OPENAI_API_KEY/);
    expect(error.message).not.toContain(KEY);
    expect(s.requests).toHaveLength(1);
  });

  it("reports connection errors as llm.unavailable after the retries", async () => {
    const s = await server([{ kind: "text", content: "never" }]);
    const url = s.baseURL;
    await s.close();
    servers.splice(servers.indexOf(s), 1);
    const { model, calls } = gateway(specFor(url), { retries: 1 });
    const error = (await model.invoke(hello()).catch((e: unknown) => e)) as ToolsimError;
    expect(error).toBeInstanceOf(ToolsimError);
    expect(error.code).toBe("llm.unavailable");
    expect(error.message).toMatch(/cannot connect/);
    expect(calls[0]?.attempts).toBe(2);
  });

  it("keeps at most `concurrency` calls in flight per endpoint, across gateways", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const s = await server(async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 60));
      inFlight--;
      return { kind: "text", content: "done" };
    });
    const limits = new EndpointLimits();
    const spec = specFor(s.baseURL, KEY, { concurrency: 2 });
    const a = gateway(spec, { limits, role: "user" }).model;
    const b = gateway(spec, { limits, role: "assistant" }).model;
    const answers = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => (i % 2 === 0 ? a : b).invoke([new HumanMessage(`call ${i}`)])));
    expect(answers.every((m) => m.content === "done")).toBe(true);
    expect(s.requests).toHaveLength(6);
    expect(maxInFlight).toBe(2);
    expect(a.limiter).toBe(b.limiter);
    expect(a.limiter.maxInFlight).toBe(2);
  });

  it("spaces requests to the requests-per-minute budget (a burst of one second's worth, then 60000/rpm ms apart)", async () => {
    // A fake clock: waiting advances it, so the schedule is exact and independent of the machine's load.
    let clock = 1_000;
    const waits: number[] = [];
    const limiter = new EndpointLimiter({ concurrency: 20, requestsPerMinute: 600 }, () => clock, async (ms) => {
      waits.push(ms);
    });
    for (let i = 0; i < 12; i++) (await limiter.acquire())();
    // 600 per minute: a burst of 10 at once, then the 11th waits 100 ms and the 12th 200 ms.
    expect(waits).toEqual([100, 200]);
    // Once the clock has moved on by a minute the budget is whole again.
    clock += 60_000;
    waits.length = 0;
    for (let i = 0; i < 10; i++) (await limiter.acquire())();
    expect(waits).toEqual([]);
  });

  it("makes the gateway wait for the rate budget before it calls the endpoint", async () => {
    const s = await server(() => ({ kind: "text", content: "ok" }));
    const waits: number[] = [];
    const limits = new EndpointLimits((limit) => new EndpointLimiter(limit, () => 0, async (ms) => void waits.push(ms)));
    const { model } = gateway(specFor(s.baseURL, KEY, { requestsPerMinute: 60, concurrency: 4 }), { limits });
    await Promise.all(Array.from({ length: 3 }, (_, i) => model.invoke([new HumanMessage(`n${i}`)])));
    expect(s.requests).toHaveLength(3);
    // 60 per minute: a burst of one, then 1 s apart on a clock that stands still.
    expect(waits).toEqual([1_000, 2_000]);
  });
});

describe("cassettes: record, replay, keys and secrets", () => {
  it("records, then replays with the server closed and gives identical answers", async () => {
    const s = await server([
      { kind: "text", content: "first answer", usage: { prompt: 20, completion: 4 } },
      { kind: "tool-calls", calls: [{ name: "get_weather", arguments: '{"city":"Rome"}', id: "call_r" }], content: "" },
      { kind: "text", content: "same question, second answer" },
    ]);
    const path = join(dir, "cassette.jsonl");
    const recording = await Cassette.open(path);
    const rec = gateway(specFor(s.baseURL), { mode: "record", cassette: recording });
    const ep = rec.model.scoped({ episodeId: "ep-1", role: "assistant" });
    const live = [
      await ep.invoke(hello()),
      await ep.bindTools([WEATHER]).invoke([new HumanMessage("Weather in Rome?")]),
      await ep.invoke(hello()),
    ];
    recording.close();
    await s.close();
    servers.splice(servers.indexOf(s), 1);

    const replaying = await Cassette.load(path);
    expect(replaying.entries).toHaveLength(3);
    // another key and base URL: replay needs neither
    const rep = gateway(specFor("http://127.0.0.1:9/v1", OTHER_KEY), { mode: "replay", cassette: replaying });
    const epr = rep.model.scoped({ episodeId: "ep-1", role: "assistant" });
    const replayed = [
      await epr.invoke(hello()),
      await epr.bindTools([WEATHER]).invoke([new HumanMessage("Weather in Rome?")]),
      await epr.invoke(hello()),
    ];
    const view = (m: AIMessage | BaseMessage): unknown => ({
      content: m.content,
      tool_calls: (m as AIMessage).tool_calls,
      invalid: (m as AIMessage).invalid_tool_calls,
      kwargs: m.additional_kwargs,
      usage: (m as AIMessage).usage_metadata,
    });
    expect(replayed.map(view)).toEqual(live.map(view));
    expect(replayed[0]?.content).toBe("first answer");
    expect(replayed[2]?.content).toBe("same question, second answer");
    expect(rep.calls.every((c) => c.cached && c.attempts === 0)).toBe(true);
    expect(rep.calls[0]?.usage).toEqual({ promptTokens: 20, completionTokens: 4 });

    // a request that was never recorded: an error naming the key
    const miss = (await epr.invoke([new HumanMessage("never asked")]).catch((e: unknown) => e)) as ToolsimError;
    expect(miss.code).toBe("llm.cassette-miss");
    expect(miss.message).toContain(epr.keyOf([new HumanMessage("never asked")]));
  });

  it("records a call that failed for good, and replay fails the same way", async () => {
    const s = await server([{ kind: "status", status: 503 }]);
    const path = join(dir, "cassette.jsonl");
    const recording = await Cassette.open(path);
    const rec = gateway(specFor(s.baseURL), { mode: "record", cassette: recording, retries: 1 });
    const live = (await rec.model.invoke(hello()).catch((e: unknown) => e)) as ToolsimError;
    recording.close();
    expect(live.code).toBe("llm.unavailable");
    const rep = gateway(specFor("http://127.0.0.1:9/v1"), { mode: "replay", cassette: await Cassette.load(path) });
    const replayed = (await rep.model.invoke(hello()).catch((e: unknown) => e)) as ToolsimError;
    expect(replayed).toBeInstanceOf(ToolsimError);
    expect([replayed.code, replayed.message]).toEqual([live.code, live.message]);
    expect(rep.calls[0]).toMatchObject({ cached: true, errorCode: "llm.unavailable" });
  });

  it("falls back to the endpoint on a replay miss when allowed, and records the answer", async () => {
    const s = await server([{ kind: "text", content: "fresh" }]);
    const cassette = await Cassette.open(join(dir, "c.jsonl"));
    const { model, calls } = gateway(specFor(s.baseURL), { mode: "replay", cassette, replayFallback: true });
    expect((await model.invoke(hello())).content).toBe("fresh");
    expect((await model.invoke(hello())).content).toBe("fresh");
    expect(calls.map((c) => c.cached)).toEqual([false, true]);
    expect(s.requests).toHaveLength(1);
    cassette.close();
  });

  it("computes cache keys from the request only: not the API key or the base URL", async () => {
    const a = gateway(specFor("http://127.0.0.1:1111/v1", KEY)).model;
    const b = gateway(specFor("https://api.example.com/v1", OTHER_KEY)).model;
    const msgs = hello();
    expect(a.keyOf(msgs)).toBe(b.keyOf(msgs));
    expect(a.keyOf(msgs, { tools: [WEATHER] })).toBe(b.keyOf(msgs, { tools: [WEATHER] }));
    expect(a.keyOf(msgs, { tools: [WEATHER] })).not.toBe(a.keyOf(msgs));
    expect(a.keyOf(msgs, { tool_choice: "required" })).not.toBe(a.keyOf(msgs));
    const warmer = gateway(specFor("http://127.0.0.1:1111/v1", KEY, { temperature: 0.7 })).model;
    expect(warmer.keyOf(msgs)).not.toBe(a.keyOf(msgs));
    const other = gateway(parseOk("openai:other-model", "http://127.0.0.1:1111/v1")).model;
    expect(other.keyOf(msgs)).not.toBe(a.keyOf(msgs));
  });

  it("writes neither the API key nor Authorization into the cassette or any file", async () => {
    const s = await server([{ kind: "text", content: `echo: ${KEY}` }, { kind: "tool-calls", calls: [{ name: "get_weather", arguments: '{"city":"Nice"}' }] }]);
    const cassette = await Cassette.open(join(dir, "run", "cassette.jsonl"));
    const { model } = gateway(specFor(s.baseURL), { mode: "record", cassette });
    const echoed = await model.invoke([new HumanMessage(`my key is ${KEY}, keep it`)]);
    await model.bindTools([WEATHER]).invoke([new HumanMessage("Weather in Nice?")]);
    cassette.close();
    expect(s.requests[0]?.headers["authorization"]).toBe(`Bearer ${KEY}`); // it was sent...
    expect(echoed.content).toBe("echo: [redacted]"); // ...but never comes back out of the gateway
    const files: string[] = [];
    const walk = (d: string): void => {
      for (const f of readdirSync(d)) {
        const p = join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else files.push(p);
      }
    };
    walk(dir);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const text = readFileSync(f, "utf8");
      expect(text).not.toContain(KEY);
      expect(text.toLowerCase()).not.toContain("authorization");
      expect(containsSecret(text, [KEY])).toBe(false);
    }
    expect(readFileSync(join(dir, "run", "cassette.jsonl"), "utf8")).toContain("[redacted]");
  });
});

function parseOk(text: string, baseURL: string): ModelSpec {
  const parsed = parseModelSpec(text, { baseURL, env: { OPENAI_API_KEY: KEY } });
  if (!parsed.ok) throw new Error("bad spec");
  return parsed.value;
}
