import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { LlmResponder, curlRequest, executorPrompt, parseExecutorAnswer, promptTokens, pythonJsonDumps, toolAlpacaExecutorPrompt, type LlmAnswerCache } from "../../../agents/executor/llm-responder.js";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import { schemaResponder } from "../../../specs/respond/schema-responder.js";
import { simulateCall, type ToolCall } from "../../../specs/call/simulate-call.js";
import { stateResponder } from "../../../specs/respond/state-responder.js";
import { validateCall } from "../../../specs/call/validate-call.js";
import { startOpenAIServer, type OpenAIServer, type Script, type ScriptedReply } from "../../support/openai-server.js";
import { chatModelOn, fixtureCatalog, messagesOf, promptOf } from "../../support/llm-agent-fixtures.js";

let forecast: Catalog;
let library: Catalog;
let server: OpenAIServer | undefined;

beforeAll(async () => {
  forecast = await fixtureCatalog("forecast");
  library = await fixtureCatalog("library");
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PARIS = { city: "Paris", days: [{ date: "2025-06-01", high: 24.5, low: 14 }, { date: "2025-06-02", high: 22, low: 13.5 }] };
const text = (content: string): ScriptedReply => ({ kind: "text", content });

async function setUp(script: Script | ScriptedReply[], options: Partial<ConstructorParameters<typeof LlmResponder>[0]> = {}): Promise<LlmResponder> {
  server = await startOpenAIServer(script);
  return new LlmResponder({ model: chatModelOn(server), ...options });
}

function call(catalog: Catalog, responder: LlmResponder, c: ToolCall, state = new ResourceStore(), withState = true) {
  return simulateCall(catalog, c, { seed: 1, state, stages: { responders: withState ? [stateResponder, responder, schemaResponder] : [responder, schemaResponder] } });
}

const weather: ToolCall = { name: "getWeatherForecast", arguments: { city: "Paris", days: 2 } };

describe("LlmResponder through ChatOpenAI", () => {
  it("answers a call with the model's valid body (code fences and prose tolerated)", async () => {
    const responder = await setUp([text(`Sure, here is the response:\n\`\`\`json\n${JSON.stringify({ status: 200, body: PARIS })}\n\`\`\`\nHope it helps.`)]);
    const result = await call(forecast, responder, weather);
    expect(result.source).toBe("llm");
    expect(result.status).toBe(200);
    expect(result.body).toEqual(PARIS);
    expect(result.notes).toEqual(["llm"]);
    expect(result.responseErrors).toEqual([]);
    expect(server?.requests).toHaveLength(1);
  });

  it("sends only the called operation's slice of the spec", async () => {
    const responder = await setUp([text(JSON.stringify({ status: 200, body: PARIS }))]);
    await call(forecast, responder, weather);
    const prompt = promptOf(server?.requests[0]);
    expect(prompt).toContain("GET /forecast");
    expect(prompt).toContain("Request: GET /forecast?city=Paris&days=2");
    expect(prompt).toContain('"required":["date","high","low"]');
    // Other operations of the same spec are not in the prompt.
    expect(prompt).not.toContain("/places");
    expect(prompt).not.toContain("/air-quality");
    expect(prompt).not.toContain("findPlaces");
    expect(messagesOf(server?.requests[0]).map((m) => m.role)).toEqual(["system", "user"]);
  });

  it("repairs an invalid body by re-prompting once with the validation errors", async () => {
    const responder = await setUp([
      text(JSON.stringify({ status: 200, body: { city: "Paris", days: [{ date: "2025-06-01", high: "warm" }] } })),
      text(JSON.stringify({ status: 200, body: PARIS })),
    ]);
    const result = await call(forecast, responder, weather);
    expect(server?.requests).toHaveLength(2);
    const repair = messagesOf(server?.requests[1]);
    expect(repair.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(repair[3]?.content).toMatch(/not valid/);
    expect(repair[3]?.content).toMatch(/high/);
    expect(repair[3]?.content).toMatch(/low/);
    expect(result.source).toBe("llm");
    expect(result.notes).toEqual(["llm (repaired)"]);
    expect(result.body).toEqual(PARIS);
    expect(result.responseErrors).toEqual([]);
  });

  it("replaces garbage by the schema responder's answer, with a note", async () => {
    const responder = await setUp([text("I am sorry, I cannot simulate this API."), text("still no JSON here")]);
    const result = await call(forecast, responder, weather);
    expect(server?.requests).toHaveLength(2);
    expect(result.source).toBe("schema");
    expect(result.notes[0]).toBe("llm answer invalid: replaced by schema");
    expect(result.notes.join("\n")).toMatch(/no JSON value found/);
    expect(result.responseErrors).toEqual([]);
    expect(result.status).toBe(200);
  });

  it("replaces an answer when the endpoint fails (500), without crashing", async () => {
    const responder = await setUp([{ kind: "status", status: 500 }]);
    const result = await call(forecast, responder, weather);
    expect(result.source).toBe("schema");
    expect(result.notes[0]).toBe("llm answer invalid: replaced by schema");
    expect(result.notes[1]).toMatch(/^llm unavailable/);
    expect(result.responseErrors).toEqual([]);
  });

  it("throws on endpoint failures when told to", async () => {
    const responder = await setUp([{ kind: "status", status: 500 }], { onModelError: "throw" });
    await expect(call(forecast, responder, weather)).rejects.toThrow();
  });

  it("gives the same normalized call the same answer within an episode (one request to the server)", async () => {
    const OTHER = { ...PARIS, days: [{ date: "2025-06-01", high: 19, low: 11 }, { date: "2025-06-02", high: 18, low: 10.5 }] };
    const responder = await setUp([text(JSON.stringify({ status: 200, body: PARIS })), text(JSON.stringify({ status: 200, body: OTHER }))]);
    const state = new ResourceStore();
    const first = await call(forecast, responder, weather, state);
    // The same call with the arguments written differently (string number, other key order, padded text).
    const second = await call(forecast, responder, { name: "getWeatherForecast", arguments: JSON.stringify({ days: "2", city: "Paris " }) }, state);
    expect(server?.requests).toHaveLength(1);
    expect(second.body).toEqual(first.body);
    expect(second.notes).toContain("llm cache hit");
    // Another episode (another state store) asks again.
    const other = await call(forecast, responder, weather, new ResourceStore());
    expect(server?.requests).toHaveLength(2);
    expect(other.body).toEqual(OTHER);
  });

  it("shares answers across the run when a run cache is given", async () => {
    const shared: LlmAnswerCache = new Map();
    const responder = await setUp([text(JSON.stringify({ status: 200, body: PARIS }))], { runCache: shared });
    await call(forecast, responder, weather, new ResourceStore());
    const again = await call(forecast, responder, weather, new ResourceStore());
    expect(server?.requests).toHaveLength(1);
    expect(again.body).toEqual(PARIS);
    expect(shared.size).toBe(1);
  });

  it("dedupes identical calls in flight at the same time", async () => {
    server = await startOpenAIServer([text(JSON.stringify({ status: 200, body: PARIS }))], { latencyMs: 50 });
    const responder = new LlmResponder({ model: chatModelOn(server) });
    const state = new ResourceStore();
    const [a, b] = await Promise.all([call(forecast, responder, weather, state), call(forecast, responder, weather, state)]);
    expect(server.requests).toHaveLength(1);
    expect(a.body).toEqual(b.body);
  });

  it("checks a valid answer against the call's bindings: repairs with the contradiction named, then corrects it", async () => {
    const madrid = { ...PARIS, city: "Madrid" };
    const repaired = await setUp([text(JSON.stringify({ status: 200, body: madrid })), text(JSON.stringify({ status: 200, body: PARIS }))]);
    const first = await call(forecast, repaired, weather);
    expect(first.body).toEqual(PARIS);
    expect(first.notes).toContain("llm (repaired)");
    const feedback = messagesOf(server?.requests[1]).at(-1)?.content ?? "";
    expect(feedback).toContain("the answer contradicts the request");
    expect(feedback).toContain('field city is "Madrid" where argument city is "Paris"');
    // The prompt says what the answer must agree with.
    expect(promptOf(server?.requests[0])).toContain("city -> city (equals)");
    await server?.close();
    // Still contradicting after the repair: corrected where the bindings say how (the city), the rest kept.
    const stubborn = await setUp([text(JSON.stringify({ status: 200, body: madrid })), text(JSON.stringify({ status: 200, body: madrid }))]);
    const second = await call(forecast, stubborn, weather);
    expect(second.source).toBe("llm");
    expect(second.body).toEqual(PARIS);
    expect(second.notes).toContain("llm (corrected to agree with the request)");
  });

  it("does not share replaced answers across the run", async () => {
    const responder = await setUp([text("garbage"), text("garbage"), text(JSON.stringify({ status: 200, body: PARIS }))], { runCache: true });
    const first = await call(forecast, responder, weather, new ResourceStore());
    expect(first.source).toBe("schema");
    const second = await call(forecast, responder, weather, new ResourceStore());
    expect(second.source).toBe("llm");
    expect(server?.requests).toHaveLength(3);
  });

  it("puts the state of the collection a CRUD call reads in the prompt", async () => {
    const dune = { id: "bk-0001", title: "Dune", author: "Frank Herbert", year: 1965, available: true };
    const state = ResourceStore.fromFixtures({ "/books": [dune, { id: "bk-0002", title: "Dune Messiah", author: "Frank Herbert", year: 1969 }] });
    const responder = await setUp([text(JSON.stringify({ status: 200, body: dune }))]);
    const result = await call(library, responder, { name: "getBook", arguments: { bookId: "bk-0001" } }, state, false);
    expect(result.source).toBe("llm");
    const prompt = promptOf(server?.requests[0]);
    expect(prompt).toContain('Item bk-0001: {"id":"bk-0001","title":"Dune"');
    expect(prompt).toContain("Dune Messiah");
    expect(prompt).toContain("GET /books/{bookId}");
    expect(prompt).not.toContain("/loans");
  });

  it("passes operations without a JSON response schema to the next responder", async () => {
    const responder = await setUp([text("{}")]);
    const state = ResourceStore.fromFixtures({ "/books": [{ id: "bk-0001", title: "Dune", author: "Frank Herbert" }] });
    const result = await call(library, responder, { name: "removeBook", arguments: { bookId: "bk-0001" } }, state, false);
    expect(result.source).toBe("schema");
    expect(server?.requests).toHaveLength(0);
  });

  it("accepts a documented error status when the model gives one", async () => {
    const responder = await setUp([text(JSON.stringify({ status: 404, body: { message: "no such book" } }))]);
    const result = await call(library, responder, { name: "getBook", arguments: { bookId: "bk-0099" } }, new ResourceStore(), false);
    expect(result.status).toBe(404);
    expect(result.source).toBe("llm");
  });
});

describe("executor answers and prompts", () => {
  it("parses envelopes, bare bodies and ToolAlpaca's Status Code / Response / Explanation text", () => {
    expect(parseExecutorAnswer('{"status": 201, "body": {"a": 1}}', 200)).toEqual({ ok: true, status: 201, body: { a: 1 } });
    expect(parseExecutorAnswer('{"status_code": "200 OK", "response": [1, 2]}', 200)).toEqual({ ok: true, status: 200, body: [1, 2] });
    expect(parseExecutorAnswer('{"city": "Paris"}', 200)).toEqual({ ok: true, status: 200, body: { city: "Paris" } });
    expect(parseExecutorAnswer('Status Code: 404\nResponse: {"error": "not found"}\nExplanation: the {id} is unknown.', 200)).toEqual({ ok: true, status: 404, body: { error: "not found" } });
    expect(parseExecutorAnswer('```\n{"status": 200, "body": {"x": [1, 2,],},}\n```', 200)).toEqual({ ok: true, status: 200, body: { x: [1, 2] } });
    expect(parseExecutorAnswer("nothing", 200).ok).toBe(false);
  });

  it("builds a prompt far smaller than ToolAlpaca's whole-spec prompt, counted with a real tokenizer", () => {
    const checked = validateCall(forecast, "getWeatherForecast", { city: "Paris", days: 2 });
    if (!checked.ok) throw new Error("invalid call");
    const prompt = executorPrompt({ catalog: forecast, call: checked.value, seed: 0, state: new ResourceStore() });
    const original = toolAlpacaExecutorPrompt("Sky Forecast", forecast.spec.document, curlRequest(checked.value.request, "https://api.sky.example"));
    expect(original).toContain("/air-quality");
    expect(original).toContain("curl -X GET https://api.sky.example/forecast?city=Paris&days=2");
    const ours = promptTokens([{ content: prompt.system }, { content: prompt.user }]);
    const theirs = promptTokens([{ content: original }]);
    expect(ours).toBeGreaterThan(50);
    expect(ours).toBeLessThan(theirs);
    expect(promptTokens("hello world")).toBe(2);
    expect(promptTokens("hello world", "o200k_base")).toBe(2);
  });

  it("serializes like Python's json.dumps", () => {
    expect(pythonJsonDumps({ a: [1, "é"], b: { c: null, d: true } })).toBe('{"a": [1, "\\u00e9"], "b": {"c": null, "d": true}}');
  });

  it("leaves credentials out of the prompt", () => {
    const checked = validateCall(forecast, "getWeatherForecast", { city: "Paris" });
    if (!checked.ok) throw new Error("invalid call");
    const call = { ...checked.value, request: { ...checked.value.request, query: { ...checked.value.request.query, api_key: "sk-secret-123" } } };
    const prompt = executorPrompt({ catalog: forecast, call, seed: 0, state: new ResourceStore() });
    expect(prompt.user).not.toContain("sk-secret-123");
  });
});
