import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import type { AgentContext } from "../../../../agents/roles/agent-context.js";
import { ChatModelAssistant, toAssistantTurn } from "../../../../agents/assistant/chat-model-assistant.js";
import type { AssistantTurn, DialogueMessage } from "../../../../agents/roles/dialogue.js";
import { fromLangChainMessages, parseToolResultText, toLangChainMessages, toolResultText } from "../../../../agents/assistant/dialogue-messages.js";
import { OfflineChatModel, rankToolsFor, toOfflineToolSpec, type OfflineToolSpec } from "../../../../agents/assistant/offline/offline-chat-model.js";
import type { AgentTool } from "../../../../agents/roles/roles.js";
import { Toolbox, type EpisodeToolset } from "../../../../agents/roles/toolbox.js";
import { buildCatalog } from "../../../../specs/catalog/catalog.js";
import type { LoadedSpec, OpenApiDocument } from "../../../../specs/load/loaded-spec.js";
import { ResourceStore, type Fixtures } from "../../../../specs/respond/resource-store.js";
import { createRng } from "../../../../specs/seed.js";
import { simulateCall } from "../../../../specs/call/simulate-call.js";
import type { ToolResult } from "../../../../specs/call/tool-result.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "fixtures", "agents");

interface Loaded {
  toolset: EpisodeToolset;
  fixtures: Fixtures;
}

function loadFixture(name: string): Loaded {
  const file = join(FIXTURES, `assistant-${name}.yaml`);
  const document = parse(readFileSync(file, "utf8")) as OpenApiDocument & { "x-toolsim-fixtures"?: Fixtures };
  const spec: LoadedSpec = { file, sourceVersion: "3.0", dialect: "3.0", document, hash: "", warnings: [] };
  return {
    toolset: { name, title: name, introduction: "", description: "", functions: "", catalog: buildCatalog(spec) },
    fixtures: document["x-toolsim-fixtures"] ?? {},
  };
}

/** A small world: the toolbox of some fixtures, their tools as the assistant sees them, and their state. */
function world(...names: string[]) {
  const loaded = names.map(loadFixture);
  const toolbox = new Toolbox(loaded.map((l) => l.toolset));
  const tools: AgentTool[] = toolbox.entries.map((e) => ({ name: e.name, description: e.description, parameters: e.parameters }));
  const stores = new Map(loaded.map((l) => [l.toolset.name, ResourceStore.fromFixtures(l.fixtures)]));
  const ctx: AgentContext = { runId: "run", episodeId: "ep", index: 0, seed: 1, rng: createRng(1), level: "call", toolbox };
  const execute = async (name: string, args: Record<string, unknown> | string): Promise<ToolResult> => {
    const entry = toolbox.get(name);
    if (!entry) return { tool: name, status: 404, body: { title: "Unknown tool" }, errors: [], responseErrors: [], source: "route", notes: [] };
    const store = stores.get(entry.toolset.name) ?? new ResourceStore();
    return simulateCall(entry.toolset.catalog, { name: entry.tool.name, arguments: args }, { seed: 1, state: store });
  };
  return { toolbox, tools, ctx, execute };
}

const ALL = ["bookstore", "weather", "currency", "agenda"];

/** Runs one request to its end: calls go to the simulated executor, questions to scripted replies. */
async function converse(names: string[], instruction: string, replies: Array<[RegExp, string]> = [], maxSteps = 8) {
  const w = world(...names);
  const assistant = new ChatModelAssistant(new OfflineChatModel());
  const dialogue: DialogueMessage[] = [{ role: "user", content: instruction }];
  const turns: AssistantTurn[] = [];
  for (let i = 0; i < maxSteps; i++) {
    const turn = await assistant.step(dialogue, w.tools, w.ctx);
    turns.push(turn);
    if (turn.kind === "calls") {
      dialogue.push({ role: "assistant", content: "", thought: turn.thought, toolCalls: turn.calls });
      for (const call of turn.calls) {
        const result = await w.execute(call.name, call.arguments);
        dialogue.push({ role: "tool", toolCallId: call.id, name: call.name, content: JSON.stringify(result.body), result });
      }
      continue;
    }
    if (turn.kind === "question") {
      dialogue.push({ role: "assistant", content: turn.text });
      const reply = replies.find(([re]) => re.test(turn.text));
      if (!reply) break;
      dialogue.push({ role: "user", content: reply[1] });
      continue;
    }
    break;
  }
  const calls = turns.flatMap((t) => (t.kind === "calls" ? t.calls : []));
  const last = turns[turns.length - 1];
  return { turns, calls, dialogue, last };
}

