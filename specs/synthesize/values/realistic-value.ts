import type { Faker, LocaleDefinition, Randomizer } from "@faker-js/faker";
// The English-only entry point: the package root loads every locale (about 30 MB more memory).
import { faker as englishFaker } from "@faker-js/faker/locale/en";
import { singular as singularWord } from "../../words.js";
import { snakeName } from "../../snake-name.js";
import { isObject, type Json } from "../../json-object.js";
import { fitString, genericString, idText, regexOf, ruleOf, stringByFormat, type Text } from "./string-values.js";
import { REFERENCE_DATE } from "../world/simulated-today.js";
import { booleanProbability, isMultiple, numberIn, numberRule } from "./number-values.js";

/** Where a value sits: its field name and the names of the fields around it (outermost first). */
export interface FieldHint {
  /** The property or parameter name (`createdAt`, `user_email`, `tags`...). */
  name?: string;
  /** Names of the enclosing properties, outermost first (`["users", "address"]` for `users[0].address.city`). */
  parents?: readonly string[];
}

// A mulberry32 randomizer: seeding is O(1), so faker can be re-seeded for every value (its default
// Mersenne Twister costs ~20 µs per seed).
function fastRandomizer(): Randomizer {
  let state = 1;
  return {
    next(): number {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
    seed(seed: number | number[]): void {
      const parts = Array.isArray(seed) ? seed : [seed];
      let h = 0x811c9dc5;
      for (const p of parts) h = Math.imul(h ^ (p >>> 0), 0x01000193) >>> 0;
      state = h >>> 0;
    },
  };
}

/** Dates are drawn around this instant, never around "now", so that one seed gives one value. */

const randomizer = fastRandomizer();
const FakerClass = englishFaker.constructor as new (options: { locale: LocaleDefinition; randomizer: Randomizer }) => Faker;
const faker = new FakerClass({ locale: englishFaker.rawDefinitions, randomizer });
const next = (): number => randomizer.next();
faker.setDefaultRefDate(REFERENCE_DATE);

/** The shared faker instance, seeded for one value. */
export function seededFaker(seed: number): Faker {
  faker.seed(seed >>> 0);
  return faker;
}

const singularCache = new Map<string, string>();

function singular(word: string): string {
  let hit = singularCache.get(word);
  if (hit === undefined) {
    hit = singularWord(word);
    if (singularCache.size > 50_000) singularCache.clear();
    singularCache.set(word, hit);
  }
  return hit;
}

// ---------------------------------------------------------------- quick checks

const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)$/i;
const DATE = /^\d{4}-\d\d-\d\d$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URI = /^[a-z][a-z0-9+.-]*:[^\s]*$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Formats whose values this quick check cannot vouch for. */
const UNCHECKED_FORMATS = new Set(["byte", "ipv4", "ipv6", "hostname", "idn-hostname", "time", "duration", "uri-reference", "iri-reference", "json-pointer", "regex"]);

function typeOfValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** Whether a value's JSON type is one of a schema's `type` (an integer is a number). */
export function typeAllows(type: unknown, v: unknown): boolean {
  if (type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  const actual = typeOfValue(v);
  return types.some((t) => t === actual || (t === "number" && actual === "integer"));
}

const COMPOSITE_KEYWORDS = ["$ref", "allOf", "anyOf", "oneOf", "not", "if"] as const;

/** A schema of primitive type(s) only, with no `$ref` or composition: `fitsPrimitive` can judge its values. */
export function isPrimitiveSchema(s: unknown): s is Json {
  if (!isObject(s) || COMPOSITE_KEYWORDS.some((k) => s[k] !== undefined)) return false;
  const t = s["type"];
  const types = Array.isArray(t) ? t : [t];
  return t !== undefined && types.every((x) => x === "string" || x === "integer" || x === "number" || x === "boolean" || x === "null");
}

/**
 * A quick, conservative check of a primitive value against a primitive schema (type, enum, const, lengths,
 * pattern, bounds, multipleOf, common formats). True means valid; false may also mean "cannot tell".
 */
export function fitsPrimitive(s: Json, v: unknown): boolean {
  if (v === undefined || (typeof v === "object" && v !== null)) return false;
  if (!typeAllows(s["type"], v)) return false;
  if (Array.isArray(s["enum"]) && !s["enum"].some((e) => e === v)) return false;
  if (s["const"] !== undefined && s["const"] !== v) return false;
  if (typeof v === "string") {
    const len = [...v].length;
    if (typeof s["minLength"] === "number" && len < s["minLength"]) return false;
    if (typeof s["maxLength"] === "number" && len > s["maxLength"]) return false;
    if (typeof s["pattern"] === "string") {
      const re = regexOf(s["pattern"]);
      if (!re || !re.test(v)) return false;
    }
    const f = s["format"];
    if (f === "date-time" && !DATE_TIME.test(v)) return false;
    if (f === "date" && !DATE.test(v)) return false;
    if ((f === "email" || f === "idn-email") && !EMAIL.test(v)) return false;
    if ((f === "uri" || f === "url" || f === "iri") && !URI.test(v)) return false;
    if (f === "uuid" && !UUID.test(v)) return false;
    if (typeof f === "string" && UNCHECKED_FORMATS.has(f)) return false;
  }
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return false;
    if (typeof s["minimum"] === "number" && v < s["minimum"]) return false;
    if (typeof s["maximum"] === "number" && v > s["maximum"]) return false;
    if (typeof s["exclusiveMinimum"] === "number" && v <= s["exclusiveMinimum"]) return false;
    if (typeof s["exclusiveMaximum"] === "number" && v >= s["exclusiveMaximum"]) return false;
    if (s["exclusiveMinimum"] === true || s["exclusiveMaximum"] === true) return false; // 3.0 form: not judged here
    if (typeof s["multipleOf"] === "number" && !isMultiple(v, s["multipleOf"])) return false;
    if (s["format"] === "int32" && (v < -2147483648 || v > 2147483647)) return false;
  }
  return true;
}

