import type { Json } from "../../json-object.js";
import { snakeName } from "../../snake-name.js";
import { daysBetween, instantLike, instantOf } from "./day-arithmetic.js";
import { REFERENCE_DATE, SIMULATED_TODAY } from "./simulated-today.js";
import { pointerSegment } from "../../json-object.js";
import { pinnedValue, set, type Ctx } from "./coherence-context.js";

/**
 * A record's stamps tell one story: it is not removed before it was listed, updated before it was created, or over
 * before it began (a rental listed yesterday and removed in 2022); a count of days since a stamp is the days since
 * it (`daysOnMarket` of a listing listed yesterday is 1, not 43); and a record whose status says it is live (`Active`,
 * `open`) has no stamp of its removal or closing.
 */

/** Stems of stamps of a record's coming to be, and of what follows it (a lifecycle). */
const MADE = new Set(["created", "registered", "joined", "signed_up", "listed", "published", "posted", "submitted", "issued", "opened", "activated", "first_seen"]);
const LATER = new Set(["updated", "modified", "removed", "delisted", "closed", "deleted", "archived", "cancelled", "canceled", "deactivated", "resolved", "completed", "last_seen", "expired", "expires", "expiry", "expiration"]);
/** Stems of the ends of a span. */
const SPAN_START = new Set(["start", "started", "begin", "begins", "from", "valid_from", "effective", "check_in"]);
const SPAN_END = new Set(["end", "ended", "ends", "finished", "until", "to", "valid_to", "valid_until", "check_out"]);
/** Ends a live record has not reached. */
const GONE = new Set(["removed", "delisted", "closed", "deleted", "archived", "cancelled", "canceled", "deactivated"]);
const LIVE = /^(active|open|listed|live|available|published|enabled|for_rent|for_sale|on_market)$/;
/** Counts of days since a lifecycle start (`daysOnMarket`), and the stems they count from, in order. */
const DAYS_SINCE_START = /^(days_on_market|days_listed|days_active|days_open|days_live|days_on_site|dom)$/;
const SINCE = /^days_since_([a-z_]+)$|^([a-z_]+)_days_ago$/;

/** The stem of a stamp's name (`listedDate` -> `listed`, `created_at` -> `created`, `date_removed` -> `removed`). */
export function stampStem(key: string): string {
  return snakeName(key).replace(/_(at|on|date|time|datetime|timestamp|ts)$/, "").replace(/^(date|time)_/, "");
}

/** What a record's fields say of its timeline: ordered pairs of stamps, counts of days, its status. */
export interface Timeline {
  /** `[earlier, later, lifecycle]` keys: the later is not before the earlier. */
  pairs: ReadonlyArray<readonly [string, string, boolean]>;
  /** `[count, stamp]` keys: the count is the whole days from the stamp to now. */
  days: ReadonlyArray<readonly [string, string]>;
  /** The ends a live record has not reached, and its status key. */
  gone: readonly string[];
  status?: string;
}

/** The timeline of a record's keys, if it has one to keep. */
export function timelineOf(keys: readonly string[]): Timeline | undefined {
  const stems = new Map(keys.map((k) => [k, stampStem(k)]));
  const with_ = (set: ReadonlySet<string>): string[] => keys.filter((k) => set.has(stems.get(k) ?? ""));
  const pairs: Array<readonly [string, string, boolean]> = [];
  for (const a of with_(MADE)) for (const b of with_(LATER)) pairs.push([a, b, true]);
  for (const a of with_(SPAN_START)) for (const b of with_(SPAN_END)) pairs.push([a, b, false]);
  const days: Array<readonly [string, string]> = [];
  for (const k of keys) {
    const n = snakeName(k);
    const since = SINCE.exec(n);
    const stem = since ? (since[1] ?? since[2]) : DAYS_SINCE_START.test(n) ? ["listed", "published", "opened", "created"].find((s) => with_(new Set([s])).length > 0) : undefined;
    const stamp = stem !== undefined ? keys.find((s) => s !== k && stems.get(s) === stem) : undefined;
    if (stamp !== undefined) days.push([k, stamp]);
  }
  // `status` first: a `state` beside it is often where the record is (`TX`).
  const status = ["status", "listing_status", "state"].map((n) => keys.find((k) => snakeName(k) === n)).find((k) => k !== undefined);
  const gone = status !== undefined ? with_(GONE) : [];
  if (pairs.length === 0 && days.length === 0 && gone.length === 0) return undefined;
  return { pairs, days, gone, ...(status !== undefined ? { status } : {}) };
}

/** Makes a record's stamps tell one story (through the coherence context: pinned fields stay, edits can be undone). */
export function cohereTimeline(ctx: Ctx, o: Json, at: string, timeline: Timeline): void {
  const now = REFERENCE_DATE.getTime();
  const status = timeline.status !== undefined ? o[timeline.status] : undefined;
  // A live record's removal stamp is left out (put back, like any edit, where its schema requires it).
  if (typeof status === "string" && LIVE.test(snakeName(status))) for (const k of timeline.gone) if (instantOf(o[k]) !== undefined) drop(ctx, o, k, at);
  for (const [a, b, lifecycle] of timeline.pairs) {
    const start = instantOf(o[a]);
    const end = instantOf(o[b]);
    if (start === undefined || end === undefined || end >= start) continue;
    const gap = start - end;
    if (pinnedValue(ctx, o, b, at) === undefined) {
      // The later stamp as far after the earlier as it was before it; what already happened, by now.
      const moved = lifecycle && start <= now ? Math.min(start + gap, now) : start + gap;
      set(ctx, o, b, instantLike(moved, o[b]), at);
    } else if (pinnedValue(ctx, o, a, at) === undefined) set(ctx, o, a, instantLike(end - gap, o[a]), at);
  }
  for (const [count, stamp] of timeline.days) {
    const t = instantOf(o[stamp]);
    if (t === undefined || t > now || typeof o[count] !== "number") continue;
    set(ctx, o, count, daysBetween(new Date(t).toISOString(), SIMULATED_TODAY), at);
  }
}

/** Takes a field out of a record unless a binding pinned it (undone, like every edit, when the schema rejects the record). */
function drop(ctx: Ctx, o: Json, key: string, at: string): void {
  const pointer = `${at}/${pointerSegment(key)}`;
  if (ctx.pinned.has(pointer) || !(key in o)) return;
  ctx.edits.push({ holder: o, key, before: o[key], after: undefined, pointer });
  delete o[key];
}
