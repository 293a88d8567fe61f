import { describe, expect, it } from "vitest";
import { createChatModel } from "../../../agents/llm/chat-model-factory.js";
import { describeModelSpec, isLocalBaseURL, LOCAL_DUMMY_API_KEY, parseModelSpec, publicModelSpec, type ModelSpec, type ModelSpecOptions } from "../../../agents/llm/model-spec.js";
import { OfflineChatModel } from "../../../agents/assistant/offline/offline-chat-model.js";
import { costOf, DEFAULT_PRICES, parsePriceTable, priceOf, withPrices } from "../../../agents/llm/price-table.js";

const KEY = "sk-spec-test-SECRET-abcdef0123456789";

function parsed(text: string, options: ModelSpecOptions = {}): ModelSpec {
  const r = parseModelSpec(text, { env: { OPENAI_API_KEY: KEY }, ...options });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("; "));
  return r.value;
}

function problems(text: string, options: ModelSpecOptions = {}): string[] {
  const r = parseModelSpec(text, { env: {}, ...options });
  if (r.ok) throw new Error(`expected ${text} to be refused`);
  return r.errors.map((e) => `${e.code}: ${e.message}`);
}

describe("parseModelSpec", () => {
  it("reads offline and openai:<model> with OpenAI's endpoint and key by default", () => {
    expect(parsed("offline")).toMatchObject({ provider: "offline", model: "offline" });
    const spec = parsed("openai:gpt-4o-mini");
    expect(spec).toMatchObject({ provider: "openai", model: "gpt-4o-mini", baseURL: "https://api.openai.com/v1", baseURLSource: "default", apiKey: KEY, apiKeyEnv: "OPENAI_API_KEY", local: false });
    expect(spec).toMatchObject({ timeoutMs: 60_000, retries: 4, concurrency: 8 });
  });

  it("takes the base URL from --base-url, then TOOLSIM_BASE_URL, then OPENAI_BASE_URL; @url in the spec wins", () => {
    const env = { OPENAI_API_KEY: KEY, TOOLSIM_BASE_URL: "http://toolsim.example/v1", OPENAI_BASE_URL: "http://openai.example/v1" };
    expect(parsed("openai:m", { env, baseURL: "http://flag.example/v1/" })).toMatchObject({ baseURL: "http://flag.example/v1", baseURLSource: "--base-url" });
    expect(parsed("openai:m", { env })).toMatchObject({ baseURL: "http://toolsim.example/v1", baseURLSource: "TOOLSIM_BASE_URL" });
    expect(parsed("openai:m", { env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: "http://openai.example/v1" } })).toMatchObject({ baseURLSource: "OPENAI_BASE_URL" });
    expect(parsed("openai:m@http://inline.example/v1", { env, baseURL: "http://flag.example/v1" })).toMatchObject({ model: "m", baseURL: "http://inline.example/v1", baseURLSource: "spec" });
  });

  it("keeps colons and @ in model names (Ollama tags, org names)", () => {
    expect(parsed("openai:llama3.1:8b@http://localhost:11434/v1")).toMatchObject({ model: "llama3.1:8b", baseURL: "http://localhost:11434/v1", local: true });
    expect(parsed("openai:org@team/model")).toMatchObject({ model: "org@team/model" });
  });

  it("needs no key for local endpoints (a dummy is sent) but one for remote ones", () => {
    for (const url of ["http://localhost:8000/v1", "http://127.0.0.1:1234/v1", "http://192.168.1.20:11434/v1", "http://[::1]:8080/v1", "http://gpu.local:8000/v1"]) {
      expect(isLocalBaseURL(url)).toBe(true);
      expect(parseModelSpec("openai:m", { env: {}, baseURL: url })).toMatchObject({ ok: true, value: { apiKey: LOCAL_DUMMY_API_KEY, local: true } });
    }
    expect(isLocalBaseURL("https://api.openai.com/v1")).toBe(false);
    expect(problems("openai:gpt-4o")[0]).toMatch(/^model\.missing-key: no API key for https:\/\/api\.openai\.com\/v1: set OPENAI_API_KEY or .*--api-key-env/);
    expect(parseModelSpec("openai:gpt-4o", { env: {}, requireApiKey: false }).ok).toBe(true);
  });

  it("reads the key from --api-key-env NAME", () => {
    const spec = parsed("openai:m", { apiKeyEnv: "MY_KEY", env: { MY_KEY: "sk-mine-123456", OPENAI_API_KEY: KEY } });
    expect(spec).toMatchObject({ apiKey: "sk-mine-123456", apiKeyEnv: "MY_KEY" });
    expect(problems("openai:m", { apiKeyEnv: "MY_KEY", baseURL: "http://localhost:8000/v1" })[0]).toMatch(/MY_KEY .*not set/);
    expect(problems("openai:m", { apiKeyEnv: "sk-pasted-the-key-itself", env: { OPENAI_API_KEY: KEY } })[0]).toMatch(/NAME of an environment variable/);
    expect(problems("openai:m", { apiKeyEnv: "sk-pasted-the-key-itself", env: { OPENAI_API_KEY: KEY } })[0]).not.toContain("pasted");
  });

  it("refuses unknown providers, empty names, bad URLs and bad settings with clear messages", () => {
    expect(problems("anthropic:claude")[0]).toMatch(/^model\.unknown-provider: unknown model provider "anthropic".*openai:<model>/);
    expect(problems("gpt-4o")[0]).toMatch(/names no provider: use offline or openai:gpt-4o/);
    expect(problems("openai:")[0]).toMatch(/^model\.no-name/);
    expect(problems("")[0]).toMatch(/^model\.empty/);
    expect(problems("openai:m", { baseURL: "localhost:8000" })[0]).toMatch(/^model\.bad-base-url/);
    expect(problems("openai:m", { baseURL: "ftp://x/v1" })[0]).toMatch(/http or https/);
    expect(problems("openai:m", { baseURL: "http://user:pw@host/v1" })[0]).toMatch(/must not hold credentials/);
    const bad = problems("openai:m", { baseURL: "http://localhost/v1", temperature: 3, maxTokens: 0, retries: -1, concurrency: 0, requestsPerMinute: 0, timeoutMs: 1.5 });
    expect(bad).toHaveLength(6);
    expect(bad.every((p) => p.startsWith("model.bad-setting"))).toBe(true);
  });

  it("carries the call settings", () => {
    const spec = parsed("openai:m", { temperature: 0.3, maxTokens: 256, timeoutMs: 5000, retries: 2, concurrency: 16, requestsPerMinute: 500 });
    expect(spec).toMatchObject({ temperature: 0.3, maxTokens: 256, timeoutMs: 5000, retries: 2, concurrency: 16, requestsPerMinute: 500 });
  });

  it("never shows the key when described or written", () => {
    const spec = parsed("openai:m");
    expect(describeModelSpec(spec)).toBe("openai:m at https://api.openai.com/v1 key from OPENAI_API_KEY");
    expect(JSON.stringify(publicModelSpec(spec))).not.toContain(KEY);
  });

  it("creates ChatOpenAI with the spec's settings and no client retries, or the offline model", () => {
    expect(createChatModel(parsed("offline"))).toBeInstanceOf(OfflineChatModel);
    const chat = createChatModel(parsed("openai:m@http://localhost:8000/v1", { temperature: 0.1, maxTokens: 64, timeoutMs: 1234 })) as unknown as Record<string, unknown>;
    expect(chat["model"]).toBe("m");
    expect(chat["temperature"]).toBe(0.1);
    expect(chat["maxTokens"]).toBe(64);
    expect(chat["timeout"]).toBe(1234);
    expect((chat["caller"] as { maxRetries: number }).maxRetries).toBe(0);
  });
});

