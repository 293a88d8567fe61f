import { describe, expect, it } from "vitest";
import {
  apiBankDescription,
  apiBankFeedback,
  apiBankSystemPrompt,
  parseApiBank,
  parseCallArguments,
  renderApiBankCall,
  renderApiBankDialogue,
  renderApiBankValue,
} from "../../../../agents/assistant/text/apibank-format.js";
import type { DialogueMessage } from "../../../../agents/roles/dialogue.js";
import type { AgentTool } from "../../../../agents/roles/roles.js";
import type { ToolResult } from "../../../../specs/call/tool-result.js";
import { parseHarness } from "../../../support/text-parse-harness.js";

const TOOLS: AgentTool[] = [
  {
    name: "ForgotPassword",
    description: "Sends a verification code, then resets the password.",
    parameters: {
      type: "object",
      properties: {
        status: { type: "string", enum: ["Forgot Password", "Verification Code"] },
        username: { type: "string" },
        email: { type: "string", format: "email" },
        verification_code: { type: "string" },
        new_password: { type: "string" },
      },
      required: ["status"],
    },
  },
  {
    name: "AddReminder",
    description: "Add a reminder.",
    parameters: {
      type: "object",
      properties: { token: { type: "string" }, content: { type: "string" }, time: { type: "string", description: "Format: %Y-%m-%d %H:%M:%S" } },
      required: ["token", "content", "time"],
    },
  },
  { name: "Calculator", description: "Arithmetic.", parameters: { type: "object", properties: { formula: { type: "string" } }, required: ["formula"] } },
  {
    name: "BookHotel",
    description: "Book rooms.",
    parameters: {
      type: "object",
      properties: { hotel_name: { type: "string" }, rooms: { type: "integer" }, guests: { type: "array", items: { type: "string" } }, breakfast: { type: "boolean" }, prefs: { type: "object" } },
      required: ["hotel_name"],
    },
  },
];

const { parsed, calls, errors } = parseHarness(parseApiBank, TOOLS);

