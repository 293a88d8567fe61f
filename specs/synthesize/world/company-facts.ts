import { en } from "@faker-js/faker";
import { deriveSeed } from "../../seed.js";
import type { Json } from "../../json-object.js";
import { snakeName } from "../../snake-name.js";
import { set, type Ctx } from "./coherence-context.js";

/**
 * A company's own facts the world does not know (its chief executive, when it went public, its head count, its
 * market value) are its own: a profile of Shell made over the example of another company does not keep that
 * company's CEO, IPO date and market value. They are drawn from the company's symbol (the same company, the same
 * facts, in every answer) where the record was another company's.
 */

const FIRST = (en.person?.first_name?.generic ?? []) as readonly string[];
const LAST = (en.person?.last_name?.generic ?? []) as readonly string[];

/** Draws a company's facts into a record that was another company's (the fields it has, unless a call fixed them). */
export function drawCompanyFacts(ctx: Ctx, o: Json, at: string, symbol: string): void {
  const seed = deriveSeed(0, "company", symbol);
  const at01 = (salt: string): number => (deriveSeed(seed, salt) % 10_000) / 10_000;
  for (const key of Object.keys(o)) {
    const name = snakeName(key);
    const v = o[key];
    if (/^(ceo|chief_executive|chief_executive_officer|ceo_name)$/.test(name) && typeof v === "string" && FIRST.length > 0 && LAST.length > 0) {
      set(ctx, o, key, `${FIRST[Math.floor(at01("first") * FIRST.length)]} ${LAST[Math.floor(at01("last") * LAST.length)]}`, at);
    } else if (/^(ipo_date|listing_date|listed_on|ipo)$/.test(name) && typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v)) {
      const day = new Date(Date.UTC(1980, 0, 1) + Math.floor(at01("ipo") * 40 * 365) * 86_400_000).toISOString().slice(0, 10);
      set(ctx, o, key, day + v.slice(10), at);
    } else if (/^(employees|full_time_employees|employee_count|number_of_employees)$/.test(name) && typeof v === "number" && v > 0) {
      set(ctx, o, key, Math.max(10, Math.round(v * (0.2 + at01("staff") * 4.8))), at);
    } else if (/^(market_cap|market_capitalization|marketcap)$/.test(name) && typeof v === "number" && v > 0) {
      set(ctx, o, key, Math.round(v * (0.2 + at01("value") * 4.8)), at);
    }
  }
}
