import { isObject, type Json } from "../../json-object.js";
import { valueKindOf } from "../../value-kinds.js";
import { daysBetween, shiftDays } from "./day-arithmetic.js";
import { SIMULATED_TODAY } from "./simulated-today.js";

/**
 * A spec's examples restated as of the simulated today: a property example that says something already happened
 * after it (`createdAt: 2025-06-14T10:03:12Z` when today is 2025-06-01) moves back by whole days, with the dated
 * examples of the same schema's other properties (an order's delivery stays three days after it was placed), and
 * so does a whole example value. Synthesis and answers then start from examples that agree with today.
 */

/** A date or date-time as APIs write them, whatever the field is called. */
const ISO_DAY = /^\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?$/;

/** Whether a field's value says when something already happened (`value-kinds.ts`: a past stamp). */
export function isStampName(key: string): boolean {
  return valueKindOf(key) === "stamp";
}

/** Whether a value is a day that moves with its record (an API version dated `2024-10-01` does not). */
export function isMovableDay(key: string, value: unknown): value is string {
  return typeof value === "string" && ISO_DAY.test(value) && !/version/i.test(key);
}

/** Days to move a record whose latest past stamp (among `stamps`) is after `today` (0 when none is). */
export function daysBack(stamps: Iterable<string>, today: string = SIMULATED_TODAY): number {
  let latest: string | undefined;
  for (const s of stamps) {
    const d = s.slice(0, 10);
    if (/^\d{4}-\d\d-\d\d$/.test(d) && (latest === undefined || d > latest)) latest = d;
  }
  if (latest === undefined || latest <= today) return 0;
  const days = daysBetween(latest, today);
  return Number.isFinite(days) ? days : 0;
}

/** Restates the examples of a spec document as of today, in place (schemas' property examples, example values). */
export function restateExamples(doc: unknown, today: string = SIMULATED_TODAY, depth = 0): void {
  if (depth > 64) return;
  if (Array.isArray(doc)) {
    for (const v of doc) restateExamples(v, today, depth + 1);
    return;
  }
  if (!isObject(doc)) return;
  const properties = doc["properties"];
  if (isObject(properties)) restatePropertyExamples(properties, today);
  for (const [k, v] of Object.entries(doc)) {
    if ((k === "example" || k === "value") && (isObject(v) || Array.isArray(v))) restateValue(v, today);
    else if (k === "examples" && Array.isArray(v)) for (const x of v) restateValue(x, today);
    if (typeof v === "object" && v !== null) restateExamples(v, today, depth + 1);
  }
}

/** The `example`s of one schema's properties, moved together. */
function restatePropertyExamples(properties: Json, today: string): void {
  const stamps: string[] = [];
  for (const [name, p] of Object.entries(properties)) if (isObject(p) && isStampName(name) && typeof p["example"] === "string") stamps.push(p["example"]);
  const days = daysBack(stamps, today);
  if (days === 0) return;
  for (const [name, p] of Object.entries(properties)) if (isObject(p) && isMovableDay(name, p["example"])) p["example"] = shiftDays(p["example"], days);
}

/** An example value (a record, or a list of records moved together, each with what it holds), in place. */
function restateValue(value: unknown, today: string, depth = 0): void {
  if (depth > 16) return;
  const records = Array.isArray(value) ? value.filter(isObject) : isObject(value) ? [value] : [];
  const stamps: string[] = [];
  for (const r of records) for (const [k, v] of Object.entries(r)) if (typeof v === "string" && isStampName(k)) stamps.push(v);
  const days = daysBack(stamps, today);
  for (const r of records) {
    if (days !== 0) shiftAll(r, days);
    for (const v of Object.values(r)) if (typeof v === "object" && v !== null) restateValue(v, today, depth + 1);
  }
}

/** Moves every day a value holds (at any depth) by whole days, in place. */
function shiftAll(value: unknown, days: number, depth = 0): void {
  if (depth > 16 || typeof value !== "object" || value === null) return;
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [k, v] of entries) {
    if (isMovableDay(String(k), v)) (value as Record<string | number, unknown>)[k] = shiftDays(v, days);
    else shiftAll(v, days, depth + 1);
  }
}