describe("parseApiBank: requests as API-Bank's figures write them", () => {
  it("reads the canonical request (figure 6)", () => {
    expect(calls("API-Request: [ForgotPassword(status='Forgot Password', username='foo', email='foo@example.com')]")).toEqual([
      { name: "ForgotPassword", arguments: { status: "Forgot Password", username: "foo", email: "foo@example.com" } },
    ]);
  });

  it("reads a response line before the request as the thought, and markdown-escaped names", () => {
    const d = parsed("Response: Great.\n\nAPI-Request: [ForgotPassword(status='Verification Code', verification\\_code='970420', new\\_password='newpassword')]");
    expect(d).toMatchObject({ kind: "calls", thought: "Great.", calls: [{ name: "ForgotPassword", arguments: { status: "Verification Code", verification_code: "970420", new_password: "newpassword" } }] });
  });

  it("reads markdown headings and fenced requests (figure 7), dropping the observation the model made up", () => {
    const text = "### API-Request:\n\n```\n[AddReminder(token='19k8j7h6g5f4d3s2a1', content='sales report', time='2023-01-05 15:00:00')]\n```\n\n### Observation:\n\n```\n{\"status\": \"success\"}\n```\n\n### Response:\n\nYou should receive a confirmation shortly.";
    const d = parsed(text);
    expect(d).toMatchObject({ kind: "calls", calls: [{ name: "AddReminder", arguments: { token: "19k8j7h6g5f4d3s2a1", content: "sales report", time: "2023-01-05 15:00:00" } }] });
    expect(d.thought).toBeUndefined();
    expect(d.notes).toContain("ignored a made-up observation and everything after it");
  });

  it("reads bold markers (figure 8) and a bare bracketed call without the marker", () => {
    expect(calls("**API-Request:**\n\n```\n[Calculator(formula='(5+3)*6')]\n```")).toEqual([{ name: "Calculator", arguments: { formula: "(5+3)*6" } }]);
    expect(calls("ChatGPT: [Calculator(formula='48+5')]")).toEqual([{ name: "Calculator", arguments: { formula: "48+5" } }]);
  });

  it("reads every kind of value: escapes, numbers, booleans, None, lists, tuples, nested dicts, JSON literals", () => {
    const text = `API-Request: [BookHotel(hotel_name='Hôtel d\\'Orsay', rooms=2, guests=['Ana', "Bo"], breakfast=True, prefs={'floor': -1.5, 'tags': ('quiet', None), "late": false}, note="line\\nnext")]`;
    expect(calls(text)).toEqual([
      {
        name: "BookHotel",
        arguments: { hotel_name: "Hôtel d'Orsay", rooms: 2, guests: ["Ana", "Bo"], breakfast: true, prefs: { floor: -1.5, tags: ["quiet", null], late: false }, note: "line\nnext" },
      },
    ]);
  });

  it("reads several calls in one list, several request lines, and calls without commas between them", () => {
    expect(calls("API-Request: [Calculator(formula='1+1'), Calculator(formula='2*3')]").map((c) => c.arguments["formula"])).toEqual(["1+1", "2*3"]);
    expect(calls("API-Request: [Calculator(formula='1+1')]\nAPI-Request: [Calculator(formula='2*3')]")).toHaveLength(2);
    const d = parsed("API-Request: [Calculator(formula='1') Calculator(formula='2')]");
    expect(d.kind === "calls" && d.calls.length).toBe(2);
    expect(d.notes).toContain("added missing commas between calls");
  });

  it("forgives missing brackets, ':' for '=', unquoted words, apostrophes and a missing ')' at the end", () => {
    expect(calls("API-Request: Calculator(formula='3*3')")).toEqual([{ name: "Calculator", arguments: { formula: "3*3" } }]);
    expect(calls("API-Request: [BookHotel(hotel_name: 'Ritz', rooms: 1)]")).toEqual([{ name: "BookHotel", arguments: { hotel_name: "Ritz", rooms: 1 } }]);
    expect(calls("API-Request: [BookHotel(hotel_name=Grand Budapest, rooms=3)]")).toEqual([{ name: "BookHotel", arguments: { hotel_name: "Grand Budapest", rooms: 3 } }]);
    expect(calls("API-Request: [BookHotel(hotel_name='Dave's Inn')]")).toEqual([{ name: "BookHotel", arguments: { hotel_name: "Dave's Inn" } }]);
    const d = parsed("API-Request: [Calculator(formula='7-2'");
    expect(d).toMatchObject({ kind: "calls", calls: [{ arguments: { formula: "7-2" } }] });
    expect(d.notes).toEqual(expect.arrayContaining(["added the missing ')' of Calculator", "added the missing ']'"]));
  });

  it("names positional values of a known tool in parameter order", () => {
    const d = parsed("[Calculator('(1+2)*3')]");
    expect(d).toMatchObject({ kind: "calls", calls: [{ name: "Calculator", arguments: { formula: "(1+2)*3" } }] });
    expect(d.notes).toContain("named 1 positional value of Calculator in parameter order");
  });

  it("resolves API names case-insensitively, keeps unknown names for the executor, reads empty argument lists", () => {
    expect(calls("API-Request: [calculator(formula='1')]")[0]?.name).toBe("Calculator");
    expect(calls("API-Request: [GetUserToken(username='newuser', password='newpass')]")).toEqual([{ name: "GetUserToken", arguments: { username: "newuser", password: "newpass" } }]);
    expect(calls("API-Request: [GetTime()]")).toEqual([{ name: "GetTime", arguments: {} }]);
  });

  it("reads text without a request as a final answer, a question or a give-up", () => {
    expect(parsed("Response: Your password has been successfully reset.")).toMatchObject({ kind: "final", text: "Your password has been successfully reset." });
    expect(parsed("AI: Sure, I can help. What are your username and email?")).toMatchObject({ kind: "question", text: "Sure, I can help. What are your username and email?" });
    expect(parsed("GIVE UP: there is no API to order food.")).toMatchObject({ kind: "give-up", reason: "there is no API to order food." });
    expect(parsed("A markdown link [docs](https://example.com) is not a call.")).toMatchObject({ kind: "final" });
  });
});

