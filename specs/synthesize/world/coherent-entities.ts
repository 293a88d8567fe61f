import { cohereDnsRecord } from "./dns-records.js";
import { cohereCountClasses } from "./count-intervals.js";
import { cohereTimeline } from "./stamp-order.js";
import { cohereUrlDate } from "./url-dates.js";
import { cohereLanguagePair } from "./language-pairs.js";
import { cohereRecipe } from "./recipe-dishes.js";
import { cohereCountryLanguage } from "./country-language.js";
import { fixedHolidays } from "./world-holidays.js";
import { findStock, stockNamed } from "./world-stocks.js";
import { drawCompanyFacts } from "./company-facts.js";
import { findExchange, sessionAt } from "./world-exchanges.js";
import { REFERENCE_DATE } from "./simulated-today.js";
import { coherePlace, nameThePoint, pinnedPoint } from "./place-coherence.js";
import { AIRPORTS, COUNTRIES, countryCode, currencyName, findCity, findCountry, fold, languageCode, type City, type Country } from "./world-data.js";
import { isObject, pointerSegment } from "../../json-object.js";
import { keysOf, shapeOf } from "./entity-shape.js";
import { first, pick, pinnedValue, set, type Ctx, type ValueEdit } from "./coherence-context.js";
import { cohereJourney, cohereJourneyLegs, cohereReturn } from "./journey-coherence.js";
import { pointDistance } from "./point-distance.js";
import { pageCountShort } from "./page-numbers.js";
import { greatCircleKm } from "./great-circle.js";
import { listCounts } from "./list-counts.js";

export type { ValueEdit } from "./coherence-context.js";

/**
 * Entities that hang together inside one answer: a country's code, name, region, capital and currency from
 * one country; a place's name, country, coordinates and time zone from one city; an airport's code, name
 * and city from one airport; a person's email from their name (or their name from an email that was
 * asked for); a currency's or language's name from its code. Fields pinned by a binding (a filter's
 * `region=Asia`, an asked-for `city`) stay as they are and choose the entity. Returns the edits made, so
 * that the caller can undo those its schema rejects.
 */

type Json = Record<string, unknown>;

/** Options of {@link cohereEntities}. */
export interface CohereOptions {
  seed: number;
  /** Pointers of values a binding set: they stay, and choose the entity. */
  pinned?: ReadonlySet<string>;
  /** Only objects holding a pinned value are made coherent (an example's own entities are left alone). */
  pinnedOnly?: boolean;
}


/** A country row for an object: pinned fields choose, else a real country it already names, else one by seed. */
function countryRow(ctx: Ctx, o: Json, keys: Map<string, string>, at: string, index: number): Country | undefined {
  const code = first(keys, ["countrycode", "alpha2", "iso2", "cca2", "isocode", "iso", "code", "countryiso", "alpha3", "iso3", "cca3"]);
  const name = first(keys, ["name", "countryname", "countrydisplayname", "commonname", "englishname"]);
  const region = first(keys, ["region", "continent"]);
  const pins: Array<(c: Country) => boolean> = [];
  for (const k of [code, name]) {
    const v = pinnedValue(ctx, o, k, at);
    if (typeof v === "string") pins.push((c) => countryCode(v) === c.alpha2);
  }
  const r = pinnedValue(ctx, o, region, at);
  if (typeof r === "string") pins.push((c) => fold(c.region) === fold(r) || fold(c.subregion) === fold(r) || fold(c.subregion).includes(fold(r)));
  if (pins.length > 0) return pick(COUNTRIES.filter((c) => pins.every((p) => p(c))), ctx.seed, index);
  for (const k of [code, name]) {
    const v = k !== undefined ? o[k] : undefined;
    if (typeof v === "string") {
      const known = findCountry(v);
      if (known) return known;
    }
  }
  return ctx.pinnedOnly ? undefined : pick(COUNTRIES, ctx.seed, index);
}

