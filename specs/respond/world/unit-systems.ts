import { isObject, pointerSegment, type Json } from "../../json-object.js";
import { norm } from "../../synthesize/world/entity-shape.js";
import type { Edits } from "../bindings/answer-edits.js";

/**
 * Measurements follow the unit system an answer is in: a weather answer asked in `imperial` units gives its
 * temperatures in °F and its wind in mph, in `standard` units in kelvin and m/s, when the example it comes from
 * was written in another system (its own `units` field, else the parameter's default, says which). A `units:
 * imperial` beside 25.6 degrees would be a summer day in Celsius, or a frost in Fahrenheit.
 */

/** A unit system as APIs name it. */
export type UnitSystem = "metric" | "imperial" | "standard";

const SYSTEMS: Readonly<Record<string, UnitSystem>> = {
  metric: "metric",
  si: "metric",
  celsius: "metric",
  c: "metric",
  imperial: "imperial",
  us: "imperial",
  fahrenheit: "imperial",
  f: "imperial",
  standard: "standard",
  kelvin: "standard",
  k: "standard",
};

/** The unit system a value names (`imperial`, `SI`, `fahrenheit`), if any. */
export function unitSystemOf(value: unknown): UnitSystem | undefined {
  return typeof value === "string" ? SYSTEMS[value.trim().toLowerCase()] : undefined;
}

/** Names (normalized) of the fields that say which system an answer is in. */
export const UNIT_FIELDS = new Set(["units", "unit", "unitsystem", "measurementsystem", "system"]);

const TEMPERATURE = /^(temp|temperature|feelslike|apparenttemperature|temp(min|max|day|night|eve|morn|low|high)|(min|max|low|high)temp(erature)?|dewpoint|heatindex|windchill|high|low|min|max|day|night|eve|morn)$/;
const SPEED = /^(windspeed|windgust|gust|gusts|speed)$/;
/** Objects whose `min`, `max`, `day`... are temperatures (`temp: {min, max}`). */
const TEMPERATURE_HOLDER = /^(temp|temperature|temperatures|feelslike)$/;
const BARE = /^(high|low|min|max|day|night|eve|morn)$/;

function toCelsius(v: number, from: UnitSystem): number {
  return from === "imperial" ? ((v - 32) * 5) / 9 : from === "standard" ? v - 273.15 : v;
}

function fromCelsius(c: number, to: UnitSystem): number {
  return to === "imperial" ? (c * 9) / 5 + 32 : to === "standard" ? c + 273.15 : c;
}

/** m/s for metric and standard, mph for imperial. */
function speedIn(v: number, from: UnitSystem, to: UnitSystem): number {
  const ms = from === "imperial" ? v / 2.23694 : v;
  return to === "imperial" ? ms * 2.23694 : ms;
}

function rounded(v: number, like: number): number {
  const decimals = Number.isInteger(like) ? 0 : Math.min(2, Math.max(1, (String(like).split(".")[1] ?? "").length));
  return Number(v.toFixed(decimals));
}

/** Writes a value where it is (the caller records it so that it can be undone). */
export type UnitWrite = (holder: Json, key: string, pointer: string, value: unknown) => void;

/** Converts an answer's temperatures and wind speeds from one unit system to another, through `write`. */
export function convertUnits(body: unknown, from: UnitSystem, to: UnitSystem, write: UnitWrite, at = "", holder = "", depth = 0): void {
  if (from === to || depth > 8) return;
  if (Array.isArray(body)) {
    body.forEach((v, i) => convertUnits(v, from, to, write, `${at}/${i}`, holder, depth + 1));
    return;
  }
  if (!isObject(body)) return;
  for (const k of Object.keys(body)) {
    const v = body[k];
    const n = norm(k);
    const pointer = `${at}/${pointerSegment(k)}`;
    if (typeof v === "number") {
      const temperature = TEMPERATURE.test(n) && (!BARE.test(n) || TEMPERATURE_HOLDER.test(holder) || n === "high" || n === "low");
      if (temperature) write(body, k, pointer, rounded(fromCelsius(toCelsius(v, from), to), v));
      else if (SPEED.test(n)) write(body, k, pointer, rounded(speedIn(v, from, to), v));
    } else if (typeof v === "object" && v !== null) convertUnits(v, from, to, write, pointer, n, depth + 1);
  }
}

/**
 * The unit system the spec writes its measurements in: its `units` parameter's default, else the `units` field of
 * its examples. A synthesized answer draws its numbers from the spec's examples and ranges, so they are in this
 * system whatever unit label synthesis drew beside them.
 */
export function specUnitSystem(defaults: ReadonlyMap<string, unknown>, examples: readonly unknown[]): UnitSystem | undefined {
  for (const [k, v] of defaults) if (UNIT_FIELDS.has(norm(k)) && unitSystemOf(v) !== undefined) return unitSystemOf(v);
  for (const example of examples) {
    if (!isObject(example)) continue;
    for (const [k, v] of Object.entries(example)) if (UNIT_FIELDS.has(norm(k)) && unitSystemOf(v) !== undefined) return unitSystemOf(v);
  }
  return undefined;
}

/**
 * The unit systems an answer moves between: its own `units` field rewritten by a binding (`metric` to `imperial`),
 * else, for an answer that does not say, a `units` argument against the parameter's default. `drawnIn` is the
 * system the answer's numbers are in when its label cannot say (a synthesized answer: {@link specUnitSystem}).
 */
export function unitSystemChange(edits: Edits, args: Json, defaults: ReadonlyMap<string, unknown>, out: unknown, drawnIn?: UnitSystem): { from: UnitSystem; to: UnitSystem } | undefined {
  if (drawnIn !== undefined && isObject(out)) {
    // What the answer now says it is in (a binding's label, or the one synthesis drew) against what its numbers are in.
    for (const [k, v] of Object.entries(out)) {
      const to = UNIT_FIELDS.has(norm(k)) ? unitSystemOf(v) : undefined;
      if (to !== undefined) return to !== drawnIn ? { from: drawnIn, to } : undefined;
    }
  }
  for (const e of edits.list) {
    if (typeof e.key !== "string" || !UNIT_FIELDS.has(norm(e.key))) continue;
    const from = unitSystemOf(e.before);
    const to = unitSystemOf(e.after);
    if (from !== undefined && to !== undefined && from !== to) return { from, to };
  }
  if (isObject(out) && Object.keys(out).some((k) => UNIT_FIELDS.has(norm(k)))) return undefined;
  for (const [k, v] of Object.entries(args)) {
    if (!UNIT_FIELDS.has(norm(k))) continue;
    const to = unitSystemOf(v);
    const from = unitSystemOf(defaults.get(k));
    if (from !== undefined && to !== undefined && from !== to) return { from, to };
  }
  return undefined;
}
