import { lastName, listOf, locate, type FieldSpot } from "../../catalog/field-path.js";
import { valueKindOf } from "../../value-kinds.js";
import { notAfterNow } from "../../synthesize/world/simulated-today.js";
import { isObject, pointerSegment } from "../../json-object.js";
import { getAt } from "../../json-pointer.js";
import type { TodayBinding } from "./binding-types.js";
import { dayOf } from "./binding-values.js";
import type { Edits } from "./answer-edits.js";
import { daysBetween, shiftDays } from "../../synthesize/world/day-arithmetic.js";

/**
 * Dates of an answer's items, moved so that the answer obeys its call: by whole days (a range, today's side
 * of upcoming and past items) or whole years (a year), an item's other dates along with the bound one (an end
 * follows its start).
 */

/** A date moved by whole years (the same form), undefined where the day does not exist that year (February 29). */
function shiftYears(value: string, years: number): string | undefined {
  const moved = `${String(Number(value.slice(0, 4)) + years).padStart(4, "0")}${value.slice(4)}`;
  const day = dayOf(moved);
  if (day === undefined || Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) return undefined;
  return moved;
}

/** Moves every other date of an item by the same days (or years) as its bound date, lists of dates too (`bridgeDays`). */
export function shiftSiblings(edits: Edits, item: unknown, itemPointer: string, except: string, days: number, years = 0): void {
  if (!isObject(item) || (days === 0 && years === 0)) return;
  const move = (v: string): string | undefined => (years !== 0 ? shiftYears(v, years) : shiftDays(v, days));
  for (const [k, v] of Object.entries(item)) {
    const pointer = `${itemPointer}/${pointerSegment(k)}`;
    if (pointer === except || edits.pinned.has(pointer)) continue;
    if (typeof v === "string" && dayOf(v) !== undefined) {
      const moved = move(v);
      if (moved !== undefined) edits.follow(item, k, pointer, moved);
    } else if (Array.isArray(v) && v.length > 0 && v.every((d) => typeof d === "string" && dayOf(d) !== undefined)) {
      const moved = (v as string[]).map(move);
      if (moved.every((d): d is string => d !== undefined)) edits.follow(item, k, pointer, moved);
    }
  }
}

/** How far (in days) from a record's own day its other moments may lie and still be that day's (an arrival the next morning). */
const SAME_OCCASION_DAYS = 2;

/**
 * Moves a record's own moments with its day: when a call names the day (`getFlightStatus(date=2025-12-03)` over an
 * example of 2025-07-11), the record's other dates and times on or near the old day (`scheduledDeparture`,
 * `estimatedArrival`, a quote's `timestamp`) move by the same days, keeping their times; dates far from it (a
 * `foundedOn`, a `createdAt` months before) are other occasions and stay. Nested objects of the record count
 * (`departure.scheduled`), lists inside it do not.
 */
export function shiftMoments(edits: Edits, record: unknown, recordPointer: string, except: string, oldDay: string, days: number, depth = 0): void {
  if (!isObject(record) || days === 0 || !Number.isFinite(days) || depth > 2) return;
  for (const [k, v] of Object.entries(record)) {
    const pointer = `${recordPointer}/${pointerSegment(k)}`;
    if (pointer === except || edits.pinned.has(pointer)) continue;
    if (isObject(v)) {
      shiftMoments(edits, v, pointer, except, oldDay, days, depth + 1);
      continue;
    }
    const day = typeof v === "string" ? dayOf(v) : undefined;
    if (day === undefined || Math.abs(daysBetween(oldDay, day)) > SAME_OCCASION_DAYS) continue;
    const moved = shiftDays(v as string, days);
    if (moved !== v) edits.follow(record, k, pointer, moved);
  }
}

/** How many names a list field's path goes below its item (`holidays[].date` -> 1, `tags[]` -> 0), by field. */
const depthsBelowItem = new Map<string, number | undefined>();

