import { isObject, pointerSegment, type Json } from "../../json-object.js";
import { snakeName } from "../../snake-name.js";
import { REFERENCE_DATE } from "../../synthesize/world/simulated-today.js";
import { instantLike } from "../../synthesize/world/day-arithmetic.js";

/**
 * A record the call just made was made now, and one it just changed was changed now: its stamps of making and
 * last change (`createdAt`, `date_added`, `updated_at`) are the simulated now, written in the form the answer
 * had (a date, a date-time in its zone, epoch seconds or milliseconds); the stamps of what a new record has not
 * done yet (`lastLoginAt` of a user who just registered, `lastActivatedAt` of a new scene) are null, or left out
 * where its schema lets them be. A user registered today is not "created 2024-12-26".
 */

/** How the call touched the record it answers with. */
export type Touch = "made" | "changed";

/** Stamps of a record's making (`created_at`, `date_added`, `registeredAt`, an order's `placed_at`). */
const MADE = /^(created|creation|registered|added|joined|signed_up|inserted|submitted|placed|booked|ordered|requested)(_(at|on|time|date|datetime|timestamp))?$|^(date|time)_(created|added|registered|submitted|placed)$/;
/** Stamps of a record's last change (`updatedAt`, `last_modified`, `date_updated`). */
const CHANGED = /^(last_)?(updated|modified|changed|edited)(_(at|on|time|date|datetime|timestamp))?$|^(date|time)_(updated|modified|changed)$/;
/** Stamps of what a record does after it is made (`lastLoginAt`, `last_used_at`, `lastActivatedAt`). */
const NOT_YET = /^last_(?!(updated|modified|changed|edited|name)(_|$))[a-z]+(_[a-z]+)?_(at|on|time|date|datetime|timestamp)$|^last_(login|seen|active|activity|used|accessed|visit|played|run|ping|heartbeat|activated|triggered|sync|synced)$/;

const kinds = new Map<string, "now" | "never" | undefined>();

/** What a field of a record the call touched becomes: `now`, `never` (not done yet), or nothing (undefined). */
export function touchedStamp(field: string, touch: Touch): "now" | "never" | undefined {
  const key = `${touch}:${field}`;
  if (kinds.has(key)) return kinds.get(key);
  const kind = kindOf(field, touch);
  if (kinds.size > 20_000) kinds.clear();
  kinds.set(key, kind);
  return kind;
}

function kindOf(field: string, touch: Touch): "now" | "never" | undefined {
  const n = snakeName(field);
  if (CHANGED.test(n)) return "now";
  if (touch === "changed") return undefined;
  if (MADE.test(n)) return "now";
  return NOT_YET.test(n) ? "never" : undefined;
}

/** Whether a record the call touches has a field {@link touchedStamp} would set (so that the answer is worth looking at). */
export function hasTouchedStamp(fields: readonly string[], touch: Touch): boolean {
  return fields.some((f) => touchedStamp(f, touch) !== undefined);
}

/** The simulated now written like `value` (`2024-12-26T12:00:00Z` -> `2025-06-01T12:00:00Z`, a date as a date, epoch seconds as seconds); undefined when the value is no stamp. */
export function nowLike(value: unknown): string | number | undefined {
  if (typeof value !== "string") return instantLike(NOW, value);
  // Now in a form depends only on the form (its zone, seconds and fraction): worked out once per form.
  const form = value.replace(/\d/g, "0");
  let hit = nowByForm.get(form);
  if (hit === undefined && !nowByForm.has(form)) {
    hit = instantLike(NOW, value) as string | undefined;
    if (nowByForm.size > 1000) nowByForm.clear();
    nowByForm.set(form, hit);
  }
  // A zone offset is part of the form only as digits: the same form with another offset is another value.
  return hit !== undefined && /[+-]\d\d:?\d\d$/.test(value) ? (instantLike(NOW, value) as string) : hit;
}

const NOW = REFERENCE_DATE.getTime();
const nowByForm = new Map<string, string | undefined>();

/** Writes where the answer's edits are kept (so that what the schema rejects can be undone). */
export interface StampWrites {
  write(holder: Json, key: string, pointer: string, value: unknown): void;
  remove(holder: Json, key: string, pointer: string): void;
}

/** Whether the schema of the touched record (at the answer's root, or under `wrapper`) takes `value` for `key` (undefined: leaving it out). */
export type StampFits = (wrapper: string | undefined, key: string, value: unknown) => boolean;

/**
 * Sets the stamps of the record an answer is (the answer itself, else the one object it wraps, `{user: {...}}`)
 * as of now; fields the call gave (`given`: the request body) are as given.
 */
export function stampTouched(body: unknown, touch: Touch, given: Readonly<Record<string, unknown>>, fits: StampFits, writes: StampWrites): void {
  if (!isObject(body)) return;
  let record = body;
  let wrapper: string | undefined;
  let stamped = false;
  for (const k in body) if (touchedStamp(k, touch) !== undefined) stamped = true;
  if (!stamped) {
    const wrapped = Object.entries(body).filter((e): e is [string, Json] => isObject(e[1]));
    if (wrapped.length !== 1 || wrapped[0] === undefined) return;
    [wrapper, record] = wrapped[0];
  }
  const base = wrapper === undefined ? "" : `/${pointerSegment(wrapper)}`;
  for (const [k, v] of Object.entries(record)) {
    if (wrapper === undefined && Object.prototype.hasOwnProperty.call(given, k)) continue;
    const at = `${base}/${pointerSegment(k)}`;
    const kind = touchedStamp(k, touch);
    const now = kind === undefined ? undefined : nowLike(v);
    if (now === undefined || now === v) continue;
    if (kind === "now") writes.write(record, k, at, now);
    else if (v !== null) {
      if (fits(wrapper, k, null)) writes.write(record, k, at, null);
      else if (fits(wrapper, k, undefined)) writes.remove(record, k, at);
      else writes.write(record, k, at, now);
    }
  }
}