function cohereCountry(ctx: Ctx, o: Json, keys: Map<string, string>, at: string, index: number): void {
  const row = countryRow(ctx, o, keys, at, index);
  if (!row) return;
  for (const k of ["countrycode", "alpha2", "iso2", "cca2", "isocode", "iso", "code", "countryiso"]) {
    const key = keys.get(k);
    if (key === undefined) continue;
    const cur = o[key];
    set(ctx, o, key, typeof cur === "string" && cur.length === 3 ? row.alpha3 : typeof cur === "string" && cur === cur.toLowerCase() ? row.alpha2.toLowerCase() : row.alpha2, at);
  }
  for (const k of ["alpha3", "iso3", "cca3"]) set(ctx, o, keys.get(k), row.alpha3, at);
  for (const k of ["name", "countryname", "countrydisplayname", "commonname", "englishname", "officialname"]) set(ctx, o, keys.get(k), row.name, at);
  const region = keys.get("region");
  if (region !== undefined) set(ctx, o, region, row.region, at);
  set(ctx, o, keys.get("continent"), row.region === "Americas" ? (row.subregion === "South America" ? "South America" : "North America") : row.region, at);
  set(ctx, o, keys.get("subregion"), row.subregion, at);
  set(ctx, o, keys.get("capital"), row.capital, at);
  set(ctx, o, first(keys, ["currency", "currencycode"]), row.currency, at);
  // A calling code as the field writes it (`+49`, or `49` beside a `dialingPrefix: "1"`).
  const calling = first(keys, ["callingcode", "phonecode", "dialcode", "dialingcode", "dialingprefix", "callingprefix", "phoneprefix", "countrycallingcode"]);
  const plus = calling === undefined || (typeof o[calling] === "string" && String(o[calling]).startsWith("+"));
  set(ctx, o, calling, plus ? row.callingCode : row.callingCode.replace(/^\+/, ""), at);
  set(ctx, o, keys.get("population"), row.population, at);
}


function cohereAirport(ctx: Ctx, o: Json, keys: Map<string, string>, at: string, index: number): void {
  const iata = first(keys, ["iatacode", "iata", "airportiata", "airportiatacode", "airportcode", "code"]);
  const city = first(keys, ["city", "municipality", "location", "servedcity"]);
  const name = first(keys, ["name", "airportname"]);
  let row = undefined as (typeof AIRPORTS)[number] | undefined;
  const pinnedIata = pinnedValue(ctx, o, iata, at);
  const pinnedCity = pinnedValue(ctx, o, city, at) ?? pinnedValue(ctx, o, name, at);
  // A point asked for (`nearest airports to 41.15, -8.61`): the airport nearest to it, the first of a list first.
  const pinnedLat = Number(pinnedValue(ctx, o, first(keys, ["latitude", "lat"]), at));
  const pinnedLon = Number(pinnedValue(ctx, o, first(keys, ["longitude", "lon", "lng"]), at));
  if (typeof pinnedIata === "string") row = AIRPORTS.find((a) => a.iata === pinnedIata.toUpperCase());
  else if (Number.isFinite(pinnedLat) && Number.isFinite(pinnedLon) && pinnedValue(ctx, o, first(keys, ["latitude", "lat"]), at) !== undefined) row = nearestAirports(pinnedLat, pinnedLon)[index];
  else if (typeof pinnedCity === "string") row = pick(AIRPORTS.filter((a) => fold(a.city) === fold(pinnedCity) || fold(a.name).includes(fold(pinnedCity))), ctx.seed, index);
  else {
    const cur = iata !== undefined ? o[iata] : undefined;
    row = typeof cur === "string" ? AIRPORTS.find((a) => a.iata === cur) : undefined;
    if (!row && !ctx.pinnedOnly) row = pick(AIRPORTS, ctx.seed, index);
  }
  if (!row) return;
  set(ctx, o, iata, row.iata, at);
  set(ctx, o, first(keys, ["icaocode", "icao", "airporticao", "gpscode"]), row.icao, at);
  set(ctx, o, name, row.name, at);
  set(ctx, o, city, row.city, at);
  const c = findCity(row.city);
  const countryKey = first(keys, ["country", "countrycode", "isocountry", "countryiso"]);
  if (countryKey !== undefined) {
    const cur = o[countryKey];
    set(ctx, o, countryKey, typeof cur === "string" && cur.length <= 3 ? row.countryCode : (findCountry(row.countryCode)?.name ?? row.countryCode), at);
  }
  if (c) {
    set(ctx, o, first(keys, ["latitude", "lat"]), c.lat, at);
    set(ctx, o, first(keys, ["longitude", "lon", "lng"]), c.lon, at);
    set(ctx, o, first(keys, ["timezone", "tz"]), c.timeZone, at);
  }
  // A country object inside the airport (`Country: {country_code, name}`) is the airport's (its own coherence follows).
  for (const k of Object.keys(o)) {
    const child = o[k];
    if (!isObject(child) || !/^country$/i.test(k)) continue;
    const childKeys = shapeOf(child, k).keys as Map<string, string>;
    const codeKey = first(childKeys, ["countrycode", "code", "iso", "iso2", "alpha2", "countryiso"]);
    const cur = codeKey !== undefined ? child[codeKey] : undefined;
    const country = findCountry(row.countryCode);
    const childAt = `${at}/${pointerSegment(k)}`;
    if (typeof cur === "string") set(ctx, child, codeKey, cur.length === 3 && country ? country.alpha3 : row.countryCode, childAt);
    if (country) set(ctx, child, first(childKeys, ["name", "countryname"]), country.name, childAt);
  }
}