describe("parseApiBank: broken requests get precise errors", () => {
  it("empty output", () => {
    expect(errors("  ")).toEqual([{ code: "empty", message: "the answer is empty" }]);
  });

  it("a marker with nothing after it", () => {
    expect(errors("Alright.\nAPI-Request:")[0]).toMatchObject({ code: "empty-request", line: 2 });
  });

  it("a marker followed by prose", () => {
    const [e] = errors("API-Request: I will now call the calculator");
    expect(e?.code).toBe("bad-request");
    expect(e?.message).toContain("expected '(' after the API name \"I\"");
  });

  it("an unclosed string (truncated output)", () => {
    const [e] = errors("API-Request: [AddReminder(token='abc', content='sales rep");
    expect(e).toMatchObject({ code: "bad-request", line: 1 });
    expect(e?.message).toContain("is not closed");
  });

  it("a value with no name for an unknown API, and too many positional values", () => {
    expect(errors("API-Request: [Mystery('x')]")[0]?.message).toContain("has no parameter name: write key=value");
    expect(errors("API-Request: [Calculator('1', '2')]")[0]?.message).toContain("(parameters: formula)");
  });

  it("a bracket in the wrong place", () => {
    const [e] = errors("API-Request: [Calculator(formula='1'])");
    expect(e?.message).toBe("expected ',' or ')' after the value of formula in the call to Calculator, near \"])\"");
  });

  it("a missing comma between arguments (not read as one unquoted text)", () => {
    const [e] = errors("API-Request: [AddReminder(token=abc content='sales report', time='2023-01-05 15:00:00')]");
    expect(e?.message).toContain(`a ',' seems to be missing before "content"`);
  });

  it("a missing value", () => {
    expect(errors("API-Request: [Calculator(formula=)]")[0]?.message).toContain("expected a value");
  });
});

describe("API-Bank rendering", () => {
  it("writes values and calls in API-Bank's Python-like syntax, and reads them back", () => {
    expect(renderApiBankValue("it's")).toBe("'it\\'s'");
    expect(renderApiBankValue({ a: [1, true, null] })).toBe("{'a': [1, True, None]}");
    const args = { hotel_name: "Dave's Inn", rooms: 2, guests: ["Ana"], breakfast: false, prefs: { note: "a\nb" } };
    const call = renderApiBankCall("BookHotel", args);
    expect(call).toBe("[BookHotel(hotel_name='Dave\\'s Inn', rooms=2, guests=['Ana'], breakfast=False, prefs={'note': 'a\\nb'})]");
    expect(calls(`API-Request: ${call}`)).toEqual([{ name: "BookHotel", arguments: args }]);
    expect(parseCallArguments("formula='1+1'", TOOLS[2])).toEqual({ ok: true, value: { arguments: { formula: "1+1" }, notes: [] } });
  });

  it("describes APIs as API-Bank does, with required parameters and enums", () => {
    expect(apiBankDescription(TOOLS[0]!)).toEqual({
      name: "ForgotPassword",
      description: "Sends a verification code, then resets the password.",
      input_parameters: {
        status: { type: "str", required: true, enum: ["Forgot Password", "Verification Code"] },
        username: { type: "str" },
        email: { type: "str", format: "email" },
        verification_code: { type: "str" },
        new_password: { type: "str" },
      },
    });
    const prompt = apiBankSystemPrompt(TOOLS);
    expect(prompt).toContain("API-Request: [ApiName(key1='value1', key2=2)]");
    expect(prompt).toContain('"name":"BookHotel"');
    expect(prompt).toContain('"guests":{"type":"list[str]"}');
  });

  it("writes the dialogue with requests and observations", () => {
    const result: ToolResult = { tool: "Calculator", status: 200, body: { result: 48 }, errors: [], responseErrors: [], source: "schema", notes: [] };
    const dialogue: DialogueMessage[] = [
      { role: "user", content: "Calculate (5+3)*6." },
      { role: "assistant", content: "", thought: "I'll use the calculator.", toolCalls: [{ id: "c1", name: "Calculator", arguments: { formula: "(5+3)*6" } }] },
      { role: "tool", toolCallId: "c1", name: "Calculator", content: "", result },
      { role: "assistant", content: "The result is 48." },
    ];
    expect(renderApiBankDialogue(dialogue).map((m) => [m.type, m.content])).toEqual([
      ["human", "Calculate (5+3)*6."],
      ["ai", "I'll use the calculator.\nAPI-Request: [Calculator(formula='(5+3)*6')]"],
      ["human", 'Observation: {"status":200,"body":{"result":48}}'],
      ["ai", "The result is 48."],
    ]);
    expect(apiBankFeedback([{ code: "empty-request", message: "nothing after the marker", line: 2 }], TOOLS)).toContain("line 2: nothing after the marker");
  });
});
