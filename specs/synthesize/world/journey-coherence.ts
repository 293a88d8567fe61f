import { AIRPORTS, findCity } from "./world-data.js";
import { isObject, pointerSegment } from "../../json-object.js";
import { keysOf, norm } from "./entity-shape.js";
import { first, pick, set, type Ctx } from "./coherence-context.js";
import { airportOffset, flightMinutes } from "./flight-times.js";
import { daysBetween, shiftDays } from "./day-arithmetic.js";

/**
 * Journeys that hang together: a flight ends somewhere else than it starts, lasts as long as that flight takes,
 * departs and lands on its airports' clocks, has as many stops as legs less one, and a return goes back from
 * where the way out landed.
 */

type Json = Record<string, unknown>;

const JOURNEY_ENDS: ReadonlyArray<readonly [string, string]> = [["from", "to"], ["origin", "destination"], ["departureairport", "arrivalairport"], ["fromairport", "toairport"], ["departurecode", "arrivalcode"]];

/**
 * A journey (a flight segment, a leg, a route) ends somewhere else than it starts, and its count of stops is
 * its segments less one.
 */
export function cohereJourney(ctx: Ctx, o: Json, keys: Map<string, string>, at: string, index: number): void {
  for (const [a, b] of JOURNEY_ENDS) {
    const fromKey = keys.get(a);
    const toKey = keys.get(b);
    if (fromKey === undefined || toKey === undefined) continue;
    const from = o[fromKey];
    const to = o[toKey];
    if (typeof from !== "string" || from !== to || !/^[A-Z]{3}$/.test(from)) continue;
    const toPinned = ctx.pinned.has(`${at}/${pointerSegment(toKey)}`);
    const key = toPinned ? fromKey : toKey;
    if (ctx.pinned.has(`${at}/${pointerSegment(key)}`)) continue;
    // Another airport of the same part of the world (a 3-hour flight from Lisbon lands in Europe, not Tokyo).
    const zone = (iata: string): string | undefined => findCity(AIRPORTS.find((x) => x.iata === iata)?.city ?? "")?.timeZone.split("/")[0];
    const home = zone(from);
    const others = AIRPORTS.filter((x) => x.iata !== from);
    const near = home === undefined ? [] : others.filter((x) => zone(x.iata) === home);
    const other = pick(near.length > 0 ? near : others, ctx.seed, index);
    if (other) set(ctx, o, key, other.iata, at);
  }
  const depKey = first(keys, ["departure", "departuretime", "departsat", "departureat", "departuredatetime"]);
  const arrKey = first(keys, ["arrival", "arrivaltime", "arrivesat", "arrivalat", "arrivaldatetime"]);
  const durKey = first(keys, ["durationminutes", "duration", "durationmin"]);
  // Between two airports the world knows: as long as that flight takes, on each airport's clock.
  const ends = JOURNEY_ENDS.map(([a, b]) => [o[keys.get(a) ?? ""], o[keys.get(b) ?? ""]]).find(([a, b]) => typeof a === "string" && typeof b === "string");
  if (ends !== undefined) flightClock(ctx, o, at, ends[0] as string, ends[1] as string, depKey, arrKey, durKey);
  // It arrives its duration after it departs (in the arrival's own UTC offset).
  const dep = depKey !== undefined ? o[depKey] : undefined;
  const arr = arrKey !== undefined ? o[arrKey] : undefined;
  const minutes = durKey !== undefined ? o[durKey] : undefined;
  if (arrKey !== undefined && typeof dep === "string" && typeof arr === "string" && typeof minutes === "number" && minutes > 0 && minutes < 4000) {
    const offset = /([+-]\d{2}):(\d{2})$/.exec(arr);
    const start = Date.parse(dep);
    if (offset && Number.isFinite(start) && /T\d{2}:\d{2}/.test(arr)) {
      const sign = offset[1]?.startsWith("-") ? -1 : 1;
      const shift = sign * (Math.abs(Number(offset[1])) * 60 + Number(offset[2])) * 60000;
      const local = new Date(start + minutes * 60000 + shift).toISOString().slice(0, 19);
      set(ctx, o, arrKey, `${local}${offset[0]}`, at);
    }
  }
}

