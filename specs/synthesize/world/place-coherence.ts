import { deriveSeed } from "../../seed.js";
import { isObject, pointerSegment } from "../../json-object.js";
import { namedCity } from "./gazetteer.js";
import { CITIES, cityNear, countryCode, findCity, findCountry, fold, type City } from "./world-data.js";
import { first, pick, pinnedValue, set, type Ctx } from "./coherence-context.js";

/**
 * A place that hangs together (part of `cohereEntities`): its city, country, coordinates, time zone and population
 * are one city's, the one the call names (in the world table or its gazetteer), the one at a point asked for, or
 * the one its own city field names; a place moved to another city keeps no address part of the old one.
 */

type Json = Record<string, unknown>;

/** A city row for a place: a pinned or present known name, else a city of the pinned country, else one by seed. */
function cityRow(ctx: Ctx, o: Json, keys: Map<string, string>, at: string, index: number): City | undefined {
  const name = first(keys, ["city", "cityname", "name", "locality", "town"]);
  // The country field a binding set, if any (an answer may name it by code and by name).
  const countryKeys = ["countrycode", "country", "countryname"].map((k) => keys.get(k)).filter((k): k is string => k !== undefined);
  const country = countryKeys.find((k) => pinnedValue(ctx, o, k, at) !== undefined) ?? countryKeys[0];
  const pinnedName = pinnedValue(ctx, o, name, at);
  // A city the call names is where it is, in the table or not (`city=Austin` is in Texas, not where the example was).
  if (typeof pinnedName === "string") {
    const hint = pinnedValue(ctx, o, country, at);
    return namedCity(pinnedName, typeof hint === "string" ? hint : undefined);
  }
  // A point asked for (`reverseGeocode(41.39, 2.17)`): the known city there, if one is within 150 km.
  const point = pinnedPoint(ctx, o, keys, at) ?? ctx.point;
  if (point !== undefined) {
    const near = cityNear(point.lat, point.lon, POINT_CITY_KM);
    if (near !== undefined) return near;
  }
  const pinnedCountry = pinnedValue(ctx, o, country, at);
  if (typeof pinnedCountry === "string") {
    const code = countryCode(pinnedCountry);
    const current = name !== undefined && typeof o[name] === "string" ? findCity(o[name] as string) : undefined;
    if (current && current.countryCode === code) return current;
    return pick(CITIES.filter((c) => c.countryCode === code), ctx.seed, index);
  }
  const v = name !== undefined ? o[name] : undefined;
  if (typeof v === "string") {
    // A field that says it is a city is that city, in the table or not; a mere `name` only when the table has it.
    const known = name === keys.get("name") ? findCity(v.split(",")[0] ?? v) : namedCity(v);
    if (known) return known;
  }
  return ctx.pinnedOnly ? undefined : pick(CITIES, ctx.seed, index);
}

/** A display name of a point asked for that names another known city than the one there is that city's. */
export function nameThePoint(ctx: Ctx, o: Json, keys: Map<string, string>, at: string, point: { lat: number; lon: number }): void {
  // Its bounding box is around it (the same size, moved there).
  const boxKey = first(keys, ["boundingbox", "bbox", "bounds", "viewport"]);
  const box = boxKey !== undefined ? o[boxKey] : undefined;
  if (boxKey !== undefined && isObject(box)) {
    const s = box["south"], w = box["west"], n = box["north"], e = box["east"];
    if (typeof s === "number" && typeof w === "number" && typeof n === "number" && typeof e === "number" && !(point.lat >= s && point.lat <= n && point.lon >= w && point.lon <= e)) {
      const halfLat = Math.max((n - s) / 2, 0.0001);
      const halfLon = Math.max((e - w) / 2, 0.0001);
      const boxAt = `${at}/${pointerSegment(boxKey)}`;
      const round = (v: number): number => Number(v.toFixed(6));
      set(ctx, box, "south", round(point.lat - halfLat), boxAt);
      set(ctx, box, "north", round(point.lat + halfLat), boxAt);
      set(ctx, box, "west", round(point.lon - halfLon), boxAt);
      set(ctx, box, "east", round(point.lon + halfLon), boxAt);
    }
  }
  const key = first(keys, ["displayname", "formattedaddress", "label", "fullname"]);
  const text = key !== undefined ? o[key] : undefined;
  const there = cityNear(point.lat, point.lon, POINT_CITY_KM);
  if (typeof text !== "string" || there === undefined || text.includes(there.name)) return;
  const named = CITIES.find((c) => c.name !== there.name && text.includes(c.name));
  if (named !== undefined) set(ctx, o, key, `${there.name}, ${there.country}`, at);
}

/** How far from a point asked for its place's city may be. */
const POINT_CITY_KM = 150;

