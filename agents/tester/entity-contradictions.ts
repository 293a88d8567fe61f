import { cityNear, findCity, findCountry, fold, isLanguage, type City } from "../../specs/synthesize/world/world-data.js";
import { citiesNamed } from "../../specs/synthesize/world/gazetteer.js";
import { dayInUrl, urlDateKeys } from "../../specs/synthesize/world/url-dates.js";
import { languagePairKeys, pairEntries } from "../../specs/synthesize/world/language-pairs.js";
import { dishOfAnotherCuisine, recipeKeys } from "../../specs/synthesize/world/recipe-dishes.js";
import { primaryLanguage, termLanguages } from "../../specs/synthesize/world/world-terms.js";
import { findExchange } from "../../specs/synthesize/world/world-exchanges.js";
import { airportOffset, flightMinutes } from "../../specs/synthesize/world/flight-times.js";
import { greatCircleKm } from "../../specs/synthesize/world/great-circle.js";
import { pointDistance } from "../../specs/synthesize/world/point-distance.js";
import { listCounts } from "../../specs/synthesize/world/list-counts.js";
import { pageCountShort } from "../../specs/synthesize/world/page-numbers.js";
import { norm } from "../../specs/synthesize/world/entity-shape.js";
import { exchangeRate } from "../../specs/synthesize/world/world-money.js";
import { detectLanguage, writtenIn } from "../../specs/synthesize/world/language-detect.js";
import { translatePhrase } from "../../specs/synthesize/world/world-phrases.js";
import type { Contradiction, ObservedCall } from "./observed-call.js";
import { isObject, type Json } from "../../specs/json-object.js";
import { asksPointZone, pointZone } from "../../specs/respond/world/coordinate-time-zone.js";

/**
 * What a reader sees wrong inside one answer, apart from its call's arguments (the audit's `repeat` and
 * `entity` rules), judged from names and values only:
 * - repeat: a list names one record twice (copies that differ only in their ids, or two items with one name
 *   and most other fields alike);
 * - entity: a place whose coordinates are far from the city it names, or whose country is not its city's; a
 *   record of one country holding another country's subdivision codes (`countryCode: AU` beside `DE-BW`);
 *   a search's echo (`query`) that is not what was searched; a journey that lands where it left, arrives before
 *   it departs (or days later), lasts far longer or shorter than that flight takes, leaves or lands off its
 *   airports' clocks, or counts stops that its segments do not have; a distance between two points that is not theirs; a count of a list beside it that is not its length; a page beyond the count of pages beside it; an exchange in another time zone;
 *   a conversion at another pair's rate or with a result that is not amount x rate; a base in its own rate table;
 *   a detected language that is not the text's, a phrasebook sentence translated otherwise than the book says;
 *   a record's own address naming another day than its date (`/2025/06/14/` for an article of 2 March); a glossary
 *   whose entries are not in its two languages, or that is between one language and itself; a recipe of one cuisine
 *   titled as a dish of another.
 */

/** Fields that hold a text translated into the call's target language. */
const TRANSLATED_KEY = /^(translatedtext|translation|translations|translated)$/;

const SEARCH_ARG = /^(q|query|search|searchquery|searchterm|keyword|keywords|term)$/;
const NAME_KEY = /^(name|title|displayname|label|headline|text|fullname|summary|description|word|term|question)$/;


