import { describe, expect, it } from "vitest";
import type { AssistantToolCall, DialogueMessage } from "../../../agents/roles/dialogue.js";
import {
  answerTokens,
  checkExecution,
  checkFormat,
  checkGrounding,
  checkPlan,
  RuleTester,
  valueAt,
  valuesMatch,
} from "../../../agents/tester/offline-tester.js";
import type { Plan } from "../../../agents/roles/plan.js";
import type { CallRecord, EpisodeEnd, EpisodeTranscript } from "../../../agents/roles/roles.js";
import type { ToolResult } from "../../../specs/call/tool-result.js";

// ------------------------------------------------------------------------------------------ builders

function result(tool: string, body: unknown, extra: Partial<ToolResult> = {}): ToolResult {
  return { tool, status: 200, body, contentType: "application/json", errors: [], responseErrors: [], source: "example", notes: [], ...extra };
}

interface CallSpec {
  id: string;
  name: string;
  args: AssistantToolCall["arguments"];
  result: ToolResult;
  request?: number;
}

/** A transcript from a user instruction, calls (each answered in turn), and a final answer. */
function transcript(opts: { plan: Plan; user?: string[]; calls: CallSpec[]; ends?: EpisodeEnd[]; final?: string }): EpisodeTranscript {
  const dialogue: DialogueMessage[] = [];
  const users = opts.user ?? ["Find the book Dune and tell me its price."];
  dialogue.push({ role: "user", content: users[0] ?? "" });
  for (const u of users.slice(1)) {
    dialogue.push({ role: "assistant", content: "Which one?" });
    dialogue.push({ role: "user", content: u });
  }
  const calls: CallRecord[] = [];
  for (const c of opts.calls) {
    const call: AssistantToolCall = { id: c.id, name: c.name, arguments: c.args };
    dialogue.push({ role: "assistant", content: "", toolCalls: [call] });
    dialogue.push({ role: "tool", toolCallId: c.id, name: c.name, content: JSON.stringify(c.result.body), result: c.result });
    calls.push({ call, result: c.result, request: c.request ?? 0, ...(c.result.source === "route" ? {} : { toolset: "books" }) });
  }
  const ends = opts.ends ?? [{ kind: "final", text: opts.final ?? GOOD_FINAL }];
  for (const e of ends) {
    if (e.kind === "final") dialogue.push({ role: "assistant", content: e.text });
    else dialogue.push({ role: "assistant", content: e.reason });
  }
  return { plan: opts.plan, dialogue, calls, ends };
}

const SEARCH_BODY = { items: [{ id: "bk_7", title: "Dune", author: "Frank Herbert", price: 9.99 }, { id: "bk_8", title: "Emma", author: "Jane Austen", price: 4.5 }], total: 2 };
const BOOK_BODY = { id: "bk_7", title: "Dune", author: "Frank Herbert", price: 9.99, published: "1965-08-01", isbn: "978-0441013593", link: "https://books.example.com/bk_7" };
const GOOD_FINAL = 'Dune (id bk_7) by Frank Herbert costs $9.99; it was published on August 1, 1965. See https://books.example.com/bk_7 or the ISBN "978-0441013593".';

const PLAN: Plan = {
  requests: [
    {
      steps: [
        { toolset: "books", tool: "search_books", args: { q: "Dune" }, links: [] },
        { toolset: "books", tool: "get_book", args: { id: "bk_placeholder" }, links: [{ arg: "id", fromStep: 0, field: "items.0.id" }] },
      ],
      withheld: [],
      style: "imperative",
    },
  ],
};

const GOOD_CALLS: CallSpec[] = [
  { id: "c1", name: "search_books", args: { q: "dune" }, result: result("search_books", SEARCH_BODY) },
  { id: "c2", name: "get_book", args: { id: "bk_7" }, result: result("get_book", BOOK_BODY) },
];

const good = (): EpisodeTranscript => transcript({ plan: PLAN, calls: GOOD_CALLS });

async function judge(t: EpisodeTranscript) {
  return new RuleTester().judge(t);
}

// ------------------------------------------------------------------------------------------ tests

