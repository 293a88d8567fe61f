import { isObject, pointerSegment, type Json } from "../../json-object.js";
import { norm } from "../../synthesize/world/entity-shape.js";
import { offsetOn } from "../../synthesize/world/world-exchanges.js";
import { cityNear } from "../../synthesize/world/world-data.js";
import { SIMULATED_TODAY } from "../../synthesize/world/simulated-today.js";

/**
 * The time zone of a coordinate is the zone of the place there: `getTimezone(41.90, 12.50)` answers Europe/Rome
 * (not an example's America/Los_Angeles), and the answer's offset, abbreviation, daylight-saving flag and local
 * time say that zone on the simulated today. Only where the world knows a city within {@link MAX_KM} of the point.
 */

/** Farthest a known city may be from the point for its zone to be the point's. */
export const MAX_KM = 400;

/** Names of a latitude and of a longitude, normalized (`lat`, `lng`, `longitude`...). */
export const LAT_ARGS: ReadonlySet<string> = new Set(["lat", "latitude"]);
export const LON_ARGS: ReadonlySet<string> = new Set(["lon", "lng", "long", "longitude"]);
const ZONE = new Set(["timezone", "timezoneid", "tz", "zonename", "zone", "tzid", "ianatimezone"]);
const OFFSET_SECONDS = new Set(["utcoffsetseconds", "gmtoffset", "offsetseconds", "rawoffset", "utcoffsetsec", "offsetsec"]);
const OFFSET = new Set(["utcoffset", "offset", "gmtoffsetstring"]);
const ABBREVIATION = new Set(["abbreviation", "abbr", "tzabbreviation", "zoneabbreviation"]);
const DST = new Set(["isdst", "dst", "daylightsaving", "daylightsavingtime", "indst"]);
const LOCAL_TIME = new Set(["localtime", "currentlocaltime", "datetime", "localdatetime", "formatted", "time"]);

/** The point a call asks about (`lat` and `lon` arguments), if it gives one. */
export function pointOf(args: Json): { lat: number; lon: number } | undefined {
  let lat: number | undefined;
  let lon: number | undefined;
  for (const [k, v] of Object.entries(args)) {
    const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
    if (!Number.isFinite(n)) continue;
    if (LAT_ARGS.has(norm(k))) lat = n;
    else if (LON_ARGS.has(norm(k))) lon = n;
  }
  return lat !== undefined && lon !== undefined ? { lat, lon } : undefined;
}

function offsetSeconds(offset: string): number {
  const sign = offset.startsWith("-") ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) * 3600 + Number(offset.slice(4, 6)) * 60);
}

/** Short names of zones that the locales' data leaves as offsets (`GMT+8`), as time zone services write them. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  "Asia/Shanghai": "CST",
  "Asia/Hong_Kong": "HKT",
  "Asia/Singapore": "SGT",
  "Asia/Seoul": "KST",
  "Asia/Dubai": "GST",
  "Asia/Bangkok": "ICT",
  "Asia/Jakarta": "WIB",
  "Asia/Manila": "PHT",
  "America/Sao_Paulo": "BRT",
  "America/Argentina/Buenos_Aires": "ART",
  "America/Bogota": "COT",
  "America/Lima": "PET",
  "America/Santiago": "CLT",
  "Europe/Istanbul": "TRT",
  "Europe/Moscow": "MSK",
  "Africa/Johannesburg": "SAST",
  "Africa/Lagos": "WAT",
  "Africa/Nairobi": "EAT",
  "Africa/Cairo": "EEST",
};

/** A zone's short name on a day (`CEST`, `EDT`, `JST`; `GMT+3` where no one has a name for it). */
function abbreviationOf(timeZone: string, countryCode: string, day: string): string | undefined {
  const at = Date.parse(`${day}T12:00:00Z`);
  for (const locale of ["en-US", "en-GB", `en-${countryCode}`, "ja-JP"]) {
    let name: string | undefined;
    try {
      name = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: "short" }).formatToParts(at).find((p) => p.type === "timeZoneName")?.value;
    } catch {
      continue; // a locale or zone this Node does not know
    }
    if (name !== undefined && !/^(GMT|UTC)[+-]/.test(name)) return name;
  }
  if (ABBREVIATIONS[timeZone] !== undefined) return ABBREVIATIONS[timeZone];
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" }).formatToParts(at).find((p) => p.type === "timeZoneName")?.value;
  } catch {
    return undefined;
  }
}