describe("price table", () => {
  it("prices known models per 1M tokens, dated snapshots by prefix, unknown and local models at 0", () => {
    expect(costOf({ promptTokens: 1_000_000, completionTokens: 1_000_000 }, "gpt-4o-mini")).toBeCloseTo(0.75);
    expect(priceOf("gpt-4o-mini-2024-07-18")).toEqual(DEFAULT_PRICES["gpt-4o-mini"]);
    expect(priceOf("gpt-4o-2024-08-06")).toEqual(DEFAULT_PRICES["gpt-4o"]);
    expect(priceOf("openai/gpt-4.1")).toEqual(DEFAULT_PRICES["gpt-4.1"]);
    expect(costOf({ promptTokens: 5000, completionTokens: 5000 }, "qwen2.5-7b-instruct")).toBe(0);
    expect(costOf({ promptTokens: 5000, completionTokens: 5000 }, "gpt-4o", DEFAULT_PRICES, true)).toBe(0);
  });

  it("takes prices from config data and overrides the defaults", () => {
    const read = parsePriceTable({ "my-model": { input: 1, output: 2 }, "gpt-4o": { input: 0, output: 0 } });
    if (!read.ok) throw new Error(read.errors.join());
    const table = withPrices(read.value);
    expect(costOf({ promptTokens: 2_000_000, completionTokens: 1_000_000 }, "my-model", table)).toBe(4);
    expect(costOf({ promptTokens: 10, completionTokens: 10 }, "gpt-4o", table)).toBe(0);
    const bad = parsePriceTable({ x: { input: -1, output: 1 }, y: "cheap" });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors).toHaveLength(2);
  });
});
