import { isObject, pointerSegment, type Json } from "../../json-object.js";
import { objectShape } from "../../catalog/object-properties.js";
import { createRng, deriveSeed } from "../../seed.js";
import { cloneJson } from "../../synthesize/synthesis-rules.js";
import { synthesize } from "../../synthesize/synthesize.js";
import { shiftDays } from "../../synthesize/world/day-arithmetic.js";
import type { ResponseContext } from "../responder.js";
import { listItemPointer, listSlot } from "../state-list.js";
import type { Edits } from "./answer-edits.js";
import type { SpanBinding } from "./binding-types.js";
import { MAX_SPAN_ITEMS, spanLength } from "./span-args.js";

/**
 * A span a call asks for (`getForecast(days=5)`, `hourly(hours=12)`) is the length of its answer's dated list: a
 * forecast of five days lists five days. A shorter list (an example's one day) grows by items like its own, each
 * dated one step after the last (the list's own step, else a day or an hour), with its measurements drifting a
 * little from day to day. Counts that only bound a page (`limit`, `pageSize`) are left alone: fewer matches is an
 * answer too.
 */

const DATE_TIME = /^(\d{4}-\d\d-\d\d)T(\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/;
const DATE_ONLY = /^\d{4}-\d\d-\d\d$/;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Milliseconds since the epoch of a date or date-time as written (no offset: UTC), or undefined. */
function timeOf(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  if (DATE_ONLY.test(value)) {
    const t = Date.parse(`${value}T00:00:00Z`);
    return Number.isFinite(t) ? t : undefined;
  }
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4] ?? "00"}${m[5] ?? ""}${m[6] === undefined ? "Z" : m[6].length === 5 ? `${m[6].slice(0, 3)}:${m[6].slice(3)}` : m[6]}`);
  return Number.isFinite(t) ? t : undefined;
}

/** A date-time moved by some milliseconds in its own form and offset; a date by whole days. */
export function shiftTime(value: string, ms: number): string {
  if (DATE_ONLY.test(value)) return ms % DAY_MS === 0 ? shiftDays(value, ms / DAY_MS) : value;
  const m = DATE_TIME.exec(value);
  const t = timeOf(value);
  if (!m || t === undefined) return value;
  const offset = m[6];
  const offsetMinutes = offset === undefined || offset === "Z" ? 0 : (offset.startsWith("-") ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(-2)));
  const local = new Date(t + ms + offsetMinutes * 60_000).toISOString();
  const seconds = m[4] !== undefined ? `:${local.slice(17, 19)}${m[5] !== undefined ? local.slice(19, 19 + m[5].length) : ""}` : "";
  return `${local.slice(0, 10)}T${local.slice(11, 16)}${seconds}${offset ?? ""}`;
}

/** The field that dates an item: the first top-level string that is a date or date-time. */
function timeKey(item: Json): string | undefined {
  for (const k in item) if (timeOf(item[k]) !== undefined) return k;
  return undefined;
}

/** Names of numbers that stay as they are from one item to the next (where, which, in what order). */
const FIXED_NUMBER = /(^|_)(lat|lon|lng|latitude|longitude|id|year|month|day|hour|index|rank|order|position|code|zone|offset)$|Id$/i;

/**
 * Numbers of a new item: mostly the previous item's, partly its source's (a walk that stays near the example's
 * level), times one factor near 1 (so that a minimum stays below its maximum), rounded as written, within the
 * schema's bounds.
 */
function drift(item: Json, previous: Json, factor: number, bounds: (key: string) => { min?: number; max?: number; fixed: boolean }): void {
  for (const k of Object.keys(item)) {
    const v = item[k];
    const p = previous[k];
    if (typeof v !== "number" || typeof p !== "number" || v === 0 || FIXED_NUMBER.test(k)) continue;
    const b = bounds(k);
    if (b.fixed) continue;
    const decimals = Number.isInteger(v) ? 0 : Math.min(4, (String(v).split(".")[1] ?? "").length);
    let next = Number(((0.7 * p + 0.3 * v) * factor).toFixed(decimals));
    if (b.min !== undefined && next < b.min) next = b.min;
    if (b.max !== undefined && next > b.max) next = b.max;
    item[k] = next;
  }
}

/**
 * Makes the answer's dated list as long as the span asked for (at most its schema's `maxItems` and
 * {@link MAX_SPAN_ITEMS}): new items are copies of the list's own, dated one step apart after the first, with
 * numbers that drift a little (ids are made distinct later, with the list's other repeated ids). Returns whether
 * a body that is the list itself changed (an edit under a field is in `edits`).
 */
export function growToSpan(ctx: ResponseContext, b: SpanBinding, value: unknown, schemaPointer: string | undefined, out: unknown, edits: Edits): boolean {
  const asked = spanLength(value);
  if (b.unit === "item") return asked !== undefined && generateToCount(ctx, b, asked, schemaPointer, out, edits);
  if (asked === undefined || asked < 2) return false;
  const slot = listSlot(out);
  // The bound list under a field of the answer (a body that is the list itself is left as it is).
  if (!slot || slot.field === undefined || `${slot.field}[]` !== b.field || !isObject(out) || slot.items.length === 0 || slot.items.length >= asked) return false;
  const items = slot.items;
  const first = items[0];
  if (!isObject(first) || !items.every(isObject)) return false;
  const key = timeKey(first);
  const start = key === undefined ? undefined : timeOf(first[key]);
  if (key === undefined || start === undefined) return false;
  // The list's own step when its items are evenly after one another, else a day (an hour for hours of date-times).
  const times = (items as Json[]).map((i) => timeOf(i[key]));
  const last = times[times.length - 1];
  const even = items.length >= 2 && last !== undefined && times.every((t, i) => t !== undefined && (i === 0 || t > (times[i - 1] as number)));
  const step = even ? ((last as number) - start) / (items.length - 1) : b.unit === "hour" && !DATE_ONLY.test(String(first[key])) ? HOUR_MS : DAY_MS;
  const itemPointer = listItemPointer(ctx, schemaPointer, slot);
  const itemShape = itemPointer !== undefined ? objectShape(ctx.catalog.registry, "response", itemPointer) : undefined;
  const bounds = (k: string): { min?: number; max?: number; fixed: boolean } => {
    const p = itemShape?.properties[k];
    const s = p !== undefined ? ctx.catalog.registry.resolve("response", p).schema : undefined;
    if (!isObject(s)) return { fixed: false };
    const fixed = s["enum"] !== undefined || s["const"] !== undefined || s["multipleOf"] !== undefined;
    const min = typeof s["minimum"] === "number" ? s["minimum"] : typeof s["exclusiveMinimum"] === "number" ? s["exclusiveMinimum"] + 1e-9 : undefined;
    const max = typeof s["maximum"] === "number" ? s["maximum"] : typeof s["exclusiveMaximum"] === "number" ? s["exclusiveMaximum"] - 1e-9 : undefined;
    return { fixed, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
  };
  const target = Math.min(asked, maxItemsOf(ctx, schemaPointer, slot));
  if (items.length >= target) return false;
  const grown = [...items];
  const rng = createRng(deriveSeed(ctx.seed, "span", b.arg));
  for (let i = items.length; i < target; i++) {
    const source = items[i % items.length] as Json;
    const sourceTime = timeOf(source[key]);
    if (sourceTime === undefined) return false;
    const ms = start + i * step - sourceTime;
    const item = cloneJson(source);
    const dayDelta = Math.floor((sourceTime + ms) / DAY_MS) - Math.floor(sourceTime / DAY_MS);
    for (const k of Object.keys(item)) {
      const v = item[k];
      if (typeof v !== "string" || timeOf(v) === undefined) continue;
      item[k] = DATE_ONLY.test(v) ? shiftDays(v, dayDelta) : shiftTime(v, ms);
    }
    drift(item, grown[i - 1] as Json, 1 + (rng.next() - 0.5) * 0.12, bounds);
    grown.push(item);
  }
  edits.writeKey(out, slot.field, `/${pointerSegment(slot.field)}`, grown);
  return false;
}

/** Most items the answer's list may have: its schema's `maxItems`, at most {@link MAX_SPAN_ITEMS}. */
function maxItemsOf(ctx: ResponseContext, schemaPointer: string | undefined, slot: { field?: string }): number {
  if (schemaPointer === undefined) return MAX_SPAN_ITEMS;
  const listPointer = slot.field === undefined ? schemaPointer : objectShape(ctx.catalog.registry, "response", schemaPointer)?.properties[slot.field];
  const listSchema = listPointer !== undefined ? ctx.catalog.registry.resolve("response", listPointer).schema : undefined;
  const m = isObject(listSchema) ? listSchema["maxItems"] : undefined;
  return typeof m === "number" ? Math.min(m, MAX_SPAN_ITEMS) : MAX_SPAN_ITEMS;
}

/**
 * What a generator makes is as many as asked (`count=5`: five uuids, five quotes): a longer list is cut, a shorter
 * one gets new items synthesized from the list's item schema (ids are made distinct later, as for any list).
 */
function generateToCount(ctx: ResponseContext, b: SpanBinding, asked: number, schemaPointer: string | undefined, out: unknown, edits: Edits): boolean {
  const slot = listSlot(out);
  if (!slot || (slot.field === undefined ? b.field !== "[]" : `${slot.field}[]` !== b.field)) return false;
  const target = Math.min(asked, maxItemsOf(ctx, schemaPointer, slot));
  let items = slot.items;
  if (items.length > target) items = items.slice(0, target);
  else if (items.length < target) {
    const itemPointer = listItemPointer(ctx, schemaPointer, slot);
    if (itemPointer === undefined) return false;
    items = [...items];
    for (let i = items.length, tries = 0; items.length < target && tries < target * 2; i++, tries++) {
      const made = synthesize(ctx.catalog.registry, "response", itemPointer, { seed: deriveSeed(ctx.seed, "span", b.arg, i) });
      if (made.valid) items.push(made.value);
    }
  }
  if (items === slot.items) return false;
  if (slot.field !== undefined && isObject(out)) edits.writeKey(out, slot.field, `/${pointerSegment(slot.field)}`, items);
  else if (Array.isArray(out)) {
    out.splice(0, out.length, ...items);
    return true;
  }
  return false;
}