describe("RuleTester", () => {
  it("accepts a well-formed, valid, grounded episode that achieves its plan", async () => {
    const v = await judge(good());
    expect(v.stages.map((s) => [s.stage, s.pass, s.reasons])).toEqual([
      ["format", true, []],
      ["execution", true, []],
      ["consistency", true, []],
      ["grounding", true, []],
      ["plan", true, []],
    ]);
    expect(v.accepted).toBe(true);
    expect(v.failedStage).toBeUndefined();
  });

  it("names the first failed stage and still records every stage", async () => {
    const t = transcript({ plan: PLAN, calls: [GOOD_CALLS[0] as CallSpec], final: "Dune costs $12.99." });
    const v = await judge(t);
    expect(v.accepted).toBe(false);
    expect(v.failedStage).toBe("grounding");
    expect(v.stages.map((s) => s.pass)).toEqual([true, true, true, false, false]);
  });

  it("turns a crashing stage into a reason", () => {
    const v = new RuleTester({ execution: () => { throw new Error("boom"); } }).judgeNow(good());
    expect(v.failedStage).toBe("execution");
    expect(v.stages[1]?.reasons).toEqual(['the execution check crashed: "boom"']);
  });
});

describe("format stage", () => {
  it("passes a good episode", () => {
    expect(checkFormat(good())).toEqual([]);
  });

  it("rejects empty messages, nameless calls and non-object arguments", () => {
    const t = transcript({
      plan: PLAN,
      calls: [
        { id: "c1", name: "", args: { q: "dune" }, result: result("", SEARCH_BODY) },
        { id: "c2", name: "get_book", args: "not json", result: result("get_book", BOOK_BODY) },
        { id: "c3", name: "get_book", args: "[1,2]", result: result("get_book", BOOK_BODY) },
      ],
    });
    const dialogue = [...t.dialogue];
    dialogue.splice(1, 0, { role: "user", content: "   " }, { role: "assistant", content: "" });
    const reasons = checkFormat({ ...t, dialogue });
    expect(reasons).toEqual([
      "dialogue[1]: empty user message",
      "dialogue[2]: empty assistant message (no text and no tool calls)",
      'dialogue[3]: tool call "c1" has no name',
      'dialogue[5]: tool call "get_book" arguments are not valid JSON ("not json")',
      'dialogue[7]: tool call "get_book" arguments are JSON array, not an object',
    ]);
  });

  it("accepts arguments given as a JSON object string", () => {
    const t = transcript({ plan: PLAN, calls: [{ ...(GOOD_CALLS[0] as CallSpec), args: '{"q":"dune"}' }, GOOD_CALLS[1] as CallSpec] });
    expect(checkFormat(t)).toEqual([]);
    expect(checkPlan(t)).toEqual([]);
  });

  it("rejects calls without results, results without calls, and a dialogue that starts with the assistant", () => {
    const t = good();
    const dialogue: DialogueMessage[] = [
      { role: "assistant", content: "Hello!" },
      ...t.dialogue.filter((m) => !(m.role === "tool" && m.toolCallId === "c2")),
      { role: "tool", toolCallId: "zz", name: "get_book", content: "{}", result: result("get_book", {}) },
    ];
    expect(checkFormat({ ...t, dialogue })).toEqual([
      'the dialogue starts with a "assistant" message, not a user message',
      'dialogue[6]: tool result "get_book" answers unknown call id "zz"',
      'dialogue[4]: tool call "c2" got no result',
    ]);
  });

  it("requires a non-empty final answer for every request, and no error end", () => {
    const twoRequests: Plan = { requests: [PLAN.requests[0] as Plan["requests"][number], { steps: [], withheld: [], style: "question" }] };
    expect(checkFormat(transcript({ plan: twoRequests, calls: GOOD_CALLS }))).toEqual([
      "requests[1]: the dialogue stops before this request ends (no final answer)",
    ]);
    expect(checkFormat(transcript({ plan: PLAN, calls: GOOD_CALLS, ends: [{ kind: "final", text: "  " }] }))).toEqual([
      "dialogue[5]: empty assistant message (no text and no tool calls)",
      "requests[0]: the final answer is empty",
    ]);
    expect(checkFormat(transcript({ plan: PLAN, calls: GOOD_CALLS, ends: [{ kind: "error", reason: "model timeout" }] }))).toEqual([
      'requests[0]: the episode broke off with an error: "model timeout"',
    ]);
  });

  it("lets a give-up through (the plan stage rejects it)", async () => {
    const t = transcript({ plan: PLAN, calls: GOOD_CALLS, ends: [{ kind: "give-up", reason: "no tool fits" }] });
    expect(checkFormat(t)).toEqual([]);
    const v = await judge(t);
    expect(v.failedStage).toBe("plan");
    expect(v.stages.find((s) => s.stage === "plan")?.reasons).toEqual(['requests[0] was not answered: the assistant gave up ("no tool fits")']);
    const twoRequests: Plan = { requests: [PLAN.requests[0] as Plan["requests"][number], { steps: [], withheld: [], style: "question" }] };
    const early = transcript({ plan: twoRequests, calls: GOOD_CALLS, ends: [{ kind: "give-up", reason: "no tool fits" }] });
    expect(checkFormat(early)).toEqual([]);
    expect(checkPlan(early)).toEqual([
      'requests[0] was not answered: the assistant gave up ("no tool fits")',
      "requests[1] was never reached (the dialogue stopped at requests[0])",
    ]);
    const budget = transcript({ plan: PLAN, calls: GOOD_CALLS, ends: [{ kind: "budget", reason: "12 steps" }] });
    expect(checkPlan(budget)).toEqual(['requests[0] was not answered: the step budget ran out ("12 steps")']);
  });
});