function depthBelowItem(field: string): number | undefined {
  if (depthsBelowItem.has(field)) return depthsBelowItem.get(field);
  const list = listOf(field);
  const rest = list === undefined ? undefined : field.slice(list.length).replace(/^\./, "");
  const depth = rest === undefined ? undefined : rest === "" ? 0 : rest.split(".").length;
  if (depthsBelowItem.size > 10_000) depthsBelowItem.clear();
  depthsBelowItem.set(field, depth);
  return depth;
}

/** The item holding a spot of a list field (`holidays[].date` -> the holiday), and its pointer. */
export function itemOf(body: unknown, spot: FieldSpot, field: string): { item: unknown; pointer: string } | undefined {
  const depth = depthBelowItem(field);
  if (depth === undefined) return undefined;
  // A field of the item itself (the common case): the spot's holder is the item.
  if (depth === 1) return { item: spot.holder, pointer: spot.pointer.slice(0, spot.pointer.lastIndexOf("/")) };
  const parts = spot.pointer.split("/");
  const pointer = parts.slice(0, parts.length - depth).join("/");
  return { item: getAt(body, pointer), pointer };
}

/**
 * Dates an answer by the simulated `today` (the binding's argument, when given, names the day and its own
 * binding applies instead): the day field says today, keeping its time; a list of upcoming items moves
 * forward so that its first comes today, a list of past ones back so that its last came today, each item
 * with its other dates and all by the same days (a forecast stays a run of days, a list keeps its order).
 */
export function applyToday(out: unknown, b: TodayBinding, argGiven: boolean, today: string, edits: Edits): void {
  if (argGiven) return;
  if (b.bound === "equals") {
    for (const spot of locate(out, b.field)) {
      // Today, and for what already happened (`observedAt`) not later today than the simulated now.
      const stamp = valueKindOf(lastName(b.field)) === "stamp";
      const dated = typeof spot.value === "string" && dayOf(spot.value) !== undefined ? `${today}${spot.value.slice(10)}` : undefined;
      const value = dated !== undefined && stamp ? notAfterNow(dated, today) : dated;
      if (value !== undefined && value !== spot.value) edits.write(spot, value);
      else if (typeof spot.value === "string") edits.pinned.add(spot.pointer);
    }
    return;
  }
  // The dated spots by the list holding their items (one group for spots outside lists).
  const groups = new Map<unknown, Array<{ spot: FieldSpot; day: string }>>();
  for (const spot of locate(out, b.field)) {
    const day = dayOf(spot.value);
    if (typeof spot.value !== "string" || day === undefined) continue;
    const holder = itemOf(out, spot, b.field);
    const list = holder === undefined ? undefined : getAt(out, holder.pointer.slice(0, holder.pointer.lastIndexOf("/")));
    const group = groups.get(list) ?? [];
    group.push({ spot, day });
    groups.set(list, group);
  }
  for (const group of groups.values()) {
    const days = group.map((g) => g.day).sort();
    const edge = b.bound === "min" ? (days[0] as string) : (days[days.length - 1] as string);
    if (b.starts === true ? edge === today : b.bound === "min" ? edge >= today : edge <= today) continue;
    const shift = daysBetween(edge, today);
    if (!Number.isFinite(shift)) continue;
    for (const { spot } of group) {
      edits.write(spot, shiftDays(spot.value as string, shift));
      const holder = itemOf(out, spot, b.field);
      if (holder) shiftSiblings(edits, holder.item, holder.pointer, spot.pointer, shift);
    }
    // The answer's own stamps (`generatedAt`, `asOf`) move with its list: a forecast is not issued after its days.
    if (isObject(out)) {
      for (const [k, v] of Object.entries(out)) {
        if (typeof v === "string" && STAMP.test(k) && dayOf(v) !== undefined && !edits.pinned.has(`/${pointerSegment(k)}`)) edits.follow(out, k, `/${pointerSegment(k)}`, shiftDays(v, shift));
      }
    }
  }
}

/** Names of an answer's own time stamps: when it was made, updated or fetched. */
const STAMP = /^(generated|updated|retrieved|fetched|issued|computed|produced|refreshed)_?(at|on|time|date)?$|^(as_?of|last_?updated|last_?update|updated|issue_?time|issue_?date|report_?time)$/i;
