import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  Cassette,
  containsSecret,
  messageFromResponse,
  normalizeRequest,
  redactSecretsDeep,
  requestKey,
  responseFromMessage,
  type CassetteEntry,
} from "../../../agents/llm/cassette.js";
import { ToolsimError } from "../../../specs/toolsim-error.js";
import { redactModelText, redactUrl, urlSecrets } from "../../../agents/llm/model-spec.js";

const KEY = "sk-cassette-test-SECRET-00112233445566";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "toolsim-cassette-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function entry(key: string, content: string, extra: Partial<CassetteEntry> = {}): CassetteEntry {
  return {
    key,
    occurrence: 0,
    role: "assistant",
    model: "m",
    request: { model: "m", messages: [{ role: "user", content: "q" }] },
    response: { content, tool_calls: [], additional_kwargs: {} },
    usage: { promptTokens: 1, completionTokens: 2 },
    ...extra,
  };
}

describe("redactSecretsDeep", () => {
  it("replaces secret-looking fields and secret values, keeps token counts and schemas", () => {
    const value = {
      apiKey: KEY,
      api_key: "abc123456",
      Authorization: "Bearer abcdefghijkl",
      headers: { "x-api-key": "zzzzzzzz", cookie: "s=1" },
      access_token: "tok-123456",
      client_secret: "shh-123456",
      password: "hunter22",
      max_tokens: 100,
      usage: { prompt_tokens: 10, completion_tokens: 2, promptTokens: 10 },
      text: `the key is ${KEY} and a header Authorization: Bearer qwertyuiop123`,
      other: "sk-abcdefghijklmnopqrstuvwxyz012345",
      parameters: { type: "object", properties: { api_key: { type: "string", description: "the user's key" } } },
    };
    const out = redactSecretsDeep(value, [KEY]) as Record<string, unknown>;
    const text = JSON.stringify(out);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain("abc123456");
    expect(text).not.toContain("abcdefghijkl");
    expect(text).not.toContain("zzzzzzzz");
    expect(text).not.toContain("tok-123456");
    expect(text).not.toContain("shh-123456");
    expect(text).not.toContain("hunter22");
    expect(text).not.toContain("qwertyuiop123");
    expect(text).not.toContain("sk-abcdefghijklmnopqrstuvwxyz012345");
    expect(out["max_tokens"]).toBe(100);
    expect(out["usage"]).toEqual({ prompt_tokens: 10, completion_tokens: 2, promptTokens: 10 });
    expect(out["parameters"]).toEqual(value.parameters);
  });

  it("flags secrets and Authorization in written text", () => {
    expect(containsSecret(`x ${KEY} y`, [KEY])).toBe(true);
    expect(containsSecret('{"Authorization":"[redacted]"}')).toBe(true);
    expect(containsSecret("Bearer abcdefghijk")).toBe(true);
    expect(containsSecret('{"content":"hello"}', [KEY])).toBe(false);
  });
});

describe("normalized requests and keys", () => {
  it("gives one key for the same request in any tool form, another when anything that matters changes", () => {
    const messages = [new SystemMessage("sys"), new HumanMessage("hi")];
    const openAiForm = { type: "function", function: { name: "f", description: "d", parameters: { type: "object", properties: {} } } };
    const plainForm = { name: "f", description: "d", parameters: { type: "object", properties: {} } };
    const a = requestKey(normalizeRequest({ model: "m", messages, tools: [openAiForm] }));
    expect(requestKey(normalizeRequest({ model: "m", messages, tools: [plainForm] }))).toBe(a);
    expect(requestKey(normalizeRequest({ model: "m", messages, tools: [openAiForm], temperature: 0.2 }))).not.toBe(a);
    expect(requestKey(normalizeRequest({ model: "m", messages, tools: [openAiForm], maxTokens: 50 }))).not.toBe(a);
    expect(requestKey(normalizeRequest({ model: "m2", messages, tools: [openAiForm] }))).not.toBe(a);
    expect(requestKey(normalizeRequest({ model: "m", messages: [new HumanMessage("hi")], tools: [openAiForm] }))).not.toBe(a);
    expect(a).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("normalizes assistant tool calls and tool results", () => {
    const req = normalizeRequest({
      model: "m",
      messages: [
        new HumanMessage("weather?"),
        new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "w", args: { city: "X" }, type: "tool_call" }] }),
        new ToolMessage({ content: '{"status":200}', tool_call_id: "c1" }),
      ],
    });
    expect(req.messages).toEqual([
      { role: "user", content: "weather?" },
      { role: "assistant", content: "", tool_calls: [{ id: "c1", name: "w", args: { city: "X" } }] },
      { role: "tool", content: '{"status":200}', tool_call_id: "c1" },
    ]);
  });

  it("round-trips answers: content, tool calls, invalid tool calls, kwargs, usage", () => {
    const original = new AIMessage({
      content: "thinking",
      additional_kwargs: { reasoning_content: "because" },
      tool_calls: [{ id: "a", name: "f", args: { x: 1 }, type: "tool_call" }],
      invalid_tool_calls: [{ id: "b", name: "g", args: "{bad", error: "not JSON", type: "invalid_tool_call" }],
      response_metadata: { finish_reason: "tool_calls" },
    });
    const back = messageFromResponse(responseFromMessage(original), { promptTokens: 3, completionTokens: 4 }, "m");
    expect(back.content).toBe("thinking");
    expect(back.additional_kwargs).toEqual({ reasoning_content: "because" });
    expect(back.tool_calls).toEqual(original.tool_calls);
    expect(back.invalid_tool_calls).toEqual(original.invalid_tool_calls);
    expect(back.usage_metadata).toEqual({ input_tokens: 3, output_tokens: 4, total_tokens: 7 });
    expect(back.response_metadata["finish_reason"]).toBe("tool_calls");
  });
});

