import { isObject, pointerSegment, type Json } from "../../json-object.js";
import { norm } from "../../synthesize/world/entity-shape.js";
import { greatCircleKm } from "../../synthesize/world/great-circle.js";
import { createRng, deriveSeed } from "../../seed.js";
import type { Tool } from "../../catalog/tool.js";
import { LAT_ARGS, LON_ARGS, pointOf } from "./coordinate-time-zone.js";

/**
 * What a call asks for near a point is near it: `GetDrivers(lat=48.2082, lng=16.3738)` ("nearby drivers") lists
 * drivers in Vienna, not at an example's spot off California. The coordinates of the listed things (objects with a
 * latitude and a longitude inside a list of the answer) that lie farther from the point than the search reaches
 * (its `radius` when the call gives one, else {@link NEAR_KM}) move to a spot near it, each its own, seeded.
 * GeoJSON geometries move whole, their shape kept. Coordinates a binding settled are left as they are.
 */

/** How far "nearby" reaches when the call gives no radius, in km. */
export const NEAR_KM = 5;
/** The farthest a moved thing is put from the point, in km (closer when the radius is smaller). */
const SPREAD_KM = 2;

const NEARBY_WORDS = /near|nearby|nearest|closest|around|proximity|within/i;
const RADIUS_ARGS = new Set(["radius", "distance", "within", "maxdistance", "radiusmeters", "radiuskm"]);

/** Whether a tool reads what is near a point: it takes a point, and its name, path or text says "near" or it takes a radius. */
export function readsNearby(tool: Tool): boolean {
  if (tool.operation.method !== "get" && !/search|find|query/i.test(`${tool.operation.operationId ?? ""} ${tool.operation.path}`)) return false;
  const names = [...tool.parameters.map((p) => p.name), ...(tool.body?.mode === "flat" ? Object.keys(tool.body.properties) : [])].map(norm);
  if (!names.some((n) => LAT_ARGS.has(n)) || !names.some((n) => LON_ARGS.has(n))) return false;
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

/** GeoJSON geometry types whose `coordinates` are positions. */
const GEOMETRIES = new Set(["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon"]);

type Position = [number, number, ...number[]];

function isPosition(v: unknown): v is Position {
  return Array.isArray(v) && v.length >= 2 && typeof v[0] === "number" && typeof v[1] === "number";
}

/** The first `[lon, lat]` position of GeoJSON coordinates (nested to any depth). */
function firstPosition(coordinates: unknown, depth = 0): Position | undefined {
  if (isPosition(coordinates)) return coordinates;
  return Array.isArray(coordinates) && depth < 4 ? firstPosition(coordinates[0], depth + 1) : undefined;
}

/** GeoJSON coordinates moved by degrees of longitude and latitude (six decimals), their shape kept. */
function translate(coordinates: unknown, dLon: number, dLat: number, depth = 0): unknown {
  if (isPosition(coordinates)) return [Number((coordinates[0] + dLon).toFixed(6)), Number((coordinates[1] + dLat).toFixed(6)), ...coordinates.slice(2)];
  return Array.isArray(coordinates) && depth < 4 ? coordinates.map((c) => translate(c, dLon, dLat, depth + 1)) : coordinates;
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
    const latKey = listed ? Object.keys(node).find((k) => LAT_ARGS.has(norm(k))) : undefined;
    const lonKey = latKey !== undefined ? Object.keys(node).find((k) => LON_ARGS.has(norm(k))) : undefined;
    if (latKey !== undefined && lonKey !== undefined) moveNear(node, latKey, lonKey, pointer);
    if (listed && typeof node["type"] === "string" && GEOMETRIES.has(node["type"]) && Array.isArray(node["coordinates"])) {
      moveGeometry(node, `${pointer}/coordinates`);
      return;
    }
    for (const [k, v] of Object.entries(node)) if (typeof v === "object" && v !== null) visit(v, `${pointer}/${pointerSegment(k)}`, listed, depth + 1);
  };
  // A GeoJSON geometry (`[lon, lat]` positions) moves whole: its first position near the point, its shape kept.
  const moveGeometry = (geometry: Json, pointer: string): void => {
    if (pinned.has(pointer)) return;
    const first = firstPosition(geometry["coordinates"]);
    if (first === undefined || greatCircleKm(point.lat, point.lon, first[1], first[0]) <= reach) return;
    const to = spotNear(pointer);
    const moved = translate(geometry["coordinates"], to.lon - first[0], to.lat - first[1]);
    write(geometry, "coordinates", pointer, moved);
  };
  const spotNear = (pointer: string): { lat: number; lon: number } => {
    const rng = createRng(deriveSeed(seed, "nearby", pointer));
    const km = spread * (0.15 + 0.85 * rng.next());
    const bearing = rng.next() * 2 * Math.PI;
    const dLat = (km / 111.32) * Math.cos(bearing);
    const dLon = (km / (111.32 * Math.max(0.01, Math.cos((point.lat * Math.PI) / 180)))) * Math.sin(bearing);
    return { lat: Math.max(-90, Math.min(90, point.lat + dLat)), lon: ((point.lon + dLon + 540) % 360) - 180 };
  };
  const moveNear = (node: Json, latKey: string, lonKey: string, pointer: string): void => {
    const latPointer = `${pointer}/${pointerSegment(latKey)}`;
    const lonPointer = `${pointer}/${pointerSegment(lonKey)}`;
    if (pinned.has(latPointer) || pinned.has(lonPointer)) return;
    const lat = Number(node[latKey]);
    const lon = Number(node[lonKey]);
    if (typeof node[latKey] === "boolean" || typeof node[lonKey] === "boolean" || !Number.isFinite(lat) || !Number.isFinite(lon)) return;
    if (greatCircleKm(point.lat, point.lon, lat, lon) <= reach) return;
    const to = spotNear(pointer);
    const at = (v: number, d: number, was: unknown): number | string => {
      const fixed = Number(v.toFixed(d));
      return typeof was === "string" ? fixed.toFixed(d) : fixed;
    };
    write(node, latKey, latPointer, at(to.lat, decimals(node[latKey] as number), node[latKey]));
    write(node, lonKey, lonPointer, at(to.lon, decimals(node[lonKey] as number), node[lonKey]));
  };
  visit(out, "", false, 0);
}