/** What contradicts a place being in a city: coordinates far from it, or a country it is not in. */
function placeContradiction(o: Json, city: City, cityValue: string, here: (k: string) => string): Omit<Contradiction, "tool"> | undefined {
  const latKey = keyOf(o, ["latitude", "lat"]);
  const lonKey = keyOf(o, ["longitude", "lon", "lng", "long"]);
  const lat = latKey !== undefined ? o[latKey] : undefined;
  const lon = lonKey !== undefined ? o[lonKey] : undefined;
  const distance = typeof lat === "number" && typeof lon === "number" ? greatCircleKm(lat, lon, city.lat, city.lon) : undefined;
  const countryKey = keyOf(o, ["countrycode", "country", "countryname"]);
  const country = countryKey !== undefined && typeof o[countryKey] === "string" ? findCountry(o[countryKey] as string) : undefined;
  // Another country may have a city of that name (Paris, Texas): judged by the coordinates when there are some.
  const sameCountry = country === undefined || country.alpha2 === city.countryCode;
  // Coordinates on another known city of the country given are that city, whatever the name says (Austin at Lisbon, PT).
  const elsewhere = distance !== undefined && distance > 150 && !sameCountry && cityNear(lat as number, lon as number, 30)?.countryCode === country?.alpha2;
  if (distance !== undefined && distance > 150 && (sameCountry || elsewhere)) return { rule: "entity", field: here(latKey ?? "latitude"), expected: `near ${city.name} (${city.lat}, ${city.lon})`, actual: `${lat as number}, ${lon as number}` };
  if (!sameCountry && (distance === undefined ? !/,/.test(cityValue) && country !== undefined && keyOf(o, ["iatacode", "iata"]) !== undefined : distance <= 150)) {
    return { rule: "entity", field: here(countryKey ?? "country"), expected: city.country, actual: o[countryKey ?? ""] };
  }
  return undefined;
}

function isId(k: string): boolean {
  return /^(id|uuid|guid|key|slug|ref|href|url|uri|link)$/i.test(k) || /[a-z0-9](Id|ID|Uuid|Key|Url|URL|Uri|Href|Link)$/.test(k) || /_(id|uuid|key|url|uri|href|link)$/i.test(k);
}

function scalar(v: unknown): boolean {
  return v === null || ["string", "number", "boolean"].includes(typeof v);
}

/** A value without its ids, as text (nested ids left out too). */
function withoutIds(v: unknown, depth = 0): string {
  if (depth > 8) return "";
  if (Array.isArray(v)) return `[${v.map((x) => withoutIds(x, depth + 1)).join(",")}]`;
  if (isObject(v)) return `{${Object.keys(v).filter((k) => !isId(k)).sort().map((k) => `${k}:${withoutIds(v[k], depth + 1)}`).join(",")}}`;
  return JSON.stringify(v) ?? "";
}

/** Whether two list items are one record twice (the same but for ids, or one name and most fields alike). */
function sameRecord(a: Json, b: Json): boolean {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !isId(k));
  if (!keys.some((k) => scalar(a[k]) || scalar(b[k]))) return false;
  const same = (k: string): boolean => withoutIds(a[k]) === withoutIds(b[k]);
  const nameKeys = keys.filter((k) => NAME_KEY.test(norm(k)) && typeof a[k] === "string" && (a[k] as string).trim() !== "");
  const others = keys.filter((k) => !nameKeys.includes(k));
  const equalOthers = others.filter(same).length;
  if (nameKeys.every(same) && equalOthers === others.length) return true;
  return nameKeys.some(same) && (others.length === 0 || equalOthers * 2 >= others.length);
}

function keyOf(o: Json, names: readonly string[]): string | undefined {
  return Object.keys(o).find((k) => names.includes(norm(k)));
}

