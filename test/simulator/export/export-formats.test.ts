import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentTool } from "../../../agents/roles/roles.js";
import { parseApiBankDialogue } from "../../../simulator/export/apibank-dialogue-format.js";
import { EXPORT_FORMATS, type ExportFormatName } from "../../../simulator/export/export-format.js";
import { exportRun, type ExportResult } from "../../../simulator/export/export-run.js";
import { DUNE_INSTRUCTION, FIXTURE_SECRETS, HOSTILE_TEXT, writeFixtureRun } from "../../fixtures/export-run.js";

const root = mkdtempSync(join(tmpdir(), "toolsim-export-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SYSTEM = "You are a test assistant.";

/** The fixture toolset's tools as the assistant was offered them, written out by hand from bookshop.yaml. */
const TOOLS: AgentTool[] = [
  {
    name: "searchBooks",
    description: "Search books",
    parameters: {
      type: "object",
      properties: { q: { type: "string", description: "Words to search for. (query parameter)" }, limit: { type: "integer", minimum: 1, description: "Most results. (query parameter)" } },
      required: ["q"],
    },
  },
  { name: "getBook", description: "Get a book", parameters: { type: "object", properties: { bookId: { type: "string", description: "The book's id. (path parameter)" } }, required: ["bookId"] } },
  // The password's example ("hunter-22-secret" in the spec) is a secret: it is dropped.
  { name: "login", description: "Sign in", parameters: { type: "object", properties: { email: { type: "string", examples: ["ann@example.com"] }, password: { type: "string" } }, required: ["email", "password"] } },
];
const OPENAI_TOOLS = TOOLS.map((t) => ({ type: "function", function: t }));

// Episode 0's observations as the assistant read them.
const OBS_SEARCH = '{"status": 200, "body": {"items":[{"id":"b1","title":"Dune"},{"id":"b2","title":"Dune Messiah"}]}}';
const OBS_BOOK = '{"status": 200, "body": {"id":"b1","title":"Dune","author":"Frank Herbert"}}';

const lines = new Map<ExportFormatName, string[]>();
const results = new Map<ExportFormatName, ExportResult>();
const parsed = (format: ExportFormatName): Record<string, unknown>[] => (lines.get(format) ?? []).map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  const run = await writeFixtureRun(join(root, "run"));
  for (const format of EXPORT_FORMATS) {
    const out = join(root, `${format}.jsonl`);
    results.set(format, await exportRun({ dir: run, format, out, includeRejected: true, system: SYSTEM }));
    lines.set(format, readFileSync(out, "utf8").split("\n").filter((l) => l !== ""));
  }
});

describe("every format", () => {
  it("writes JSON lines that parse, without the run's secrets", () => {
    for (const format of EXPORT_FORMATS) {
      const text = (lines.get(format) ?? []).join("\n");
      expect(lines.get(format)?.length, format).toBeGreaterThan(0);
      for (const l of lines.get(format) ?? []) expect(() => JSON.parse(l), format).not.toThrow();
      for (const secret of FIXTURE_SECRETS) expect(text, `${format} holds ${secret}`).not.toContain(secret);
    }
  });
});

