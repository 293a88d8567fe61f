import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { LlmUser, leaksValue, mentionsValue, parseInstructions, type LlmUserOutcome } from "../../../agents/user/llm-user.js";
import { NearDuplicateIndex, textSimilarity } from "../../../agents/language/near-duplicates.js";
import type { Plan } from "../../../agents/roles/plan.js";
import { renderInstruction } from "../../../agents/user/render-instruction.js";
import type { EpisodeToolset } from "../../../agents/roles/toolbox.js";
import { startOpenAIServer, type OpenAIServer, type Script, type ScriptedReply } from "../../support/openai-server.js";
import { chatModelOn, contextOver, fixtureToolset, messagesOf, promptOf } from "../../support/llm-agent-fixtures.js";

let forecast: EpisodeToolset;
let server: OpenAIServer | undefined;

beforeAll(async () => {
  forecast = await fixtureToolset("forecast");
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const instructions = (...list: string[]): ScriptedReply => ({ kind: "text", content: JSON.stringify({ instructions: list }) });

const LISBON: Plan = {
  requests: [{ steps: [{ toolset: "forecast", tool: "getWeatherForecast", args: { city: "Lisbon", days: 3 }, links: [] }], withheld: [], style: "question" }],
};
const LISBON_HELD: Plan = {
  requests: [{ steps: [{ toolset: "forecast", tool: "getWeatherForecast", args: { city: "Lisbon", days: 3 }, links: [] }], withheld: ["0:city"], style: "imperative" }],
};

async function userOn(script: Script | ScriptedReply[], options: Partial<ConstructorParameters<typeof LlmUser>[0]> = {}): Promise<{ user: LlmUser; outcomes: LlmUserOutcome[] }> {
  server = await startOpenAIServer(script);
  const outcomes: LlmUserOutcome[] = [];
  const user = new LlmUser({ model: chatModelOn(server), onOutcome: (o) => outcomes.push(o), ...options });
  return { user, outcomes };
}

describe("LlmUser instructions through ChatOpenAI", () => {
  it("verbalizes the planned goal: concrete values, no tool names, one of several candidates", async () => {
    const { user, outcomes } = await userOn([
      instructions("Could you tell me what the weather in Lisbon will be like over the next 3 days?", "Give me a 3-day forecast for Lisbon.", "I'm flying to Lisbon and need the weather for the coming 3 days."),
    ]);
    const ctx = contextOver([forecast]);
    const text = await user.instruct({ plan: LISBON, request: 0, dialogue: [] }, ctx);
    expect(text).toMatch(/Lisbon/);
    expect(text).toMatch(/\b3\b/);
    expect(outcomes[0]).toMatchObject({ kind: "instruction", source: "llm", calls: 1 });
    const prompt = promptOf(server?.requests[0]);
    // The goal is described in plain words: the values to say, no tool or operation names.
    expect(prompt).toContain('Say: city (Name of the city.) = "Lisbon"');
    expect(prompt).toContain("Daily forecast for a city");
    expect(prompt).not.toContain("getWeatherForecast");
    expect(prompt).toContain("Write 3 different versions");
  });

  it("plans with the offline planner (a structured hidden goal)", async () => {
    const { user } = await userOn([instructions("unused")]);
    const plan = await user.plan(contextOver([forecast], 3));
    expect(plan.requests.length).toBeGreaterThan(0);
    expect(plan.requests[0]?.steps[0]?.toolset).toBe("forecast");
    expect(server?.requests).toHaveLength(0);
  });

  it("drops a near-duplicate of an earlier instruction of the run and asks again", async () => {
    const { user, outcomes } = await userOn([
      instructions("Could you tell me the weather in Lisbon for the next 3 days?"),
      instructions("Could you tell me the weather in Lisbon for the next 3 days, please?"),
      instructions("Lisbon trip coming up: what will the next 3 days bring, weather-wise?"),
    ], { candidates: 1 });
    const first = await user.instruct({ plan: LISBON, request: 0, dialogue: [] }, contextOver([forecast], 0));
    const second = await user.instruct({ plan: LISBON, request: 0, dialogue: [] }, contextOver([forecast], 1));
    expect(first).toBe("Could you tell me the weather in Lisbon for the next 3 days?");
    expect(second).toBe("Lisbon trip coming up: what will the next 3 days bring, weather-wise?");
    expect(server?.requests).toHaveLength(3);
    expect(outcomes[1]?.notes.join("\n")).toMatch(/near-duplicate/);
    // The regeneration request tells the model why its candidate was dropped.
    const retry = messagesOf(server?.requests[2]);
    expect(retry.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(retry[3]?.content).toMatch(/near-duplicate/);
    expect(user.duplicates.size).toBe(2);
  });

  it("picks the candidate least like the run's earlier instructions", async () => {
    const duplicates = new NearDuplicateIndex();
    duplicates.add("Give me a 3-day forecast for Lisbon right now.");
    const { user } = await userOn([instructions("Give me a 3-day forecast for Lisbon.", "Lisbon in 3 days: sun or rain? I'm packing tonight.")], { duplicates });
    const text = await user.instruct({ plan: LISBON, request: 0, dialogue: [] }, contextOver([forecast]));
    expect(text).toBe("Lisbon in 3 days: sun or rain? I'm packing tonight.");
  });

  it("refuses instructions that reveal a withheld value and falls back to the offline renderer with a note", async () => {
    const { user, outcomes } = await userOn([instructions("Get me the forecast for Lisbon for 3 days.", "What's the weather going to be in lisbon for 3 days?")], { maxAttempts: 2 });
    const ctx = contextOver([forecast]);
    const text = await user.instruct({ plan: LISBON_HELD, request: 0, dialogue: [] }, ctx);
    expect(server?.requests).toHaveLength(2);
    const request = LISBON_HELD.requests[0];
    if (!request) throw new Error("no request");
    expect(text).toBe(renderInstruction(request, ctx.toolbox, 0));
    expect(text).not.toMatch(/lisbon/i);
    expect(outcomes[0]?.source).toBe("offline");
    expect(outcomes[0]?.notes.join("\n")).toMatch(/reveals the kept-back city "Lisbon"/);
    expect(outcomes[0]?.notes.at(-1)).toMatch(/offline renderer used/);
    // The model was told to keep the value back, without being given it.
    expect(promptOf(server?.requests[0])).toContain("Keep back: city");
    expect(promptOf(server?.requests[0])).not.toContain('"Lisbon"');
  });

  it("refuses instructions that miss a planned value or name a tool", async () => {
    const { user, outcomes } = await userOn([instructions("What's the weather in Lisbon?", "Call getWeatherForecast for Lisbon, 3 days."), instructions("Lisbon, next 3 days: what weather should I expect?")]);
    const text = await user.instruct({ plan: LISBON, request: 0, dialogue: [] }, contextOver([forecast]));
    expect(text).toBe("Lisbon, next 3 days: what weather should I expect?");
    const notes = outcomes[0]?.notes.join("\n") ?? "";
    expect(notes).toMatch(/does not state days 3/);
    expect(notes).toMatch(/names the tool "getweatherforecast"/);
  });

  it("falls back to the offline renderer when the endpoint fails", async () => {
    const { user, outcomes } = await userOn([{ kind: "status", status: 500 }]);
    const ctx = contextOver([forecast]);
    const text = await user.instruct({ plan: LISBON, request: 0, dialogue: [] }, ctx);
    expect(text).toMatch(/Lisbon/);
    expect(outcomes[0]?.source).toBe("offline");
    expect(outcomes[0]?.notes[0]).toMatch(/^llm unavailable/);
  });
});

describe("LlmUser replies through ChatOpenAI", () => {
  it("answers the assistant's question with the planned value", async () => {
    const { user, outcomes } = await userOn([{ kind: "text", content: "[User]: Oh, sorry - it's Lisbon." }]);
    const dialogue = [{ role: "user" as const, content: "Get me the 3-day forecast." }, { role: "assistant" as const, content: "Which city would you like the forecast for?" }];
    const text = await user.reply("Which city would you like the forecast for?", { plan: LISBON_HELD, request: 0, dialogue }, contextOver([forecast]));
    expect(text).toBe("Oh, sorry - it's Lisbon.");
    expect(outcomes[0]).toMatchObject({ kind: "reply", source: "llm" });
    const prompt = promptOf(server?.requests[0]);
    expect(prompt).toContain('Give: city = "Lisbon"');
    expect(prompt).toContain("Assistant: Which city would you like the forecast for?");
  });

  it("falls back to the offline composer when the reply lacks the asked value", async () => {
    const { user, outcomes } = await userOn([{ kind: "text", content: "Somewhere sunny, I guess!" }]);
    const text = await user.reply("Which city?", { plan: LISBON_HELD, request: 0, dialogue: [] }, contextOver([forecast]));
    expect(text).toMatch(/Lisbon/);
    expect(outcomes[0]?.source).toBe("offline");
    expect(outcomes[0]?.notes[0]).toBe('llm reply lacks city "Lisbon"');
  });
});

describe("instruction checks", () => {
  it("reads candidates from JSON, lists and numbered lines", () => {
    expect(parseInstructions('{"instructions": ["a b c d e f g h", "i j k l m n o p"]}')).toEqual(["a b c d e f g h", "i j k l m n o p"]);
    expect(parseInstructions('```json\n[{"instruction": "Find me a flight to Oslo"}]\n```')).toEqual(["Find me a flight to Oslo"]);
    expect(parseInstructions('1. "What is the weather in Rome?"\n2. Show me Rome\'s forecast.')).toEqual(["What is the weather in Rome?", "Show me Rome's forecast."]);
  });

  it("finds values however they are written, and leaks only as whole words", () => {
    expect(mentionsValue("the science fiction shelf", "science-fiction")).toBe(true);
    expect(mentionsValue("on May 1st, 2025", "2025-05-01")).toBe(true);
    expect(mentionsValue("from 1,500 meters", 1500)).toBe(true);
    expect(mentionsValue("for 13 days", 3)).toBe(false);
    expect(leaksValue("Parisian cafés", "Paris")).toBe(false);
    expect(leaksValue("cafés in paris", "Paris")).toBe(true);
  });

  it("scores near-duplicates by token and shingle Jaccard", () => {
    expect(textSimilarity("What's the weather in Paris tomorrow?", "what is the weather in paris tomorrow")).toBeGreaterThan(0.8);
    expect(textSimilarity("Find vegan recipes with tofu", "Book a flight to Oslo on Friday")).toBeLessThan(0.2);
    const index = new NearDuplicateIndex({ threshold: 0.8, capacity: 2 });
    index.add("alpha beta gamma");
    index.add("delta epsilon zeta");
    index.add("eta theta iota");
    expect(index.size).toBe(2);
    expect(index.isNearDuplicate("alpha beta gamma")).toBe(false);
    expect(index.isNearDuplicate("eta theta iota!")).toBe(true);
  });
});
