import { describe, expect, it } from "vitest";
import { costOf, DEFAULT_PRICES, findPrice, priceOf, withPrices } from "../../../agents/llm/price-table.js";

const usage = { promptTokens: 1_000_000, completionTokens: 1_000_000 };

describe("prices and cost", () => {
  it("prices a model from the table, dated snapshots and provider prefixes included", () => {
    expect(priceOf("gpt-4o-mini")).toEqual({ input: 0.15, output: 0.6 });
    expect(priceOf("gpt-4o-2024-08-06")).toEqual({ input: 2.5, output: 10 });
    expect(priceOf("openai/gpt-4o-mini")).toEqual({ input: 0.15, output: 0.6 });
    expect(findPrice("llama-3-8b", DEFAULT_PRICES)).toBeUndefined();
    expect(costOf(usage, "gpt-4o-mini")).toBeCloseTo(0.75, 10);
  });

  it("applies a configured price whatever the host; a local endpoint without one costs 0", () => {
    const configured = { "llama-3-8b": { input: 0.2, output: 0.4 } };
    const table = withPrices(configured);
    expect(costOf(usage, "llama-3-8b", table, true, configured)).toBeCloseTo(0.6, 10);
    expect(costOf(usage, "llama-3-8b", table, false, configured)).toBeCloseTo(0.6, 10);
    // A default price is a price of OpenAI's endpoint: a model of that name served locally is free unless configured.
    expect(costOf(usage, "gpt-4o", table, true, configured)).toBe(0);
    expect(costOf(usage, "gpt-4o", table, false, configured)).toBeCloseTo(12.5, 10);
    expect(costOf(usage, "gpt-4o", withPrices({ "gpt-4o": { input: 1, output: 1 } }), true, { "gpt-4o": { input: 1, output: 1 } })).toBeCloseTo(2, 10);
    expect(costOf(usage, "unknown-model", table, false, configured)).toBe(0);
  });
});
