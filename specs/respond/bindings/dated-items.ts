import { listOf, locate, type FieldSpot } from "../../catalog/field-path.js";
import { isObject, pointerSegment } from "../../json-object.js";
import { getAt } from "../../json-pointer.js";
import type { TodayBinding } from "./binding-types.js";
import { dayOf } from "./binding-values.js";
import type { Edits } from "./answer-edits.js";

/**
 * Dates of an answer's items, moved so that the answer obeys its call: by whole days (a range, today's side
 * of upcoming and past items) or whole years (a year), an item's other dates along with the bound one (an end
 * follows its start).
 */

/** A date moved by whole days (the same form: date or date-time). */
export function shiftDays(value: string, days: number): string {
  const day = dayOf(value);
  if (day === undefined) return value;
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return `${d.toISOString().slice(0, 10)}${value.slice(10)}`;
}

/** Days from date `a` to date `b` (`YYYY-MM-DD`). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** A date moved by whole years (the same form), undefined where the day does not exist that year (February 29). */
function shiftYears(value: string, years: number): string | undefined {
  const moved = `${String(Number(value.slice(0, 4)) + years).padStart(4, "0")}${value.slice(4)}`;
  const day = dayOf(moved);
  if (day === undefined || Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) return undefined;
  return moved;
}

/** Moves every other date of an item by the same days (or years) as its bound date. */
export function shiftSiblings(edits: Edits, item: unknown, itemPointer: string, except: string, days: number, years = 0): void {
  if (!isObject(item) || (days === 0 && years === 0)) return;
  for (const [k, v] of Object.entries(item)) {
    const pointer = `${itemPointer}/${pointerSegment(k)}`;
    if (pointer === except || typeof v !== "string" || dayOf(v) === undefined || edits.pinned.has(pointer)) continue;
    const moved = years !== 0 ? shiftYears(v, years) : shiftDays(v, days);
    if (moved !== undefined) edits.follow(item, k, pointer, moved);
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
 * binding applies instead): the day field says today, keeping its time; upcoming items move to the days after
 * it and past ones to the days before it, with their other dates. Returns the lists that were in date order and had dates
 * moved (to be put back in order once the edits are settled: {@link sortByDate}).
 */
export function applyToday(out: unknown, b: TodayBinding, argGiven: boolean, today: string, edits: Edits): unknown[][] {
  if (argGiven) return [];
  if (b.bound === "equals") {
    for (const spot of locate(out, b.field)) {
      if (typeof spot.value === "string" && dayOf(spot.value) !== undefined && dayOf(spot.value) !== today) edits.write(spot, `${today}${spot.value.slice(10)}`);
      else if (typeof spot.value === "string") edits.pinned.add(spot.pointer);
    }
    return [];
  }
  const spots = locate(out, b.field);
  const lists = new Map<unknown[], boolean>();
  const moved = new Set<unknown[]>();
  let n = 0;
  for (const spot of spots) {
    const d = dayOf(spot.value);
    if (typeof spot.value !== "string" || d === undefined) continue;
    const holder = itemOf(out, spot, b.field);
    const list = holder === undefined ? undefined : getAt(out, holder.pointer.slice(0, holder.pointer.lastIndexOf("/")));
    if (Array.isArray(list) && !lists.has(list)) lists.set(list, inDateOrder(list, b.field));
    if (b.bound === "min" ? d >= today : d <= today) continue;
    // The next days after today (or the last ones before it), a few days apart, in the order of the items.
    const target = b.bound === "min" ? shiftDays(today, n * 4) : shiftDays(today, -(n * 4 + 1));
    n++;
    const days = daysBetween(d, target);
    edits.write(spot, shiftDays(spot.value, days));
    if (holder) shiftSiblings(edits, holder.item, holder.pointer, spot.pointer, days);
    if (Array.isArray(list)) moved.add(list);
  }
  return [...moved].filter((list) => lists.get(list) === true);
}

/** The day of an item's bound date field (the field's path below the item: `date`, `event.start`). */
function itemDay(item: unknown, below: string): string {
  const spot = locate(item, below)[0];
  return dayOf(spot?.value) ?? "";
}

function belowItem(field: string): string {
  const list = listOf(field) ?? "";
  return field.slice(list.length).replace(/^\./, "");
}

function inDateOrder(list: readonly unknown[], field: string): boolean {
  const below = belowItem(field);
  for (let i = 1; i < list.length; i++) if (itemDay(list[i - 1], below) > itemDay(list[i], below)) return false;
  return true;
}

/** Puts a list's items in the order of a date field (`holidays[].date`), in place. */
export function sortByDate(list: unknown[], field: string): void {
  const below = belowItem(field);
  list.sort((a, c) => (itemDay(a, below) < itemDay(c, below) ? -1 : itemDay(a, below) > itemDay(c, below) ? 1 : 0));
}
