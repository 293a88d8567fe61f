import type { Rng } from "../../specs/seed.js";
import type { OperationGoal } from "../user/operation-goal.js";
import type { ArgumentInfo } from "../assistant/tool-arguments.js";
import { idNoun, isIdName } from "../../specs/words.js";
import { beFor } from "./field-clauses.js";
import { AMBIGUOUS_CODES as AMBIGUOUS_CODE_WORDS } from "./lexicon/codes.js";
import { COUNT_NOUNS as COUNT_NOUN_WORDS } from "./lexicon/names.js";
import { wholeWord } from "./word-patterns.js";
import { articleFor, humanize, identifierWords, isPlural, joinList, singular } from "./words.js";
import { isObject, type Json } from "../../specs/json-object.js";

export { isIdName };

const FREE_TEXT = /^(q|query|search|keywords?|terms?|text|title|name|full_?name|display_?name|description|message|note|notes|comment|content|body|summary|bio|subject|cover_?letter|caption|prompt|question|reason|instructions?)$/;

/** The literal text of a value as the user says it: strings as they are, lists joined, objects as `key value` pairs. */
export function valueText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value) && value.length === 0) return "none";
  if (Array.isArray(value)) return joinList(value.map((v) => (isObject(v) || Array.isArray(v) ? `(${valueText(v)})` : typeof v === "string" && /\s/.test(v) ? `"${v}"` : valueText(v))));
  return Object.entries(value as Json)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${humanize(k)} ${quoteIfText(k, v)}`)
    .join(", ");
}

/** A value as it appears in a sentence: free text in quotes, everything else plain. */
export function quoteIfText(name: string, value: unknown): string {
  if (typeof value !== "string") return isObject(value) ? `(${valueText(value)})` : valueText(value);
  const key = identifierWords(name).join("_");
  return FREE_TEXT.test(key) || /\s/.test(value) && value.split(/\s+/).length > 3 ? `"${value}"` : value;
}

/** The noun an id argument points at (`recipeId` -> `recipe`), empty for a bare `id`. */
export const idStem = idNoun;

/** A coordinate argument: `lat`/`latitude` or `lon`/`lng`/`longitude`, with its prefix (`from`, `to`, ``). */
export function coordinateOf(name: string): { axis: "lat" | "lon"; prefix: string } | undefined {
  const words = identifierWords(name);
  const last = words[words.length - 1] ?? "";
  const axis = /^(lat|latitude)$/.test(last) ? "lat" : /^(lon|lng|long|longitude)$/.test(last) ? "lon" : undefined;
  return axis === undefined ? undefined : { axis, prefix: words.slice(0, -1).join(" ") };
}

/** Two-letter codes that read as English words ("it", "no"), from the lexicon. */
const AMBIGUOUS_CODES = wholeWord(AMBIGUOUS_CODE_WORDS, "");

/** Nouns counted by a number ("for 3 days"), from the lexicon. */
const COUNT_NOUNS = wholeWord(COUNT_NOUN_WORDS, "");

function pick(rng: Rng, options: readonly string[]): string {
  return rng.pick(options);
}

function wordsOf(name: string): string {
  return humanize(name.replace(/^(is|has|should|can|include|exclude)(?=[A-Z_])/, "")).trim() || humanize(name);
}

/** How to say a boolean argument: `inStock: true` -> `that are in stock`, `notifyAttendees: false` -> `without notifying attendees`. */
function booleanPhrase(name: string, value: boolean, goal: OperationGoal, rng: Rng): string {
  const words = identifierWords(name);
  const first = words[0] ?? "";
  const verbLike = /^(notify|send|include|allow|enable|show|use|return|force|skip|verify|fetch|expand|require|keep|sort|email|remind|explode|overwrite|replace|group)$/.test(first);
  const text = humanize(name.replace(/^(is|has)(?=[A-Z_])/, ""));
  if (verbLike) {
    const [verb, ...rest] = text.split(" ");
    const ing = verb === undefined ? text : `${verb.replace(/e$/, "")}ing${rest.length > 0 ? " " + rest.join(" ") : ""}`;
    return value ? pick(rng, [`and ${text}`, `${ing} too`]) : pick(rng, [`without ${ing}`, `but don't ${text}`]);
  }
  const be = isPlural(goal.noun || "item") || /(s)$/.test(goal.object.split(" ").pop() ?? "") ? "are" : "is";
  if (first === "has") return value ? `that ${be === "are" ? "have" : "has"} ${words.slice(1).join(" ")}` : `without ${words.slice(1).join(" ")}`;
  return value ? pick(rng, [`that ${be} ${text}`, `(${text} only)`]) : pick(rng, [`that ${be} not ${text}`, `(not ${text})`]);
}

