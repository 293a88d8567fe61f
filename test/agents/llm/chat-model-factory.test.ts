/**
 * Base URLs with a query (Azure-style `?api-version=...`): the OpenAI client appends the request path to the
 * base URL as text, so the query has to travel as the client's `defaultQuery`. Checked through the real
 * ChatOpenAI against the local OpenAI-protocol server.
 */
import { HumanMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { createChatModel, endpointUrl, splitBaseUrl } from "../../../agents/llm/chat-model-factory.js";
import { parseModelSpec, type ModelSpec } from "../../../agents/llm/model-spec.js";
import { startOpenAIServer, type OpenAIServer } from "../../support/openai-server.js";

const KEY = "sk-factory-test-0123456789abcdef";

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function specFor(baseURL: string): ModelSpec {
  const parsed = parseModelSpec("openai:test-model", { baseURL, env: { OPENAI_API_KEY: KEY }, timeoutMs: 5000 });
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join("; "));
  return parsed.value;
}

/** The path and query of every request the server received. */
function received(s: OpenAIServer): { pathname: string; query: Record<string, string> }[] {
  return s.requests.map((r) => {
    const url = new URL(r.path, "http://127.0.0.1");
    return { pathname: url.pathname, query: Object.fromEntries(url.searchParams) };
  });
}

describe("splitBaseUrl / endpointUrl", () => {
  it("moves the query (and drops a fragment) off the base URL", () => {
    expect(splitBaseUrl("http://h:8000/v1")).toEqual({ baseURL: "http://h:8000/v1" });
    expect(splitBaseUrl("https://x.example/openai/deployments/d?api-version=2024-06-01")).toEqual({
      baseURL: "https://x.example/openai/deployments/d",
      query: { "api-version": "2024-06-01" },
    });
    expect(splitBaseUrl("http://h/v1/?api-key=a%20b&x=1#top")).toEqual({ baseURL: "http://h/v1", query: { "api-key": "a b", x: "1" } });
    expect(splitBaseUrl("http://h/v1?")).toEqual({ baseURL: "http://h/v1" });
    expect(endpointUrl("http://h/v1?api-version=2024-06-01", "/models")).toBe("http://h/v1/models?api-version=2024-06-01");
    expect(endpointUrl("http://h/v1", "models")).toBe("http://h/v1/models");
  });
});

describe("createChatModel with a base URL that has a query", () => {
  it("sends the query with every request, on the right path (chat and tool calls)", async () => {
    server = await startOpenAIServer([
      { kind: "text", content: "one" },
      { kind: "text", content: "two" },
      { kind: "tool-calls", calls: [{ name: "get_weather", arguments: '{"city":"Paris"}' }] },
    ]);
    const spec = specFor(`${server.baseURL}?api-version=2024-06-01&deployment=gpt%204o`);
    expect(spec.baseURL).toContain("?api-version=2024-06-01");
    const chat = createChatModel(spec);
    expect((await chat.invoke([new HumanMessage("hi")])).content).toBe("one");
    expect((await chat.invoke([new HumanMessage("again")])).content).toBe("two");
    const tool = { type: "function" as const, function: { name: "get_weather", description: "Weather.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } };
    const called = await chat.bindTools!([tool]).invoke([new HumanMessage("weather in Paris?")]);
    expect((called as { tool_calls?: { name: string }[] }).tool_calls?.[0]?.name).toBe("get_weather");
    expect(received(server)).toEqual(
      Array.from({ length: 3 }, () => ({ pathname: "/v1/chat/completions", query: { "api-version": "2024-06-01", deployment: "gpt 4o" } })),
    );
    // the key still goes in the header, not the query
    expect(server.requests.every((r) => r.headers["authorization"] === `Bearer ${KEY}`)).toBe(true);
  });

  it("leaves a base URL without a query as it was (no stray '?')", async () => {
    server = await startOpenAIServer([{ kind: "text", content: "ok" }]);
    await createChatModel(specFor(server.baseURL)).invoke([new HumanMessage("hi")]);
    expect(server.requests.map((r) => r.path)).toEqual(["/v1/chat/completions"]);
  });
});
