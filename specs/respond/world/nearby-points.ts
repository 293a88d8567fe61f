import { isObject, pointerSegment, type Json } from "../../json-object.js";
import { norm } from "../../synthesize/world/entity-shape.js";
import { greatCircleKm } from "../../synthesize/world/great-circle.js";
import { createRng, deriveSeed } from "../../seed.js";
import type { Tool } from "../../catalog/tool.js";
import { pointOf } from "./coordinate-time-zone.js";

/**
 * What a call asks for near a point is near it: `GetDrivers(lat=48.2082, lng=16.3738)` ("nearby drivers") lists
 * drivers in Vienna, not at an example's spot off California. The coordinates of the listed things (objects with a
 * latitude and a longitude inside a list of the answer) that lie farther from the point than the search reaches
 * (its `radius` when the call gives one, else {@link NEAR_KM}) move to a spot near it, each its own, seeded.
 * Coordinates a binding settled are left as they are.
 */

/** How far "nearby" reaches when the call gives no radius, in km. */
export const NEAR_KM = 5;
/** The farthest a moved thing is put from the point, in km (closer when the radius is smaller). */
const SPREAD_KM = 2;

const NEARBY_WORDS = /near|nearby|nearest|closest|around|proximity|within/i;
const RADIUS_ARGS = new Set(["radius", "distance", "within", "maxdistance", "radiusmeters", "radiuskm"]);
const LAT_KEYS = new Set(["lat", "latitude"]);
const LON_KEYS = new Set(["lon", "lng", "long", "longitude"]);

/** Whether a tool reads what is near a point: it takes a point, and its name, path or text says "near" or it takes a radius. */
export function readsNearby(tool: Tool): boolean {
  if (tool.operation.method !== "get" && !/search|find|query/i.test(`${tool.operation.operationId ?? ""} ${tool.operation.path}`)) return false;
  const names = tool.parameters.map((p) => norm(p.name));
  if (!names.some((n) => LAT_KEYS.has(n)) || !names.some((n) => LON_KEYS.has(n))) return false;
  return names.some((n) => RADIUS_ARGS.has(n)) || NEARBY_WORDS.test(`${tool.operation.operationId ?? ""} ${tool.operation.path} ${tool.description}`);
}

/** The reach of the search in km: a radius the call gives (metres when it is above 50), else {@link NEAR_KM}. */
function reachKm(args: Json): number {
  for (const [k, v] of Object.entries(args)) {
    if (!RADIUS_ARGS.has(norm(k))) continue;
    const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN;
    if (Number.isFinite(n) && n > 0) return norm(k).endsWith("km") ? n : n > 50 || norm(k).endsWith("meters") ? n / 1000 : n;
  }
  return NEAR_KM;
}

/** Digits after the point of a coordinate as written (4 to 7). */
function decimals(v: number | string): number {
  const s = String(v);
  const i = s.indexOf(".");
  return Math.min(7, Math.max(4, i < 0 ? 0 : s.length - i - 1));
}

/** Moves the listed things of an answer that lie beyond the call's reach to spots near the point asked. */
export function keepNearby(args: Json, out: unknown, seed: number, pinned: ReadonlySet<string>, write: (holder: Json, key: string, pointer: string, value: unknown) => void): void {
  const point = pointOf(args);
  if (point === undefined) return;
  const reach = reachKm(args);
  const spread = Math.min(SPREAD_KM, reach);
  const visit = (node: unknown, pointer: string, listed: boolean, depth: number): void => {
    if (depth > 12) return;
    if (Array.isArray(node)) {
      node.forEach((v, i) => visit(v, `${pointer}/${i}`, true, depth + 1));
      return;
    }
    if (!isObject(node)) return;
    const latKey = listed ? Object.keys(node).find((k) => LAT_KEYS.has(norm(k))) : undefined;
    const lonKey = latKey !== undefined ? Object.keys(node).find((k) => LON_KEYS.has(norm(k))) : undefined;
    if (latKey !== undefined && lonKey !== undefined) moveNear(node, latKey, lonKey, pointer);
    for (const [k, v] of Object.entries(node)) if (typeof v === "object" && v !== null) visit(v, `${pointer}/${pointerSegment(k)}`, listed, depth + 1);
  };
  const moveNear = (node: Json, latKey: string, lonKey: string, pointer: string): void => {
    const latPointer = `${pointer}/${pointerSegment(latKey)}`;
    const lonPointer = `${pointer}/${pointerSegment(lonKey)}`;
    if (pinned.has(latPointer) || pinned.has(lonPointer)) return;
    const lat = Number(node[latKey]);
    const lon = Number(node[lonKey]);
    if (typeof node[latKey] === "boolean" || typeof node[lonKey] === "boolean" || !Number.isFinite(lat) || !Number.isFinite(lon)) return;
    if (greatCircleKm(point.lat, point.lon, lat, lon) <= reach) return;
    const rng = createRng(deriveSeed(seed, "nearby", pointer));
    const km = spread * (0.15 + 0.85 * rng.next());
    const bearing = rng.next() * 2 * Math.PI;
    const dLat = (km / 111.32) * Math.cos(bearing);
    const dLon = (km / (111.32 * Math.max(0.01, Math.cos((point.lat * Math.PI) / 180)))) * Math.sin(bearing);
    const at = (v: number, d: number, was: unknown): number | string => {
      const fixed = Number(v.toFixed(d));
      return typeof was === "string" ? fixed.toFixed(d) : fixed;
    };
    write(node, latKey, latPointer, at(Math.max(-90, Math.min(90, point.lat + dLat)), decimals(node[latKey] as number), node[latKey]));
    write(node, lonKey, lonPointer, at(((point.lon + dLon + 540) % 360) - 180, decimals(node[lonKey] as number), node[lonKey]));
  };
  visit(out, "", false, 0);
}