function specsOf(tools: readonly AgentTool[]): OfflineToolSpec[] {
  return tools.map((t) => toOfflineToolSpec(t)).filter((t): t is OfflineToolSpec => t !== undefined);
}

/** Ids, numbers, dates and quoted strings of an answer that appear in none of the observations or the dialogue. */
function ungrounded(answer: string, dialogue: readonly DialogueMessage[]): string[] {
  const evidence = dialogue.map((m) => (m.role === "tool" ? toolResultText(m.result) : m.content)).join("\n");
  const tokens = answer.match(/\b[a-z]+-\d+(?:-\d+)?\b|\d{4}-\d{2}-\d{2}(?:T[\d:]+Z)?|-?\d+(?:\.\d+)?/gi) ?? [];
  return tokens.filter((t) => !evidence.includes(t));
}

// Phrasings and the tool each one needs. Every tool of the fixtures appears, most of them several ways.
const PHRASINGS: Array<[string, string]> = [
  ["Can you find mystery books by Maren Sollberg?", "listBooks"],
  ["Search the catalogue for books under $20.", "listBooks"],
  ["Which fantasy books do you have in stock?", "listBooks"],
  ["I'm looking for cookbooks.", "listBooks"],
  ["Show me the details of book bk-1002.", "getBook"],
  ["What does book bk-1001 cost?", "getBook"],
  ["Get me the record for bk-1003.", "getBook"],
  ['Please add a new book titled "Winter Tides" by Ana Moreau, genre fiction, price 12.5.', "createBook"],
  ["I want to add a book to the catalogue.", "createBook"],
  ["Remove book bk-1002 from the catalogue.", "deleteBook"],
  ["Delete the book bk-1001.", "deleteBook"],
  ["List all shipped orders.", "listOrders"],
  ["What orders has jordan.reyes@example.com placed?", "listOrders"],
  ["Where is my order ord-50001?", "getOrder"],
  ["Check the delivery status of order ord-50001.", "getOrder"],
  ["What's the weather like in Paris right now?", "getCurrentWeather"],
  ["How warm is it in Oslo at the moment?", "getCurrentWeather"],
  ["Current conditions in Tokyo, in imperial units please.", "getCurrentWeather"],
  ["Give me a 5 day forecast for Lisbon.", "getForecast"],
  ["Will it rain in Madrid over the next 3 days?", "getForecast"],
  ["What's the air quality in Berlin?", "getAirQuality"],
  ["Is the air polluted in Delhi today?", "getAirQuality"],
  ["Convert 250 USD to EUR please.", "convertCurrency"],
  ["How much is 100 GBP in JPY?", "convertCurrency"],
  ["What's the exchange rate from EUR to USD for 50 euros?", "convertCurrency"],
  ["Which currencies do you support?", "listCurrencies"],
  ["List the available currency codes.", "listCurrencies"],
  ['Create an event called "Team lunch" on 2025-07-10T12:00:00Z at Cafe Roma.', "createEvent"],
  ["Add a dentist appointment to my calendar on 2025-08-01T15:00:00Z.", "createEvent"],
  ["Schedule a meeting titled Budget review at 2025-09-12T10:00:00Z.", "createEvent"],
  ["What's on my calendar on 2025-07-03?", "listEvents"],
  ["List my events.", "listEvents"],
  ["Show me event evt-201.", "getEvent"],
  ["Cancel the event evt-201.", "deleteEvent"],
  ["Delete event evt-201 from my calendar.", "deleteEvent"],
  ["Remind me to call the bank at 2025-07-04T10:00:00Z by email at sam@example.com.", "createReminder"],
  ['Set a reminder for 2025-07-05T08:00:00Z saying "water the plants", send it to kim@example.com.', "createReminder"],
];

