import { dayInUrl, isOwnUrlKey, withUrlDay } from "./url-dates.js";
import { isObject, pointerSegment, type Json } from "../../json-object.js";
import { valueKindOf } from "../../value-kinds.js";
import { daysBetween, shiftDays } from "./day-arithmetic.js";
import { isAfterNow, SIMULATED_TODAY } from "./simulated-today.js";

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

/** The latest of a record's own past stamps (its direct fields, as written), or undefined. */
function latestStamp(record: Json): string | undefined {
  let latest: string | undefined;
  for (const k in record) {
    const v = record[k];
    if (typeof v !== "string" || !isStampName(k) || !ISO_DAY.test(v)) continue;
    if (latest === undefined || v.slice(0, 10) > latest.slice(0, 10) || (v.slice(0, 10) === latest.slice(0, 10) && v > latest)) latest = v;
  }
  return latest;
}

/**
 * The whole days a stamp moves back so that it has happened by the simulated now of `today` (0 when it has): to
 * today, or to the day before when its time of day is later than now (`2025-06-07T20:30:12Z` -> May 31).
 */
function daysBack(stamp: string, today: string): number {
  if (!isAfterNow(stamp, today)) return 0;
  const days = daysBetween(stamp.slice(0, 10), today);
  if (!Number.isFinite(days)) return 0;
  return isAfterNow(shiftDays(stamp, days), today) ? days - 1 : days;
}

/** Whether a value holds a past stamp after `today` anywhere (a cheap question: nothing is copied or moved). */
export function hasFutureStamp(value: unknown, today: string = SIMULATED_TODAY, depth = 0): boolean {
  if (depth > 8) return false;
  if (Array.isArray(value)) return value.some((v) => typeof v === "object" && v !== null && hasFutureStamp(v, today, depth + 1));
  if (!isObject(value)) return false;
  const latest = latestStamp(value);
  if (latest !== undefined && isAfterNow(latest, today)) return true;
  for (const k in value) {
    const v = value[k];
    if (typeof v === "object" && v !== null && hasFutureStamp(v, today, depth + 1)) return true;
  }
  return false;
}

/** Writes a moved day where it is (`pointer`: its JSON pointer); a writer may leave a day as it is (one a binding set). */
export type DayWrite = (holder: Json | unknown[], key: string, pointer: string, value: string) => void;

/** Moves a record's days, with those of what it holds, by whole days, through `write`. */
function shiftRecord(record: Json | unknown[], pointer: string, days: number, write: DayWrite, depth = 0): void {
  if (depth > 16) return;
  const keys = Array.isArray(record) ? record.map((_, i) => String(i)) : Object.keys(record);
  for (const k of keys) {
    const v = (record as Json)[k];
    const at = `${pointer}/${pointerSegment(k)}`;
    if (typeof v === "object" && v !== null) shiftRecord(v as Json, at, days, write, depth + 1);
    else if (isMovableDay(k, v)) {
      const moved = shiftDays(v, days);
      if (moved !== v) write(record, k, at, moved);
    } else if (typeof v === "string" && isOwnUrlKey(k)) {
      // Its address names its day (`/2025/06/14/chip-plants`): the day moves there too.
      const day = dayInUrl(v);
      const moved = day !== undefined ? withUrlDay(v, shiftDays(day, days)) : v;
      if (moved !== v) write(record, k, at, moved);
    }
  }
}

/**
 * Brings every record's (and every list's) past stamps back to the simulated now of `today` at the latest: a record whose latest stamp is
 * later moves back by whole days with all it holds, the records of a list together (they keep their order and
 * spacing). Each moved day goes through `write` (default: in place).
 */
export function keepStampsPast(value: unknown, today: string = SIMULATED_TODAY, write: DayWrite = writeInPlace, pointer = "", depth = 0): void {
  if (depth > 16) return;
  const records = Array.isArray(value) ? value.filter(isObject) : isObject(value) ? [value] : [];
  if (records.length === 0) return;
  let days = 0;
  for (const r of records) {
    const l = latestStamp(r);
    if (l !== undefined) days = Math.min(days, daysBack(l, today));
  }
  const each = (r: Json, at: string): void => {
    if (days !== 0 && Number.isFinite(days)) shiftRecord(r, at, days, write);
    for (const k in r) if (typeof r[k] === "object" && r[k] !== null) keepStampsPast(r[k], today, write, `${at}/${pointerSegment(k)}`, depth + 1);
  };
  if (Array.isArray(value)) value.forEach((v, i) => isObject(v) && each(v, `${pointer}/${i}`));
  else each(value as Json, pointer);
}

function writeInPlace(holder: Json | unknown[], key: string, _pointer: string, value: string): void {
  (holder as Json)[key] = value;
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
    if ((k === "example" || k === "value") && (isObject(v) || Array.isArray(v))) keepStampsPast(v, today);
    else if (k === "examples" && Array.isArray(v)) for (const x of v) keepStampsPast(x, today);
    if (typeof v === "object" && v !== null) restateExamples(v, today, depth + 1);
  }
}

/** The `example`s of one schema's properties, moved together. */
function restatePropertyExamples(properties: Json, today: string): void {
  let days = 0;
  for (const [name, p] of Object.entries(properties)) {
    if (isObject(p) && isStampName(name) && typeof p["example"] === "string" && ISO_DAY.test(p["example"])) days = Math.min(days, daysBack(p["example"], today));
  }
  if (days === 0) return;
  for (const [name, p] of Object.entries(properties)) if (isObject(p) && isMovableDay(name, p["example"])) p["example"] = shiftDays(p["example"], days);
}
