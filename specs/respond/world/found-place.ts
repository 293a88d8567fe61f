import { findStock } from "../../synthesize/world/world-stocks.js";
import { AIRPORTS, findCity, type City } from "../../synthesize/world/world-data.js";
import type { ResponseContext } from "../responder.js";
import { knownNatural, naturalRecords } from "./entity-memory.js";
import { isObject, pointerSegment, type Json } from "../../json-object.js";

/**
 * Places found by a search: a record found for a query is where the query says (`Puerta del Sol 1, Madrid`):
 * its places name the city, its coordinates and bounding box move there, an address keeps no state or postcode
 * of its old city and takes the street asked for. A record the episode knew under a natural key, renamed to fit
 * a search, gets a key of its own.
 */

/** Where the changes go (recorded so that those the schema rejects can be undone). */
export interface KeyWriter {
  writeKey(holder: Json, key: string, pointer: string, value: unknown): void;
}

const CITY_KEY = /^(city|cityname|locality|town)$/i;

/** A new natural key for a record that became another one: the query's letters (`shell` -> `SHEL`), unknown to the episode. */
export function renameNaturalKey(ctx: ResponseContext, record: Json, pointer: string, query: string, edits: KeyWriter, used: Set<string>): void {
  const hit = naturalRecords(record).find((r) => r.record === record);
  if (!hit) return;
  const letters = query.toUpperCase().replace(/[^A-Z]/g, "");
  const stem = (letters.length >= 2 ? letters : "X").slice(0, Math.max(2, Math.min(4, hit.value.length)));
  for (let i = 0; i < 50; i++) {
    const candidate = i === 0 ? stem : `${stem.slice(0, 3)}${String.fromCharCode(65 + (i % 26))}`;
    // Not a key the episode or the world already gives another record (a made-up fund is not SHEL).
    if (candidate === hit.value || used.has(candidate) || knownNatural(ctx, { ...hit, value: candidate }) !== undefined || findStock(candidate) !== undefined) continue;
    used.add(candidate);
    edits.writeKey(record, hit.key, `${pointer}/${pointerSegment(hit.key)}`, candidate);
    return;
  }
}

/**
 * Whether a record is a place: it has coordinates (its own or its location's), or it names a city or an airport
 * the world knows. A record that only has an address in a city (a company's `hq_address`) is not one: it is
 * somewhere, and a search by its name may find it under any name.
 */
export function isPlace(record: Json, depth = 0, address = false): boolean {
  const keys = Object.keys(record);
  if (keys.some((k) => LAT_KEY.test(k) && typeof record[k] === "number") && keys.some((k) => LON_KEY.test(k) && typeof record[k] === "number")) return true;
  for (const [k, v] of Object.entries(record)) {
    if (!address && typeof v === "string" && CITY_KEY.test(k) && findCity(v.split(",")[0] ?? v) !== undefined) return true;
    if (!address && typeof v === "string" && /^(iata|iatacode)$/i.test(k) && AIRPORTS.some((a) => a.iata === v)) return true;
    // Its own position (`geometry.location`), or its address's coordinates; not the location of something it
    // names (a repository's `repositoryLocation`: a repository is somewhere, it is not a place).
    if (isObject(v) && depth < 2 && (OWN_POSITION.test(k) || /address/i.test(k)) && isPlace(v, depth + 1, address || /address/i.test(k))) return true;
  }
  return false;
}
/** A street address's first part: `221 Market Street` or `Puerta del Sol 1`. */
const STREET = /^(?:(\d+[a-z]?)\s+(\D{3,})|(\D{3,}?)\s+(\d+[a-z]?))$/i;
const ADMIN_KEY = /^(state|region|province|county|district|statecode|regioncode|postcode|postalcode|zip|zipcode|neighbourhood|neighborhood|suburb)$/i;

