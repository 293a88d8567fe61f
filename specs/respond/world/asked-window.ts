import { isObject, pointerSegment, type Json } from "../../json-object.js";
import { instantLike, instantOf } from "../../synthesize/world/day-arithmetic.js";
import { REFERENCE_DATE } from "../../synthesize/world/simulated-today.js";
import { norm } from "../../synthesize/world/entity-shape.js";

/**
 * An answer about the last N hours or days (`getTrendingTopics(hours=34)`, `getStats(days=7)`) spans them: the
 * window it names (`from`/`to`, `start`/`end`, `since`/`until`, at its root or in the one object that holds it,
 * `period: {start, end}`) is N hours or days long. The end nearer the simulated now stays; the other moves, written
 * as it was; the window of an operation that looks back (trends, history) ends by now. A window of dates counts its days either way (`2025-05-25` to `2025-06-01` is the last 7 days, or 8).
 */

const UNIT_MS: Readonly<Record<string, number>> = { minutes: 60_000, mins: 60_000, hours: 3_600_000, hrs: 3_600_000, days: 86_400_000, weeks: 604_800_000 };

/** Arguments that ask for a span of time back or ahead (`hours`, `lastDays`, `lookback_hours`, `window_minutes`), and its unit. */
const DURATION = /^(?:last|past|lookback|window|period|timewindow|range|within)?(minutes|mins|hours|hrs|days|weeks)(?:back|ago)?$/;

/** The window ends an answer names, as pairs of normalized field names. */
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["from", "to"],
  ["start", "end"],
  ["since", "until"],
  ["begin", "end"],
  ["starttime", "endtime"],
  ["startdate", "enddate"],
  ["startat", "endat"],
  ["fromdate", "todate"],
  ["periodstart", "periodend"],
  ["windowstart", "windowend"],
];

/** The unit (in milliseconds) of an argument that asks for a span of time, if it is one. */
export function durationUnit(argName: string): number | undefined {
  const m = DURATION.exec(norm(argName));
  return m?.[1] !== undefined ? UNIT_MS[m[1]] : undefined;
}

/** The span of time a call asks its answer to cover, in milliseconds (its own value, else the parameter's default), if any. */
export function askedWindow(args: Json, defaults: ReadonlyMap<string, unknown>, names: readonly string[]): { arg: string; ms: number; value: number } | undefined {
  for (const arg of names) {
    const unit = durationUnit(arg);
    const raw = args[arg] ?? defaults.get(arg);
    const value = typeof raw === "string" && /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
    if (unit !== undefined && typeof value === "number" && Number.isFinite(value) && value > 0) return { arg, ms: value * unit, value };
  }
  return undefined;
}

/** A window an answer names: its holder, pointer, and the keys of its two ends. */
export interface NamedWindow {
  holder: Json;
  pointer: string;
  startKey: string;
  endKey: string;
}

/** The windows an answer names (at its root, and in its direct object fields). */
export function namedWindows(body: unknown): NamedWindow[] {
  const out: NamedWindow[] = [];
  const look = (holder: Json, pointer: string): void => {
    const keys = new Map(Object.keys(holder).map((k) => [norm(k), k]));
    for (const [a, b] of PAIRS) {
      const startKey = keys.get(a);
      const endKey = keys.get(b);
      if (startKey === undefined || endKey === undefined) continue;
      if (instantOf(holder[startKey]) === undefined || instantOf(holder[endKey]) === undefined) continue;
      out.push({ holder, pointer, startKey, endKey });
      return;
    }
  };
  if (!isObject(body)) return out;
  look(body, "");
  for (const [k, v] of Object.entries(body)) if (isObject(v)) look(v, `/${pointerSegment(k)}`);
  return out;
}

/** Whether a window spans `ms` (a window of dates: that many days, or one fewer, counted either way). */
export function spans(window: NamedWindow, ms: number): boolean {
  const start = instantOf(window.holder[window.startKey]);
  const end = instantOf(window.holder[window.endKey]);
  if (start === undefined || end === undefined) return true;
  const dates = typeof window.holder[window.startKey] === "string" && /^\d{4}-\d\d-\d\d$/.test(String(window.holder[window.startKey]).trim());
  if (!dates) return Math.abs(end - start - ms) < 60_000;
  const days = Math.round((end - start) / 86_400_000);
  const asked = Math.round(ms / 86_400_000);
  return days === asked || days === asked - 1;
}

/** Operations about what is to come (a forecast's window may lie ahead); the others look back. */
const AHEAD = /forecast|upcoming|future|next|schedul|planned|predict|ahead|outlook|agenda|calendar/i;

/** Whether an operation (its name and path) looks back over time that has passed (trends, history, stats), not ahead. */
export function looksBack(toolName: string): boolean {
  return !AHEAD.test(toolName);
}

/**
 * Makes each window the answer names span `ms`: the end nearer the simulated now stays, the other moves (through
 * `write`). A window that looks back (`lookback`: trends of the last 34 hours) ends by now: one that ends later
 * ends now.
 */
export function keepWindow(body: unknown, ms: number, lookback: boolean, write: (holder: Json, key: string, pointer: string, value: unknown) => void): void {
  const now = REFERENCE_DATE.getTime();
  for (const w of namedWindows(body)) {
    const start = instantOf(w.holder[w.startKey]) as number;
    const end = instantOf(w.holder[w.endKey]) as number;
    const at = (key: string): string => `${w.pointer}/${pointerSegment(key)}`;
    if (lookback && end > now) {
      const newEnd = instantLike(now, w.holder[w.endKey]);
      const newStart = instantLike(now - ms, w.holder[w.startKey]);
      if (newEnd === undefined || newStart === undefined) continue;
      write(w.holder, w.endKey, at(w.endKey), newEnd);
      write(w.holder, w.startKey, at(w.startKey), newStart);
      continue;
    }
    if (spans(w, ms)) continue;
    const endStays = Math.abs(end - now) <= Math.abs(start - now);
    const [key, value] = endStays ? [w.startKey, instantLike(end - ms, w.holder[w.startKey])] : [w.endKey, instantLike(start + ms, w.holder[w.endKey])];
    if (value !== undefined) write(w.holder, key, at(key), value);
  }
}
