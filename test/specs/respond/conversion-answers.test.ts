import { describe, expect, it } from "vitest";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { exchangeRate, roundMoney } from "../../../specs/synthesize/world/world-money.js";
import { catalogOf, okJson } from "../../support/inline-catalog.js";

// A conversion's rate and result follow the world's rates whatever they are called: 1Forge's `convertCurrency`
// answered 455.98 USD as 164.82 CHF (`converted_amount`), and 0.41 as AUD's `exchange_rate` to EUR.

type Json = Record<string, unknown>;

describe("a conversion answered under other names", () => {
  it("has the pair's rate and the amount times it, as `exchange_rate` and `converted_amount`", async () => {
    const catalog = await catalogOf("Forex", {
      "/convert": {
        get: {
          operationId: "convertCurrency",
          parameters: [
            { in: "query", name: "from", required: true, schema: { type: "string" } },
            { in: "query", name: "to", required: true, schema: { type: "string" } },
            { in: "query", name: "amount", required: true, schema: { type: "number" } },
          ],
          responses: okJson({ type: "object", required: ["converted_amount", "exchange_rate"], properties: { converted_amount: { type: "number" }, exchange_rate: { type: "number" } } }),
        },
      },
    });
    for (const [from, to, amount] of [["USD", "CHF", 455.98], ["AUD", "EUR", 333.15]] as const) {
      const r = await simulateCall(catalog, { name: "convertCurrency", arguments: { from, to, amount } }, { seed: 3 });
      expect(r.responseErrors).toEqual([]);
      const rate = exchangeRate(from, to, "") as number;
      expect(r.body as Json).toEqual({ exchange_rate: rate, converted_amount: roundMoney(amount * rate, to) });
    }
  });
});
