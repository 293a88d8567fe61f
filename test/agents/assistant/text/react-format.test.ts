import { describe, expect, it } from "vitest";
import type { DialogueMessage } from "../../../../agents/roles/dialogue.js";
import { parseLenientJson, parseLenientObject } from "../../../../agents/parse/lenient-json.js";
import { ASK_USER_ACTION, parseReact, reactFeedback, reactProtocol, reactSystemPrompt, renderReactDialogue } from "../../../../agents/assistant/text/react-format.js";
import type { AgentTool } from "../../../../agents/roles/roles.js";
import type { ToolResult } from "../../../../specs/call/tool-result.js";
import { parseHarness } from "../../../support/text-parse-harness.js";

const TOOLS: AgentTool[] = [
  {
    name: "getHolidays",
    description: "List the public holidays of a country in a year.",
    parameters: { type: "object", properties: { country: { type: "string" }, year: { type: "integer" } }, required: ["country"] },
  },
  { name: "getWeather", description: "Current weather of a city.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
  { name: "getServerTime", description: "The server's clock.", parameters: { type: "object", properties: {} } },
  {
    name: "createEvent",
    description: "Create a calendar event.",
    parameters: {
      type: "object",
      properties: { title: { type: "string" }, start: { type: "string" }, attendees: { type: "array", items: { type: "string" } }, private: { type: "boolean" } },
      required: ["title", "start"],
    },
  },
];

const { parsed, calls, errors } = parseHarness(parseReact, TOOLS);

describe("parseReact: well-formed and realistic outputs", () => {
  it("reads the canonical Thought / Action / Action Input (ToolAlpaca figure 10)", () => {
    const d = parsed('Thought: I need the list of holidays in Japan for 2024.\nAction: getHolidays\nAction Input: {"country": "Japan", "year": 2024}');
    expect(d).toMatchObject({ kind: "calls", thought: "I need the list of holidays in Japan for 2024.", calls: [{ name: "getHolidays", arguments: { country: "Japan", year: 2024 } }] });
    expect(d.notes).toEqual([]);
  });

  it("reads an output that continues the prompt's trailing 'Thought:' (no label on the first line)", () => {
    const d = parsed(' I should check the weather first.\nAction: getWeather\nAction Input: {"city": "Lisbon"}');
    expect(d).toMatchObject({ kind: "calls", thought: "I should check the weather first.", calls: [{ name: "getWeather", arguments: { city: "Lisbon" } }] });
  });

  it("reads a one-line output with all labels inline", () => {
    expect(calls('Thought: I need holidays. Action: getHolidays Action Input: {"country": "JP", "year": 2024}')).toEqual([{ name: "getHolidays", arguments: { country: "JP", year: 2024 } }]);
  });

  it("reads a chatty markdown answer with bold labels, a backticked tool and a fenced almost-JSON input", () => {
    const text = [
      "Sure! Let me look that up for you.",
      "",
      "**Thought:** The user wants Portuguese holidays next year, so I'll call the holidays API.",
      "",
      "**Action:** `getHolidays`",
      "",
      "**Action Input:**",
      "```json",
      "{",
      "  'country': 'PT',",
      "  'year': 2025,",
      "}",
      "```",
      "",
      "Let me know if you need anything else!",
    ].join("\n");
    const d = parsed(text);
    expect(d).toMatchObject({ kind: "calls", calls: [{ name: "getHolidays", arguments: { country: "PT", year: 2025 } }] });
    expect(d.thought).toContain("Portuguese holidays");
    expect(d.notes).toEqual(expect.arrayContaining(["removed a code fence", "read single-quoted strings"]));
  });

  it("reads lower-case labels, Action_Input spelling and a snake_case tool name", () => {
    expect(calls('thought: checking\naction: get_weather\naction_input: {"city": "Oslo"}')).toEqual([{ name: "getWeather", arguments: { city: "Oslo" } }]);
  });

  it("reads several numbered actions in one answer", () => {
    const text = 'Thought: Two cities, two calls.\nAction 1: getWeather\nAction Input 1: {"city": "Paris"}\nAction 2: getWeather\nAction Input 2: {"city": "Rome"}';
    expect(calls(text)).toEqual([
      { name: "getWeather", arguments: { city: "Paris" } },
      { name: "getWeather", arguments: { city: "Rome" } },
    ]);
  });

  it("drops an observation (and the rest) that the model made up after its action", () => {
    const text = 'Thought: weather\nAction: getWeather\nAction Input: {"city": "Paris"}\nObservation: {"temperature": 21}\nThought: I now know.\nFinal Answer: It is 21 degrees in Paris.';
    const d = parsed(text);
    expect(d).toMatchObject({ kind: "calls", calls: [{ name: "getWeather", arguments: { city: "Paris" } }] });
    expect(d.notes).toContain("ignored a made-up Observation and everything after it");
  });

  it("reads a final answer, a final answer that asks, and a give-up", () => {
    expect(parsed("Thought: I have the holidays.\nFinal Answer: Japan has 16 holidays in 2024, starting with New Year's Day on January 1.")).toMatchObject({
      kind: "final",
      text: "Japan has 16 holidays in 2024, starting with New Year's Day on January 1.",
    });
    expect(parsed("Final Answer: Which year are you planning the trip for?")).toMatchObject({ kind: "question", text: "Which year are you planning the trip for?" });
    expect(parsed("Thought: No tool books flights.\nFinal Answer: GIVE UP: none of the tools can book flights.")).toMatchObject({ kind: "give-up", reason: "none of the tools can book flights." });
  });

  it("reads ASK_USER and ToolAlpaca's getDetails as questions to the user", () => {
    expect(parsed(`Thought: The year is missing.\nAction: ${ASK_USER_ACTION}\nAction Input: {"question": "Which year do you mean?"}`)).toMatchObject({ kind: "question", text: "Which year do you mean?", thought: "The year is missing." });
    expect(parsed('Action: getDetails\nAction Input: {"Question": "Could you please specify the year?"}')).toMatchObject({ kind: "question", text: "Could you please specify the year?" });
  });

  it("reads ToolLLM's Finish function with give_answer and give_up_and_restart", () => {
    expect(parsed('Thought: done\nAction: Finish\nAction Input: {"return_type": "give_answer", "final_answer": "It is sunny in Oslo."}')).toMatchObject({ kind: "final", text: "It is sunny in Oslo." });
    expect(parsed('Thought: the API keeps failing.\nAction: Finish\nAction Input: {"return_type": "give_up_and_restart"}')).toMatchObject({ kind: "give-up", reason: "the API keeps failing." });
  });

  it("forgives almost-JSON inputs: missing braces, key=value pairs, a lone value, trailing commas, Python literals", () => {
    expect(calls('Action: getWeather\nAction Input: "city": "Paris"')).toEqual([{ name: "getWeather", arguments: { city: "Paris" } }]);
    expect(calls("Action: getHolidays\nAction Input: country=DE, year=2025")).toEqual([{ name: "getHolidays", arguments: { country: "DE", year: 2025 } }]);
    expect(calls("Action: getWeather\nAction Input: Paris")).toEqual([{ name: "getWeather", arguments: { city: "Paris" } }]);
    expect(calls('Action: createEvent\nAction Input: {"title": "Sync", "start": "2025-03-01T10:00", "attendees": ["ana", "bo",], "private": True,}')).toEqual([
      { name: "createEvent", arguments: { title: "Sync", start: "2025-03-01T10:00", attendees: ["ana", "bo"], private: true } },
    ]);
    expect(calls('Action: getHolidays\nAction Input: {"country": "DE", "year": 2025\n\nObservation:')).toEqual([{ name: "getHolidays", arguments: { country: "DE", year: 2025 } }]);
  });

  it("reads actions written as calls and tool names with decoration", () => {
    expect(calls("Action: getWeather(city='Paris')")).toEqual([{ name: "getWeather", arguments: { city: "Paris" } }]);
    expect(calls('Action: getWeather {"city": "Paris"}')).toEqual([{ name: "getWeather", arguments: { city: "Paris" } }]);
    expect(calls('Action: [getWeather]\nAction Input: {"city": "Paris"}')).toEqual([{ name: "getWeather", arguments: { city: "Paris" } }]);
    expect(calls('Action: functions.getWeather\nAction Input: {"city": "Paris"}')).toEqual([{ name: "getWeather", arguments: { city: "Paris" } }]);
  });

  it("keeps label-like text inside the JSON input and ignores chatter after it", () => {
    const d = parsed('Thought: x\nAction: createEvent\nAction Input: {"title": "Action: plan Q3", "start": "2025-01-02"}\nI will wait for the result.');
    expect(d).toMatchObject({ kind: "calls", calls: [{ name: "createEvent", arguments: { title: "Action: plan Q3", start: "2025-01-02" } }] });
  });

  it("reads LangChain's JSON blob format", () => {
    expect(calls('```json\n{"action": "getWeather", "action_input": {"city": "Paris"}}\n```')).toEqual([{ name: "getWeather", arguments: { city: "Paris" } }]);
    expect(parsed('{"action": "Final Answer", "action_input": "It is sunny."}')).toMatchObject({ kind: "final", text: "It is sunny." });
  });

  it("lets a tool without required parameters go without an Action Input, and passes unknown identifiers to the executor", () => {
    expect(calls("Thought: time\nAction: getServerTime")).toEqual([{ name: "getServerTime", arguments: {} }]);
    expect(calls('Action: searchFlights\nAction Input: {"to": "NYC"}')).toEqual([{ name: "searchFlights", arguments: { to: "NYC" } }]);
  });

  it("takes whichever comes first when an answer holds both a final answer and an action", () => {
    const d = parsed("Final Answer: It is sunny.\nAction: getWeather\nAction Input: {\"city\": \"Paris\"}");
    expect(d).toMatchObject({ kind: "final", text: "It is sunny." });
    expect(d.notes).toContain("ignored actions written after the Final Answer");
  });

  it("reads a whole answer wrapped in a code fence", () => {
    expect(calls('```\nThought: x\nAction: getWeather\nAction Input: {"city": "Bern"}\n```')).toEqual([{ name: "getWeather", arguments: { city: "Bern" } }]);
  });
});

describe("parseReact: garbage gets precise errors", () => {
  it("empty output", () => {
    expect(errors("   \n ")).toEqual([{ code: "empty", message: "the answer is empty" }]);
  });

  it("plain chatter without the format (unless plain text is allowed)", () => {
    const [e] = errors("The weather in Paris is usually mild in spring.");
    expect(e?.code).toBe("no-format");
    expect(e?.message).toContain('no "Action:" line and no "Final Answer:" line');
    expect(parseReact("The weather in Paris is usually mild.", { tools: TOOLS, plainText: "final" })).toMatchObject({ ok: true, value: { kind: "final" } });
  });

  it("a thought with nothing after it", () => {
    const [e] = errors("Thought: I should look up the weather in Paris.");
    expect(e).toMatchObject({ code: "missing-action", line: 1 });
  });

  it("an Action Input without an Action", () => {
    expect(errors('Thought: hi\nAction Input: {"city": "Paris"}')[0]).toMatchObject({ code: "missing-action", line: 2 });
  });

  it("an Action missing its required input", () => {
    const [e] = errors("Thought: x\nAction: getHolidays");
    expect(e).toMatchObject({ code: "missing-action-input", line: 2 });
    expect(e?.message).toContain("country");
  });

  it("an input that is not JSON, with the position inside the input", () => {
    const [e] = errors('Thought: x\nAction: getWeather\nAction Input: {"city": }');
    expect(e).toMatchObject({ code: "bad-action-input", line: 3 });
    expect(e?.message).toContain("input line 1, column 10");
  });

  it("an unclosed string (its end cannot be guessed)", () => {
    const [e] = errors('Action: getWeather\nAction Input: {"city": "Paris}');
    expect(e?.code).toBe("bad-action-input");
    expect(e?.message).toContain("is not closed");
  });

  it("a sentence instead of a tool name, with the tools listed", () => {
    const [e] = errors('Thought: x\nAction: I will search the weather website for Paris\nAction Input: {"city": "Paris"}');
    expect(e).toMatchObject({ code: "unknown-action", line: 2 });
    expect(e?.message).toContain("getHolidays, getWeather, getServerTime, createEvent");
  });

  it("an empty final answer and an ASK_USER without a question", () => {
    expect(errors("Thought: done\nFinal Answer:")[0]).toMatchObject({ code: "empty-final-answer", line: 2 });
    expect(errors("Action: ASK_USER\nAction Input: {}")[0]?.code).toBe("missing-action-input");
  });

  it("several broken actions report one error each", () => {
    const errs = errors('Action: getWeather\nAction Input: {"city": ]\nAction: getHolidays');
    expect(errs.map((e) => e.code)).toEqual(["bad-action-input", "missing-action-input"]);
  });
});

describe("ReAct rendering", () => {
  const result = (status: number, body: unknown): ToolResult => ({ tool: "getWeather", status, body, errors: [], responseErrors: [], source: "schema", notes: [] });
  const dialogue: DialogueMessage[] = [
    { role: "user", content: "Weather in Paris and Rome?" },
    {
      role: "assistant",
      content: "",
      thought: "Two cities.",
      toolCalls: [
        { id: "call_1", name: "getWeather", arguments: { city: "Paris" } },
        { id: "call_2", name: "getWeather", arguments: { city: "Rome" } },
      ],
    },
    { role: "tool", toolCallId: "call_1", name: "getWeather", content: "", result: result(200, { temp: 21 }) },
    { role: "tool", toolCallId: "call_2", name: "getWeather", content: "", result: result(200, { temp: 25 }) },
    { role: "assistant", content: "Which unit do you prefer?" },
    { role: "user", content: "Celsius." },
    { role: "assistant", content: "Paris 21°C, Rome 25°C.", thought: "Both known." },
  ];

  it("describes tools with name, description and JSON parameters, and the format", () => {
    const prompt = reactSystemPrompt(TOOLS);
    expect(prompt).toContain("- getWeather: Current weather of a city.");
    expect(prompt).toContain('Parameters (JSON Schema): {"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}');
    expect(prompt).toContain("Action: the tool to call, exactly one of: getHolidays, getWeather, getServerTime, createEvent");
    expect(prompt).toContain("Final Answer:");
    expect(prompt).toContain(ASK_USER_ACTION);
  });

  it("writes turns in the format, observations as user messages, and reads its own turns back", () => {
    const messages = renderReactDialogue(dialogue);
    expect(messages.map((m) => m.type)).toEqual(["human", "ai", "human", "ai", "human", "ai"]);
    const [, calls, observation, question, , final] = messages.map((m) => String(m.content));
    expect(calls).toBe('Thought: Two cities.\nAction: getWeather\nAction Input: {"city":"Paris"}\nAction: getWeather\nAction Input: {"city":"Rome"}');
    expect(observation).toBe('Observation 1 (getWeather): {"status":200,"body":{"temp":21}}\nObservation 2 (getWeather): {"status":200,"body":{"temp":25}}');
    expect(question).toBe(`Action: ${ASK_USER_ACTION}\nAction Input: {"question":"Which unit do you prefer?"}`);
    expect(final).toBe("Thought: Both known.\nFinal Answer: Paris 21°C, Rome 25°C.");
    expect(parseReact(calls ?? "", { tools: TOOLS })).toMatchObject({ ok: true, value: { kind: "calls", calls: [{ arguments: { city: "Paris" } }, { arguments: { city: "Rome" } }] } });
    expect(parseReact(question ?? "", { tools: TOOLS })).toMatchObject({ ok: true, value: { kind: "question", text: "Which unit do you prefer?" } });
  });

  it("feedback names the errors by line and restates the format", () => {
    const text = reactFeedback([{ code: "missing-action", message: "the answer stops after the Thought", line: 1 }], TOOLS);
    expect(text).toContain("- line 1: the answer stops after the Thought");
    expect(text).toContain("Final Answer:");
    expect(reactProtocol.stop).toEqual(["\nObservation:"]);
  });
});

describe("lenient JSON", () => {
  it("reads strict JSON without repairs and reports each repair otherwise", () => {
    expect(parseLenientJson('{"a": [1, 2]}')).toEqual({ ok: true, value: { value: { a: [1, 2] }, repairs: [] } });
    const r = parseLenientJson("{a: 'x', b: None, c: (1, 2), // note\n d: “curly”,}");
    expect(r).toMatchObject({ ok: true, value: { value: { a: "x", b: null, c: [1, 2], d: "curly" } } });
    if (r.ok) expect(r.value.repairs).toEqual(expect.arrayContaining(["quoted unquoted keys", "read single-quoted strings", "read None as null", "read a tuple as a list", "removed a // comment"]));
  });

  it("keeps apostrophes inside single-quoted strings and escapes", () => {
    expect(parseLenientObject("{'title': 'Dave's party', 'note': 'line\\nnext \\u00e9'}")).toMatchObject({ ok: true, value: { value: { title: "Dave's party", note: "line\nnext é" } } });
  });

  it("reports where the text stops making sense", () => {
    const r = parseLenientObject('{"a": 1,\n "b" 2}');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatchObject({ line: 2, message: expect.stringContaining("expected ':' after key \"b\"") });
  });
});