// ---------------------------------------------------------------- entry point

const PRIMITIVES = ["string", "integer", "number", "boolean"] as const;
type Primitive = (typeof PRIMITIVES)[number];

function primitiveType(s: Json): Primitive | "any" | undefined {
  const t = s["type"];
  if (typeof t === "string") return (PRIMITIVES as readonly string[]).includes(t) ? (t as Primitive) : undefined;
  if (Array.isArray(t)) {
    for (const p of PRIMITIVES) if (t.includes(p)) return p;
    return undefined;
  }
  if (typeof s["format"] === "string" || typeof s["pattern"] === "string" || s["minLength"] !== undefined || s["maxLength"] !== undefined) return "string";
  if (s["minimum"] !== undefined || s["maximum"] !== undefined || s["multipleOf"] !== undefined) return "number";
  if (s["properties"] !== undefined || s["items"] !== undefined || s["additionalProperties"] !== undefined) return undefined;
  return "any";
}

/** What a description says a value is, as the field name that would say it (`ISO 3166 country code` -> `country_code`). */
const DESCRIBED_KINDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(iso[ -]?3166(-1)?( alpha-?2)?|country code)\b/i, "country_code"],
  [/\b(iso[ -]?4217|currency code|currency)\b/i, "currency_code"],
  [/\b(iso[ -]?639(-1)?|language code|bcp[ -]?47|locale)\b/i, "language_code"],
  [/\be-?mail( address)?\b/i, "email"],
  [/\b(phone|telephone|mobile) number\b/i, "phone"],
  [/\blatitude\b/i, "latitude"],
  [/\blongitude\b/i, "longitude"],
  [/\btime ?zone\b/i, "timezone"],
  [/\b(url|uri|web ?site|home ?page|link to)\b/i, "url"],
  [/\b(country|nation)\b/i, "country"],
  [/\b(city|town)\b/i, "city"],
  [/\b(yyyy-mm-dd|iso[ -]?8601|rfc[ -]?3339|timestamp|date and time|date-time)\b/i, "timestamp"],
  [/^\s*(the )?(\w+ )?date\b/i, "date"],
];

/** The kind a description gives a value (its first sentence only), as a field name; undefined when it names none. */
function describedKind(description: unknown): string | undefined {
  if (typeof description !== "string" || description.length > 400) return undefined;
  const first = description.split(/(?<=[.!?])\s/)[0] ?? description;
  if (/\b(id|identifier|number of|count|whether|flag)\b/i.test(first)) return undefined;
  return DESCRIBED_KINDS.find(([re]) => re.test(first))?.[1];
}

/** A description that says the field is an identifier ("ID of the district", "Unique identifier"). */
const ID_DESCRIPTION = /^\s*(the\s+)?(unique\s+)?(id|identifier|uuid)\b|\b(id|identifier)\s+(of|for)\s/i;

/** The two innermost parent names, snake_case, space-separated (what the rules look at). */
function parentsKey(parents: readonly string[] | undefined): string {
  if (!parents || parents.length === 0) return "";
  const out: string[] = [];
  for (let i = parents.length - 1; i >= 0 && out.length < 2; i--) {
    const p = parents[i] as string;
    if (p === "" || /^\d+$/.test(p)) continue;
    out.unshift(snakeName(p));
  }
  return out.join(" ");
}