/** The contradictions inside one call's answer (2xx only). */
export function entityContradictions(call: ObservedCall): Contradiction[] {
  const out: Contradiction[] = [];
  if (call.status < 200 || call.status > 299) return out;
  const add = (c: Omit<Contradiction, "tool">): void => {
    out.push({ tool: call.tool, ...c });
  };
  // A search's echo.
  if (isObject(call.body)) {
    for (const [name, value] of Object.entries(call.args)) {
      if (typeof value !== "string" || !SEARCH_ARG.test(norm(name))) continue;
      const echo = Object.keys(call.body).find((k) => SEARCH_ARG.test(norm(k)) && typeof (call.body as Json)[k] === "string");
      if (echo !== undefined && fold((call.body as Json)[echo] as string) !== fold(value)) add({ rule: "entity", field: echo, argument: name, expected: value, actual: (call.body as Json)[echo] });
    }
  }
  // The time zone of a point asked for is the zone of the known city there.
  if (isObject(call.body) && asksPointZone(call.args, call.body)) {
    const zone = pointZone(call.args, call.body);
    if (zone !== undefined && zone.said !== zone.expected) add({ rule: "entity", field: zone.key, expected: zone.expected, actual: zone.said });
  }
  // Texts sent: each answer names their language, and a phrasebook sentence is translated as the book has it.
  const textsArg = ["texts", "text", "q"].map((k) => call.args[k]).find((v) => typeof v === "string" || (Array.isArray(v) && v.every((x) => typeof x === "string")));
  const texts = typeof textsArg === "string" ? [textsArg] : Array.isArray(textsArg) ? (textsArg as string[]) : [];
  const target = [call.args["target"], call.args["targetLanguage"], call.args["to"]].find((x): x is string => typeof x === "string");
  if (texts.length > 0 && isObject(call.body)) {
    for (const [k, list] of Object.entries(call.body)) {
      if (!Array.isArray(list) || list.length !== texts.length) continue;
      list.forEach((item, i) => {
        if (!isObject(item)) return;
        const text = texts[i] as string;
        const langKey = Object.keys(item).find((key) => (/detect/i.test(call.tool) ? /^(language|lang|detected_?(source_?)?language)$/i : /^detected_?(source_?)?language$/i).test(key));
        const said = langKey !== undefined ? item[langKey] : undefined;
        const known = translatePhrase(text, target ?? "en")?.source ?? detectLanguage(text);
        if (typeof said === "string" && known !== undefined && said.slice(0, 2).toLowerCase() !== known) add({ rule: "entity", field: `${k}[${i}].${langKey ?? "language"}`, argument: `texts[${i}]`, expected: known, actual: said });
        const translated = target !== undefined ? translatePhrase(text, target)?.text : undefined;
        const textKey = Object.keys(item).find((key) => /^(text|translated_?text|translation)$/i.test(key));
        if (translated !== undefined && textKey !== undefined && typeof item[textKey] === "string" && item[textKey] !== translated) add({ rule: "entity", field: `${k}[${i}].${textKey}`, argument: `texts[${i}]`, expected: translated, actual: item[textKey] });
      });
    }
  }
  // A translation into a language is written in it: a sentence another language's words or a script the
  // target does not use (a Japanese entry answered "banco", an example "Caminó por la orilla del río.").
  const into = typeof target === "string" ? target.slice(0, 2).toLowerCase() : undefined;
  const translated = (text: string): boolean => into !== undefined && writtenIn(text, into) === false;
  const translations = (v: unknown, at: string, parent: string, depth: number): void => {
    if (depth > 8 || into === undefined) return;
    if (Array.isArray(v)) return v.forEach((x, i) => translations(x, `${at}[${i}]`, parent, depth + 1));
    if (!isObject(v)) return;
    for (const [k, x] of Object.entries(v)) {
      const here = at === "" ? k : `${at}.${k}`;
      // `translatedText`; a translation's `text`; an example's `target` sentence.
      const holds = TRANSLATED_KEY.test(norm(k)) || (norm(k) === "text" && TRANSLATED_KEY.test(parent)) || (norm(k) === "target" && /^examples?$/.test(parent));
      if (typeof x === "string" && holds && translated(x)) add({ rule: "entity", field: here, argument: "target", expected: `a text in ${into}`, actual: x });
      else if (typeof x === "object" && x !== null) translations(x, here, norm(k), depth + 1);
    }
  };
  translations(call.body, "", "", 0);
  const visit = (v: unknown, at: string, depth: number): void => {
    if (depth > 12) return;
    if (Array.isArray(v)) {
      const seen: Json[] = [];
      v.forEach((item, i) => {
        if (!isObject(item)) return;
        if (seen.some((s) => sameRecord(s, item))) add({ rule: "repeat", field: `${at}[${i}]`, expected: "each record once", actual: JSON.stringify(item).slice(0, 80) });
        else seen.push(item);
      });
      v.forEach((item, i) => visit(item, `${at}[${i}]`, depth + 1));
      return;
    }
    if (!isObject(v)) return;
    const o = v;
    const here = (k: string): string => (at === "" ? k : `${at}.${k}`);
    // A place: its city, its coordinates and its country agree.
    const explicitKey = keyOf(o, ["city", "cityname", "locality", "town"]);
    const cityKey = explicitKey ?? (keyOf(o, ["latitude", "lat"]) !== undefined ? keyOf(o, ["name"]) : undefined);
    const cityValue = cityKey !== undefined ? o[cityKey] : undefined;
    // A field that says it is a city is judged against every city of that name (Springfield, Missouri or Ohio);
    // a mere `name` beside coordinates only against the world table's cities (a station named Victoria is no city).
    const cityName = typeof cityValue === "string" ? (cityValue.split(",")[0] ?? cityValue).trim() : undefined;
    const cities = cityName === undefined ? [] : explicitKey !== undefined ? citiesNamed(cityName) : [findCity(cityName)].filter((c) => c !== undefined);
    const verdicts = cities.map((city) => placeContradiction(o, city, cityValue as string, here));
    // A contradiction only when no city of that name fits the place.
    if (verdicts.length > 0 && verdicts.every((v) => v !== undefined)) add(verdicts[0] as Omit<Contradiction, "tool">);
    // A record of one country holds that country's subdivision codes.
    const codeKey = keyOf(o, ["countrycode", "country"]);
    const code = codeKey !== undefined && typeof o[codeKey] === "string" && /^[A-Z]{2}$/.test(o[codeKey] as string) ? (o[codeKey] as string) : undefined;
    if (code !== undefined) {
      for (const [k, val] of Object.entries(o)) {
        const values = Array.isArray(val) ? val : [val];
        for (const s of values) {
          if (typeof s === "string" && /^[A-Z]{2}-[A-Z0-9]{1,3}$/.test(s) && s.slice(0, 2) !== code) add({ rule: "entity", field: here(k), expected: `${code}-...`, actual: s });
        }
      }
    }
    // Money: a conversion's rate is near its pair's reference rate and its result is the amount times the rate;
    // a rate table does not list its own base at another rate than 1.
    const query = isObject(o["query"]) ? o["query"] : {};
    const from = [o["from"], query["from"], call.args["from"]].find((x) => typeof x === "string") as string | undefined;
    const to = [o["to"], query["to"], call.args["to"]].find((x) => typeof x === "string") as string | undefined;
    const rate = o["rate"];
    if (typeof rate === "number" && from !== undefined && to !== undefined) {
      const reference = exchangeRate(from, to);
      if (reference !== undefined && Math.abs(rate / reference - 1) > 0.2) add({ rule: "entity", field: here("rate"), expected: `about ${reference} (${from}->${to})`, actual: rate });
      const amount = [o["amount"], query["amount"], call.args["amount"]].find((x) => typeof x === "number") as number | undefined;
      const result = o["result"];
      if (amount !== undefined && typeof result === "number" && Math.abs(result - amount * rate) > Math.max(0.011, Math.abs(amount * rate) * 0.01)) add({ rule: "entity", field: here("result"), expected: amount * rate, actual: result });
    }
    const base = o["base"];
    if (typeof base === "string" && isObject(o["rates"])) {
      const own = (o["rates"] as Json)[base];
      if (typeof own === "number" && own !== 1) add({ rule: "entity", field: here(`rates.${base}`), expected: 1, actual: own });
    }
    // A record between two languages (a glossary) has entries in them, and is between two languages.
    const pair = languagePairKeys(Object.keys(o));
    const pairFrom = pair !== undefined ? o[pair.source] : undefined;
    const pairInto = pair !== undefined ? o[pair.target] : undefined;
    const entries = pair !== undefined && typeof pairFrom === "string" && typeof pairInto === "string" && isLanguage(pairFrom) && isLanguage(pairInto) ? pairEntries(o) : undefined;
    if (pair !== undefined && entries !== undefined) {
      const wrong = entries.items.findIndex((e) => (["source", "target"] as const).some((side) => {
        const langs = termLanguages(e[side] as string);
        return langs.length > 0 && !langs.includes(primaryLanguage(side === "source" ? (pairFrom as string) : (pairInto as string)));
      }));
      if (wrong >= 0) add({ rule: "entity", field: here(`${entries.key}[${wrong}]`), expected: `a ${pairFrom as string} -> ${pairInto as string} entry`, actual: entries.items[wrong] });
      else if (primaryLanguage(pairFrom as string) === primaryLanguage(pairInto as string) && entries.items.some((e) => e["source"] !== e["target"])) add({ rule: "entity", field: here(pair.target), expected: `another language than ${pairFrom as string}`, actual: pairInto });
    }
    // A recipe of a cuisine is no dish of another (a Japanese recipe titled Chickpea and Spinach Coconut Curry).
    const recipe = recipeKeys(Object.keys(o));
    const foreign = recipe !== undefined ? dishOfAnotherCuisine(o, recipe) : undefined;
    if (recipe !== undefined && foreign !== undefined) add({ rule: "entity", field: here(recipe.title), expected: `a ${String(o[recipe.cuisine])} dish`, actual: `${foreign.title} (${foreign.cuisine})` });
    // A record's own address names its own day (an article of 2 March is not at `/2025/06/14/`); a day apart is a time zone.
    const urlDate = urlDateKeys(Object.keys(o));
    const urlDay = urlDate !== undefined && typeof o[urlDate.url] === "string" ? dayInUrl(o[urlDate.url] as string) : undefined;
    const ownDay = urlDate !== undefined && typeof o[urlDate.day] === "string" ? /^\d{4}-\d{2}-\d{2}/.exec(o[urlDate.day] as string)?.[0] : undefined;
    if (urlDate !== undefined && urlDay !== undefined && ownDay !== undefined && Math.abs(Date.parse(urlDay) - Date.parse(ownDay)) > 86_400_000) {
      add({ rule: "entity", field: here(urlDate.url), expected: `an address of ${ownDay}`, actual: o[urlDate.url] });
    }
    // An exchange keeps its own time zone (NASDAQ is in New York, not London).
    const exchangeKey = keyOf(o, ["exchange"]);
    const exchange = exchangeKey !== undefined && typeof o[exchangeKey] === "string" ? findExchange(o[exchangeKey] as string) : undefined;
    const tzKey = keyOf(o, ["timezone", "tz"]);
    if (exchange && tzKey !== undefined && typeof o[tzKey] === "string" && (o[tzKey] as string).includes("/") && o[tzKey] !== exchange.timeZone) {
      add({ rule: "entity", field: here(tzKey), expected: exchange.timeZone, actual: o[tzKey] });
    }
    // A journey: it ends elsewhere than it starts, arrives after it departs, and stops between its legs.
    for (const [a, b] of [["from", "to"], ["origin", "destination"], ["departureairport", "arrivalairport"]] as const) {
      const fromKey = keyOf(o, [a]);
      const toKey = keyOf(o, [b]);
      if (fromKey !== undefined && toKey !== undefined && typeof o[fromKey] === "string" && /^[A-Z]{3}$/.test(o[fromKey] as string) && o[fromKey] === o[toKey]) {
        add({ rule: "entity", field: here(toKey), expected: `not ${o[fromKey] as string}`, actual: o[toKey] });
      }
    }
    const depKey = keyOf(o, ["departure", "departuretime", "departsat"]);
    const arrKey = keyOf(o, ["arrival", "arrivaltime", "arrivesat"]);
    const dep = depKey !== undefined && typeof o[depKey] === "string" ? Date.parse(o[depKey] as string) : NaN;
    const arr = arrKey !== undefined && typeof o[arrKey] === "string" ? Date.parse(o[arrKey] as string) : NaN;
    if (Number.isFinite(dep) && Number.isFinite(arr) && (arr <= dep || arr - dep > 3 * 86400000)) add({ rule: "entity", field: here(arrKey ?? "arrival"), expected: `soon after ${o[depKey ?? ""] as string}`, actual: o[arrKey ?? ""] });
    // A flight between airports the world knows lasts about as long as that flight takes, on their clocks.
    const ends = ([["from", "to"], ["origin", "destination"], ["departureairport", "arrivalairport"]] as const).map(([a, b]) => [o[keyOf(o, [a]) ?? ""], o[keyOf(o, [b]) ?? ""]]).find(([a, b]) => typeof a === "string" && typeof b === "string");
    const expected = ends ? flightMinutes(ends[0] as string, ends[1] as string) : undefined;
    const durKey = keyOf(o, ["durationminutes"]);
    if (expected !== undefined && durKey !== undefined && typeof o[durKey] === "number" && Math.abs((o[durKey] as number) / expected - 1) > 0.35) {
      add({ rule: "entity", field: here(durKey), expected: `about ${expected} (${ends?.[0] as string}->${ends?.[1] as string})`, actual: o[durKey] });
    }
    for (const [key, iata] of [[depKey, ends?.[0]], [arrKey, ends?.[1]]] as const) {
      const v = key !== undefined ? o[key] : undefined;
      const m = typeof v === "string" ? /^(\d{4}-\d{2}-\d{2})T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.exec(v) : null;
      const offset = m && typeof iata === "string" ? airportOffset(iata, m[1] as string) : undefined;
      if (m && key !== undefined && offset !== undefined && offset !== (m[2] === "Z" ? "+00:00" : m[2]) && expected !== undefined) add({ rule: "entity", field: here(key), expected: `${iata as string} local time (${offset})`, actual: v });
    }
    // A count of a list beside it is its length.
    for (const c of listCounts(o)) if (o[c.key] !== c.length) add({ rule: "entity", field: here(c.key), expected: c.length, actual: o[c.key] });
    // A page is one of the pages it counts (page 20 of 13 is none).
    const short = pageCountShort(o);
    if (short !== undefined) add({ rule: "entity", field: here(short.key), expected: `at least ${short.count}`, actual: o[short.key] });
    // A distance between two points is theirs (within 2%).
    const between = pointDistance(o);
    const stated = between ? o[between.distanceKey] : undefined;
    if (between && typeof stated === "number" && Math.abs(stated - between.distance) > Math.max(0.2, between.distance * 0.02)) add({ rule: "entity", field: here(between.distanceKey), expected: `about ${between.distance} ${between.unit}`, actual: stated });
    const stopsKey = keyOf(o, ["stops", "numberofstops"]);
    const legsKey = keyOf(o, ["segments", "legs"]);
    if (stopsKey !== undefined && legsKey !== undefined && typeof o[stopsKey] === "number" && Array.isArray(o[legsKey]) && (o[legsKey] as unknown[]).length > 0 && o[stopsKey] !== (o[legsKey] as unknown[]).length - 1) {
      add({ rule: "entity", field: here(stopsKey), expected: (o[legsKey] as unknown[]).length - 1, actual: o[stopsKey] });
    }
    for (const [k, child] of Object.entries(o)) if (typeof child === "object" && child !== null) visit(child, here(k), depth + 1);
  };
  visit(call.body, "", 0);
  return out;
}
