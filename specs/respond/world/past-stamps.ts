import { isObject, pointerSegment, type Json } from "../../json-object.js";
import { isMovableDay, isStampName } from "../../synthesize/world/dated-examples.js";
import { dayOf } from "../bindings/binding-values.js";
import type { Edits } from "../bindings/answer-edits.js";
import { daysBetween, shiftDays } from "../../synthesize/world/day-arithmetic.js";

/**
 * What already happened happened by today: a record whose `createdAt`, `submittedAt` or `measuredAt` comes after
 * the simulated today (an example written on another day) moves back by whole days until its latest such stamp is
 * today, its other dates along (an order's delivery stays three days after it was placed). The items of a list
 * move together, so that they keep their order and spacing. Dates a binding set (pinned) stay as they are.
 */

/** The latest day of a record's own past stamps (its direct fields), or undefined. */
function latestStamp(record: Json): string | undefined {
  let latest: string | undefined;
  for (const k in record) {
    const v = record[k];
    if (typeof v !== "string" || !isStampName(k)) continue;
    const d = dayOf(v);
    if (d !== undefined && (latest === undefined || d > latest)) latest = d;
  }
  return latest;
}

/** Whether an answer holds a past stamp after `today` anywhere (the cheap question asked before any copy is made). */
export function hasFutureStamp(value: unknown, today: string, depth = 0): boolean {
  if (depth > 8) return false;
  if (Array.isArray(value)) return value.some((v) => typeof v === "object" && v !== null && hasFutureStamp(v, today, depth + 1));
  if (!isObject(value)) return false;
  const latest = latestStamp(value);
  if (latest !== undefined && latest > today) return true;
  for (const k in value) {
    const v = value[k];
    if (typeof v === "object" && v !== null && hasFutureStamp(v, today, depth + 1)) return true;
  }
  return false;
}

/** Moves a record's dates, with those of what it holds (not pinned ones), by whole days. */
function shiftRecord(record: Json | unknown[], pointer: string, days: number, edits: Edits, depth = 0): void {
  if (depth > 8) return;
  const keys = Array.isArray(record) ? record.map((_, i) => String(i)) : Object.keys(record);
  for (const k of keys) {
    const v = (record as Json)[k];
    const at = `${pointer}/${pointerSegment(k)}`;
    if (typeof v === "object" && v !== null) shiftRecord(v as Json, at, days, edits, depth + 1);
    if (!isMovableDay(k, v) || edits.pinned.has(at)) continue;
    const moved = shiftDays(v, days);
    if (moved !== v) edits.follow(record as Json, k, at, moved);
  }
}

/** Brings every record's (and every list's) past stamps back to `today` at the latest, through `edits`. */
export function keepStampsPast(value: unknown, today: string, edits: Edits, pointer = "", depth = 0): void {
  if (depth > 8) return;
  if (Array.isArray(value)) {
    const records = value.filter(isObject);
    let latest: string | undefined;
    for (const r of records) {
      const l = latestStamp(r);
      if (l !== undefined && (latest === undefined || l > latest)) latest = l;
    }
    const days = latest !== undefined && latest > today ? daysBetween(latest, today) : 0;
    value.forEach((v, i) => {
      if (!isObject(v)) return;
      if (days !== 0 && Number.isFinite(days)) shiftRecord(v, `${pointer}/${i}`, days, edits);
      for (const k in v) if (typeof v[k] === "object" && v[k] !== null) keepStampsPast(v[k], today, edits, `${pointer}/${i}/${pointerSegment(k)}`, depth + 1);
    });
    return;
  }
  if (!isObject(value)) return;
  const latest = latestStamp(value);
  if (latest !== undefined && latest > today) {
    const days = daysBetween(latest, today);
    if (Number.isFinite(days)) shiftRecord(value, pointer, days, edits);
  }
  for (const k in value) if (typeof value[k] === "object" && value[k] !== null) keepStampsPast(value[k], today, edits, `${pointer}/${pointerSegment(k)}`, depth + 1);
}