function arrayPhrase(name: string, value: unknown[], rng: Rng): string {
  const words = identifierWords(name);
  const list = valueText(value);
  const first = words[0] ?? "";
  if (/^(include|with|using|containing|has|have)$/.test(first)) return pick(rng, [`with ${list}`, `using ${list}`]);
  if (/^(exclude|without|except|skip|not|omit)$/.test(first)) return pick(rng, [`without ${list}`, `excluding ${list}`]);
  if (isIdName(name)) {
    const stem = words.slice(0, -1).join(" ");
    return `with ${stem !== "" ? stem + " " : ""}IDs ${list}`;
  }
  // Not "against": that names a base currency ("rates against USD").
  if (/^(symbols|currencies|codes|tickers|countries|languages|targets)$/.test(words[words.length - 1] ?? "")) return pick(rng, [`for ${list}`, `for ${list}`]);
  if (/^(tags|labels|keywords)$/.test(words[words.length - 1] ?? "")) return pick(rng, [`tagged ${list}`, `with the tags ${list}`]);
  if (/^(types|categories|genres|kinds|statuses)$/.test(words[words.length - 1] ?? "")) return `of type ${joinList(value.map((v) => valueText(v)), "or")}`;
  return pick(rng, [`with ${humanize(name)} ${list}`, `with these ${humanize(name)}: ${list}`]);
}

function datePhrase(key: string, text: string, format: string | undefined, rng: Rng): string | undefined {
  const isDate = format === "date" || format === "date-time" || /(date|time|day|_at$|^at$|since|until|from|to|before|after|start|end|due|when|deadline)/.test(key);
  if (!isDate || !/^\d{4}-\d{2}/.test(text)) return undefined;
  if (/(^|_)(start|from|since|after|begin|begins|starts|check_in|departure|depart)(_|$)/.test(key)) return pick(rng, [`from ${text}`, `starting ${text}`]);
  if (/(^|_)(end|to|until|before|ends|check_out|return)(_|$)/.test(key)) return /before/.test(key) ? `before ${text}` : pick(rng, [`until ${text}`, `through ${text}`]);
  if (/(^|_)due(_|$)/.test(key)) return `due ${text}`;
  if (/birth/.test(key)) return `born on ${text}`;
  if (/(publish|release)/.test(key)) return `${/release/.test(key) ? "released" : "published"} on ${text}`;
  return format === "date-time" || text.length > 10 ? pick(rng, [`at ${text}`, `for ${text}`]) : pick(rng, [`on ${text}`, `for ${text}`]);
}

/** How a new value is said in a change request: `status to cancelled`, `title to "Dune"`. */
export function settingPhrase(arg: ArgumentInfo, value: unknown): string {
  // "dueAt" is "the due time", not "the due at".
  const human = wordsOf(arg.name).replace(/^(\w+) at$/, "$1 time");
  const the = /^(my|its|the)\s/.test(human) ? "" : "the ";
  if (typeof value === "boolean") {
    // "done: true" -> "marking it as done"; "on: false" -> "switching it off".
    if (/^(on|off)$/.test(human)) return `switching it ${value === (human === "on") ? "on" : "off"}`;
    if (!human.includes(" ")) return value ? `marking it as ${human}` : `marking it as not ${human}`;
    return `turning ${the}${human} ${value ? "on" : "off"}`;
  }
  if (Array.isArray(value)) return `${the}${human} to ${valueText(value)}`;
  return `${the}${human} to ${quoteIfText(arg.name, value)}`;
}

