import { isObject, type Json } from "../../json-object.js";
import { greatCircleKm, initialBearing, kmPerUnit } from "./great-circle.js";
import { norm } from "./entity-shape.js";

/**
 * An answer about the distance between two points (`{from: {lat, lon}, to: {lat, lon}, distance, unit, bearing}`):
 * where its parts are, and what the distance and bearing between those points are in its unit.
 */

const PAIRS: ReadonlyArray<readonly [string, string]> = [["from", "to"], ["origin", "destination"], ["start", "end"], ["source", "target"], ["point1", "point2"], ["a", "b"]];
/** Distance fields, with the unit their name implies (none: the `unit` field's, else km). */
const DISTANCE_KEYS: ReadonlyArray<readonly [string, string | undefined]> = [["distance", undefined], ["distancekm", "km"], ["distancekilometers", "km"], ["distancemiles", "mi"], ["distancemi", "mi"], ["distancemeters", "m"], ["distancem", "m"], ["distancenmi", "nmi"]];


function keyOf(o: Json, names: readonly string[]): string | undefined {
  return Object.keys(o).find((k) => names.includes(norm(k)));
}

function pointOf(v: unknown): { lat: number; lon: number } | undefined {
  if (!isObject(v)) return undefined;
  const lat = v[keyOf(v, ["lat", "latitude"]) ?? ""];
  const lon = v[keyOf(v, ["lon", "lng", "long", "longitude"]) ?? ""];
  return typeof lat === "number" && typeof lon === "number" && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : undefined;
}

/** The parts of a distance answer, and the distance and bearing its points have (in its unit, to 0.1). */
export interface PointDistance {
  distanceKey: string;
  bearingKey?: string;
  unit: string;
  distance: number;
  bearing: number;
}

/** The distance an object states between two points it holds, as it should be; undefined when it is not one. */
export function pointDistance(o: Json): PointDistance | undefined {
  let hit: [number, number, number, number] | undefined;
  for (const [a, b] of PAIRS) {
    const from = pointOf(o[keyOf(o, [a]) ?? ""]);
    const to = pointOf(o[keyOf(o, [b]) ?? ""]);
    if (from && to) {
      hit = [from.lat, from.lon, to.lat, to.lon];
      break;
    }
  }
  if (!hit) return undefined;
  for (const [name, implied] of DISTANCE_KEYS) {
    const distanceKey = keyOf(o, [name]);
    if (distanceKey === undefined || typeof o[distanceKey] !== "number") continue;
    const unitValue = o[keyOf(o, ["unit", "units", "distanceunit"]) ?? ""];
    const unit = implied ?? (typeof unitValue === "string" && kmPerUnit(unitValue) !== undefined ? unitValue : "km");
    const km = greatCircleKm(...hit);
    const bearingKey = keyOf(o, ["bearing", "initialbearing", "heading", "azimuth"]);
    return { distanceKey, unit, distance: Math.round((km / (kmPerUnit(unit) ?? 1)) * 10) / 10, bearing: Math.round(initialBearing(...hit) * 10) / 10, ...(bearingKey !== undefined ? { bearingKey } : {}) };
  }
  return undefined;
}