// Phrasings written after the model was tuned and never tuned on: the honest accuracy figure.
const HELD_OUT: Array<[string, string]> = [
  ["Do you sell any science-fiction novels?", "listBooks"],
  ["Look for books by Leila Haddad.", "listBooks"],
  ["I need something to read for under 15 dollars.", "listBooks"],
  ["Pull up bk-1003 for me.", "getBook"],
  ["How many copies of bk-1002 are left?", "getBook"],
  ['Put a new title in the catalogue: "Quiet Harbour" by Mia Lund, fiction, 9.99.', "createBook"],
  ["Take bk-1004 off the catalogue.", "deleteBook"],
  ["Show the orders that are still pending.", "listOrders"],
  ["Has order ord-50001 shipped yet?", "getOrder"],
  ["Is it going to be windy in Hamburg today?", "getCurrentWeather"],
  ["What's the temperature in Cairo?", "getCurrentWeather"],
  ["Forecast for Rome for the next 4 days, please.", "getForecast"],
  ["Should I bring an umbrella in Dublin this week?", "getForecast"],
  ["How clean is the air in Beijing?", "getAirQuality"],
  ["Exchange 75 CHF into USD.", "convertCurrency"],
  ["What would 1200 JPY be in EUR?", "convertCurrency"],
  ["Which currency codes can I use?", "listCurrencies"],
  ['Book a meeting called "Design review" for 2025-10-02T14:00:00Z.', "createEvent"],
  ["Put a dentist visit on 2025-11-04T09:00:00Z in my agenda.", "createEvent"],
  ["What do I have planned on 2025-07-03?", "listEvents"],
  ["Open event evt-201.", "getEvent"],
  ["Remove evt-201.", "deleteEvent"],
  ["Please remind me at 2025-08-09T07:30:00Z to take my medicine, email me at lee@example.com.", "createReminder"],
  ['Send me a reminder e-mail at ana@example.com on 2025-12-24T18:00:00Z saying "wrap the gifts".', "createReminder"],
];

describe("OfflineChatModel: tool selection", () => {
  const w = world(...ALL);
  const specs = specsOf(w.tools);

  it("picks the right tool for most phrasings over all fixture tools (BM25 + fill re-ranking)", () => {
    const misses = PHRASINGS.filter(([text, expected]) => rankToolsFor(text, specs)[0]?.name !== expected);
    const accuracy = (PHRASINGS.length - misses.length) / PHRASINGS.length;
    console.info(`tool-selection accuracy: ${PHRASINGS.length - misses.length}/${PHRASINGS.length} (${(accuracy * 100).toFixed(1)}%) over ${specs.length} tools`);
    expect(misses).toEqual([]);
    expect(accuracy).toBeGreaterThanOrEqual(0.9);
  });

  it("measures accuracy on held-out phrasings (expected to miss some: it only has BM25 and a few rules)", () => {
    const hits = HELD_OUT.filter(([text, expected]) => rankToolsFor(text, specs)[0]?.name === expected).length;
    console.info(`held-out tool-selection accuracy: ${hits}/${HELD_OUT.length} (${((hits / HELD_OUT.length) * 100).toFixed(1)}%)`);
    expect(hits / HELD_OUT.length).toBeGreaterThanOrEqual(0.65);
  });

  it("selects within one toolset the same way as within all of them", () => {
    const books = specsOf(world("bookstore").tools);
    for (const [text, expected] of PHRASINGS.slice(0, 15)) expect(rankToolsFor(text, books)[0]?.name, text).toBe(expected);
  });

  it("reads one record by its id when the words call a number its id, or ask for one of them", () => {
    const spins = [
      { name: "get_spins", description: "Get spins optionally filtered by a playlist or a show.", parameters: { type: "object", properties: { playlist_id: { type: "integer" }, show_id: { type: "integer" }, count: { type: "integer" } } } },
      { name: "get_spins_id", description: "View a spin by id.", parameters: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } },
    ];
    expect(rankToolsFor("Fetch the spin with ID 15553.", spins)[0]?.name).toBe("get_spins_id");
    expect(rankToolsFor("Show me the spins.", spins)[0]?.name).toBe("get_spins");
    // One of them and nothing given: the read by id (it asks for the id); "a random one" is not a read by id.
    expect(rankToolsFor("Hey, can you help me get a spin?", spins)[0]?.name).toBe("get_spins_id");
    expect(rankToolsFor("Get a random spin.", spins)[0]?.name).toBe("get_spins");
  });

  it("never reaches for a tool that changes things unless asked to", () => {
    for (const text of ["What does book bk-1001 cost?", "Tell me about bk-1002.", "Is event evt-201 still on?"]) {
      const top = rankToolsFor(text, specs)[0]?.name ?? "";
      expect(top, text).not.toMatch(/^(create|delete|update)/);
    }
  });
});

