import { exchangeRate, knowsCurrency, roundMoney } from "../../synthesize/world/world-money.js";
import { isObject, pointerSegment, type Json } from "../../json-object.js";

/**
 * Answers about money that follow the world's rates and the call: a conversion's rate is its pair's and its
 * result the amount times that rate; a rate table has the base asked for (not in its own table), the symbols
 * asked for, and, for a series, the business days of the range asked for.
 */

const CODE = /^[A-Z]{3}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Writes a value where it is (the caller records it so that it can be undone). */
export type MoneyWrite = (holder: Json, key: string, pointer: string, value: unknown) => void;

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

function symbolsOf(v: unknown): string[] | undefined {
  const list = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : undefined;
  const codes = list?.map((x) => String(x).trim().toUpperCase()).filter((x) => CODE.test(x) && knowsCurrency(x));
  return codes !== undefined && codes.length > 0 ? codes : undefined;
}

function isRateMap(v: unknown): v is Record<string, number> {
  return isObject(v) && Object.keys(v).length > 0 && Object.entries(v).every(([k, x]) => CODE.test(k) && typeof x === "number");
}

function businessDays(start: string, end: string, max = 31): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`), stop = Date.parse(`${end}T00:00:00Z`); Number.isFinite(t) && t <= stop && out.length < max; t += 86400000) {
    const d = new Date(t);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

/** The arguments {@link speaksMoney} reads. */
export const MONEY_ARGS: readonly string[] = ["from", "to", "base", "symbols"];

/** Whether a call speaks of money an answer must agree with (a pair to convert, a base or symbols of rates). */
export function speaksMoney(args: Json): boolean {
  const code = (v: unknown): boolean => typeof v === "string" && CODE.test(v.toUpperCase()) && knowsCurrency(v);
  return (code(args["from"]) && code(args["to"])) || code(args["base"]) || (args["symbols"] !== undefined && symbolsOf(args["symbols"]) !== undefined);
}

/** A conversion's rate and result fields, by name (lower case, without `_`). */
const RATE_KEY = /^(rate|exchangerate|conversionrate|fxrate)$/;
const RESULT_KEY = /^(result|converted|convertedamount|convertedvalue|conversionresult|amountconverted|convertedtotal)$/;

/** The first field of an object whose name matches and whose value is a number. */
function numericKey(o: Json, name: RegExp): string | undefined {
  for (const k in o) if (typeof o[k] === "number" && name.test(k.toLowerCase().replace(/_/g, ""))) return k;
  return undefined;
}

/** What an answer without a query echo echoes. */
const NO_QUERY: Readonly<Json> = Object.freeze({});

/** Makes an answer's money agree with the world's rates and the call's arguments, through `write`. */
export function agreeMoney(args: Json, body: unknown, write: MoneyWrite): void {
  const visit = (o: unknown, at: string, depth: number): void => {
    if (depth > 4 || !isObject(o)) return;
    const query = isObject(o["query"]) ? o["query"] : NO_QUERY;
    // A conversion: its rate and its result (`rate`, `exchange_rate`; `result`, `converted_amount`), with `from`, `to`
    // and `amount` in the answer, its query echo or the call.
    const rateKey = numericKey(o, RATE_KEY);
    const resultKey = numericKey(o, RESULT_KEY);
    const from = rateKey !== undefined || resultKey !== undefined ? (str(o["from"]) ?? str(query["from"]) ?? str(args["from"])) : undefined;
    const to = from !== undefined ? (str(o["to"]) ?? str(query["to"]) ?? str(args["to"])) : undefined;
    if (from !== undefined && to !== undefined) {
      const day = str(o["date"]) ?? "";
      const rate = exchangeRate(from, to, day);
      if (rate !== undefined) {
        if (rateKey !== undefined) write(o, rateKey, `${at}/${pointerSegment(rateKey)}`, rate);
        const amount = typeof o["amount"] === "number" ? o["amount"] : typeof query["amount"] === "number" ? query["amount"] : typeof args["amount"] === "number" ? args["amount"] : undefined;
        if (amount !== undefined && resultKey !== undefined) write(o, resultKey, `${at}/${pointerSegment(resultKey)}`, roundMoney(amount * rate, to));
      }
    }
    // A rate table: `rates` of a base (one day's map, or a map of days).
    const rates = o["rates"];
    const base = isObject(rates) ? (str(o["base"]) ?? str(args["base"]) ?? "").toUpperCase() : "";
    if (isObject(rates) && CODE.test(base) && knowsCurrency(base)) {
      const asked = symbolsOf(args["symbols"] ?? args["currencies"]);
      const table = (codes: string[], day: string): Record<string, number> => {
        const out: Record<string, number> = {};
        for (const c of codes) {
          const r = exchangeRate(base, c, day);
          // The base itself only when asked for, at 1.
          if (r !== undefined && (c !== base || asked !== undefined)) out[c] = r;
        }
        return out;
      };
      if (isRateMap(rates)) {
        const codes = asked ?? Object.keys(rates).filter((c) => knowsCurrency(c));
        const day = str(o["date"]) ?? "";
        const next = table(codes.includes(base) && asked === undefined ? codes.filter((c) => c !== base) : codes, day);
        if (Object.keys(next).length > 0) write(o, "rates", `${at}/rates`, next);
      } else if (Object.keys(rates).every((k) => DAY.test(k)) && Object.values(rates).every(isRateMap)) {
        const start = str(o["startDate"]) ?? str(o["start_date"]) ?? str(args["startDate"]) ?? str(args["start_date"]);
        const end = str(o["endDate"]) ?? str(o["end_date"]) ?? str(args["endDate"]) ?? str(args["end_date"]);
        const days = start !== undefined && end !== undefined && DAY.test(start.slice(0, 10)) && DAY.test(end.slice(0, 10)) ? businessDays(start.slice(0, 10), end.slice(0, 10)) : Object.keys(rates);
        const first = Object.values(rates)[0] as Record<string, number>;
        const codes = asked ?? Object.keys(first).filter((c) => knowsCurrency(c) && c !== base);
        const series: Record<string, Record<string, number>> = {};
        for (const d of days) series[d] = table(codes, d);
        if (days.length > 0) write(o, "rates", `${at}/rates`, series);
      }
    }
    if (depth < 4) for (const k in o) if (k !== "rates" && isObject(o[k])) visit(o[k], `${at}/${pointerSegment(k)}`, depth + 1);
  };
  visit(body, "", 0);
}