/** An address moved to another city: the old city's state and postcode go (empty), the street is the one asked for. */
function moveAddress(o: Json, at: string, street: RegExpExecArray | null, asked: boolean, edits: KeyWriter): void {
  for (const [k, v] of Object.entries(o)) {
    if (typeof v !== "string") continue;
    const pointer = `${at}/${pointerSegment(k)}`;
    if (ADMIN_KEY.test(k)) edits.writeKey(o, k, pointer, null);
    else if (/^(road|street|streetname)$/i.test(k)) edits.writeKey(o, k, pointer, asked && street ? (street[2] ?? street[3] ?? "").trim() : null);
    else if (/^(housenumber|house_number|streetnumber|number)$/i.test(k)) edits.writeKey(o, k, pointer, asked && street ? (street[1] ?? street[4] ?? null) : null);
  }
}
const LAT_KEY = /^(lat|latitude)$/i;
/** Holders of a record's own position. */
const OWN_POSITION = /^(location|geometry|geo|geocode|position|coordinates|coords|coord|point|center|centre|latlng|latlon|gps|place|city)$/i;
const LON_KEY = /^(lon|lng|long|longitude)$/i;
const BOX_PARENT = /^(boundingbox|bbox|bounds|viewport|extent)$/i;

/**
 * A found record moved into `city`: every nested `city`/`locality` names it (pinned, so that its place's country,
 * region and coordinates follow), its own coordinates are the city's, and a bounding box moves with them.
 */
export function relocate(record: Json, pointer: string, city: City, query: string, edits: KeyWriter): void {
  const street = STREET.exec(query.split(",")[0]?.trim() ?? "");
  const visit = (o: Json, at: string, depth: number): void => {
    if (depth > 3) return;
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === "string" && CITY_KEY.test(k)) {
        if (findCity(v.split(",")[0] ?? v)?.name !== city.name) moveAddress(o, at, street, query.includes(","), edits);
        edits.writeKey(o, k, `${at}/${pointerSegment(k)}`, v.includes(",") ? `${city.name}, ${city.country}` : city.name);
      } else if (isObject(v) && !BOX_PARENT.test(k)) visit(v, `${at}/${pointerSegment(k)}`, depth + 1);
    }
  };
  visit(record, pointer, 0);
  const latKey = Object.keys(record).find((k) => LAT_KEY.test(k) && typeof record[k] === "number");
  const lonKey = Object.keys(record).find((k) => LON_KEY.test(k) && typeof record[k] === "number");
  if (latKey === undefined || lonKey === undefined) return;
  const dLat = city.lat - (record[latKey] as number);
  const dLon = city.lon - (record[lonKey] as number);
  if (Math.abs(dLat) < 0.05 && Math.abs(dLon) < 0.05) return;
  const round = (n: number): number => Number(n.toFixed(5));
  for (const [k, v] of Object.entries(record)) if (typeof v === "string" && ADMIN_KEY.test(k)) edits.writeKey(record, k, `${pointer}/${pointerSegment(k)}`, null);
  edits.writeKey(record, latKey, `${pointer}/${pointerSegment(latKey)}`, round(city.lat));
  edits.writeKey(record, lonKey, `${pointer}/${pointerSegment(lonKey)}`, round(city.lon));
  for (const [k, v] of Object.entries(record)) {
    if (!BOX_PARENT.test(k) || !isObject(v)) continue;
    for (const [bk, bv] of Object.entries(v)) {
      if (typeof bv !== "number") continue;
      const isLat = /^(south|north|minlat|maxlat|lat|latitude|s|n)/i.test(bk);
      const isLon = /^(west|east|minlon|maxlon|minlng|maxlng|lon|lng|longitude|w|e)/i.test(bk);
      if (isLat || isLon) edits.writeKey(v, bk, `${pointer}/${pointerSegment(k)}/${pointerSegment(bk)}`, round(bv + (isLat ? dLat : dLon)));
    }
  }
}