describe("execution stage", () => {
  const problem = (status: number, extra: Record<string, unknown> = {}) => ({ type: "about:blank", status, title: "Bad", detail: "bad", ...extra });

  it("rejects an invented tool and names the nearest ones", () => {
    const t = transcript({
      plan: PLAN,
      calls: [
        { id: "c0", name: "find_book", args: { q: "dune" }, result: result("find_book", problem(404, { suggestions: ["search_books", "get_book"] }), { status: 404, source: "route" }) },
        ...GOOD_CALLS,
      ],
    });
    expect(checkExecution(t)).toEqual(['calls[0] "find_book": unknown tool (nearest: "search_books", "get_book")']);
  });

  it("accepts an invalid call followed by a corrected retry of the same tool", () => {
    const invalid = result("search_books", problem(422), {
      status: 422,
      source: "validation",
      errors: [{ location: ["query", "q"], code: "required", message: "must have required property 'q'", severity: "Error" }],
    });
    const retried = transcript({ plan: PLAN, calls: [{ id: "c0", name: "search_books", args: {}, result: invalid }, ...GOOD_CALLS] });
    expect(checkExecution(retried)).toEqual([]);
    const stays = transcript({ plan: PLAN, calls: [...GOOD_CALLS, { id: "c9", name: "search_books", args: {}, result: invalid }] });
    expect(checkExecution(stays)).toEqual([`calls[2] "search_books" stays invalid (no corrected retry): query.q: must have required property 'q'`]);
  });

  it("rejects an argument whose name says what it holds when it holds no such thing", () => {
    const call = (code: string): CallSpec => ({ id: "c1", name: "search_airports", args: { airport_name: "Lisbon Portela", country_code: code }, result: result("search_airports", { items: [] }) });
    expect(checkExecution(transcript({ plan: PLAN, calls: [call("PT")] }))).toEqual([]);
    expect(checkExecution(transcript({ plan: PLAN, calls: [call("Busy Suspension")] }))).toEqual([
      'calls[0] "search_airports": argument country_code "Busy Suspension" is not a country',
    ]);
  });

  it("rejects a read answered 200 without content, not a write or a 204", () => {
    const op = (method: "get" | "post" | "delete"): Partial<ToolResult> => ({ operation: { pointer: "/paths/~1x", method, path: "/x" } });
    const empty = (name: string, method: "get" | "post" | "delete", body: unknown, status = 200): CallSpec => ({ id: "c1", name, args: {}, result: result(name, body, { status, source: "schema", ...op(method) }) });
    expect(checkExecution(transcript({ plan: PLAN, calls: [empty("nearby_search", "get", null)] }))).toEqual([
      'calls[0] "nearby_search": a read answered 200 without content, so the answer rests on nothing',
    ]);
    expect(checkExecution(transcript({ plan: PLAN, calls: [empty("nearby_search", "get", undefined)] }))).toHaveLength(1);
    expect(checkExecution(transcript({ plan: PLAN, calls: [empty("nearby_search", "get", { items: [] })] }))).toEqual([]);
    expect(checkExecution(transcript({ plan: PLAN, calls: [empty("cancel_ride", "post", null)] }))).toEqual([]);
    expect(checkExecution(transcript({ plan: PLAN, calls: [empty("delete_ride", "delete", null, 204)] }))).toEqual([]);
  });

  it("rejects an episode whose calls all failed", () => {
    const t = transcript({
      plan: PLAN,
      calls: [
        { id: "c1", name: "search_books", args: { q: "dune" }, result: result("search_books", problem(503), { status: 503 }) },
        { id: "c2", name: "get_book", args: { id: "bk_7" }, result: result("get_book", problem(404), { status: 404 }) },
      ],
    });
    expect(checkExecution(t)).toEqual(["all 2 calls failed (statuses 503, 404)"]);
  });

  it("rejects a response body that does not match its schema", () => {
    const bad = result("get_book", { ...BOOK_BODY, price: "cheap" }, {
      responseErrors: [{ location: ["body", "price"], code: "type", message: "must be number", severity: "Error" }],
    });
    const t = transcript({ plan: PLAN, calls: [GOOD_CALLS[0] as CallSpec, { id: "c2", name: "get_book", args: { id: "bk_7" }, result: bad }] });
    expect(checkExecution(t)).toEqual(['calls[1] "get_book": response does not match its schema: body.price: must be number']);
  });
});

