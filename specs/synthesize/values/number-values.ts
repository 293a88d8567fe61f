/**
 * Numbers and flags by meaning: a preferred range for a number field by its name (ages, prices, ratings,
 * percentages...), a value within a schema's bounds and steps, and how likely a flag of a name is true.
 * Used by `realistic-value.ts`.
 */

import type { Json } from "../../json-object.js";

/** A preferred range for a number: bounds and decimal places. */
export interface NumberRule {
  min: number;
  max: number;
  /** Decimal places of a `number` (integers ignore it). */
  decimals: number;
}

const numberRuleCache = new Map<string, NumberRule | null>();

export function numberRule(snake: string, parents: string, integer: boolean): NumberRule | undefined {
  const key = `${integer ? "i" : "n"}|${snake}`;
  let hit = numberRuleCache.get(key);
  if (hit === undefined) {
    hit = findNumberRule(snake, parents, integer) ?? null;
    if (numberRuleCache.size > 50_000) numberRuleCache.clear();
    numberRuleCache.set(key, hit);
  }
  return hit ?? undefined;
}

function findNumberRule(snake: string, parents: string, integer: boolean): NumberRule | undefined {
  const r = (min: number, max: number, decimals = 0): NumberRule => ({ min, max, decimals });
  if (/(^|_)(lat|latitude)$/.test(snake)) return r(-90, 90, 6);
  if (/(^|_)(lon|lng|long|longitude)$/.test(snake)) return r(-180, 180, 6);
  if (/(^|_)(percent|percentage|pct)$|_percent(age)?$|^percent/.test(snake)) return r(0, 100, 1);
  if (/(^|_)(rating|stars|star_rating|avg_rating|average_rating)$/.test(snake)) return integer ? r(1, 5) : r(1, 5, 1);
  if (/(^|_)(score)$/.test(snake)) return r(0, 100, 1);
  if (/(^|_)(ratio|probability|confidence|rate|fraction|weight_factor)$/.test(snake)) return integer ? r(0, 100) : r(0, 1, 2);
  if (/(cents|_in_cents|minor_units)$/.test(snake)) return r(100, 50000);
  if (/(^|_)(price|amount|cost|fee|fees|total|total_price|total_amount|balance|salary|subtotal|tax|discount|revenue|budget|payment|value_usd|charge|refund|credit|debit|spend|income)$/.test(snake) || /_(price|amount|cost|fee|total|balance)$/.test(snake)) {
    return integer ? r(1, 1000) : r(1, 500, 2);
  }
  if (/(^|_)(age)$/.test(snake)) return r(18, 80);
  if (/(^|_)(year|birth_year)$/.test(snake)) return r(1995, 2025);
  if (/(^|_)(month)$/.test(snake)) return r(1, 12);
  if (/(^|_)(day|day_of_month)$/.test(snake)) return r(1, 28);
  if (/(^|_)(hour|hours)$/.test(snake)) return r(0, 23);
  if (/(^|_)(minute|minutes|second|seconds)$/.test(snake)) return r(0, 59);
  if (/(_ms|_millis|milliseconds)$/.test(snake) && /(time|_at|stamp)/.test(snake)) return r(1_600_000_000_000, 1_748_000_000_000);
  if (/(_at|timestamp|_time|^time|created|updated|modified|epoch|_date|^date)$/.test(snake)) return r(1_600_000_000, 1_748_000_000);
  if (/(^|_)(id|identifier)$/.test(snake) || /_id$/.test(snake)) return r(1, 99999);
  if (/(^|_)(page|page_number|page_no)$/.test(snake)) return r(1, 20);
  if (/(^|_)(limit|per_page|page_size|pagesize|max_results|size|count_per_page|top|first|last)$/.test(snake)) return r(10, 50);
  if (/(^|_)(offset|skip|start|cursor|index|position|rank|order|sort_order|seq|sequence)$/.test(snake)) return r(0, 100);
  if (/(^|_)(count|total|quantity|qty|amount_of|num|number|views|likes|followers|following|votes|items|downloads|stock|inventory|members|comments|shares|clicks|visits|attempts|retries)$/.test(snake) || /(_count|_total|^num_|^number_of_)/.test(snake)) {
    return r(0, 500);
  }
  if (/(^|_)(width|height)$/.test(snake)) return r(100, 1920);
  if (/(^|_)(duration|elapsed|runtime|timeout|ttl|interval|delay)(_seconds|_secs|_s)?$/.test(snake)) return r(1, 3600);
  if (/(^|_)(weight|mass)$/.test(snake)) return r(1, 100, 1);
  if (/(^|_)(temperature|temp|temp_c|feels_like)$/.test(snake)) return r(-10, 35, 1);
  if (/(^|_)(distance|radius|length|depth|altitude|elevation)$/.test(snake)) return r(1, 500, 1);
  if (/(^|_)(speed|velocity)$/.test(snake)) return r(0, 120, 1);
  if (/(^|_)(humidity)$/.test(snake)) return r(0, 100);
  if (/(^|_)(port)$/.test(snake)) return r(1024, 65535);
  if (/(^|_)(zip|zip_code|postal_code)$/.test(snake)) return r(10000, 99999);
  if (/(^|_)(version)$/.test(snake)) return r(1, 10);
  return parents === "" && snake === "" ? undefined : undefined;
}

