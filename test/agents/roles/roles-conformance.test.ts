import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChatModelAssistant } from "../../../agents/assistant/chat-model-assistant.js";
import { OfflineAssistant } from "../../../agents/assistant/offline/offline-assistant.js";
import { LlmResponder } from "../../../agents/executor/llm-responder.js";
import { SimulatedExecutor } from "../../../agents/executor/simulated-executor.js";
import type { EpisodeTranscript } from "../../../agents/roles/roles.js";
import { Toolbox, type EpisodeToolset } from "../../../agents/roles/toolbox.js";
import { LlmJudgeTester } from "../../../agents/tester/llm-judge-tester.js";
import { RuleTester } from "../../../agents/tester/offline-tester.js";
import { LlmUser } from "../../../agents/user/llm-user.js";
import { OfflineUser } from "../../../agents/user/offline-user.js";
import { schemaResponder } from "../../../specs/respond/schema-responder.js";
import { stateResponder } from "../../../specs/respond/state-responder.js";
import { chatModelOn, contextOver, fixtureToolset } from "../../support/llm-agent-fixtures.js";
import { startRoleServer } from "../../support/llm-roles.js";
import type { OpenAIServer } from "../../support/openai-server.js";
import { assistantConformance, executorConformance, testerConformance, userConformance, type RoleWorld } from "./role-conformance.js";

/*
 * Both strategies of each role pass the same conformance suite: the offline agents, and the LLM agents over the
 * real ChatOpenAI client talking to a local OpenAI-protocol server that plays every role (test/support/llm-roles.ts).
 */

let server: OpenAIServer;
let forecast: EpisodeToolset;

beforeAll(async () => {
  server = await startRoleServer({ sampling: false });
  forecast = await fixtureToolset("forecast");
});
afterAll(async () => {
  await server.close();
});

async function world(): Promise<RoleWorld> {
  const toolsets = [forecast];
  return { toolsets, toolbox: new Toolbox(toolsets), context: (index, role) => contextOver(toolsets, index, role) };
}

const REQUEST = "What is the weather forecast for city Lisbon and days 3?";
const VALID_CALL = { name: "getWeatherForecast", arguments: { city: "Lisbon", days: 3 } };

async function transcripts(): Promise<{ good: EpisodeTranscript; broken: EpisodeTranscript; ctx: ReturnType<typeof contextOver> }> {
  const w = await world();
  const ctx = w.context(0, "tester");
  const { EpisodeState } = await import("../../../agents/roles/episode-state.js");
  const call = { id: "call_1", ...VALID_CALL };
  const result = await new SimulatedExecutor().execute(call, new EpisodeState(w.toolsets), w.context(0, "executor"));
  const plan = { requests: [{ steps: [{ toolset: "forecast", tool: VALID_CALL.name, args: VALID_CALL.arguments, links: [] }], withheld: [], style: "question" as const, template: 0 }] };
  const answer = "Here is the forecast for Lisbon.";
  const good: EpisodeTranscript = {
    plan,
    dialogue: [
      { role: "user", content: REQUEST },
      { role: "assistant", content: "", thought: "I'll call getWeatherForecast to get the forecast.", toolCalls: [call] },
      { role: "tool", toolCallId: call.id, name: call.name, content: JSON.stringify({ status: result.status, body: result.body }), result },
      { role: "assistant", content: answer },
    ],
    calls: [{ call, result, request: 0, toolset: "forecast" }],
    ends: [{ kind: "final", text: answer }],
  };
  const wrong = { id: "call_1", name: "getWeatherForecasts", arguments: {} };
  const unknown = await new SimulatedExecutor().execute(wrong, new EpisodeState(w.toolsets), w.context(0, "executor"));
  const broken: EpisodeTranscript = {
    plan,
    dialogue: [
      { role: "user", content: REQUEST },
      { role: "assistant", content: "", thought: "Calling.", toolCalls: [wrong] },
      { role: "tool", toolCallId: wrong.id, name: wrong.name, content: JSON.stringify({ status: unknown.status, body: unknown.body }), result: unknown },
      { role: "assistant", content: "The forecast is sunny with 41 degrees." },
    ],
    calls: [{ call: wrong, result: unknown, request: 0 }],
    ends: [{ kind: "final", text: "The forecast is sunny with 41 degrees." }],
  };
  return { good, broken, ctx };
}

describe("user conformance: offline", () => userConformance(() => new OfflineUser(), world));
describe("user conformance: LLM", () => userConformance(() => new LlmUser({ model: chatModelOn(server) }), world));

describe("assistant conformance: offline", () => assistantConformance(() => new OfflineAssistant(), world, REQUEST));
describe("assistant conformance: LLM", () => assistantConformance(() => new ChatModelAssistant(chatModelOn(server)), world, REQUEST));

describe("executor conformance: offline", () => executorConformance(() => new SimulatedExecutor(), world, VALID_CALL));
describe("executor conformance: LLM", () =>
  executorConformance(() => new SimulatedExecutor({ stages: { responders: [stateResponder, new LlmResponder({ model: chatModelOn(server) }), schemaResponder] } }), world, VALID_CALL));

describe("tester conformance: offline", () => testerConformance(() => new RuleTester(), transcripts));
describe("tester conformance: LLM", () => testerConformance(() => new LlmJudgeTester({ model: chatModelOn(server), k: 1 }), transcripts));

describe("the LLM strategies above", () => {
  it("each asked the model (the suite tests them, not an offline fallback)", () => {

    const systems = server.requests.map((r) => {
      const m = r.body["messages"];
      const first = Array.isArray(m) ? (m[0] as { content?: unknown } | undefined) : undefined;
      return typeof first?.content === "string" ? first.content : "";
    });
    expect(systems.some((s) => s.startsWith("You play a user"))).toBe(true);
    expect(systems.some((s) => s.startsWith("You play the user in a conversation"))).toBe(true);
    expect(systems.some((s) => s.startsWith("You simulate one operation"))).toBe(true);
    expect(systems.some((s) => s.startsWith("You review a dialogue"))).toBe(true);
    expect(server.requests.some((r) => Array.isArray(r.body["tools"]))).toBe(true);
  });
});