/** A change from an old value to a new one said as such: `currentPassword` + `newPassword` -> `from X to Y`. */
export function changePair(args: readonly ArgumentInfo[]): { old: ArgumentInfo; new: ArgumentInfo } | undefined {
  for (const a of args) {
    const wa = identifierWords(a.name);
    if (!/^(current|old|previous|existing)$/.test(wa[0] ?? "")) continue;
    const rest = wa.slice(1).join("_");
    const b = args.find((x) => {
      const wb = identifierWords(x.name);
      return wb[0] === "new" && wb.slice(1).join("_") === rest;
    });
    if (b) return { old: a, new: b };
  }
  return undefined;
}

/**
 * How a user says one argument value in a request, by the argument's name, type and format:
 * `city: Paris` -> `in Paris`, `days: 3` -> `for 3 days`, `title: Dune` -> `with the title "Dune"`.
 */
export function valuePhrase(arg: ArgumentInfo, value: unknown, goal: OperationGoal, rng: Rng): string {
  const name = arg.name;
  const words = identifierWords(name);
  const key = words.join("_");
  const last = words[words.length - 1] ?? "";
  const first = words[0] ?? "";
  // A path segment of several words is said in quotes, so that it is one value ("substitutes for "sour cream"").
  const segment = arg.in === "path" && typeof value === "string" && /\s/.test(value) && !/"/.test(value);
  const text = segment ? `"${value}"` : valueText(value);
  const quoted = segment ? text : quoteIfText(name, value);
  const human = wordsOf(name);

  if (arg.wrappedBody) {
    // A text body of several words is said in quotes: one value, however long ("with these details: "The sleek ...."").
    const body = typeof value === "string" ? quoteIfText(name, value) : text;
    return Array.isArray(value) ? `with these items: ${text}` : pick(rng, [`with ${body}`, `with these details: ${body}`]);
  }
  // Credentials: a user gives them as such ("my API key is ...").
  if (/(api_?key|apikey|secret|access_key|access_token|auth_token|^token$|_token$|^key$|password$)/.test(key) && words.length > 0 && !/^(new|current|old|refresh)$/.test(first)) {
    if (/(key|secret|token)$/.test(key)) return pick(rng, [`(my ${human} is ${text})`, `using my ${human} ${text}`]);
  }
  if (typeof value === "boolean") return booleanPhrase(name, value, goal, rng);
  if (Array.isArray(value)) return arrayPhrase(name, value, rng);
  if (isObject(value)) return `with ${human} ${quoted}`;
  // Headers are side details: said in passing.
  if (arg.in === "header" || arg.in === "cookie") return `(${human}: ${quoted})`;

  // Identifiers: "the recipe with ID 42", "for recipe 42".
  if (isIdName(name)) {
    // A bare `id` of the record above the one asked for (`/schools/{id}/sections`) is said as that record's.
    const stem = idStem(name) || (arg.owner !== undefined && singular(arg.owner) !== singular(goal.noun) ? arg.owner : "");
    const numeric = /^\d+$/.test(text);
    // A bare id reads well after "the playlist", not after "apply to a job".
    const bare = !/^(to|for|on|from|with|into|at|in|of)\s/.test(goal.object);
    if (stem === "" || goal.object.includes(stem) || singular(goal.noun) === singular(stem.split(" ").pop() ?? "")) return pick(rng, numeric ? [`with ID ${text}`, `(ID ${text})`, `number ${text}`] : bare ? [`with ID ${text}`, `(ID ${text})`, `${text}`] : [`with ID ${text}`, `(ID ${text})`]);
    return pick(rng, [`for ${stem} ${text}`, `for the ${stem} with ID ${text}`, `of ${stem} ${text}`]);
  }
  // Search text.
  if (/^(q|query|search|keywords?|term|terms|search_term|search_query|text_query|filter)$/.test(key)) {
    return goal.kind === "search" && /^(the|my)\s/.test(goal.object) ? `for "${text}"` : pick(rng, [`matching "${text}"`, `about "${text}"`, `for "${text}"`]);
  }
  const date = datePhrase(key, text, arg.format, rng);
  if (date !== undefined) return date;
  // A language code that is also an English word ("it", "no") is quoted: "into "it"".
  if (typeof value === "string" && AMBIGUOUS_CODES.test(value)) {
    if (/^(from|source|source_lang|source_language)$/.test(key)) return `from "${value}"`;
    if (/^(to|target|target_lang|target_language|into)$/.test(key)) return `into "${value}"`;
  }
  // Currency and language codes, directions.
  if (/^(base|base_currency)$/.test(key)) return pick(rng, [`relative to ${text}`, `with ${text} as the base`]);
  if (/^(from|source|from_currency|source_currency|source_lang|source_language)$/.test(key)) return `from ${text}`;
  if (/^(to|target|to_currency|target_currency|target_lang|target_language|into)$/.test(key)) return pick(rng, [`to ${text}`, `into ${text}`]);
  if (/^(lang|language|locale|accept_language|hl)$/.test(key)) return pick(rng, [`in language ${text}`, `(language: ${text})`]);

  // Places.
  if (last === "origin" || key === "from_airport" || key === "departure_airport") return `from ${text}`;
  if (last === "destination" || key === "to_airport" || key === "arrival_airport") return `to ${text}`;
  if (/^(city|town|location|place|region|area|where|address|state|province|county|near|city_name)$/.test(key)) return pick(rng, [`in ${text}`, `for ${text}`]);
  if (/^(country|country_code|countries|country_codes|market|origin_country)$/.test(key)) return pick(rng, [`in ${text}`, `for ${text}`, `for country ${text}`]);
  if (/^(author|artist|composer|director|writer|creator|performer|band|publisher)$/.test(key)) return pick(rng, [`by ${text}`, `by ${text}`, `(${human}: ${text})`]);
  // Counts with a unit in the name: "for 3 days", "for 6 servings".
  if (typeof value === "number" && COUNT_NOUNS.test(last) && !/^(min|max|minimum|maximum)$/.test(first)) {
    const noun = value === 1 ? singular(last) : last;
    if (words.some((w) => /^(within|last|past|recent)$/.test(w))) return `from the last ${text} ${noun}`;
    return `for ${text} ${noun}`;
  }
  if (/^(min|minimum|max|maximum)$/.test(first) || /^(min|minimum|max|maximum)$/.test(last)) {
    const isMin = /^(min|minimum)$/.test(first) || /^(min|minimum)$/.test(last);
    const rest = humanize(words.filter((w) => !/^(min|minimum|max|maximum)$/.test(w)).join("_")) || "value";
    if (/^(price|cost|amount|budget|salary|fare)$/.test(rest)) return isMin ? pick(rng, [`over ${text}`, `for at least ${text}`]) : pick(rng, [`under ${text}`, `for at most ${text}`]);
    if (COUNT_NOUNS.test(rest.replace(/ /g, "_"))) return isMin ? `of at least ${text} ${rest}` : `of at most ${text} ${rest}`;
    return isMin ? pick(rng, [`with ${rest} of at least ${text}`, `with a minimum ${rest} of ${text}`]) : pick(rng, [`with ${rest} of at most ${text}`, `with a maximum ${rest} of ${text}`]);
  }
  if (last === "year" || key === "year") return pick(rng, [`in ${text}`, `for ${text}`]);
  if (/^(amount|sum|value|quantity|qty|count|total|number)$/.test(key)) return pick(rng, [`of ${text}`, `(${human} ${text})`]);
  if (/^(price|cost|budget|fare)$/.test(last)) return pick(rng, [`priced at ${text}`, `for ${text}`]);
  if (/^(units|unit|unit_system|measurement)$/.test(key)) return pick(rng, [`in ${text} units`, `using ${text} units`]);
  if (/^(sort|sort_by|order_by|orderby|sortby|sort_order)$/.test(key)) return /^(asc|desc|ascending|descending)$/i.test(text) ? `in ${text} order` : `sorted by ${text}`;
  if (key === "order") return `in ${text} order`;
  // People and accounts.
  if (words.length > 1 && /^(email|phone|password|passcode|token|number|code|address)$/.test(last)) return pick(rng, [`with the ${human} ${text}`, `(${human}: ${text})`]);
  if (last === "email" || key === "e_mail") return pick(rng, [`for ${text}`, `with the email ${text}`, `using the email ${text}`]);
  if (last === "phone" || key === "phone_number" || key === "mobile") return `with the phone number ${text}`;
  if (last === "password" || last === "passcode") return `with the password ${text}`;
  if (/^(owner|owned_by|creator|created_by)$/.test(key)) return pick(rng, [`owned by ${text}`, `of user ${text}`]);
  if (/^(username|user_name|login|handle|user)$/.test(key)) return pick(rng, [`for ${text}`, `for user ${text}`]);
  // Names and free text.
  if (key === "title" || last === "title") return pick(rng, [`with the title ${quoted}`, `titled ${quoted}`, `called ${quoted}`]);
  if (key === "name" || /^(full|display|first|last|nick)_name$/.test(key)) return pick(rng, [`named ${quoted}`, `called ${quoted}`, `with the name ${quoted}`]);
  if (/^(text|message|note|notes|comment|content|body|summary|description|bio|subject|caption|cover_letter|reason|instructions)$/.test(key)) {
    return key === "text" ? pick(rng, [`${quoted}`, `for the text ${quoted}`]) : pick(rng, [`with the ${human} ${quoted}`, `with ${human} ${quoted}`]);
  }
  if (/^(status|state)$/.test(key)) return pick(rng, [`with status ${text}`, `that are ${text}`]);
  if (/^(priority|severity|level|importance)$/.test(last)) return pick(rng, [`with ${text} ${last}`, `with ${last} ${text}`]);
  if (/^(genre|category|topic|section|calendar|folder|list|cuisine|diet|style|type|kind|mode)$/.test(last)) {
    return pick(rng, [`with ${human} ${quoted}`, `where the ${human} ${beFor(human, value)} ${quoted}`, `(${human}: ${quoted})`]);
  }
  if (arg.enum !== undefined) return pick(rng, [`(${human}: ${quoted})`, `where the ${human} ${beFor(human, value)} ${quoted}`, `with ${human} set to ${quoted}`]);
  // Anything else named by the argument: the value is said with the parameter's own words.
  if (goal.object.includes(human) && typeof value === "string") return `for ${quoted}`;
  if (typeof value === "number") return pick(rng, [`with ${human} ${text}`, `with ${articleFor(human)} ${human} of ${text}`, `(${human}: ${text})`]);
  return pick(rng, [`with ${human} ${quoted}`, `where the ${human} ${beFor(human, value)} ${quoted}`, `(${human}: ${quoted})`]);
}

/** How a pair of coordinates is said together: `at 48.8566, 2.3522`, `from 51.5, -0.12`. */
export function coordinatePhrase(prefix: string, lat: unknown, lon: unknown, rng: Rng): string {
  const pair = `${valueText(lat)}, ${valueText(lon)}`;
  if (/^(from|origin|start|source)$/.test(prefix)) return `from ${pair}`;
  if (/^(to|destination|end|target|dest)$/.test(prefix)) return `to ${pair}`;
  if (prefix !== "") return `with ${prefix} at ${pair}`;
  return pick(rng, [`at ${pair}`, `at coordinates ${pair}`, `(latitude ${valueText(lat)}, longitude ${valueText(lon)})`]);
}