/** A flight's departure and arrival on its airports' clocks (the local times as written), and its duration that flight's. */
function flightClock(ctx: Ctx, o: Json, at: string, from: string, to: string, depKey: string | undefined, arrKey: string | undefined, durKey: string | undefined): void {
  const minutes = flightMinutes(from, to);
  if (minutes === undefined) return;
  const stamp = (key: string | undefined): RegExpExecArray | null => {
    const v = key !== undefined ? o[key] : undefined;
    return typeof v === "string" ? /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:\d{2})$/.exec(v) : null;
  };
  // The arrival's offset on the day it leaves (the arrival is then computed from the departure and the duration).
  const departs = stamp(depKey)?.[1];
  const reclock = (key: string | undefined, iata: string): void => {
    const v = key !== undefined ? o[key] : undefined;
    const m = stamp(key);
    const offset = m ? airportOffset(iata, departs ?? (m[1] as string)) : undefined;
    if (!m || offset === undefined || key === undefined || offset === m[3] || (offset === "+00:00" && m[3] === "Z")) return;
    // The local time as written, on the airport's clock: a day a binding asked for stays that day.
    const after = `${m[1]}${m[2]}${offset}`;
    ctx.edits.push({ holder: o, key, before: v, after, pointer: `${at}/${pointerSegment(key)}` });
    o[key] = after;
  };
  reclock(depKey, from);
  reclock(arrKey, to);
  if (durKey !== undefined && typeof o[durKey] === "number" && Number.isInteger(o[durKey])) set(ctx, o, durKey, minutes, at);
}

/** A journey lasts at least as long as its legs (exactly as long as its one leg), and stops between them (after its legs are coherent). */
export function cohereJourneyLegs(ctx: Ctx, o: Json, keys: Map<string, string>, at: string): void {
  const durKey = first(keys, ["durationminutes", "duration", "durationmin"]);
  const minutes = durKey !== undefined ? o[durKey] : undefined;
  const stopsKey = first(keys, ["stops", "numberofstops", "stopcount"]);
  const legsKey = first(keys, ["segments", "legs", "flights"]);
  const legs = legsKey !== undefined && Array.isArray(o[legsKey]) ? (o[legsKey] as unknown[]) : [];
  if (durKey !== undefined && typeof minutes === "number" && legs.length > 0 && legs.every(isObject)) {
    const durations = legs.map((l) => Object.entries(l as Json).find(([k]) => norm(k) === norm(durKey))?.[1]);
    if (durations.every((d): d is number => typeof d === "number")) {
      const sum = durations.reduce((a, b) => a + b, 0);
      if (legs.length === 1 ? minutes !== sum : minutes < sum) set(ctx, o, durKey, sum, at);
    }
  }
  if (stopsKey !== undefined && legsKey !== undefined && typeof o[stopsKey] === "number" && Array.isArray(o[legsKey]) && (o[legsKey] as unknown[]).length > 0) {
    const stops = (o[legsKey] as unknown[]).length - 1;
    if (o[stopsKey] !== stops && !ctx.pinned.has(`${at}/${pointerSegment(stopsKey)}`)) {
      ctx.edits.push({ holder: o, key: stopsKey, before: o[stopsKey], after: stops, pointer: `${at}/${pointerSegment(stopsKey)}` });
      o[stopsKey] = stops;
    }
  }
}

