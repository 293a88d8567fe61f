import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AgentContext } from "../../../../agents/roles/agent-context.js";
import type { DialogueMessage } from "../../../../agents/roles/dialogue.js";
import { TextProtocolAssistant, UNPARSEABLE_PREFIX, type TextAttempt } from "../../../../agents/assistant/text/text-protocol-assistant.js";
import { Toolbox, type EpisodeToolset } from "../../../../agents/roles/toolbox.js";
import { createRng } from "../../../../specs/seed.js";
import { bundledToolset, eventsOf, lastUserText, runAssistantEpisode, sentMessages, testChatOpenAI } from "../../../support/assistant-harness.js";
import { startOpenAIServer, type OpenAIServer, type ScriptedReply } from "../../../support/openai-server.js";

let holidays: EpisodeToolset;
beforeAll(async () => {
  holidays = await bundledToolset("holidays");
});

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: ScriptedReply[]): Promise<OpenAIServer> {
  server = await startOpenAIServer(script);
  return server;
}

const text = (content: string): ScriptedReply => ({ kind: "text", content });

describe("TextProtocolAssistant (ReAct) over the real ChatOpenAI", () => {
  it("runs a full ReAct episode: prompt with tools, action, observation, final answer", async () => {
    const s = await serve([
      text("Thought: The user wants Germany's public holidays in 2025.\nAction: getPublicHolidays\nAction Input: {\"year\": 2025, \"countryCode\": \"DE\"}"),
      text("Thought: I have the list of holidays.\nFinal Answer: Germany's public holidays in 2025 start with New Year's Day on 2025-01-01."),
    ]);
    const assistant = new TextProtocolAssistant(testChatOpenAI(s.baseURL), { protocol: "react" });
    const run = await runAssistantEpisode(assistant, { toolsets: [holidays], instructions: ["Which public holidays does Germany have in 2025?"] });

    expect(run.outcome.outcome).toBe("accepted");
    expect(eventsOf(run.events, "tool.call").map((e) => [e.call.id, e.call.name, e.call.arguments])).toEqual([["call_1", "getPublicHolidays", { year: 2025, countryCode: "DE" }]]);
    expect(eventsOf(run.events, "tool.result")[0]?.result.status).toBe(200);
    expect(eventsOf(run.events, "assistant.thought")[0]?.text).toBe("The user wants Germany's public holidays in 2025.");
    expect(eventsOf(run.events, "assistant.final")[0]?.text).toBe("Germany's public holidays in 2025 start with New Year's Day on 2025-01-01.");

    // First request: system prompt with the tools and the format, the instruction; no native tools; a stop sequence.
    const first = s.requests[0]!;
    const [system, user] = sentMessages(first);
    expect(system?.[0]).toBe("system");
    expect(system?.[1]).toContain("- getPublicHolidays: ");
    expect(system?.[1]).toContain('Parameters (JSON Schema): {"type":"object","properties":{"year":{"type":"integer"');
    expect(system?.[1]).toContain("Action Input:");
    expect(user).toEqual(["user", "Which public holidays does Germany have in 2025?"]);
    expect(first.body["tools"]).toBeUndefined();
    expect(first.body["stop"]).toEqual(["\nObservation:"]);

    // Second request: the model's own turn in the format, then the observation.
    const second = sentMessages(s.requests[1]);
    expect(second.map(([role]) => role)).toEqual(["system", "user", "assistant", "user"]);
    expect(second[2]?.[1]).toBe('Thought: The user wants Germany\'s public holidays in 2025.\nAction: getPublicHolidays\nAction Input: {"year":2025,"countryCode":"DE"}');
    expect(second[3]?.[1]).toMatch(/^Observation: \{"status":200,"body":\{"countryCode":"DE","year":2025,.*"date":"2025-01-01"/);
  });

  it("asks the user with ASK_USER and continues with the reply", async () => {
    const s = await serve([
      text('Thought: The country is missing.\nAction: ASK_USER\nAction Input: {"question": "Which country do you mean?"}'),
      text('Thought: France.\nAction: getPublicHolidays\nAction Input: {"year": 2025, "countryCode": "FR"}'),
      text("Final Answer: France's 2025 public holidays are listed above, starting on 2025-01-01."),
    ]);
    const assistant = new TextProtocolAssistant(testChatOpenAI(s.baseURL));
    const run = await runAssistantEpisode(assistant, { toolsets: [holidays], instructions: ["List the 2025 public holidays."], replies: ["France, please."] });
    expect(eventsOf(run.events, "assistant.question")[0]?.text).toBe("Which country do you mean?");
    expect(eventsOf(run.events, "tool.call")[0]?.call.arguments).toEqual({ year: 2025, countryCode: "FR" });
    const second = sentMessages(s.requests[1]);
    expect(second.slice(2)).toEqual([
      ["assistant", 'Thought: The country is missing.\nAction: ASK_USER\nAction Input: {"question":"Which country do you mean?"}'],
      ["user", "France, please."],
    ]);
    expect(run.outcome.outcome).toBe("accepted");
  });

  it("re-prompts after garbage with the parse errors and recovers; every attempt is recorded", async () => {
    const s = await serve([
      text("Sure! Holidays are a great way to relax. Germany has many of them, like Christmas and Easter."),
      text('Thought: I must use the format.\nAction: getPublicHolidays\nAction Input: {year: 2025, countryCode: "DE",}'),
      text("Final Answer: Germany's first public holiday in 2025 is New Year's Day (2025-01-01)."),
    ]);
    const seen: TextAttempt[] = [];
    const assistant = new TextProtocolAssistant(testChatOpenAI(s.baseURL), { onAttempt: (a) => seen.push(a) });
    const run = await runAssistantEpisode(assistant, { toolsets: [holidays], instructions: ["German holidays in 2025?"] });

    expect(run.outcome.outcome).toBe("accepted");
    expect(eventsOf(run.events, "tool.call")[0]?.call.arguments).toEqual({ year: 2025, countryCode: "DE" });
    // The retry carried the garbage and precise feedback.
    const retry = sentMessages(s.requests[1]);
    expect(retry[retry.length - 2]).toEqual(["assistant", "Sure! Holidays are a great way to relax. Germany has many of them, like Christmas and Easter."]);
    expect(lastUserText(s.requests[1])).toContain("Your last answer could not be read:");
    expect(lastUserText(s.requests[1])).toContain('- line 1: the answer has no "Action:" line and no "Final Answer:" line');
    // Attempts: garbage (errors), then the repaired answer (notes), then the final answer.
    expect(seen.map((a) => [a.attempt, a.ok, a.kind])).toEqual([
      [1, false, undefined],
      [2, true, "calls"],
      [1, true, "final"],
    ]);
    expect(seen[0]?.errors[0]?.code).toBe("no-format");
    expect(seen[1]?.notes).toEqual(expect.arrayContaining(["quoted unquoted keys"]));
    expect(assistant.attemptsOf(run.outcome.episodeId)).toHaveLength(3);
  });

  it("gives up with a reason after garbage on every attempt, without throwing", async () => {
    const s = await serve([text(""), text("Thought: let me think about this"), text('Action Input: {"year": 2025')]);
    const assistant = new TextProtocolAssistant(testChatOpenAI(s.baseURL), { maxRetries: 2 });
    const run = await runAssistantEpisode(assistant, { toolsets: [holidays], instructions: ["Holidays in Germany for 2025?"] });

    expect(s.requests).toHaveLength(3);
    const [gaveUp] = eventsOf(run.events, "assistant.gave-up");
    expect(gaveUp?.reason.startsWith(UNPARSEABLE_PREFIX)).toBe(true);
    expect(gaveUp?.reason).toContain('the "Action Input:" on line 1 has no "Action:" line before it');
    expect(gaveUp?.reason).toContain("(3 attempts with feedback)");
    expect(run.transcript?.ends).toEqual([{ kind: "give-up", reason: gaveUp?.reason }]);
    expect(run.outcome.outcome).toBe("accepted");
    expect(assistant.attemptsOf(run.outcome.episodeId).map((a) => a.errors[0]?.code)).toEqual(["empty", "missing-action", "missing-action"]);
  });

  it("takes native tool calls when the server sends them anyway", async () => {
    const s = await serve([{ kind: "tool-calls", calls: [{ name: "getPublicHolidays", arguments: '{"year":2025,"countryCode":"IE"}', id: "x1" }] }, text("Final Answer: Done.")]);
    const assistant = new TextProtocolAssistant(testChatOpenAI(s.baseURL));
    const toolbox = new Toolbox([holidays]);
    const ctx: AgentContext = { runId: "r", episodeId: "e", index: 0, seed: 1, rng: createRng(1), level: "call", toolbox };
    const tools = toolbox.entries.map((e) => ({ name: e.name, description: e.description, parameters: e.parameters }));
    const dialogue: DialogueMessage[] = [{ role: "user", content: "Irish holidays 2025" }];
    const turn = await assistant.step(dialogue, tools, ctx);
    expect(turn).toMatchObject({ kind: "calls", calls: [{ id: "x1", name: "getPublicHolidays", arguments: { year: 2025, countryCode: "IE" } }] });
    expect(assistant.attemptsOf("e")[0]?.notes).toEqual(["took native tool calls"]);
  });
});

describe("TextProtocolAssistant (API-Bank) over the real ChatOpenAI", () => {
  it("runs an API-Bank exchange: API descriptions, API-Request, observation, response", async () => {
    const s = await serve([
      text("Response: Let me look that up.\nAPI-Request: [getPublicHolidays(year=2025, countryCode='FR')]"),
      text("Response: France's public holidays in 2025 begin with New Year's Day on 2025-01-01."),
    ]);
    const assistant = new TextProtocolAssistant(testChatOpenAI(s.baseURL), { protocol: "apibank" });
    const run = await runAssistantEpisode(assistant, { toolsets: [holidays], instructions: ["What are France's public holidays in 2025?"] });

    expect(run.outcome.outcome).toBe("accepted");
    expect(eventsOf(run.events, "assistant.thought")[0]?.text).toBe("Let me look that up.");
    expect(eventsOf(run.events, "tool.call")[0]?.call).toMatchObject({ name: "getPublicHolidays", arguments: { year: 2025, countryCode: "FR" } });
    expect(eventsOf(run.events, "assistant.final")[0]?.text).toBe("France's public holidays in 2025 begin with New Year's Day on 2025-01-01.");

    const system = sentMessages(s.requests[0])[0]?.[1] ?? "";
    expect(system).toContain("API-Request: [ApiName(key1='value1', key2=2)]");
    expect(system).toContain('"name":"getPublicHolidays"');
    expect(system).toContain('"year":{"type":"int"');
    const second = sentMessages(s.requests[1]);
    expect(second[2]).toEqual(["assistant", "Let me look that up.\nAPI-Request: [getPublicHolidays(year=2025, countryCode='FR')]"]);
    expect(second[3]?.[1]).toMatch(/^Observation: \{"status":200/);
  });

  it("re-prompts after a broken request and gives up when it stays broken", async () => {
    const s = await serve([text("API-Request: [getPublicHolidays(year=2025, countryCode='FR"), text("API-Request:"), text("API-Request: [getPublicHolidays(year=2025 countryCode='FR')]")]);
    const assistant = new TextProtocolAssistant(testChatOpenAI(s.baseURL), { protocol: "apibank" });
    const run = await runAssistantEpisode(assistant, { toolsets: [holidays], instructions: ["French holidays 2025"] });
    expect(lastUserText(s.requests[1])).toContain("Your last answer could not be read: line 1: the string opened at line 1, column 56 is not closed.");
    const [gaveUp] = eventsOf(run.events, "assistant.gave-up");
    expect(gaveUp?.reason).toBe(`unparseable model output: line 1: a ',' seems to be missing before "countryCode" (or quote the text "2025 countryCode='FR'") (3 attempts with feedback)`);
  });
});