describe("OfflineChatModel: slot filling", () => {
  const firstCall = async (names: string[], text: string) => {
    const { turns } = await converse(names, text, [], 1);
    const turn = turns[0];
    if (turn?.kind !== "calls") throw new Error(`expected a call for "${text}", got ${JSON.stringify(turn)}`);
    return turn.calls[0];
  };

  it("fills values from the user's words: codes, numbers, cue words, enums, quoted strings, dates, e-mails", async () => {
    expect((await firstCall(ALL, "Convert 250 USD to EUR please."))?.arguments).toEqual({ from: "USD", to: "EUR", amount: 250 });
    expect((await firstCall(ALL, "How much is 100 GBP in JPY?"))?.arguments).toEqual({ from: "GBP", to: "JPY", amount: 100 });
    expect((await firstCall(ALL, "Give me a 5 day forecast for Lisbon."))?.arguments).toEqual({ city: "Lisbon", days: 5 });
    expect((await firstCall(ALL, "Can you find mystery books by Maren Sollberg?"))?.arguments).toEqual({ author: "Maren Sollberg", genre: "mystery" });
    expect((await firstCall(ALL, "Which fantasy books under $20 do you have in stock?"))?.arguments).toEqual({ genre: "fantasy", maxPrice: 20, inStock: true });
    expect((await firstCall(ALL, 'Create an event called "Team lunch" on 2025-07-10T12:00:00Z at Cafe Roma.'))?.arguments).toEqual({
      title: "Team lunch",
      start: "2025-07-10T12:00:00Z",
      location: "Cafe Roma",
    });
    expect((await firstCall(ALL, "Remind me to call the bank at 2025-07-04T10:00:00Z by email at sam@example.com."))?.arguments).toEqual({
      message: "call the bank",
      remindAt: "2025-07-04T10:00:00Z",
      email: "sam@example.com",
    });
    expect((await firstCall(ALL, "What orders has jordan.reyes@example.com placed?"))?.arguments).toEqual({ email: "jordan.reyes@example.com" });
    expect((await firstCall(["bookstore"], "Show me the details of book bk-1002."))?.arguments).toEqual({ bookId: "bk-1002" });
  });

  it("asks for a missing required value in plain words, once, and uses the reply", async () => {
    const { turns, calls } = await converse(["bookstore"], "I'd like to see the details of a book.", [[/book id/, "The book id is bk-1003."]]);
    expect(turns[0]?.kind).toBe("question");
    expect(turns[0]?.kind === "question" ? turns[0].text : "").toMatch(/book id.*\?$/);
    expect(calls[0]).toMatchObject({ name: "getBook", arguments: { bookId: "bk-1003" } });
    expect(turns[turns.length - 1]?.kind).toBe("final");
  });

  it("asks for several missing values together and reads them from one reply", async () => {
    const { turns, calls } = await converse(["bookstore"], "Please add a new book.", [[/title/, 'Title "Winter Tides", author Ana Moreau, genre fiction, price 12.5.']]);
    expect(turns[0]?.kind === "question" ? turns[0].text : "").toMatch(/title.*author.*genre.*price/);
    expect(calls[0]).toMatchObject({ name: "createBook", arguments: { title: "Winter Tides", author: "Ana Moreau", genre: "fiction", price: 12.5 } });
  });

  it("does not ask twice for the same value, and does not invent it from the schema's example: it gives up", async () => {
    const unknown = await converse(["bookstore"], "I'd like to see the details of a book.", [[/book id/, "I don't know it, sorry."]]);
    expect(unknown.turns.filter((t) => t.kind === "question")).toHaveLength(1);
    expect(unknown.calls).toHaveLength(0);
    expect(unknown.last?.kind).toBe("give-up");
    expect(unknown.last?.kind === "give-up" ? unknown.last.reason : "").toMatch(/^I still do not know the book id, so I cannot get a book\.$/);

    // A title has no example to fall back on: the assistant gives up instead of asking again.
    const gaveUp = await converse(["bookstore"], "Please add a new book.", [[/title/, "Hmm, I am not sure."]]);
    expect(gaveUp.turns.filter((t) => t.kind === "question")).toHaveLength(1);
    expect(gaveUp.last?.kind).toBe("give-up");
  });
});