/** The zone an answer gives for the point asked, and the zone it should be: the known city's there, unless the two keep the same clock (undefined when no city is near). */
export function pointZone(args: Json, body: Json): { key: string; said: string; expected: string } | undefined {
  const point = pointOf(args);
  const key = Object.keys(body).find((k) => ZONE.has(norm(k)) && typeof body[k] === "string");
  const city = point !== undefined ? cityNear(point.lat, point.lon, MAX_KM) : undefined;
  // A zone written as an offset or an abbreviation (`UTC+2`, `CET`) is another form, not another zone.
  if (key === undefined || city === undefined || !String(body[key]).includes("/")) return undefined;
  // Another name for the same clock (a neighbour's zone across a border) is not a contradiction.
  const said = body[key] as string;
  const same = offsetOn(said, SIMULATED_TODAY) === offsetOn(city.timeZone, SIMULATED_TODAY) && offsetOn(said, "2025-01-15") === offsetOn(city.timeZone, "2025-01-15");
  return { key, said, expected: same ? said : city.timeZone };
}

/** Writes a value where it is (the caller records it so that it can be undone). */
export type ZoneWrite = (holder: Json, key: string, pointer: string, value: unknown) => void;

/** Whether a call asks about a point whose zone an answer gives. */
export function asksPointZone(args: Json, body: unknown): boolean {
  return isObject(body) && Object.keys(body).some((k) => ZONE.has(norm(k))) && pointOf(args) !== undefined;
}

/** Makes an answer's time zone (and its offset, abbreviation, DST flag and local time) the zone of the point asked. */
export function agreeTimeZone(args: Json, body: unknown, write: ZoneWrite, today = SIMULATED_TODAY): void {
  if (!isObject(body)) return;
  const point = pointOf(args);
  const zoneKey = Object.keys(body).find((k) => ZONE.has(norm(k)) && typeof body[k] === "string");
  if (point === undefined || zoneKey === undefined) return;
  const city = cityNear(point.lat, point.lon, MAX_KM);
  const offset = city ? offsetOn(city.timeZone, today) : undefined;
  if (!city || offset === undefined) return;
  const winter = offsetOn(city.timeZone, `${today.slice(0, 4)}-01-15`);
  const summer = offsetOn(city.timeZone, `${today.slice(0, 4)}-07-15`);
  const seconds = offsetSeconds(offset);
  const standard = Math.min(offsetSeconds(winter ?? offset), offsetSeconds(summer ?? offset));
  const at = (k: string): string => `/${pointerSegment(k)}`;
  write(body, zoneKey, at(zoneKey), city.timeZone);
  for (const k of Object.keys(body)) {
    const n = norm(k);
    const v = body[k];
    if (OFFSET_SECONDS.has(n) && typeof v === "number") write(body, k, at(k), n === "rawoffset" ? standard : seconds);
    else if (OFFSET.has(n) && typeof v === "string" && /^[+-]\d\d:?\d\d$/.test(v)) write(body, k, at(k), v.includes(":") ? offset : offset.replace(":", ""));
    else if (OFFSET.has(n) && typeof v === "number") write(body, k, at(k), Math.abs(v) <= 14 ? seconds / 3600 : seconds);
    else if (ABBREVIATION.has(n) && typeof v === "string") {
      const abbreviation = abbreviationOf(city.timeZone, city.countryCode, today);
      if (abbreviation !== undefined) write(body, k, at(k), abbreviation);
    } else if (DST.has(n) && typeof v === "boolean") write(body, k, at(k), seconds > standard);
    else if (LOCAL_TIME.has(n) && typeof v === "string") {
      // The same time of day (in UTC) as the example's, today, on the zone's clock.
      const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d(?::\d\d)?)(?:\.\d+)?(Z|[+-]\d\d:?\d\d)?$/.exec(v);
      const utc = m ? Date.parse(`${m[1]}T${m[2]}${m[3] ?? "Z"}`) : NaN;
      if (!m || !Number.isFinite(utc)) continue;
      const instant = Date.parse(`${today}T${new Date(utc).toISOString().slice(11, 19)}Z`);
      const local = new Date(instant + seconds * 1000).toISOString();
      const clock = (m[2] as string).length > 5 ? local.slice(11, 19) : local.slice(11, 16);
      write(body, k, at(k), `${local.slice(0, 10)}T${clock}${m[3] === undefined ? "" : offset}`);
    }
  }
}