/** A realistic-value generator prepared for one schema and one field: `(seed) => value` (undefined when nothing fits). */
export type RealisticGenerator = (seed: number) => unknown;

const LOOSE_TEXT_FORMATS = new Set(["binary", "text", "textarea", "html", "markdown"]);

/**
 * The generator behind `realisticValue`, with the work that depends only on the schema and the field
 * (names, rules, formats) done once: callers that generate many values for one schema keep it.
 * Undefined when `realisticValue` would always give up (objects, arrays, compositions).
 */
export function realisticGenerator(schema: unknown, field: FieldHint): RealisticGenerator | undefined {
  if (!isObject(schema)) return undefined;
  const constant = schema["const"];
  if (constant !== undefined) return () => constant;
  if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) {
    const values = schema["enum"].filter((v) => v !== null);
    const pool = values.length > 0 ? values : schema["enum"];
    return (seed) => {
      seededFaker(seed);
      return pool[Math.floor(next() * pool.length)];
    };
  }
  if (schema["$ref"] !== undefined || schema["allOf"] !== undefined || schema["anyOf"] !== undefined || schema["oneOf"] !== undefined || schema["not"] !== undefined) {
    return undefined;
  }
  const type = primitiveType(schema);
  if (type === undefined) return undefined;
  const rawName = field.name ?? "";
  const snake = snakeName(rawName);
  const snakeOne = singular(snake);
  const parents = parentsKey(field.parents);

  if (type === "boolean") {
    const probability = booleanProbability(snake);
    return (seed) => {
      const f = seededFaker(seed);
      return probability === undefined ? f.datatype.boolean() : f.datatype.boolean({ probability });
    };
  }
  if (type === "integer" || type === "number") {
    const integer = type === "integer" || schema["format"] === "int32" || schema["format"] === "int64";
    const rule =
      numberRule(snake, parents, integer) ??
      numberRule(snakeOne, parents, integer) ??
      (integer ? { min: 1, max: 100, decimals: 0 } : { min: 1, max: 1000, decimals: 2 });
    return (seed) => {
      seededFaker(seed);
      return numberIn(schema, integer, rule, next);
    };
  }

  // Strings ("any" only when the name is telling).
  const format = typeof schema["format"] === "string" && type === "string" ? schema["format"] : undefined;
  const rawFormat = typeof schema["format"] === "string" ? schema["format"] : undefined;
  const byName = ruleOf(snake, parents);
  const byNameOne = byName === undefined && snakeOne !== snake ? ruleOf(snakeOne, parents) : undefined;
  const nameRule = byName ?? byNameOne;
  const ruleName = byName !== undefined ? snake : snakeOne;
  const idDescription = typeof schema["description"] === "string" && ID_DESCRIPTION.test(schema["description"]);
  // A name that says nothing (`cc`, `value`, `field3`): the description may say what the value is.
  const described = nameRule === undefined && format === undefined ? describedKind(schema["description"]) : undefined;
  const describedRule = described !== undefined ? ruleOf(described, parents) : undefined;
  const giveUp = type === "any" || typeof schema["pattern"] === "string" || (rawFormat !== undefined && !LOOSE_TEXT_FORMATS.has(rawFormat));
  return (seed) => {
    const f = seededFaker(seed);
    let text: Text | undefined;
    if (format !== undefined) text = stringByFormat(f, format, snake);
    if (text === undefined && nameRule !== undefined) text = nameRule[1](f, ruleName, schema, parents);
    if (text === undefined && describedRule !== undefined && described !== undefined) text = describedRule[1](f, described, schema, parents);
    if (text === undefined && idDescription) text = { value: idText(f, snake, schema) };
    if (text === undefined) {
      if (giveUp) return undefined;
      text = genericString(f, snake);
    }
    return fitString(text, schema, f);
  };
}

/**
 * A realistic value for a primitive schema, chosen by the schema's own constraints first (`const`, `enum`),
 * then its format, then the field's name (and the names around it), with a faker seeded by `seed`.
 * The value respects type, bounds, lengths and pattern; undefined when nothing better than a generic
 * generator is known (objects, arrays, compositions, unknown names under a pattern...).
 */
export function realisticValue(schema: unknown, field: FieldHint, seed: number): unknown {
  const generate = realisticGenerator(schema, field);
  return generate === undefined ? undefined : generate(seed);
}