describe("OfflineChatModel: multi-step requests and answers", () => {
  it("chains a search and a get by id with the id from the observation", async () => {
    const { calls, last, dialogue } = await converse(["bookstore"], "Search for cooking books and then show me the details of the first one.");
    expect(calls.map((c) => c.name)).toEqual(["listBooks", "getBook"]);
    expect(calls[0]?.arguments).toEqual({ genre: "cooking" });
    expect(calls[1]?.arguments).toEqual({ bookId: "bk-1003" });
    expect(last?.kind).toBe("final");
    const text = last?.kind === "final" ? last.text : "";
    expect(text).toContain("Salt and Saffron");
    expect(text).toContain("bk-1003");
    expect(ungrounded(text, dialogue)).toEqual([]);
  });

  it("searches first when a get needs an id the user only describes", async () => {
    const { calls } = await converse(["bookstore"], 'Show me the details of the book titled "Orbit of Small Things".');
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([
      ["listBooks", { q: "Orbit of Small Things" }],
      ["getBook", { bookId: "bk-1002" }],
    ]);
  });

  it("creates then reads what it created", async () => {
    const { calls, last } = await converse(["agenda"], 'Create an event called "Team lunch" at 2025-07-10T12:00:00Z, then show me the new event.');
    expect(calls.map((c) => c.name)).toEqual(["createEvent", "getEvent"]);
    const created = calls[1]?.arguments as Record<string, unknown>;
    expect(created["eventId"]).toMatch(/^evt-/);
    expect(last?.kind === "final" ? last.text : "").toContain("Team lunch");
  });

  it("answers only with values from the observations and the dialogue", async () => {
    for (const text of ["What's the weather like in Paris right now?", "Convert 250 USD to EUR please.", "List all shipped orders.", "Give me a 5 day forecast for Lisbon."]) {
      const { last, dialogue } = await converse(ALL, text);
      expect(last?.kind, text).toBe("final");
      const answer = last?.kind === "final" ? last.text : "";
      expect(answer.endsWith("?"), answer).toBe(false);
      expect(ungrounded(answer, dialogue), answer).toEqual([]);
    }
  });

  it("repairs an argument once after a validation error, then answers", async () => {
    const { calls, last } = await converse(["weather"], "Give me a 30 day forecast for Paris.");
    expect(calls.map((c) => c.arguments)).toEqual([
      { city: "Paris", days: 30 },
      { city: "Paris", days: 7 },
    ]);
    expect(last?.kind).toBe("final");
  });

  it("explains an error it cannot repair, with the status and details from the result", async () => {
    const { calls, last, dialogue } = await converse(["bookstore"], "Get book bk-9999 please.");
    expect(calls).toHaveLength(1);
    const text = last?.kind === "final" ? last.text : "";
    expect(text).toMatch(/^I could not get the book: the service answered with status 404/);
    expect(text).not.toMatch(/getBook/);
    expect(ungrounded(text, dialogue)).toEqual([]);
  });

  it("answers in sentences: what it found, what it did, the facts the request asks about; no tool names, no nulls, no repeats", async () => {
    const search = await converse(["bookstore"], "Search for cooking books and then show me the details of the first one.");
    const found = search.last?.kind === "final" ? search.last.text : "";
    expect(found).toMatch(/^I found \d+ books?: /);
    expect(found).toMatch(/Here is the book "Salt and Saffron" \(bk-1003\): the /);
    expect(found).not.toMatch(/listBooks|getBook|: [a-z ]+: [^;]+;|\bnull\b/);

    const created = await converse(["agenda"], 'Create an event called "Team lunch" at 2025-07-10T12:00:00Z, then show me the new event.');
    const confirm = created.last?.kind === "final" ? created.last.text : "";
    expect(confirm).toMatch(/^I created the event "Team lunch" \(evt-[\w-]+\)/);
    // The read of what was just created is not said twice.
    expect(confirm.match(/Team lunch/g)).toHaveLength(1);
    expect(ungrounded(confirm, created.dialogue)).toEqual([]);
    for (const sentence of confirm.split(/(?<=\.)\s+/)) expect(confirm.indexOf(sentence)).toBe(confirm.lastIndexOf(sentence));
  });

  it("uses a tool searcher first when that is the only tool (API-Bank retrieve level)", async () => {
    const w = world(...ALL);
    const searcher: AgentTool = {
      name: "ToolSearcher",
      description: "Searches the API catalog for tools that match keywords.",
      parameters: { type: "object", properties: { keywords: { type: "string" } }, required: ["keywords"] },
    };
    const model = new OfflineChatModel();
    const first = model.decide([new HumanMessage("What's the weather like in Paris right now?")], [searcher]);
    expect(first.calls[0]?.name).toBe("ToolSearcher");
    expect(String(first.calls[0]?.args["keywords"])).toContain("weather");
    const found = w.tools.filter((t) => t.name === "getCurrentWeather" || t.name === "getForecast");
    const next = model.decide(
      [
        new HumanMessage("What's the weather like in Paris right now?"),
        new AIMessage({ content: "", tool_calls: first.calls.map((c) => ({ ...c, type: "tool_call" as const })) }),
        new ToolMessage({ content: JSON.stringify({ status: 200, body: found }), tool_call_id: "call_1", name: "ToolSearcher" }),
      ],
      [searcher],
    );
    expect(next.calls[0]).toMatchObject({ name: "getCurrentWeather", args: { city: "Paris" } });
  });
});