function decimalsOf(n: number): number {
  const s = String(n);
  if (s.includes("e-")) return Number(s.split("e-")[1]) || 0;
  const dot = s.indexOf(".");
  return dot < 0 ? 0 : s.length - dot - 1;
}

export function isMultiple(v: number, m: number): boolean {
  const q = v / m;
  return Number.isFinite(q) && q === Math.trunc(q);
}

/** Number bounds of a schema: inclusive bounds plus which of them are exclusive. */
function boundsOf(s: Json): { lo: number; hi: number; loX: boolean; hiX: boolean } {
  let lo = -Infinity;
  let hi = Infinity;
  let loX = false;
  let hiX = false;
  if (typeof s["minimum"] === "number") lo = s["minimum"];
  if (typeof s["exclusiveMinimum"] === "number" && s["exclusiveMinimum"] >= lo) {
    lo = s["exclusiveMinimum"];
    loX = true;
  }
  if (typeof s["maximum"] === "number") hi = s["maximum"];
  if (typeof s["exclusiveMaximum"] === "number" && s["exclusiveMaximum"] <= hi) {
    hi = s["exclusiveMaximum"];
    hiX = true;
  }
  return { lo, hi, loX, hiX };
}

function inBounds(v: number, b: ReturnType<typeof boundsOf>): boolean {
  return (b.loX ? v > b.lo : v >= b.lo) && (b.hiX ? v < b.hi : v <= b.hi);
}

/**
 * A number for a schema inside a preferred range: the range is intersected with the schema's bounds
 * (or moved inside them), then `multipleOf` is honoured. Undefined when no such number is found.
 */
export function numberIn(s: Json, integer: boolean, rule: NumberRule, next: () => number): number | undefined {
  const b = boundsOf(s);
  let lo = Math.max(rule.min, b.lo);
  let hi = Math.min(rule.max, b.hi);
  if (lo > hi) {
    const span = Math.max(1, rule.max - rule.min);
    if (Number.isFinite(b.lo) && Number.isFinite(b.hi)) [lo, hi] = [b.lo, b.hi];
    else if (Number.isFinite(b.lo)) [lo, hi] = [b.lo, b.lo + span];
    else [lo, hi] = [b.hi - span, b.hi];
  }
  const multipleOf = typeof s["multipleOf"] === "number" && s["multipleOf"] > 0 ? s["multipleOf"] : undefined;
  const pick = (): number | undefined => {
    const r = next();
    if (multipleOf !== undefined) {
      const kLo = Math.ceil(lo / multipleOf);
      const kHi = Math.floor(hi / multipleOf);
      if (kLo > kHi) return undefined;
      const k = kLo + Math.floor(r * (kHi - kLo + 1));
      const digits = Math.min(12, decimalsOf(multipleOf));
      for (const cand of [Number((k * multipleOf).toFixed(digits)), k * multipleOf, kLo * multipleOf, kHi * multipleOf]) {
        if ((!integer || Number.isInteger(cand)) && isMultiple(cand, multipleOf) && inBounds(cand, b)) return cand;
      }
      return undefined;
    }
    if (integer) {
      const iLo = b.loX && Math.ceil(lo) === lo && lo === b.lo ? lo + 1 : Math.ceil(lo);
      const iHi = b.hiX && Math.floor(hi) === hi && hi === b.hi ? hi - 1 : Math.floor(hi);
      if (iLo > iHi) return undefined;
      return iLo + Math.floor(r * (iHi - iLo + 1));
    }
    const raw = lo + r * (hi - lo);
    const rounded = Number(raw.toFixed(rule.decimals));
    if (inBounds(rounded, b)) return rounded;
    if (inBounds(raw, b)) return raw;
    const mid = (lo + hi) / 2;
    return inBounds(mid, b) ? mid : undefined;
  };
  for (let i = 0; i < 3; i++) {
    const v = pick();
    if (v !== undefined && inBounds(v, b) && (!integer || Number.isInteger(v)) && Number.isFinite(v)) return v;
  }
  return undefined;
}

// ---------------------------------------------------------------- booleans

/** How likely a flag of this name is true (undefined: even odds). */
export function booleanProbability(snake: string): number | undefined {
  if (/(deleted|archived|disabled|blocked|banned|locked|error|failed|failure|private|hidden|deprecated|suspended|spam|expired|canceled|cancelled|test|draft|nsfw|explicit|is_bot|bot)$/.test(snake)) {
    return 0.15;
  }
  if (/(active|enabled|available|verified|visible|public|published|success|successful|ok|valid|approved|confirmed|open|online|in_stock|exists)$/.test(snake)) {
    return 0.85;
  }
  return undefined;
}