/** The world's airports by distance from a point (of those whose city it knows), nearest first. */
function nearestAirports(lat: number, lon: number): Array<(typeof AIRPORTS)[number]> {
  const located = AIRPORTS.map((a) => ({ a, c: findCity(a.city) })).filter((x): x is { a: (typeof AIRPORTS)[number]; c: City } => x.c !== undefined);
  return located.sort((x, y) => greatCircleKm(lat, lon, x.c.lat, x.c.lon) - greatCircleKm(lat, lon, y.c.lat, y.c.lon)).map((x) => x.a);
}

function ascii(s: string): string {
  return fold(s).replace(/[^a-z0-9]+/g, "");
}

function titleCase(s: string): string {
  return s.replace(/\b\p{L}/gu, (m) => m.toUpperCase());
}

/** The words of a person's full name, without a title before it (`Dr. Ada King` -> Ada, King). */
function nameWords(full: string): string[] {
  return full.replace(/^(mr|mrs|ms|miss|dr|prof)\.?\s+/i, "").split(/\s+/).filter((w) => /^\p{L}[\p{L}'-]*$/u.test(w));
}

/**
 * A person's names agree with each other: first and given name are one name, last name and surname another, and a
 * full name is the two (a board member "Alexie Wiegand" whose first name was Cheyanne and given name Molly). A name
 * a binding pinned leads: a pinned full name gives the parts, else the first and last names give the full one.
 */
function coherePersonNames(ctx: Ctx, o: Json, keys: Map<string, string>, at: string): void {
  const present = (names: readonly string[]): string[] => names.map((n) => keys.get(n)).filter((k): k is string => k !== undefined && typeof o[k] === "string" && (o[k] as string).trim() !== "");
  const firsts = present(["firstname", "givenname"]);
  const lasts = present(["lastname", "surname", "familyname"]);
  const fullKey = present(["fullname", "displayname"])[0];
  const pinned = (k: string | undefined): boolean => k !== undefined && ctx.pinned.has(`${at}/${pointerSegment(k)}`);
  const words = fullKey === undefined ? [] : nameWords(o[fullKey] as string);
  const fromFull = words.length >= 2 && words.length <= 4 && (pinned(fullKey) || firsts.length === 0 || lasts.length === 0);
  const firstKey = firsts.find(pinned) ?? firsts[0];
  const lastKey = lasts.find(pinned) ?? lasts[0];
  const f = fromFull ? (words[0] as string) : firstKey !== undefined ? (o[firstKey] as string) : undefined;
  const l = fromFull ? (words[words.length - 1] as string) : lastKey !== undefined ? (o[lastKey] as string) : undefined;
  if (f === undefined || l === undefined) return;
  for (const k of firsts) set(ctx, o, k, f, at);
  for (const k of lasts) set(ctx, o, k, l, at);
  if (!fromFull) set(ctx, o, fullKey, `${f} ${l}`, at);
}

function coherePerson(ctx: Ctx, o: Json, keys: Map<string, string>, at: string): void {
  const emailKey = first(keys, ["email", "emailaddress"]);
  if (emailKey === undefined || typeof o[emailKey] !== "string") return;
  const email = o[emailKey] as string;
  const at_ = email.indexOf("@");
  if (at_ <= 0) return;
  const firstKey = first(keys, ["firstname", "givenname"]);
  const lastKey = first(keys, ["lastname", "familyname", "surname"]);
  const fullKey = first(keys, ["fullname", "displayname", "name"]);
  if (ctx.pinned.has(`${at}/${pointerSegment(emailKey)}`)) {
    // The email was asked for: the name follows it (loren.mueller@ -> Loren Mueller).
    const parts = email.slice(0, at_).split(/[._-]+/).filter((p) => /^[a-z]{2,}$/i.test(p));
    if (parts.length < 2) return;
    const [f, l] = [titleCase(parts[0] as string), titleCase(parts[parts.length - 1] as string)];
    set(ctx, o, firstKey, f, at);
    set(ctx, o, lastKey, l, at);
    set(ctx, o, fullKey, `${f} ${l}`, at);
    set(ctx, o, first(keys, ["username", "login", "handle"]), `${f}${l}`.toLowerCase(), at);
    return;
  }
  const firstName = firstKey !== undefined && typeof o[firstKey] === "string" ? (o[firstKey] as string) : undefined;
  const lastName = lastKey !== undefined && typeof o[lastKey] === "string" ? (o[lastKey] as string) : undefined;
  let names: string[] | undefined;
  if (firstName && lastName) names = [firstName, lastName];
  else if (fullKey !== undefined && typeof o[fullKey] === "string") {
    const words = nameWords(o[fullKey] as string);
    if (words.length >= 2 && words.length <= 4) names = [words[0] as string, words[words.length - 1] as string];
  }
  if (!names) return;
  const local = email.slice(0, at_).toLowerCase();
  const [f, l] = [ascii(names[0] as string), ascii(names[1] as string)];
  if (f === "" || l === "" || local.includes(l) || local.includes(f)) return;
  const fullPinned = fullKey !== undefined && ctx.pinned.has(`${at}/${pointerSegment(fullKey)}`);
  if (ctx.pinnedOnly && !fullPinned && !(firstKey !== undefined && ctx.pinned.has(`${at}/${pointerSegment(firstKey)}`))) return;
  set(ctx, o, emailKey, `${f}.${l}${email.slice(at_)}`, at);
}

function cohereCode(ctx: Ctx, o: Json, keys: Map<string, string>, at: string, kind: "currency" | "language"): void {
  const codeKey = first(keys, kind === "currency" ? ["code", "currencycode", "iso", "isocode"] : ["code", "languagecode", "iso", "isocode", "language", "lang"]);
  const nameKey = first(keys, ["name", "englishname", kind === "currency" ? "currencyname" : "languagename"]);
  if (codeKey === undefined || nameKey === undefined || codeKey === nameKey) return;
  const code = o[codeKey];
  if (typeof code !== "string") return;
  if (kind === "currency") {
    const name = currencyName(code);
    if (name !== undefined && name !== code.toUpperCase()) set(ctx, o, nameKey, name, at);
    return;
  }
  const lc = languageCode(code);
  if (lc === undefined) return;
  const name = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" }).of(code.replace("_", "-"));
  if (name !== undefined) set(ctx, o, nameKey, name, at);
  const nativeKey = keys.get("nativename");
  if (nativeKey !== undefined) {
    try {
      const native = new Intl.DisplayNames([lc], { type: "language", fallback: "none" }).of(lc);
      if (native !== undefined) set(ctx, o, nativeKey, native.charAt(0).toUpperCase() + native.slice(1), at);
    } catch {
      // a code Intl does not know: the native name stays
    }
  }
}

/** A record of one country holds no other country's subdivision codes (`countryCode: AU` beside `DE-BW`): they go. */
function cohereSubdivisions(ctx: Ctx, o: Json, keys: Map<string, string>, at: string): void {
  const codeKey = first(keys, ["countrycode", "country"]);
  const code = codeKey !== undefined ? o[codeKey] : undefined;
  if (typeof code !== "string" || !/^[A-Z]{2}$/.test(code)) return;
  const foreign = (s: unknown): boolean => typeof s === "string" && /^[A-Z]{2}-[A-Z0-9]{1,3}$/.test(s) && s.slice(0, 2) !== code;
  for (const [k, v] of Object.entries(o)) {
    if (!(foreign(v) || (Array.isArray(v) && v.length > 0 && v.some(foreign)))) continue;
    const pointer = `${at}/${pointerSegment(k)}`;
    if (ctx.pinned.has(pointer)) continue;
    ctx.edits.push({ holder: o, key: k, before: v, after: null, pointer });
    o[k] = null;
  }
}

/**
 * A holiday is one of its country's: its name and local name are those of the country's holiday on its date,
 * else the date moves to one of the country's holidays (never earlier than a date a binding set).
 */
function cohereHoliday(ctx: Ctx, o: Json, keys: Map<string, string>, at: string, index: number): void {
  const codeKey = first(keys, ["countrycode", "country"]);
  const dateKey = first(keys, ["date", "observedon", "day"]);
  const nameKey = first(keys, ["name", "holidayname", "englishname"]);
  const localKey = first(keys, ["localname", "nativename"]);
  const code = codeKey !== undefined ? o[codeKey] : undefined;
  const date = dateKey !== undefined ? o[dateKey] : undefined;
  if (typeof code !== "string" || typeof date !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(date) || dateKey === undefined) return;
  const holidays = fixedHolidays(countryCode(code) ?? code);
  if (holidays.length === 0) return;
  const day = date.slice(5, 10);
  let chosen = holidays.find((h) => h.day === day);
  if (chosen === undefined) {
    const datePinned = ctx.pinned.has(`${at}/${pointerSegment(dateKey)}`);
    chosen = datePinned ? holidays.find((h) => h.day > day) : holidays[index % holidays.length];
    if (chosen === undefined) return;
    // Later in the same year: a year or a `from` that a binding asked for still holds.
    const after = `${date.slice(0, 5)}${chosen.day}${date.slice(10)}`;
    ctx.edits.push({ holder: o, key: dateKey, before: date, after, pointer: `${at}/${pointerSegment(dateKey)}` });
    o[dateKey] = after;
    const observedKey = first(keys, ["observedon", "observeddate"]);
    if (observedKey !== undefined && typeof o[observedKey] === "string" && o[observedKey] !== after) set(ctx, o, observedKey, null, at);
  }
  set(ctx, o, nameKey, chosen.name, at);
  set(ctx, o, localKey, chosen.localName, at);
}

/**
 * A check of a day ("is it a holiday?") answers as the country's calendar says, where the world knows it: the
 * flag says whether the country has a fixed holiday on that day, the holiday it names is that one, on that day,
 * and a day without one names none.
 */
function cohereHolidayCheck(ctx: Ctx, o: Json, keys: Map<string, string>, at: string): void {
  const code = o[first(keys, ["countrycode", "country"]) ?? ""];
  const dateKey = first(keys, ["date", "day"]);
  const date = dateKey !== undefined ? o[dateKey] : undefined;
  if (typeof code !== "string" || typeof date !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(date)) return;
  const holidays = fixedHolidays(countryCode(code) ?? code);
  if (holidays.length === 0) return;
  const found = holidays.find((h) => h.day === date.slice(5, 10));
  const flag = first(keys, ["isholiday", "ispublicholiday"]);
  if (flag !== undefined && typeof o[flag] === "boolean") set(ctx, o, flag, found !== undefined, at);
  const weekend = first(keys, ["isweekend"]);
  const weekday = new Date(`${date.slice(0, 10)}T00:00:00Z`).getUTCDay();
  if (weekend !== undefined && typeof o[weekend] === "boolean" && !Number.isNaN(weekday)) set(ctx, o, weekend, weekday === 0 || weekday === 6, at);
  const named = [...keys.values()].find((k) => isObject(o[k]) && /holiday/i.test(k));
  if (named === undefined) return;
  const pointer = `${at}/${pointerSegment(named)}`;
  const holiday = o[named] as Json;
  if (found === undefined) {
    ctx.edits.push({ holder: o, key: named, before: holiday, after: undefined, pointer });
    delete o[named];
    return;
  }
  const innerDate = first(keysOf(holiday), ["date", "day"]);
  const current = innerDate !== undefined ? holiday[innerDate] : undefined;
  if (innerDate !== undefined && typeof current === "string") set(ctx, holiday, innerDate, `${date.slice(0, 10)}${current.slice(10)}`, pointer);
}

/** A distance between two points is theirs: the great-circle distance in its unit, and the bearing from the first to the second. */
function cohereDistance(ctx: Ctx, o: Json, at: string): void {
  const d = pointDistance(o);
  if (!d) return;
  set(ctx, o, d.distanceKey, d.distance, at);
  if (d.bearingKey !== undefined && typeof o[d.bearingKey] === "number") set(ctx, o, d.bearingKey, d.bearing, at);
}

/** What is said of an exchange (or of a security listed on one) is that exchange's: time zone, currency, sessions. */
/** A US-style written address: `602 University Dr, Waldorf, MD 20602`. */
const WRITTEN_ADDRESS = /^([^,]+),\s*([^,]+?),\s*([A-Z]{2})\s+(\d{5}(?:-\d{4})?)(?:,\s*(?:USA|US|United States))?$/;

/**
 * A written address and the parts beside it say the same: the city, state and ZIP code of
 * `formattedAddress: "602 University Dr, Waldorf, MD 20602"` are Waldorf, MD and 20602, unless a binding set the city
 * (`city=Austin`): then the written address names that city.
 */
function cohereAddressText(ctx: Ctx, o: Json, keys: Map<string, string>, at: string): void {
  const textKey = first(keys, ["formattedaddress", "fulladdress", "displayaddress", "addressfull", "address"]);
  const text = textKey !== undefined ? o[textKey] : undefined;
  if (typeof text !== "string") return;
  const m = WRITTEN_ADDRESS.exec(text.trim());
  if (!m) return;
  const cityKey = first(keys, ["city", "locality", "town", "commune", "municipality"]);
  const city = cityKey !== undefined ? o[cityKey] : undefined;
  if (typeof city === "string" && pinnedValue(ctx, o, cityKey, at) !== undefined) {
    if (city !== m[2]) set(ctx, o, textKey, `${m[1]}, ${city}, ${m[3]} ${m[4]}`, at);
    return;
  }
  // A place at a point asked for is in the city there (coherePlace named it), not the one its written address had.
  if (pinnedPoint(ctx, o, keys, at) !== undefined) {
    if (typeof city === "string" && fold(city) !== fold(m[2] ?? "")) set(ctx, o, textKey, `${m[1]}, ${city}`, at);
    return;
  }
  for (const k of ["city", "locality", "town", "commune", "municipality"]) set(ctx, o, keys.get(k), m[2], at);
  set(ctx, o, first(keys, ["state", "statecode", "stateabbreviation"]), m[3], at);
  set(ctx, o, first(keys, ["zipcode", "zip", "postalcode", "postcode"]), m[4], at);
  set(ctx, o, first(keys, ["addressline1", "street", "streetaddress", "address1"]), m[1], at);
}

/**
 * A range's ends are in order: a minimum is not above its maximum (`estimated_cost_cents_min: 1390` beside a max
 * of 1080). Swapped, or the free end moved to the one a binding set.
 */
function cohereRanges(ctx: Ctx, o: Json, at: string, pairs: ReadonlyArray<readonly [string, string]>): void {
  for (const [low, high] of pairs) {
    const lv = o[low];
    const hv = o[high];
    if (typeof lv !== "number" || typeof hv !== "number" || lv <= hv) continue;
    const lowPinned = pinnedValue(ctx, o, low, at) !== undefined;
    const highPinned = pinnedValue(ctx, o, high, at) !== undefined;
    if (lowPinned && highPinned) continue;
    if (highPinned) set(ctx, o, low, hv, at);
    else if (lowPinned) set(ctx, o, high, lv, at);
    else {
      set(ctx, o, low, hv, at);
      set(ctx, o, high, lv, at);
    }
  }
}

/**
 * A company or quote of a known ticker (`SAP`) is that company: its name, exchange, currency, where it is based,
 * its sector, industry and site; a description written for the example's company goes with it.
 */
function cohereStock(ctx: Ctx, o: Json, keys: Map<string, string>, at: string, index: number): void {
  const symbolKey = first(keys, ["symbol", "ticker"]);
  const nameKey = first(keys, ["name", "companyname", "longname", "shortname", "company"]);
  const symbol = symbolKey !== undefined ? o[symbolKey] : undefined;
  const before = nameKey !== undefined ? o[nameKey] : undefined;
  // A search by a known company's name (`Apple`, the name pinned as searched) finds that company first.
  const searched = index === 0 && pinnedValue(ctx, o, symbolKey, at) === undefined && typeof pinnedValue(ctx, o, nameKey, at) === "string";
  const named = searched ? stockNamed(String(before)) : undefined;
  const stock = named ?? (typeof symbol === "string" ? findStock(symbol) : undefined);
  if (!stock) return;
  if (named !== undefined) {
    // Its name still holds what was searched (the company's own name begins with it).
    set(ctx, o, symbolKey, stock.symbol, at);
    if (nameKey !== undefined && before !== stock.name) {
      ctx.edits.push({ holder: o, key: nameKey, before, after: stock.name, pointer: `${at}/${pointerSegment(nameKey)}` });
      o[nameKey] = stock.name;
    }
  }
  // A record that was another company's (the example's) keeps none of that company's own facts.
  if (typeof before === "string" && before !== stock.name) drawCompanyFacts(ctx, o, at, stock.symbol);
  set(ctx, o, nameKey, stock.name, at);
  set(ctx, o, first(keys, ["headquarters", "hq", "headquarterslocation", "headquartersaddress"]), stock.headquarters, at);
  set(ctx, o, first(keys, ["exchange", "exchangecode", "primaryexchange"]), stock.exchange, at);
  const currency = first(keys, ["currency", "currencycode"]);
  if (currency !== undefined && typeof o[currency] === "string" && /^[A-Z]{3}$/.test(o[currency] as string)) set(ctx, o, currency, stock.currency, at);
  const country = first(keys, ["country", "countrycode"]);
  if (country !== undefined && typeof o[country] === "string") set(ctx, o, country, (o[country] as string).length <= 3 ? stock.countryCode : (findCountry(stock.countryCode)?.name ?? stock.countryCode), at);
  set(ctx, o, keys.get("sector"), stock.sector, at);
  set(ctx, o, keys.get("industry"), stock.industry, at);
  set(ctx, o, first(keys, ["website", "weburl", "homepage", "url"]), stock.website, at);
  const description = first(keys, ["description", "summary", "about", "businesssummary"]);
  // A description that names the company by another name (the example's, or one it had before) is about another company.
  const word = typeof before === "string" ? before.split(/\s+/)[0] : undefined;
  const own = stock.name.split(/\s+/)[0] ?? stock.name;
  const text = description !== undefined && typeof o[description] === "string" ? (o[description] as string) : undefined;
  if (description !== undefined && text !== undefined && !text.toLowerCase().includes(own.toLowerCase()) && ((word !== undefined && word.length > 2 && before !== stock.name && text.includes(word)) || /^[A-Z][\w&.-]*( [A-Z][\w&.-]*)* (is|designs|makes|builds|develops|provides|operates|sells|offers)\b/.test(text))) {
    set(ctx, o, description, `${stock.name} is a company in ${stock.industry.toLowerCase()}, listed on ${stock.exchange}.`, at);
  }
}

function cohereExchange(ctx: Ctx, o: Json, keys: Map<string, string>, at: string): void {
  const code = o[keys.get("exchange") ?? ""];
  const exchange = typeof code === "string" ? findExchange(code) : undefined;
  if (!exchange) return;
  // A known company is based where it is, whatever exchange lists it (TSMC on the NYSE is Taiwanese).
  const symbol = o[first(keys, ["symbol", "ticker"]) ?? ""];
  const company = typeof symbol === "string" ? findStock(symbol) : undefined;
  const tz = first(keys, ["timezone", "tz", "timezonename"]);
  if (tz !== undefined && typeof o[tz] === "string" && (o[tz] as string).includes("/")) set(ctx, o, tz, exchange.timeZone, at);
  const currency = first(keys, ["currency", "currencycode"]);
  if (currency !== undefined && typeof o[currency] === "string" && /^[A-Z]{3}$/.test(o[currency] as string)) set(ctx, o, currency, exchange.currency, at);
  const country = first(keys, ["country", "countrycode"]);
  if (country !== undefined && company === undefined && typeof o[country] === "string" && /^[A-Z]{2}$/.test(o[country] as string)) set(ctx, o, country, exchange.countryCode, at);
  // The session as it stands now (the simulated now): open or not, and its next open and close.
  const session = sessionAt(exchange, REFERENCE_DATE.getTime());
  if (!session) return;
  const open = first(keys, ["isopen", "marketopen", "open"]);
  if (open !== undefined && typeof o[open] === "boolean") set(ctx, o, open, session.isOpen, at);
  for (const [names, value] of [[["nextopen", "nextopenat", "opensat"], session.nextOpen], [["nextclose", "nextcloseat", "closesat"], session.nextClose]] as const) {
    const key = first(keys, names);
    const v = key !== undefined ? o[key] : undefined;
    if (key !== undefined && typeof v === "string" && /^\d{4}-\d{2}-\d{2}T/.test(v)) set(ctx, o, key, value, at);
  }
}

function holdsPin(ctx: Ctx, o: Json, at: string): boolean {
  // Most objects hold no pinned value: their pointer is no pinned pointer's parent.
  if (!ctx.pinnedParents.has(at)) return false;
  for (const k of Object.keys(o)) if (ctx.pinned.has(`${at}/${pointerSegment(k)}`)) return true;
  return false;
}

/** Whether a part of the value holds a pinned value, itself or below (`/a` leads to `/a/b/c`). */
function leadsToPin(ctx: Ctx, at: string): boolean {
  for (const p of ctx.pinnedParents) if (p === at || (p.startsWith(at) && p.charCodeAt(at.length) === 47)) return true;
  return false;
}

/** The pointers of the objects and lists that hold a pinned value (`/a/b` holds `/a/b/c`). */
function parentsOf(pinned: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const p of pinned) out.add(p.slice(0, Math.max(0, p.lastIndexOf("/"))));
  return out;
}

function visit(ctx: Ctx, value: unknown, at: string, parent: string, index: number, depth: number): void {
  if (depth > 10) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = `${at}/${i}`;
      if (!ctx.pinnedOnly || leadsToPin(ctx, item)) visit(ctx, value[i], item, parent, i, depth + 1);
    }
    return;
  }
  if (!isObject(value)) return;
  const o = value;
  const shape = shapeOf(o, parent);
  const keys = shape.keys as Map<string, string>;
  const active = !ctx.pinnedOnly || holdsPin(ctx, o, at);
  if (active) {
    if (shape.entity === "airport") cohereAirport(ctx, o, keys, at, index);
    else if (shape.entity === "country") cohereCountry(ctx, o, keys, at, index);
    else if (shape.entity === "place") coherePlace(ctx, o, keys, at, index);
    else if (shape.entity === "currency") cohereCode(ctx, o, keys, at, "currency");
    else if (shape.entity === "language") cohereCode(ctx, o, keys, at, "language");
    if (shape.subdivisions) cohereSubdivisions(ctx, o, keys, at);
    if (shape.distance) cohereDistance(ctx, o, at);
    if (shape.counted) for (const c of listCounts(o)) set(ctx, o, c.key, c.length, at);
    if (shape.paged) {
      const short = pageCountShort(o);
      if (short !== undefined) set(ctx, o, short.key, short.count, at);
    }
    if (shape.holidayCheck) cohereHolidayCheck(ctx, o, keys, at);
    if (shape.holiday) cohereHoliday(ctx, o, keys, at, index);
    if (shape.stock) cohereStock(ctx, o, keys, at, index);
    if (shape.exchange) cohereExchange(ctx, o, keys, at);
    if (shape.journey) cohereJourney(ctx, o, keys, at, index);
    if (shape.person) coherePerson(ctx, o, keys, at);
    if (shape.personNames) coherePersonNames(ctx, o, keys, at);
    if (shape.ranges.length > 0) cohereRanges(ctx, o, at, shape.ranges);
    if (shape.addressText) cohereAddressText(ctx, o, keys, at);
    if (shape.timeline) cohereTimeline(ctx, o, at, shape.timeline);
    if (shape.urlDate) cohereUrlDate(ctx, o, at, shape.urlDate);
    if (shape.languagePair) cohereLanguagePair(ctx, o, at, shape.languagePair);
    if (shape.recipe) cohereRecipe(ctx, o, at, index, shape.recipe);
    if (shape.countryLanguage) cohereCountryLanguage(ctx, o, at, shape.countryLanguage);
    if (shape.countClasses.length > 0) cohereCountClasses(ctx, o, at, shape.countClasses);
    if (shape.dns) cohereDnsRecord(ctx, o, keys, at, index);
  }
  // The places inside an object about a point asked for (its address) are at that point.
  const outer = ctx.point;
  const point = shape.point ? pinnedPoint(ctx, o, keys, at) : undefined;
  if (point !== undefined) {
    ctx.point = point;
    if (active) nameThePoint(ctx, o, keys, at, point);
  }
  for (const k in o) {
    const v = o[k];
    if (typeof v !== "object" || v === null) continue;
    const child = `${at}/${pointerSegment(k)}`;
    // Only objects holding a pinned value act: a part with none below it is left alone.
    if (ctx.pinnedOnly && !leadsToPin(ctx, child)) continue;
    visit(ctx, v, child, k, index, depth + 1);
  }
  ctx.point = outer;
  if (active && shape.journey) cohereJourneyLegs(ctx, o, keys, at);
  // After its journeys are coherent: the way back mirrors the way out.
  if (active && shape.roundTrip) cohereReturn(ctx, o, keys, at);
}

/** Makes the entities of a value coherent in place; returns the edits (the caller undoes those its schema rejects). */
export function cohereEntities(value: unknown, options: CohereOptions): ValueEdit[] {
  // Only objects holding a pinned value, and none is pinned: nothing to do.
  if (options.pinnedOnly === true && (options.pinned === undefined || options.pinned.size === 0)) return [];
  const pinned = options.pinned ?? new Set<string>();
  const pinnedOnly = options.pinnedOnly ?? false;
  const ctx: Ctx = { edits: [], pinned, pinnedParents: pinnedOnly ? parentsOf(pinned) : new Set(), seed: options.seed, pinnedOnly };
  visit(ctx, value, "", "", 0, 0);
  return ctx.edits;
}