describe("OfflineChatModel as a LangChain chat model", () => {
  it("is deterministic: same messages, same answer, across instances", async () => {
    const w = world(...ALL);
    const messages = toLangChainMessages([{ role: "user", content: "Search for cooking books and then show me the details of the first one." }]);
    const a = await new OfflineChatModel().bindTools(w.tools.map((t) => ({ type: "function", function: t }))).invoke(messages);
    const b = await new OfflineChatModel().bindTools(w.tools.map((t) => ({ type: "function", function: t }))).invoke(messages);
    expect(a.tool_calls).toEqual(b.tool_calls);
    expect(a.content).toEqual(b.content);
    expect(a.additional_kwargs).toEqual(b.additional_kwargs);
    expect(a.tool_calls?.[0]).toMatchObject({ id: "call_1", name: "listBooks", args: { genre: "cooking" } });
    expect(typeof a.additional_kwargs["thought"]).toBe("string");
    expect(a.additional_kwargs["intent"]).toBe("call");

    const first = await converse(ALL, "Search for cooking books and then show me the details of the first one.");
    const second = await converse(ALL, "Search for cooking books and then show me the details of the first one.");
    expect(second.turns).toEqual(first.turns);

    // The assistant's direct path and LangChain's invoke give the same turn.
    const dialogue = first.dialogue.slice(0, 3);
    const direct = await new ChatModelAssistant(new OfflineChatModel()).step(dialogue, w.tools, w.ctx);
    const invoked = await new ChatModelAssistant(new OfflineChatModel(), { direct: false }).step(dialogue, w.tools, w.ctx);
    expect(invoked).toEqual(direct);
    expect(direct).toMatchObject({ kind: "calls", calls: [{ id: "call_2", name: "getBook", arguments: { bookId: "bk-1003" } }] });
  });

  it("binds LangChain StructuredTools as well as OpenAI-form tools", async () => {
    const weather = tool(async () => "sunny", {
      name: "get_weather",
      description: "Current weather for a city",
      schema: z.object({ city: z.string().describe("City name"), unit: z.enum(["celsius", "fahrenheit"]).optional() }),
    });
    const out = await new OfflineChatModel().bindTools([weather]).invoke([new HumanMessage("What's the weather in Rome in fahrenheit?")]);
    expect(out.tool_calls?.[0]).toMatchObject({ name: "get_weather", args: { city: "Rome", unit: "fahrenheit" } });
  });

  it("reads tool results back from message text, even when a long body was shortened", () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ id: `bk-${2000 + i}`, title: `Book number ${i}`, blurb: "x".repeat(300) }));
    const result: ToolResult = { tool: "listBooks", status: 200, body: { items, total: 200 }, errors: [], responseErrors: [], source: "state", notes: [] };
    const text = toolResultText(result, { maxChars: 2000 });
    expect(text.length).toBeLessThanOrEqual(2000);
    const parsed = parseToolResultText(text);
    expect(parsed.status).toBe(200);
    expect(JSON.stringify(parsed.body)).toContain("bk-2000");
    expect(text).toContain("truncated");

    const messages = toLangChainMessages(
      [
        { role: "user", content: "Find books and then show me the details of the first one." },
        { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "listBooks", arguments: {} }] },
        { role: "tool", toolCallId: "call_1", name: "listBooks", content: "", result },
      ],
      { toolResult: { maxChars: 2000 } },
    );
    const spec: OfflineToolSpec[] = [
      { name: "listBooks", description: "Search books.", parameters: { type: "object", properties: { q: { type: "string" } } } },
      { name: "getBook", description: "Get a book by id.", parameters: { type: "object", properties: { bookId: { type: "string" } }, required: ["bookId"] } },
    ];
    const next = new OfflineChatModel().decide(messages, spec);
    expect(next.calls[0]).toMatchObject({ id: "call_2", name: "getBook", args: { bookId: "bk-2000" } });
  });
});

