import { looksLikeDnsRecord } from "./dns-records.js";
import { countClassPairs } from "./count-intervals.js";
import { timelineOf, type Timeline } from "./stamp-order.js";
import { urlDateKeys } from "./url-dates.js";
import { languagePairKeys } from "./language-pairs.js";
import { recipeKeys } from "./recipe-dishes.js";
import { countryLanguageKeys } from "./country-language.js";
/**
 * What an object in an answer is, judged from its keys and the name of what holds it: its keys by normalized
 * name, and the entities coherent-entities makes hang together in it (a country, a place, an airport, a person,
 * a holiday, a journey...). A pure function of the names, judged once per parent and key list.
 */

import { singularNoun } from "../../singular-noun.js";

type Json = Record<string, unknown>;

/** A field name as compared: lower case, letters and digits only (`country_code` -> `countrycode`). */
export function norm(name: string): string {
  let hit = norms.get(name);
  if (hit === undefined) {
    hit = name.toLowerCase().replace(/[^a-z0-9]/g, "");
    if (norms.size > 10_000) norms.clear();
    norms.set(name, hit);
  }
  return hit;
}

const norms = new Map<string, string>();

/** The object's keys by normalized name. */
export function keysOf(o: Json): Map<string, string> {
  const m = new Map<string, string>();
  for (const k of Object.keys(o)) if (!m.has(norm(k))) m.set(norm(k), k);
  return m;
}

const COUNTRY_PARENT = /^(country|nation|countrie)$/;
/** Holders that say nothing of what their objects are (a holiday's `countryCode` and `name` are not a country's). */
const GENERIC_PARENT = /^(|item|result|data|record|entry|value|response|body|content|row|element|node|match|hit|object)$/;
const PLACE_PARENT = /^(location|place|city|geo|area|venue|site|address|result|locality|town|position|headquarter)$/;
const PERSON_PARENT = /^(user|person|people|customer|author|owner|member|contact|employee|staff|profile|account|client|patient|student|driver|passenger|guest|sender|recipient|assignee|reporter|creator|buyer|seller|candidate|attendee|organizer|participant|me|manager|traveler|traveller)$/;

/** What an object of some keys under some parent is: its keys by normalized name, and the entities it holds. */
export interface Shape {
  keys: ReadonlyMap<string, string>;
  /** The one kind of place-like entity it is, if any. */
  entity?: "airport" | "country" | "place" | "currency" | "language";
  subdivisions: boolean;
  holiday: boolean;
  /** A count of a list it holds (`entryCount` beside `entries`). */
  counted: boolean;
  /** A page number beside a count of pages (`current_page`, `total_pages`). */
  paged: boolean;
  /** A distance between two points it holds. */
  distance: boolean;
  /** A check of a day (`isHoliday` of a country on a date). */
  holidayCheck: boolean;
  exchange: boolean;
  /** A listed company or its quote (`symbol` beside a name, an exchange or a sector). */
  stock: boolean;
  journey: boolean;
  person: boolean;
  /** A person without an email whose names are said twice over (first, last and full; first and given). */
  personNames: boolean;
  /** A return journey beside its outbound one. */
  roundTrip: boolean;
  /** Coordinates of its own (`lat` and `lon`): a point a call may ask about. */
  point: boolean;
  /** A written address beside its parts (`formattedAddress` beside `city`). */
  addressText: boolean;
  /** The ends of its ranges, as key pairs (`[cost_min, cost_max]`, `[lowPrice, highPrice]`). */
  ranges: ReadonlyArray<readonly [low: string, high: string]>;
  /** Whether it is a DNS record (a type and a value): its value is what its type holds. */
  dns: boolean;
  /** Its counts beside the classes they fall in (`[nbrOfEmployees, nbrOfEmployeesInterval]`). */
  countClasses: ReadonlyArray<readonly [count: string, cls: string]>;
  /** Its stamps that tell one story (`listedDate` before `removedDate`, `daysOnMarket` since `listedDate`), if any. */
  timeline?: Timeline;
  /** Its own day and its own address, when it has both (the address names the day). */
  urlDate?: { day: string; url: string };
  /** Its two languages (a glossary's `source` and `target`), when it has a pair of them. */
  languagePair?: { source: string; target: string };
  /** Its cuisine and title, when it is a recipe. */
  recipe?: { cuisine: string; title: string };
  /** Its language and country, when it has both (the language is one of the country's). */
  countryLanguage?: { language: string; country: string };
}

/** The other end of a range's field (`estimated_cost_cents_min` -> `..._max`, `lowPrice` -> `highPrice`), if it names one. */
function otherEnd(key: string): string | undefined {
  const m = /(minimum|min|lowest|low)(?![a-z])|(Minimum|Min|Lowest|Low)(?![a-z])|(MINIMUM|MIN|LOWEST|LOW)(?![A-Z])/.exec(key);
  if (!m) return undefined;
  const word = m[0];
  const lower = word.toLowerCase();
  const to = lower === "minimum" ? "maximum" : lower === "min" ? "max" : lower === "lowest" ? "highest" : "high";
  const cased = word === word.toUpperCase() ? to.toUpperCase() : word[0] === word[0]?.toUpperCase() ? to[0]?.toUpperCase() + to.slice(1) : to;
  return key.slice(0, m.index) + cased + key.slice(m.index + word.length);
}

