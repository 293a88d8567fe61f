import { fail, ok, type Result } from "../../specs/result.js";

/** The price of a model in US dollars per one million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

/** Prices by model name; a name also prices its dated snapshots (`gpt-4o` prices `gpt-4o-2024-08-06`). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** Token counts of calls to price. */
export interface PricedUsage {
  promptTokens: number;
  completionTokens: number;
}

/**
 * Default prices of a few OpenAI models (USD per 1M tokens, standard tier, as published by OpenAI; check
 * and override with `prices:` in the config file). Models not listed cost 0; so do local endpoints, unless
 * the config file prices their model.
 */
export const DEFAULT_PRICES: PriceTable = {
  "gpt-4o": { input: 2.5, output: 10 },
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  "gpt-4.1": { input: 2, output: 8 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4 },
  "o3-mini": { input: 1.1, output: 4.4 },
  "o4-mini": { input: 1.1, output: 4.4 },
  "gpt-3.5-turbo": { input: 0.5, output: 1.5 },
};

const FREE: ModelPrice = { input: 0, output: 0 };

/**
 * The price of a model in a table: an exact entry, else the longest entry the name starts with followed by
 * `-` (dated snapshots), also after a `provider/` prefix (`openai/gpt-4o`); undefined when none matches.
 */
export function findPrice(model: string, table: PriceTable): ModelPrice | undefined {
  const names = [model, model.includes("/") ? model.slice(model.lastIndexOf("/") + 1) : undefined].filter((n): n is string => n !== undefined);
  for (const name of names) {
    const exact = table[name];
    if (exact) return exact;
    let best: string | undefined;
    for (const k of Object.keys(table)) {
      if (name.startsWith(`${k}-`) && (best === undefined || k.length > best.length)) best = k;
    }
    if (best !== undefined) return table[best] ?? FREE;
  }
  return undefined;
}

/** The price of a model (see {@link findPrice}); 0 for unknown models. */
export function priceOf(model: string, table: PriceTable = DEFAULT_PRICES): ModelPrice {
  return findPrice(model, table) ?? FREE;
}

/**
 * The cost in US dollars of some usage of a model. A price the user configured (`configured`: the config
 * file's `prices:`) applies wherever the model is served; otherwise a `local` endpoint (a model served on
 * your own machine or network) costs 0, and other endpoints are priced from `table`.
 */
export function costOf(usage: PricedUsage, model: string, table: PriceTable = DEFAULT_PRICES, local = false, configured?: PriceTable): number {
  const price = (configured !== undefined ? findPrice(model, configured) : undefined) ?? (local ? FREE : priceOf(model, table));
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
}

/** The defaults with some prices added or replaced. */
export function withPrices(overrides: PriceTable, base: PriceTable = DEFAULT_PRICES): PriceTable {
  return { ...base, ...overrides };
}

/** Reads a price table from config data (`{model: {input, output}}`, USD per 1M tokens). */
export function parsePriceTable(value: unknown): Result<PriceTable, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return fail(["prices must be an object of model: {input, output} (USD per 1M tokens)"]);
  const errors: string[] = [];
  const table: Record<string, ModelPrice> = {};
  for (const [model, price] of Object.entries(value as Record<string, unknown>)) {
    const p = price as Record<string, unknown> | null;
    const input = p?.["input"];
    const output = p?.["output"];
    if (typeof input !== "number" || typeof output !== "number" || !(input >= 0) || !(output >= 0) || !Number.isFinite(input) || !Number.isFinite(output)) {
      errors.push(`prices.${model} must be {input: number >= 0, output: number >= 0} (USD per 1M tokens)`);
      continue;
    }
    table[model] = { input, output };
  }
  return errors.length > 0 ? fail(errors) : ok(table);
}
