import type { Json } from "../../json-object.js";
import { pinnedValue, set, type Ctx } from "./coherence-context.js";

/**
 * A count beside the class it falls in agrees with it: `nbrOfEmployees: 3759` beside `nbrOfEmployeesInterval:
 * "5-9"` is a company of five to nine people, so its count is in that class (`7`); a turnover of 1,269,857 is in
 * `1M-10M`. The class is the one kept (classes are what such APIs filter and group by); a count a binding set stays.
 */

const norm = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Suffixes of the field that gives a count's class (`employeesInterval`, `revenue_range`, `sizeClass`, `staffBand`). */
const CLASS_SUFFIX = /(interval|range|class|band|bucket|bracket)$/;
const MULTIPLIER: Readonly<Record<string, number>> = { "": 1, k: 1e3, m: 1e6, b: 1e9, bn: 1e9 };

/** The bounds a class names (`5-9`, `1M-10M`, `10000+`, `< 5`), if it names any. */
export function classBounds(text: string): { low: number; high: number } | undefined {
  const num = (digits: string, unit: string | undefined): number => Number(digits.replace(/[,\s]/g, "")) * (MULTIPLIER[(unit ?? "").toLowerCase()] ?? 1);
  const t = text.trim();
  const range = /^(\d[\d,]*(?:\.\d+)?)\s*(k|m|bn|b)?\s*(?:-|–|to)\s*(\d[\d,]*(?:\.\d+)?)\s*(k|m|bn|b)?$/i.exec(t);
  if (range?.[1] !== undefined && range[3] !== undefined) {
    const low = num(range[1], range[2] ?? range[4]);
    const high = num(range[3], range[4]);
    return Number.isFinite(low) && Number.isFinite(high) && low <= high ? { low, high } : undefined;
  }
  const open = /^(\d[\d,]*(?:\.\d+)?)\s*(k|m|bn|b)?\s*\+$/i.exec(t);
  if (open?.[1] !== undefined) return { low: num(open[1], open[2]), high: Infinity };
  return undefined;
}

/** Pairs of a count and the field that gives its class (`[nbrOfEmployees, nbrOfEmployeesInterval]`), by a record's keys. */
export function countClassPairs(keys: readonly string[]): Array<readonly [count: string, cls: string]> {
  const byNorm = new Map(keys.map((k) => [norm(k), k]));
  const out: Array<readonly [string, string]> = [];
  for (const k of keys) {
    const n = norm(k);
    const m = CLASS_SUFFIX.exec(n);
    if (!m || m.index === 0) continue;
    const stem = n.slice(0, m.index);
    // The count named like the class (`nbrOfEmployees`), else the one count that ends so (`netTurnover` for `turnoverInterval`).
    const endings = keys.filter((key) => key !== k && norm(key).endsWith(stem) && !CLASS_SUFFIX.test(norm(key)));
    const count = byNorm.get(stem) ?? byNorm.get(`${stem}s`) ?? (endings.length === 1 ? endings[0] : undefined);
    if (count !== undefined) out.push([count, k]);
  }
  return out;
}

/** Puts each count in the class beside it (a value in the class, seeded by the count: the same count, the same value). */
export function cohereCountClasses(ctx: Ctx, o: Json, at: string, pairs: ReadonlyArray<readonly [string, string]>): void {
  for (const [count, cls] of pairs) {
    const c = o[count];
    const bounds = typeof o[cls] === "string" ? classBounds(o[cls]) : undefined;
    const value = typeof c === "number" ? c : typeof c === "string" && /^-?\d+(\.\d+)?$/.test(c.trim()) ? Number(c) : undefined;
    if (bounds === undefined || value === undefined || (value >= bounds.low && value <= bounds.high)) continue;
    if (pinnedValue(ctx, o, count, at) !== undefined) continue;
    const high = Number.isFinite(bounds.high) ? bounds.high : bounds.low * 2;
    const span = high - bounds.low;
    const within = bounds.low + (span <= 0 ? 0 : Math.abs(Math.round(value)) % (Math.floor(span) + 1));
    const integer = Number.isInteger(value) || typeof c === "string";
    set(ctx, o, count, typeof c === "string" ? String(integer ? Math.round(within) : within) : integer ? Math.round(within) : within, at);
  }
}