describe("grounding stage", () => {
  it("passes values found in observations, user messages or by rounding", () => {
    const t = transcript({
      plan: PLAN,
      user: ["Find Dune for my friend Marguerite in Lyon."],
      calls: GOOD_CALLS,
      final: "Marguerite in Lyon can buy Dune for about $10 (rated 2 of 2 results, status 200); Emma costs 4.50. 75% sure.",
    });
    expect(checkGrounding(t)).toEqual(["requests[0] final answer: number \"75%\" appears in no observation or user message"]);
  });

  it("reports each ungrounded value with its kind", () => {
    const t = transcript({
      plan: PLAN,
      calls: GOOD_CALLS,
      final:
        'Dune by J. R. R. Tolkien (id bk_99) costs $12.99, published on 1970-01-02 at 10:30. Mail orders@shop.example or visit https://evil.example/x. Its tagline is "spice must flow".',
    });
    expect(checkGrounding(t)).toEqual([
      'requests[0] final answer: url "https://evil.example/x" appears in no observation or user message',
      'requests[0] final answer: email "orders@shop.example" appears in no observation or user message',
      'requests[0] final answer: quoted string "spice must flow" appears in no observation or user message',
      'requests[0] final answer: date "1970-01-02" appears in no observation or user message',
      'requests[0] final answer: time "10:30" appears in no observation or user message',
      'requests[0] final answer: id "bk_99" appears in no observation or user message',
      'requests[0] final answer: number "$12.99" appears in no observation or user message',
      'requests[0] final answer: name "Tolkien" appears in no observation or user message',
    ]);
  });

  it("extracts the values a final answer asserts", () => {
    expect(answerTokens("Here are 3 results:\n1. Dune (bk_7), 21.5°C on May 3, 2024 for USD.")).toEqual([
      { kind: "date", text: "2024-05-03" },
      { kind: "id", text: "bk_7" },
      { kind: "number", text: "3" },
      { kind: "number", text: "21.5" },
      { kind: "name", text: "USD" },
    ]);
  });

  it("checks nothing for an episode without a final answer", () => {
    const t = transcript({ plan: PLAN, calls: GOOD_CALLS, ends: [{ kind: "give-up", reason: "Tolkien 42" }] });
    expect(checkGrounding(t)).toEqual([]);
  });
});