describe("openai", () => {
  it("writes episode 0 exactly as checked by hand", () => {
    const expected = {
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: DUNE_INSTRUCTION },
        { role: "assistant", content: "I should search the catalogue.", tool_calls: [{ id: "call_1", type: "function", function: { name: "searchBooks", arguments: '{"q":"Dune","limit":2}' } }] },
        { role: "tool", tool_call_id: "call_1", content: OBS_SEARCH },
        { role: "assistant", content: "Now the details of b1.", tool_calls: [{ id: "call_2", type: "function", function: { name: "getBook", arguments: '{"bookId":"b1"}' } }] },
        { role: "tool", tool_call_id: "call_2", content: OBS_BOOK },
        { role: "assistant", content: "Dune (b1) is by Frank Herbert." },
      ],
      tools: OPENAI_TOOLS,
    };
    expect(lines.get("openai")?.[0]).toBe(JSON.stringify(expected));
  });

  it("answers every tool call with a tool message, and every tool message answers a call", () => {
    const all = parsed("openai");
    expect(all).toHaveLength(6);
    for (const line of all) {
      const messages = line["messages"] as { role: string; tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
      expect(messages[0]?.role).toBe("system");
      const open = new Set<string>();
      for (const m of messages) {
        expect(["system", "user", "assistant", "tool"]).toContain(m.role);
        if (m.role === "assistant") {
          expect(open.size, "a tool call left unanswered before the next assistant message").toBe(0);
          for (const c of m.tool_calls ?? []) {
            expect(c.type).toBe("function");
            expect(() => JSON.parse(c.function.arguments)).not.toThrow();
            open.add(c.id);
          }
        }
        if (m.role === "tool") {
          expect(open.has(m.tool_call_id ?? "")).toBe(true);
          open.delete(m.tool_call_id ?? "");
        }
        if (m.role === "user") expect(open.size).toBe(0);
      }
      expect(open.size).toBe(0);
    }
  });

  it("keeps two calls of one turn in one assistant message, and writes give-ups with their prefix", () => {
    const [, , , , e4, e5] = parsed("openai") as { messages: { role: string; content?: string; tool_calls?: unknown[] }[] }[];
    expect(e5?.messages[2]?.tool_calls).toHaveLength(2);
    expect(e5?.messages.slice(3, 5).map((m) => m.role)).toEqual(["tool", "tool"]);
    expect(e4?.messages.at(-1)).toEqual({ role: "assistant", content: "GIVE UP: the login failed" });
  });
});

describe("sharegpt", () => {
  it("writes episode 0 exactly as checked by hand", () => {
    const expected = {
      conversations: [
        { from: "human", value: DUNE_INSTRUCTION },
        { from: "function_call", value: '{"name":"searchBooks","arguments":{"q":"Dune","limit":2}}' },
        { from: "observation", value: OBS_SEARCH },
        { from: "function_call", value: '{"name":"getBook","arguments":{"bookId":"b1"}}' },
        { from: "observation", value: OBS_BOOK },
        { from: "gpt", value: "Dune (b1) is by Frank Herbert." },
      ],
      system: SYSTEM,
      tools: JSON.stringify(TOOLS),
    };
    expect(lines.get("sharegpt")?.[0]).toBe(JSON.stringify(expected));
  });

  it("alternates the user side and the model side, as LLaMA-Factory requires", () => {
    const all = parsed("sharegpt") as { conversations: { from: string; value: string }[]; tools: string }[];
    // Episode 3 broke off before any result: nothing the model said can be trained on, it is skipped.
    expect(all).toHaveLength(5);
    expect(results.get("sharegpt")?.skipped).toBe(1);
    for (const line of all) {
      expect(Array.isArray(JSON.parse(line.tools))).toBe(true);
      expect(line.conversations.length % 2).toBe(0);
      line.conversations.forEach((turn, i) => {
        expect(i % 2 === 0 ? ["human", "observation"] : ["gpt", "function_call"]).toContain(turn.from);
        if (turn.from === "function_call") {
          const value = JSON.parse(turn.value) as unknown;
          for (const call of Array.isArray(value) ? value : [value]) expect(call).toEqual({ name: expect.any(String), arguments: expect.any(Object) });
        }
      });
    }
    // Parallel calls: one function_call holding a list, one observation with both results.
    const e5 = all[4]?.conversations;
    expect(JSON.parse(e5?.[1]?.value ?? "null")).toEqual([{ name: "getBook", arguments: { bookId: "b1" } }, { name: "getBook", arguments: { bookId: "b2" } }]);
    expect(e5?.[2]?.value.split("\n")).toHaveLength(2);
  });
});