/** A return journey (`inbound` beside `outbound`) goes back: it leaves from where the outbound lands, and lands where it left. */
export function cohereReturn(ctx: Ctx, o: Json, keys: Map<string, string>, at: string): void {
  const outKey = first(keys, ["outbound", "outward", "departure"]);
  const inKey = first(keys, ["inbound", "return", "returnflight"]);
  if (outKey === undefined || inKey === undefined) return;
  const legs = (v: unknown): Json[] => (isObject(v) ? (Object.values(v).find((x) => Array.isArray(x) && x.length > 0 && x.every(isObject)) as Json[] | undefined) ?? [] : []);
  const out = legs(o[outKey]);
  const back = legs(o[inKey]);
  const ends = (leg: Json | undefined): [string, string] | undefined => {
    if (!leg) return undefined;
    const k = keysOf(leg);
    for (const [a, b] of JOURNEY_ENDS) if (k.has(a) && k.has(b)) return [k.get(a) as string, k.get(b) as string];
    return undefined;
  };
  const firstOut = out[0];
  const lastOut = out[out.length - 1];
  const firstBack = back[0];
  const lastBack = back[back.length - 1];
  const e1 = ends(firstOut);
  const e2 = ends(lastOut);
  const e3 = ends(firstBack);
  const e4 = ends(lastBack);
  if (!firstOut || !lastOut || !firstBack || !lastBack || !e1 || !e2 || !e3 || !e4) return;
  const origin = firstOut[e1[0]];
  const destination = lastOut[e2[1]];
  if (typeof origin !== "string" || typeof destination !== "string") return;
  const inAt = `${at}/${pointerSegment(inKey)}`;
  const legsKey = Object.keys(o[inKey] as Json).find((k) => (o[inKey] as Json)[k] === back) ?? "segments";
  const legAt = (i: number): string => `${inAt}/${pointerSegment(legsKey)}/${i}`;
  set(ctx, firstBack, e3[0], destination, legAt(0));
  set(ctx, lastBack, e4[1], origin, legAt(back.length - 1));
  returnAfterOutbound(ctx, lastOut, back, legAt);
  // Legs whose ends or days changed fly (and are clocked) as their new ends and days say.
  back.forEach((leg, i) => cohereJourney(ctx, leg, keysOf(leg), legAt(i), i));
}

const DEPARTS = ["departure", "departuretime", "departsat", "departureat", "departuredatetime"];
const ARRIVES = ["arrival", "arrivaltime", "arrivesat", "arrivalat", "arrivaldatetime"];

/** A return that would leave before the way out lands leaves a week after it (its legs' times moved by whole days), unless a binding set its day. */
function returnAfterOutbound(ctx: Ctx, lastOut: Json, back: readonly Json[], legAt: (i: number) => string): void {
  const landed = lastOut[first(keysOf(lastOut), ARRIVES) ?? ""];
  const firstBack = back[0];
  const leaves = firstBack === undefined ? undefined : firstBack[first(keysOf(firstBack), DEPARTS) ?? ""];
  if (typeof landed !== "string" || typeof leaves !== "string" || !DAY.test(landed) || !DAY.test(leaves) || leaves.slice(0, 10) > landed.slice(0, 10)) return;
  const days = daysBetween(leaves, landed) + 7;
  if (!Number.isFinite(days)) return;
  const moves: Array<{ leg: Json; key: string; at: string; after: string }> = [];
  back.forEach((leg, i) => {
    const keys = keysOf(leg);
    for (const names of [DEPARTS, ARRIVES]) {
      const key = first(keys, names);
      const v = key !== undefined ? leg[key] : undefined;
      if (key === undefined || typeof v !== "string" || !DAY.test(v)) continue;
      moves.push({ leg, key, at: legAt(i), after: shiftDays(v, days) });
    }
  });
  if (moves.some((m) => ctx.pinned.has(`${m.at}/${pointerSegment(m.key)}`))) return;
  for (const m of moves) set(ctx, m.leg, m.key, m.after, m.at);
}

const DAY = /^\d{4}-\d{2}-\d{2}/;

