import { createRequire } from "node:module";
import { findCity, findCountry, fold, type City } from "./world-data.js";

/**
 * The world's cities beyond the table synthesis draws from: 7,300 cities with their country, coordinates, time
 * zone and population (the `city-timezones` data set, MIT). They are looked up, never drawn (draws stay those of
 * the table): a city a call names (`city=Austin`) is answered where it is, and an answer is judged against where
 * it is. Loaded on the first name the table does not know.
 */

interface GazetteerRow {
  city: string;
  city_ascii?: string;
  lat: number;
  lng: number;
  pop?: number;
  country: string;
  iso2?: string;
  timezone?: string;
}

/** Longest name looked up (longer values are texts, not city names). */
const MAX_NAME = 40;

let index: Map<string, City[]> | undefined;

function load(): Map<string, City[]> {
  if (index) return index;
  const byName = new Map<string, City[]>();
  let rows: GazetteerRow[] = [];
  try {
    rows = createRequire(import.meta.url)("city-timezones/data/cityMap.json") as GazetteerRow[];
  } catch {
    // Without the data set (a trimmed install), the table's cities are all there is.
    rows = [];
  }
  for (const r of rows) {
    if (typeof r.city !== "string" || !Number.isFinite(r.lat) || !Number.isFinite(r.lng) || typeof r.iso2 !== "string" || !/^[A-Z]{2}$/.test(r.iso2)) continue;
    const city: City = {
      name: r.city,
      countryCode: r.iso2,
      // The table's name of the country where it has one (`United States`, not `United States of America`).
      country: findCountry(r.iso2)?.name ?? r.country,
      lat: Number(r.lat.toFixed(4)),
      lon: Number(r.lng.toFixed(4)),
      timeZone: typeof r.timezone === "string" && r.timezone.includes("/") ? r.timezone : "UTC",
      population: Math.round(r.pop ?? 0),
    };
    for (const key of new Set([fold(r.city), fold(r.city_ascii ?? r.city)])) {
      const list = byName.get(key) ?? [];
      list.push(city);
      byName.set(key, list);
    }
  }
  // The most populous first: `Springfield` alone is Springfield, Missouri before Springfield, Ohio.
  for (const list of byName.values()) list.sort((a, b) => b.population - a.population);
  index = byName;
  return byName;
}

/**
 * Every known city of a name: the table's first (it is the one answers are drawn in), then the gazetteer's by
 * population, without the table's own city twice. Empty for a name no city has.
 */
export function citiesNamed(value: string): readonly City[] {
  if (value.length > MAX_NAME) return [];
  const own = findCity(value);
  const others = load().get(fold(value)) ?? [];
  if (own === undefined) return others;
  return [own, ...others.filter((c) => !(c.countryCode === own.countryCode && Math.abs(c.lat - own.lat) < 0.5 && Math.abs(c.lon - own.lon) < 0.5))];
}

/** A city of a name: the table's, else the most populous city of that name in the gazetteer. */
export function findPlace(value: string): City | undefined {
  return citiesNamed(value)[0];
}

/**
 * The city a call names (`Austin`, `Paris, France`, with a country asked beside it): of the cities of that name, the
 * one in the country given (after a comma or as `countryHint`), else the one {@link findPlace} finds.
 */
export function namedCity(value: string, countryHint?: string): City | undefined {
  const [head = "", ...rest] = value.split(",");
  const candidates = citiesNamed(head.trim());
  if (candidates.length < 2) return candidates[0];
  const codes = [...rest, ...(countryHint !== undefined ? [countryHint] : [])].map((s) => findCountry(s.trim())?.alpha2).filter((c) => c !== undefined);
  return candidates.find((c) => codes.includes(c.countryCode)) ?? candidates[0];
}