describe("plan stage", () => {
  it("passes with normalized values: case, whitespace, numeric strings", () => {
    const plan: Plan = {
      requests: [{ steps: [{ toolset: "books", tool: "search_books", args: { q: "Dune Messiah", limit: 3, inStock: true }, links: [] }], withheld: [], style: "question" }],
    };
    // An argument the plan does not name is fine when the dialogue or an observation gives its value (Frank Herbert).
    const t = transcript({ plan, calls: [{ id: "c1", name: "search_books", args: { q: "  dune   MESSIAH ", limit: "3", inStock: "true", author: "frank herbert" }, result: result("search_books", SEARCH_BODY) }] });
    expect(checkPlan(t)).toEqual([]);
  });

  it("rejects an argument the plan does not ask for whose value nobody gave, and a change the plan does not ask for", () => {
    const invented = transcript({
      plan: PLAN,
      calls: [{ id: "c1", name: "search_books", args: { q: "Dune", language: "Klingon" }, result: result("search_books", SEARCH_BODY) }, GOOD_CALLS[1] as CallSpec],
    });
    expect(checkPlan(invented)).toEqual(['requests[0] calls[0] "search_books" has "language" = "Klingon", which the plan does not ask for and no message or observation gives']);
    // A read of another tool (a search that finds an id) is harmless; a write is not.
    const read = { id: "c3", name: "list_shelves", args: {}, result: result("list_shelves", { items: [] }, { operation: { operationId: "list_shelves", method: "get", path: "/shelves", pointer: "/paths/~1shelves/get" } }) };
    const write = { id: "c4", name: "delete_book", args: { id: "bk_7" }, result: result("delete_book", null, { status: 204, operation: { operationId: "delete_book", method: "delete", path: "/books/{id}", pointer: "/paths/~1books~1{id}/delete" } }) };
    expect(checkPlan(transcript({ plan: PLAN, calls: [...GOOD_CALLS, read] }))).toEqual([]);
    expect(checkPlan(transcript({ plan: PLAN, calls: [...GOOD_CALLS, write] }))).toEqual(['requests[0] calls[2] "delete_book" is not in the plan and changes something (DELETE)']);
  });

  it("rejects a step that was never called or never succeeded", () => {
    expect(checkPlan(transcript({ plan: PLAN, calls: [GOOD_CALLS[0] as CallSpec] }))).toEqual(['requests[0] steps[1] "get_book": never called']);
    const failed = transcript({
      plan: PLAN,
      calls: [GOOD_CALLS[0] as CallSpec, { id: "c2", name: "get_book", args: { id: "bk_7" }, result: result("get_book", { title: "Not found" }, { status: 404 }) }],
    });
    expect(checkPlan(failed)).toEqual(['requests[0] steps[1] "get_book": no successful call (calls[1] status 404)']);
  });

  it("rejects an argument that differs from the plan, naming the value", () => {
    const t = transcript({ plan: PLAN, calls: [{ id: "c1", name: "search_books", args: { q: "Emma" }, result: result("search_books", SEARCH_BODY) }, GOOD_CALLS[1] as CallSpec] });
    expect(checkPlan(t)).toEqual([
      'requests[0] steps[0] "search_books": calls[0] has "q" = "Emma" where the plan wants "Dune"',
      'requests[0] steps[1] "get_book": cannot check link "id": steps[0] was not achieved',
    ]);
    const missing = transcript({ plan: PLAN, calls: [{ id: "c1", name: "search_books", args: {}, result: result("search_books", SEARCH_BODY) }, GOOD_CALLS[1] as CallSpec] });
    expect(checkPlan(missing)[0]).toBe('requests[0] steps[0] "search_books": calls[0] lacks "q" (plan: "Dune")');
  });

  it("checks a linked argument against the earlier step's actual result", () => {
    const t = transcript({ plan: PLAN, calls: [GOOD_CALLS[0] as CallSpec, { id: "c2", name: "get_book", args: { id: "bk_8" }, result: result("get_book", BOOK_BODY) }] });
    expect(checkPlan(t)).toEqual(['requests[0] steps[1] "get_book": calls[1] has "id" = "bk_8" but the result of calls[0] (steps[0]) has "bk_7" at "items.0.id"']);
    const noField = transcript({
      plan: PLAN,
      calls: [{ id: "c1", name: "search_books", args: { q: "dune" }, result: result("search_books", { items: [] }) }, GOOD_CALLS[1] as CallSpec],
    });
    expect(checkPlan(noField)).toEqual(['requests[0] steps[1] "get_book": field "items.0.id" is missing from the result of calls[0] (steps[0])']);
    const unreached = transcript({ plan: PLAN, calls: [{ id: "c1", name: "search_books", args: { q: "emma" }, result: result("search_books", SEARCH_BODY) }, GOOD_CALLS[1] as CallSpec] });
    expect(checkPlan(unreached)).toEqual([
      'requests[0] steps[0] "search_books": calls[0] has "q" = "emma" where the plan wants "Dune"',
      'requests[0] steps[1] "get_book": cannot check link "id": steps[0] was not achieved',
    ]);
  });

  it("requires withheld values to have been obtained from the user", () => {
    const plan: Plan = {
      requests: [{ steps: [{ toolset: "books", tool: "search_books", args: { q: "Dune", shop: "Lyon" }, links: [] }], withheld: ["0:shop"], style: "first-person" }],
    };
    const guessed = transcript({ plan, calls: [{ id: "c1", name: "search_books", args: { q: "dune", shop: "Paris" }, result: result("search_books", SEARCH_BODY) }] });
    expect(checkPlan(guessed)).toEqual(['requests[0] steps[0] "search_books": withheld "shop" was not obtained (calls[0] has "Paris"; the user holds "Lyon")']);
    const skipped = transcript({ plan, calls: [{ id: "c1", name: "search_books", args: { q: "dune" }, result: result("search_books", SEARCH_BODY) }] });
    expect(checkPlan(skipped)).toEqual(['requests[0] steps[0] "search_books": withheld "shop" was not obtained (calls[0] lacks it; the user holds "Lyon")']);
    const asked = transcript({ plan, user: ["Find Dune.", "In Lyon."], calls: [{ id: "c1", name: "search_books", args: { q: "dune", shop: "lyon" }, result: result("search_books", SEARCH_BODY) }] });
    expect(checkPlan(asked)).toEqual([]);
  });

  it("matches steps per request", () => {
    const plan: Plan = {
      requests: [
        { steps: [{ toolset: "books", tool: "search_books", args: { q: "Dune" }, links: [] }], withheld: [], style: "question" },
        { steps: [{ toolset: "books", tool: "get_book", args: { id: "bk_7" }, links: [] }], withheld: [], style: "question" },
      ],
    };
    const t = transcript({
      plan,
      calls: [
        { ...(GOOD_CALLS[0] as CallSpec), request: 0 },
        { ...(GOOD_CALLS[1] as CallSpec), request: 0 },
      ],
      ends: [{ kind: "final", text: "Dune." }, { kind: "final", text: "Dune." }],
    });
    expect(checkPlan(t)).toEqual(['requests[1] steps[0] "get_book": never called']);
  });

  it("compares values and reads fields", () => {
    expect(valuesMatch(["a", "b"], "A, b")).toBe(true);
    expect(valuesMatch({ city: "Paris" }, { city: " paris ", zip: 75 })).toBe(true);
    expect(valuesMatch(12, "12.0")).toBe(true);
    expect(valuesMatch("12", 13)).toBe(false);
    // A text of several words with or without its final full stop; a word's own dot counts.
    expect(valuesMatch("Implemented logistical challenge.", "Implemented logistical challenge")).toBe(true);
    expect(valuesMatch("apis.guru", "apis")).toBe(false);
    expect(valuesMatch("Dr.", "Dr")).toBe(false);
    expect(valueAt({ items: [{ id: 5 }] }, "items[0].id")).toEqual({ found: true, value: 5 });
    expect(valueAt('{"items":[{"id":5}]}', "/items/0/id")).toEqual({ found: true, value: 5 });
    expect(valueAt({ items: [] }, "items.0.id")).toEqual({ found: false });
  });
});