describe("ChatModelAssistant: the seam serves other chat models", () => {
  const w = world("bookstore");

  it("maps a fake tool-calling model's answers to calls, questions, finals and give-ups", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "listBooks", args: { genre: "mystery" }, id: "t1" }])
      .respond(new AIMessage("Which author do you mean?"))
      .respond(new AIMessage("The Lighthouse at Varden Point (bk-1001) costs 14.99."))
      .respond(new AIMessage("GIVE UP: none of these tools can place a phone call."));
    const assistant = new ChatModelAssistant(model);
    const dialogue: DialogueMessage[] = [{ role: "user", content: "Find mystery books." }];
    expect(await assistant.step(dialogue, w.tools, w.ctx)).toMatchObject({ kind: "calls", calls: [{ id: "t1", name: "listBooks", arguments: { genre: "mystery" } }] });
    expect(await assistant.step(dialogue, w.tools, w.ctx)).toEqual({ kind: "question", text: "Which author do you mean?" });
    expect(await assistant.step(dialogue, w.tools, w.ctx)).toMatchObject({ kind: "final", text: "The Lighthouse at Varden Point (bk-1001) costs 14.99." });
    expect(await assistant.step(dialogue, w.tools, w.ctx)).toMatchObject({ kind: "give-up", reason: "none of these tools can place a phone call." });
    // The model saw a system prompt, the dialogue, and the tools in OpenAI function form.
    const call = model.calls[0];
    expect(call?.messages[0]?.type).toBe("system");
    expect(call?.messages[1]?.type).toBe("human");
  });

  it("passes malformed arguments and unknown tools through for the executor to report", () => {
    const turn = toAssistantTurn(
      new AIMessage({
        content: "",
        tool_calls: [{ name: "noSuchTool", args: { a: 1 }, type: "tool_call" }],
        invalid_tool_calls: [{ name: "getBook", args: '{"bookId": "bk-1001"', id: "bad1", error: "Unexpected end of JSON", type: "invalid_tool_call" }],
      }),
      5,
    );
    expect(turn).toMatchObject({
      kind: "calls",
      calls: [
        { id: "call_5", name: "noSuchTool", arguments: { a: 1 } },
        { id: "bad1", name: "getBook", arguments: '{"bookId": "bk-1001"' },
      ],
    });
  });

  it("runs over FakeListChatModel (text only) and keeps courtesy questions as final answers", async () => {
    // FakeListChatModel's bindTools restarts its list, so each answer gets its own model.
    const say = async (text: string) => new ChatModelAssistant(new FakeListChatModel({ responses: [text] })).step([{ role: "user", content: "Find books." }], w.tools, w.ctx);
    expect((await say("Here are the books you asked for. Anything else I can help with?")).kind).toBe("final");
    expect(await say("What genre do you like?")).toEqual({ kind: "question", text: "What genre do you like?" });
    expect(await say("[give up] I cannot do that.")).toEqual({ kind: "give-up", reason: "I cannot do that." });
  });

  it("round-trips dialogues through LangChain messages, malformed arguments and thoughts included", () => {
    const result: ToolResult = { tool: "getBook", status: 422, body: { title: "Invalid request", validation: [] }, errors: [], responseErrors: [], source: "validation", notes: [] };
    const dialogue: DialogueMessage[] = [
      { role: "user", content: "Get book 1." },
      { role: "assistant", content: "", thought: "getBook fits.", toolCalls: [{ id: "c1", name: "getBook", arguments: '{"bookId": 1' }] },
      { role: "tool", toolCallId: "c1", name: "getBook", content: "", result },
      { role: "assistant", content: "It failed." },
    ];
    const back = fromLangChainMessages(toLangChainMessages(dialogue, { system: "be brief" }));
    expect(back).toHaveLength(4);
    expect(back[1]).toEqual({ role: "assistant", content: "", thought: "getBook fits.", toolCalls: [{ id: "c1", name: "getBook", arguments: '{"bookId": 1' }] });
    expect(back[2]).toMatchObject({ role: "tool", toolCallId: "c1", name: "getBook", result });
  });
});