describe("toolalpaca", () => {
  it("writes episode 0's instance exactly as checked by hand, with the toolset's documentation", () => {
    const line = parsed("toolalpaca")[0] as Record<string, unknown>;
    expect(line["Instances"]).toEqual([
      {
        input: DUNE_INSTRUCTION,
        output: "Dune (b1) is by Frank Herbert.",
        intermediate_steps: [
          [
            ["searchBooks", '{"q": "Dune", "limit": 2}', ' I should search the catalogue.\nAction: searchBooks\nAction Input: {"q": "Dune", "limit": 2}'],
            'Status Code: 200. Response: {"items":[{"id":"b1","title":"Dune"},{"id":"b2","title":"Dune Messiah"}]}',
          ],
          [["getBook", '{"bookId": "b1"}', ' Now the details of b1.\nAction: getBook\nAction Input: {"bookId": "b1"}'], 'Status Code: 200. Response: {"id":"b1","title":"Dune","author":"Frank Herbert"}'],
        ],
      },
    ]);
    expect(line["Name"]).toBe("Bookshop");
    expect(line["Category"]).toBe("Shopping");
    expect(line["Link"]).toBe("https://bookshop.example.com/docs");
    expect(line["Introduction"]).toBe("Search the catalogue of a small bookshop and read book details.");
    expect(String(line["Functions"])).toMatch(/^1\. Name: searchBooks/);
    expect(line["Function_Projection"]).toEqual({ searchBooks: ["/books", "get"], getBook: ["/books/{bookId}", "get"], login: ["/auth/login", "post"] });
    expect((line["Function_Description"] as Record<string, string>)["getBook"]).toBe('Get a book\nParameters: {"bookId": "Required. string. The book\'s id. (path parameter)"}');
    const doc = JSON.parse(String(line["Documentation"])) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe("3.0.3");
    expect(Object.keys(doc.paths)).toEqual(["/books", "/books/{bookId}", "/auth/login"]);
  });

  it("writes a question as a getDetails step whose observation is the user's reply", () => {
    const e2 = parsed("toolalpaca")[2] as { Instances: { intermediate_steps: [[string, string, string], string][]; output: string }[] };
    const [ask] = e2.Instances[0]?.intermediate_steps ?? [];
    expect(ask?.[0].slice(0, 2)).toEqual(["getDetails", '{"Question": "What is your password?"}']);
    // The run store wrote the password as the episode's first secret: `[redacted-1]` wherever it appears.
    expect(ask?.[1]).toBe("It is [redacted-1].");
    expect(e2.Instances[0]?.output).toBe("You are signed in as ann@example.com.");
  });
});

describe("apibank", () => {
  it("writes episode 0 exactly as checked by hand", () => {
    const line = parsed("apibank")[0] as { apis: unknown[]; dialogue: string };
    expect(line.dialogue).toBe(
      [
        `User: ${DUNE_INSTRUCTION}`,
        "API-Request: [searchBooks(q='Dune', limit=2)]->{'api_name': 'searchBooks', 'input': {'q': 'Dune', 'limit': 2}, 'output': {'items': [{'id': 'b1', 'title': 'Dune'}, {'id': 'b2', 'title': 'Dune Messiah'}]}, 'exception': None}",
        "API-Request: [getBook(bookId='b1')]->{'api_name': 'getBook', 'input': {'bookId': 'b1'}, 'output': {'id': 'b1', 'title': 'Dune', 'author': 'Frank Herbert'}, 'exception': None}",
        "AI: Dune (b1) is by Frank Herbert.",
      ].join("\n"),
    );
    expect(line.apis[1]).toEqual({ name: "getBook", description: "Get a book", input_parameters: { bookId: { type: "str", description: "The book's id. (path parameter)", required: true } } });
  });

  it("reads back with the API-Bank call parser: the calls and results of the run", () => {
    const all = parsed("apibank") as { dialogue: string }[];
    const read = all.map((l) => parseApiBankDialogue(l.dialogue, TOOLS));
    for (const r of read) expect(r.ok, JSON.stringify(r)).toBe(true);
    const e0 = read[0]?.ok ? read[0].value : [];
    expect(e0.map((t) => t.role)).toEqual(["User", "API", "API", "AI"]);
    const calls = e0.flatMap((t) => (t.role === "API" ? [{ name: t.call.name, arguments: t.call.arguments, result: t.result }] : []));
    expect(calls).toEqual([
      { name: "searchBooks", arguments: { q: "Dune", limit: 2 }, result: { api_name: "searchBooks", input: { q: "Dune", limit: 2 }, output: { items: [{ id: "b1", title: "Dune" }, { id: "b2", title: "Dune Messiah" }] }, exception: null } },
      { name: "getBook", arguments: { bookId: "b1" }, result: { api_name: "getBook", input: { bookId: "b1" }, output: { id: "b1", title: "Dune", author: "Frank Herbert" }, exception: null } },
    ]);
    // A failed call carries its exception; the give-up is the AI's last line.
    const e4 = read[4]?.ok ? read[4].value : [];
    expect(e4[1]).toMatchObject({ role: "API", result: { output: null, exception: "401 Unauthorized: wrong e-mail or password" } });
    expect(e4[2]).toEqual({ role: "AI", text: "GIVE UP: the login failed" });
    // The hostile instruction is plain text in this format.
    expect(read[5]?.ok && read[5].value[0]).toEqual({ role: "User", text: HOSTILE_TEXT });
  });
});