/** The range pairs among an object's keys. */
function rangePairs(names: readonly string[]): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [];
  for (const low of names) {
    const high = otherEnd(low);
    if (high !== undefined && high !== low && names.includes(high)) out.push([low, high]);
  }
  return out;
}

/** A step of the shapes' trie: the next key, and the shape of an object whose keys end here. */
interface ShapeNode {
  next: Map<string, ShapeNode>;
  shape?: Shape;
}

/**
 * Shapes by parent name and key list, in a trie walked key by key (property names are interned strings: no key
 * text is built): the objects of one schema share a shape, so that a long list is judged once, not item by item.
 * A pure function of the names, bounded.
 */
const shapes: ShapeNode = { next: new Map() };
let shapeNodes = 0;

export function shapeOf(o: Json, parent: string): Shape {
  let node: ShapeNode | undefined = shapes.next.get(parent);
  if (node === undefined) {
    node = { next: new Map() };
    shapes.next.set(parent, node);
    shapeNodes++;
  }
  for (const k in o) {
    let child: ShapeNode | undefined = node.next.get(k);
    if (child === undefined) {
      child = { next: new Map() };
      node.next.set(k, child);
      shapeNodes++;
    }
    node = child;
  }
  if (node.shape !== undefined) return node.shape;
  const leaf = node;
  const keys = keysOf(o);
  const p = singularNoun(parent);
  const has = (...list: string[]): boolean => list.some((n) => keys.has(n));
  let entity: Shape["entity"];
  // An airport: its IATA code beside a name, a city or its ICAO (GPS) code, or an airport's name beside its ICAO code or coordinates.
  if ((has("iatacode", "iata", "airportiata", "airportiatacode") && has("name", "city", "airportname", "location", "municipality", "gpscode", "icao", "icaocode")) || (has("airportname") && has("gpscode", "icao", "icaocode", "latitude", "lat"))) entity = "airport";
  else if (COUNTRY_PARENT.test(p) || (has("countrycode", "alpha2", "iso2", "cca2") && has("name", "countryname", "countrydisplayname", "capital", "region", "continent") && !has("city", "latitude", "lat", "email") && (GENERIC_PARENT.test(p) || has("capital", "alpha3", "iso3", "cca3", "subregion", "callingcode", "officialname")))) {
    entity = "country";
  } else if ((has("latitude", "lat") && has("longitude", "lon", "lng") && has("name", "city", "cityname")) || (PLACE_PARENT.test(p) && has("name", "city") && has("country", "countrycode"))) {
    entity = "place";
  } else if (/^currenc(y|ie)$/.test(p)) entity = "currency";
  else if (/^language$/.test(p)) entity = "language";
  const shape: Shape = {
    keys,
    ...(entity !== undefined ? { entity } : {}),
    subdivisions: has("countrycode", "country"),
    holiday: /holiday/.test(p) || (has("localname") && has("date")),
    distance: [...keys.keys()].some((k) => k.startsWith("distance")),
    counted: [...keys.keys()].some((k) => /count$|^(num|number|nb)[a-z]/.test(k)),
    paged: has("page", "currentpage", "pagenumber", "pagenum", "pageno") && has("totalpages", "pagecount", "pages", "lastpage", "numpages", "numberofpages", "totalpagecount", "pagestotal"),
    holidayCheck: has("isholiday", "ispublicholiday", "holiday") && has("date", "day") && has("countrycode", "country"),
    exchange: has("exchange"),
    stock: has("symbol", "ticker") && has("name", "companyname", "shortname", "longname", "company", "exchange", "sector", "industry"),
    journey: has("from", "origin", "departureairport", "fromairport", "departurecode", "stops", "numberofstops", "stopcount", "arrival", "arrivaltime", "arrivesat"),
    person: has("email", "emailaddress") && (PERSON_PARENT.test(p) || has("firstname", "lastname", "fullname", "displayname") || (has("name") && !COUNTRY_PARENT.test(p))),
    personNames:
      !has("email", "emailaddress") &&
      ((has("firstname", "givenname") && has("lastname", "surname", "familyname") && has("fullname", "displayname")) ||
        (has("firstname") && has("givenname")) ||
        ["lastname", "surname", "familyname"].filter((k) => keys.has(k)).length >= 2),
    roundTrip: has("inbound", "return", "returnflight") && has("outbound", "outward", "departure"),
    point: has("latitude", "lat") && has("longitude", "lon", "lng", "long"),
    addressText: has("formattedaddress", "fulladdress", "displayaddress", "addressfull") || (has("address") && has("city", "locality", "town", "commune", "municipality", "zipcode", "zip", "postalcode")),
    ranges: rangePairs([...keys.values()]),
    countClasses: countClassPairs([...keys.values()]),
    dns: looksLikeDnsRecord(keys),
  };
  const timeline = timelineOf([...keys.values()]);
  if (timeline !== undefined) shape.timeline = timeline;
  const urlDate = urlDateKeys([...keys.values()]);
  if (urlDate !== undefined) shape.urlDate = urlDate;
  const languagePair = languagePairKeys([...keys.values()]);
  if (languagePair !== undefined) shape.languagePair = languagePair;
  const recipe = recipeKeys([...keys.values()]);
  if (recipe !== undefined) shape.recipe = recipe;
  const countryLanguage = countryLanguageKeys([...keys.values()]);
  if (countryLanguage !== undefined) shape.countryLanguage = countryLanguage;
  if (shapeNodes > 20_000) {
    shapes.next.clear();
    shapeNodes = 0;
  } else leaf.shape = shape;
  return shape;
}
