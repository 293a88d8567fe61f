import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import type { LoadedToolset } from "../../../toolsets/toolset.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import { findStock } from "../../../specs/synthesize/world/world-stocks.js";
import type { Json } from "./inline-catalog.js";

/**
 * A known ticker is that company: the bundled stocks toolset's examples are about a made-up company (Northwind
 * Robotics, NWRB); asked about SAP or AAPL, the profile, quote and search are SAP's and Apple's.
 */

let stocks: LoadedToolset;
beforeAll(async () => {
  const loaded = await loadToolset(fileURLToPath(new URL("../../../toolsets/bundled/stocks.yaml", import.meta.url)));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  stocks = loaded.value;
});

async function body(tool: string, args: Json, seed: number): Promise<Json> {
  const r = await simulateCall(stocks.catalog, { name: tool, arguments: args }, { seed });
  expect(r.status).toBe(200);
  expect(r.responseErrors).toEqual([]);
  return r.body as Json;
}

describe("known tickers", () => {
  it("a profile read after a search that named the company describes that company, not the example's", async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const state = new ResourceStore();
      const hits = await simulateCall(stocks.catalog, { name: "searchSymbols", arguments: { q: "toyota", type: "stock" } }, { seed, state });
      expect(hits.status).toBe(200);
      const r = await simulateCall(stocks.catalog, { name: "getCompanyProfile", arguments: { symbol: "7203" } }, { seed, state });
      const profile = r.body as Json;
      expect(profile["name"]).toBe("Toyota Motor Corporation");
      if (typeof profile["description"] === "string") expect(profile["description"], `seed ${seed}`).toContain("Toyota");
    }
  });

  it("a profile of SAP or Apple is that company's, whatever the seed; a made-up ticker keeps its example", async () => {
    for (let seed = 1; seed <= 8; seed++) {
      for (const symbol of ["SAP", "AAPL", "TSM", "7203"]) {
        const known = findStock(symbol)!;
        const profile = await body("getCompanyProfile", { symbol }, seed);
        expect(profile).toMatchObject({ symbol, name: known.name });
        for (const [field, value] of [["sector", known.sector], ["industry", known.industry], ["country", known.countryCode], ["website", known.website], ["headquarters", known.headquarters]] as const) {
          if (profile[field] !== undefined) expect(profile[field], `${symbol} ${field}`).toBe(value);
        }
        if (typeof profile["description"] === "string") expect(profile["description"], `${symbol} seed ${seed}`).toContain(known.name.split(" ")[0]);
      }
      expect((await body("getCompanyProfile", { symbol: "NWRB" }, seed))["name"]).toBe("Northwind Robotics Inc.");
    }
  });

  it("a quote is in the currency it trades in; a search by a company's name finds it first", async () => {
    const quote = await body("getQuote", { symbol: "SAP" }, 3);
    expect(quote["name"] ?? "SAP SE").toBe("SAP SE");
    if (quote["currency"] !== undefined) expect(quote["currency"]).toBe("EUR");
    for (const [q, symbol] of [["Apple", "AAPL"], ["Tesla", "TSLA"], ["Walt Disney", "DIS"]] as const) {
      const results = (await body("searchSymbols", { q }, 2))["results"] as Json[];
      expect(results[0]).toMatchObject({ symbol, name: findStock(symbol)!.name });
    }
    const madeUp = (await body("searchSymbols", { q: "Northwind" }, 2))["results"] as Json[];
    expect(madeUp[0]?.["symbol"]).toBe("NWRB");
  });

  it("a made-up fund renamed for a search does not take a real company's ticker", async () => {
    const state = new ResourceStore();
    const call = async (tool: string, args: Json): Promise<Json> => (await simulateCall(stocks.catalog, { name: tool, arguments: args }, { seed: 4, state })).body as Json;
    await call("searchSymbols", { q: "toyota", type: "stock" });
    const shell = (await call("searchSymbols", { q: "shell" }))["results"] as Json[];
    expect(shell[0]).toMatchObject({ symbol: "SHEL", name: "Shell plc" });
    const symbols = shell.map((r) => r["symbol"]);
    expect(new Set(symbols).size).toBe(symbols.length);
    for (const r of shell.slice(1)) expect(findStock(String(r["symbol"]))).toBeUndefined();
  });
});

describe("a known company's own facts", () => {
  it("are its own, not the example company's: its CEO, IPO date, head count and value, the same in every answer", async () => {
    const example = await body("getCompanyProfile", { symbol: "NWRB" }, 1);
    const facts = new Set<string>();
    for (const seed of [1, 2, 3, 4]) {
      const shell = await body("getCompanyProfile", { symbol: "SHEL" }, seed);
      for (const k of ["ceo", "ipoDate", "employees", "marketCap"]) if (shell[k] !== undefined && example[k] !== undefined) expect(shell[k], k).not.toEqual(example[k]);
      if (typeof shell["ceo"] === "string") facts.add(shell["ceo"]);
    }
    expect(facts.size).toBe(1);
  });
});