describe("Cassette files", () => {
  it("appends one scrubbed line per call and loads them back", async () => {
    const path = join(dir, "sub", "cassette.jsonl");
    const c = await Cassette.open(path, { secrets: [KEY] });
    c.append(entry("k1", `leaked ${KEY}`, { episodeId: "e1" }));
    // flushed per call: readable before close
    expect(readFileSync(path, "utf8").split("\n")).toHaveLength(2);
    c.append(entry("k2", "two", { request: { model: "m", messages: [{ role: "user", content: `Authorization: Bearer ${KEY}` }] } }));
    c.close();
    const text = readFileSync(path, "utf8");
    expect(text).not.toContain(KEY);
    const loaded = await Cassette.load(path);
    expect(loaded.entries.map((e) => e.key)).toEqual(["k1", "k2"]);
    expect(loaded.entries[0]?.response.content).toBe("leaked [redacted]");
    expect(loaded.stats).toEqual({ lines: 2, skipped: 0, partial: false });
  });

  it("ignores a partial last line and counts broken lines", async () => {
    const path = join(dir, "cassette.jsonl");
    writeFileSync(path, `${JSON.stringify(entry("k1", "one"))}\nnot json\n{"key": "no shape"}\n`);
    appendFileSync(path, JSON.stringify(entry("k2", "two")).slice(0, 40));
    const loaded = await Cassette.load(path);
    expect(loaded.entries.map((e) => e.key)).toEqual(["k1"]);
    expect(loaded.stats).toEqual({ lines: 3, skipped: 2, partial: true });
  });

  it("reopening for a resumed run cuts the partial line and appends cleanly", async () => {
    const path = join(dir, "cassette.jsonl");
    writeFileSync(path, `${JSON.stringify(entry("k1", "one"))}\n${JSON.stringify(entry("k2", "two")).slice(0, 30)}`);
    const c = await Cassette.open(path);
    expect(c.entries.map((e) => e.key)).toEqual(["k1"]);
    c.append(entry("k3", "three"));
    c.close();
    const loaded = await Cassette.load(path);
    expect(loaded.entries.map((e) => e.key)).toEqual(["k1", "k3"]);
    expect(loaded.stats.skipped).toBe(0);
  });

  it("looks up by episode, key and occurrence, then by key and occurrence, then by key", () => {
    const c = new Cassette([
      entry("k", "e1-0", { episodeId: "e1", occurrence: 0 }),
      entry("k", "e1-1", { episodeId: "e1", occurrence: 1 }),
      entry("k", "e2-0", { episodeId: "e2", occurrence: 0 }),
    ]);
    expect(c.lookup("k", "e2", 0)?.response.content).toBe("e2-0");
    expect(c.lookup("k", "e1", 1)?.response.content).toBe("e1-1");
    expect(c.lookup("k", "e9", 1)?.response.content).toBe("e1-1");
    expect(c.lookup("k", "e9", 5)?.response.content).toBe("e1-0");
    expect(c.lookup("other", "e1", 0)).toBeUndefined();
  });

  it("says where to get a cassette when the file is missing", async () => {
    const error = await Cassette.load(join(dir, "nope.jsonl")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolsimError);
    expect((error as ToolsimError).code).toBe("cassette.not-found");
    // Recording is always on: the message names the file every run with a model writes, not a flag.
    expect((error as ToolsimError).message).toContain("cassette.jsonl");
    expect((error as ToolsimError).message).not.toContain("--record");
  });
});

describe("base URLs with secrets in the query", () => {
  it("redacts every query value for display, and scrubs only credential-like ones from content", () => {
    expect(redactUrl("http://127.0.0.1:8000/v1?api-key=abcd1234&api-version=2024-06-01")).toBe("http://127.0.0.1:8000/v1?api-key=[redacted]&api-version=[redacted]");
    expect(redactUrl("https://api.example.com/v1")).toBe("https://api.example.com/v1");
    expect(redactModelText("openai:m@http://h/v1?key=abcd1234")).toBe("openai:m@http://h/v1?key=[redacted]");
    expect(urlSecrets("http://h/v1?api-key=abcd1234&api-version=2024-06-01&sig=a%2Bb%3D%3D")).toEqual(["abcd1234", "a%2Bb%3D%3D", "a+b=="]);
    expect(urlSecrets("http://h/v1")).toEqual([]);
  });
});