describe("OfflineChatModel: conservative slot filling on the bundled toolsets", () => {
  async function bundled(): Promise<OfflineToolSpec[]> {
    const { bundledToolsetsDir, loadToolsets } = await import("../../../../toolsets/load-toolset.js");
    const { toolsets } = await loadToolsets([bundledToolsetsDir()]);
    return Toolbox.for(toolsets).tools().map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  }
  const firstCall = (tools: OfflineToolSpec[], messages: Array<HumanMessage | AIMessage | ToolMessage>): { name: string; args: Record<string, unknown> } | undefined =>
    new OfflineChatModel().decide(messages, tools).calls[0];

  it("fills optional parameters only from clear words: no header from a free word, no code from 'ID', no enum from the operation's name", async () => {
    const tools = await bundled();
    const recipe = firstCall(tools, [new HumanMessage("Show me the recipe (ID 48213), please.")]);
    expect(recipe).toEqual(expect.objectContaining({ name: "getRecipe", args: { recipeId: 48213 } }));
    const translate = firstCall(tools, [new HumanMessage('Translate the text "Where is the station?" into de.')]);
    expect(translate?.name).toBe("translateText");
    expect(translate?.args).not.toHaveProperty("format");
    const book = firstCall(tools, [new HumanMessage('Replace the book with ID bk-1002: isbn 9780000000071, titled "Dune", with the authors "Frank Herbert", genre fiction, priced at 9.99.')]);
    expect(book).toEqual(expect.objectContaining({ name: "updateBook", args: expect.objectContaining({ bookId: "bk-1002", isbn: "9780000000071" }) }));
    expect(book?.args).not.toHaveProperty("language");
  });

  it("keeps a path segment to its value ('buttermilk', not 'buttermilk where the diet')", async () => {
    const tools = await bundled();
    const call = firstCall(tools, [new HumanMessage("Check the ingredient substitutes for buttermilk where the diet is vegan.")]);
    expect(call).toEqual(expect.objectContaining({ name: "findSubstitutes", args: { ingredient: "buttermilk", diet: "vegan" } }));
  });

  it("takes no optional id from an unrelated earlier result", async () => {
    const tools = await bundled();
    const listed = { items: [{ id: "evt-1003", title: "Dentist check-up", start: "2025-06-18T10:00:00+02:00" }], total: 1 };
    const call = firstCall(tools, [
      new HumanMessage("List my events."),
      new AIMessage({ content: "", tool_calls: [{ id: "call_1", name: "listEvents", args: {}, type: "tool_call" }] }),
      new ToolMessage({ content: JSON.stringify({ status: 200, body: listed }), tool_call_id: "call_1", name: "listEvents" }),
      new AIMessage({ content: 'I found 1 event: "Dentist check-up" (evt-1003).', additional_kwargs: { intent: "final" } }),
      new HumanMessage('Create a reminder "Call the plumber".'),
    ]);
    expect(call?.name).toBe("createReminder");
    expect(call?.args).toEqual({ text: "Call the plumber" });
  });
});