/** Coordinates a binding set on an object (both of them), as numbers. */
export function pinnedPoint(ctx: Ctx, o: Json, keys: Map<string, string>, at: string): { lat: number; lon: number } | undefined {
  const lat = Number(pinnedValue(ctx, o, first(keys, ["latitude", "lat"]), at));
  const lon = Number(pinnedValue(ctx, o, first(keys, ["longitude", "lon", "lng", "long"]), at));
  return pinnedValue(ctx, o, first(keys, ["latitude", "lat"]), at) !== undefined && Number.isFinite(lat) && Number.isFinite(lon) ? { lat, lon } : undefined;
}

/** The city a place stood in before it was made coherent (by its coordinates, else its name). */
function formerCity(o: Json, keys: Map<string, string>): City | undefined {
  const lat = o[first(keys, ["latitude", "lat"]) ?? ""];
  const lon = o[first(keys, ["longitude", "lon", "lng", "long"]) ?? ""];
  const near = typeof lat === "number" && typeof lon === "number" ? CITIES.find((c) => Math.abs(c.lat - lat) < 0.3 && Math.abs(c.lon - lon) < 0.3) : undefined;
  if (near) return near;
  const name = first(keys, ["city", "cityname", "locality", "town", "name"]);
  const v = name !== undefined ? o[name] : undefined;
  return typeof v === "string" ? findCity(v.split(",")[0] ?? v) : undefined;
}

export function coherePlace(ctx: Ctx, o: Json, keys: Map<string, string>, at: string, index: number): void {
  const row = cityRow(ctx, o, keys, at, index);
  if (!row) return;
  // A place moved to another city keeps no region, state or postcode of the old one (left empty where allowed).
  const former = formerCity(o, keys);
  // A place whose own city field names the city stays in it (only its coordinates move): its address stays too
  // (a city a call wrote there moved it, unless its written address already names that city).
  const cityField = first(keys, ["city", "cityname", "locality", "town"]);
  const written = first(keys, ["formattedaddress", "address", "fulladdress", "displayname"]);
  const stays = cityField !== undefined && typeof o[cityField] === "string" && fold((o[cityField] as string).split(",")[0] ?? "") === fold(row.name) &&
    (!ctx.pinned.has(`${at}/${pointerSegment(cityField)}`) || (written !== undefined && typeof o[written] === "string" && fold(o[written] as string).includes(fold(row.name))));
  // A place put at a point or in a country asked for that named another city was elsewhere, known city or not.
  const named = cityField !== undefined && typeof o[cityField] === "string" ? (o[cityField] as string).split(",")[0] ?? "" : "";
  const countryPinned = ["countrycode", "country", "countryname"].some((k) => pinnedValue(ctx, o, keys.get(k), at) !== undefined);
  const moved = named !== "" && fold(named) !== fold(row.name) && (pinnedPoint(ctx, o, keys, at) !== undefined || countryPinned);
  if (((former !== undefined && former.name !== row.name) || moved) && !stays) {
    for (const k of ["state", "region", "province", "county", "district", "administrative", "statecode", "regioncode", "postcode", "postalcode", "zip", "zipcode", "road", "street", "housenumber", "streetaddress", "neighbourhood", "neighborhood", "suburb"]) {
      const key = keys.get(k);
      if (key !== undefined && typeof o[key] === "string" && !ctx.pinned.has(`${at}/${pointerSegment(key)}`)) {
        ctx.edits.push({ holder: o, key, before: o[key], after: null, pointer: `${at}/${pointerSegment(key)}` });
        o[key] = null;
      }
    }
  }
  const nameKey = first(keys, ["city", "cityname", "locality", "town"]) ?? keys.get("name");
  if (nameKey !== undefined) {
    const cur = o[nameKey];
    // "Lisbon, Portugal" style names keep their style.
    set(ctx, o, nameKey, typeof cur === "string" && cur.includes(",") ? `${row.name}, ${row.country}` : row.name, at);
  }
  const countryKey = keys.get("country") ?? keys.get("countryname");
  if (countryKey !== undefined) {
    const cur = o[countryKey];
    set(ctx, o, countryKey, typeof cur === "string" && /^[A-Z]{2}$/.test(cur) ? row.countryCode : typeof cur === "string" && /^[A-Z]{3}$/.test(cur) ? findCountry(row.countryCode)?.alpha3 : row.country, at);
  }
  set(ctx, o, first(keys, ["countrycode", "countryiso"]), row.countryCode, at);
  const jitter = ((deriveSeed(ctx.seed, index, "geo") % 2000) - 1000) / 100000;
  set(ctx, o, first(keys, ["latitude", "lat"]), Number((row.lat + jitter).toFixed(4)), at);
  set(ctx, o, first(keys, ["longitude", "lon", "lng", "long"]), Number((row.lon - jitter).toFixed(4)), at);
  const tz = first(keys, ["timezone", "tz", "timezonename", "tzid"]);
  if (tz !== undefined && typeof o[tz] === "string" && (o[tz] as string).includes("/")) set(ctx, o, tz, row.timeZone, at);
  set(ctx, o, keys.get("population"), row.population, at);
}