describe("alpaca", () => {
  it("writes episode 0 exactly as checked by hand", () => {
    const line = parsed("alpaca")[0] as Record<string, unknown>;
    expect(line["instruction"]).toBe(DUNE_INSTRUCTION);
    expect(line["input"]).toBe("");
    expect(line["output"]).toBe(
      [
        "Thought: I should search the catalogue.",
        "Action: searchBooks",
        'Action Input: {"q":"Dune","limit":2}',
        `Observation: ${OBS_SEARCH}`,
        "Thought: Now the details of b1.",
        "Action: getBook",
        'Action Input: {"bookId":"b1"}',
        `Observation: ${OBS_BOOK}`,
        "Final Answer: Dune (b1) is by Frank Herbert.",
      ].join("\n"),
    );
    expect(line["history"]).toEqual([]);
    expect(String(line["system"])).toContain("- getBook: Get a book");
  });

  it("puts the rounds before the last user message in history", () => {
    const e2 = parsed("alpaca")[2] as { instruction: string; history: [string, string][] };
    expect(e2.instruction).toBe("It is [redacted-1].");
    expect(e2.history).toEqual([["Sign me in as ann@example.com please.", 'Action: ASK_USER\nAction Input: {"question":"What is your password?"}']]);
  });
});

describe("dpo", () => {
  it("pairs the rejected episodes with accepted ones of the same instruction, then of the same plan", () => {
    expect(results.get("dpo")?.pairs).toEqual({ instruction: 1, plan: 1 });
    const [byInstruction, byPlan] = parsed("dpo") as { prompt: { role: string; content?: string }[]; chosen: unknown[]; rejected: unknown[]; tools: unknown[] }[];
    expect(byInstruction).toEqual({
      prompt: [
        { role: "system", content: SYSTEM },
        { role: "user", content: DUNE_INSTRUCTION },
      ],
      chosen: [
        { role: "assistant", content: "I should search the catalogue.", tool_calls: [{ id: "call_1", type: "function", function: { name: "searchBooks", arguments: '{"q":"Dune","limit":2}' } }] },
        { role: "tool", tool_call_id: "call_1", content: OBS_SEARCH },
        { role: "assistant", content: "Now the details of b1.", tool_calls: [{ id: "call_2", type: "function", function: { name: "getBook", arguments: '{"bookId":"b1"}' } }] },
        { role: "tool", tool_call_id: "call_2", content: OBS_BOOK },
        { role: "assistant", content: "Dune (b1) is by Frank Herbert." },
      ],
      rejected: [
        { role: "assistant", content: "I should search the catalogue.", tool_calls: [{ id: "call_1", type: "function", function: { name: "searchBooks", arguments: '{"q":"Dune"}' } }] },
        { role: "tool", tool_call_id: "call_1", content: '{"status": 200, "body": {"items":[{"id":"b1","title":"Dune"}]}}' },
        { role: "assistant", content: "I found Dune." },
      ],
      tools: OPENAI_TOOLS,
    });
    // By plan: the instructions differ, so the prompt is the chosen episode's and the rejected side starts after its own.
    expect(byPlan?.prompt.at(-1)).toEqual({ role: "user", content: "Sign me in as ann@example.com please." });
    expect(byPlan?.rejected.at(-1)).toEqual({ role: "assistant", content: "GIVE UP: the login failed" });
  });
});
