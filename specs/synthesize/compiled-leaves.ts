import { codePointLength } from "../load/patterns/code-point-sets.js";
import { patternTest } from "../load/patterns/linear-pattern.js";
import { patternString as buildPatternString } from "./pattern-string.js";
import { realisticGenerator, type FieldHint } from "./values/realistic-value.js";
import type { Generator, GenerationRun } from "./generation-run.js";
import { cloneJson, FORMAT_VALUES, fieldHint } from "./synthesis-rules.js";
import type { Json } from "../json-object.js";
/** The leaves of the compiled generators: strings by name, format and pattern, and picks from listed values. */

/** The names around a value: its own (field or parameter) name and its two innermost parents. */
export interface Names {
  name?: string;
  p1?: string;
  p2?: string;
  /** The value is a whole answer (its lists are what it answers: always there). */
  top?: boolean;
}

export const NO_NAMES: Names = {};

/** Names of lists that say nothing of what they hold (`items: [Persona]`): their items are named after their schema. */
export const GENERIC_HOLDERS = /^(items|results|data|entries|list|content|values|hits|objects|elements|rows|response|payload)$/i;

/** Fields that name a record (`name`, `title`, `displayName`...): a spec's one example of one is not every record's. */
export const NAMING = /^(name|title|display_?name|full_?name|label|headline|nickname|user_?name|screen_?name)$/i;

/** The field hint of a value from the names around it. */
export function namesHint(names: Names): FieldHint {
  if (names.name === undefined) return {};
  const path: string[] = [];
  if (names.p2 !== undefined) path.push(names.p2);
  if (names.p1 !== undefined) path.push(names.p1);
  path.push(names.name);
  return fieldHint(path, undefined);
}

/** Formats whose values ajv checks: a string of such a format needs a generator that knows it. */
const CHECKED_FORMATS = new Set([
  "date", "time", "date-time", "iso-time", "iso-date-time", "duration", "uri", "uri-reference", "uri-template", "url",
  "email", "hostname", "ipv4", "ipv6", "regex", "uuid", "json-pointer", "json-pointer-uri-fragment",
  "relative-json-pointer", "byte", "int32", "int64", "float", "double",
]);

/** Checked formats that realistic values are made for. */
const REALISTIC_FORMATS = new Set(["date", "time", "date-time", "duration", "uri", "uri-reference", "url", "email", "hostname", "ipv4", "ipv6", "uuid", "byte", "int32", "int64", "float", "double"]);

/**
 * The generator of a string schema: a realistic value by name (and format), else words of the right length,
 * else the format's known-good value, else a string for the pattern; `general` is the general generator at
 * the node, for what these cannot make.
 */
export function stringGenerator(schema: Json, pointer: string, names: Names, general: () => Generator): Generator {
  const format = typeof schema["format"] === "string" ? schema["format"] : undefined;
  const pattern = typeof schema["pattern"] === "string" ? schema["pattern"] : undefined;
  const minLength = typeof schema["minLength"] === "number" ? schema["minLength"] : 0;
  const maxLength = typeof schema["maxLength"] === "number" ? schema["maxLength"] : Infinity;
  if (minLength > maxLength) return general();
  const checked = format !== undefined && CHECKED_FORMATS.has(format);
  // An unchecked format (`phone`, `binary`, a vendor's own) constrains nothing: realistic by name then. A
  // checked format realistic values do not know (`json-pointer`, `regex`...) takes its known-good value.
  const realistic =
    checked && !REALISTIC_FORMATS.has(format)
      ? undefined
      : realisticGenerator(format !== undefined && !checked && !isLooseFormat(format) ? withoutFormat(schema) : schema, namesHint(names));
  // Without a format or pattern, any words of the right length do.
  const generic = !checked && pattern === undefined ? realisticGenerator({ type: "string", ...(minLength > 0 ? { minLength } : {}), ...(maxLength < Infinity ? { maxLength } : {}) }, NO_NAMES) : undefined;
  const known = format !== undefined ? FORMAT_VALUES[format] : undefined;
  const formatValue = known !== undefined && known.length >= minLength && known.length <= maxLength && (pattern === undefined || patternTest(pattern, known)) ? known : undefined;
  const where = `#${pointer}`;
  const lastResort: Generator =
    pattern !== undefined
      ? patternString(pattern, minLength, maxLength, general(), where)
      : checked && formatValue === undefined
        ? general()
        : () => formatValue ?? fill(minLength, maxLength);
  const make = (run: GenerationRun): unknown => {
    const seed = run.seed();
    if (realistic !== undefined) {
      const v = realistic(seed);
      if (typeof v === "string") return v;
    }
    if (generic !== undefined) {
      const v = generic(seed);
      if (typeof v === "string") return v;
    }
    if (formatValue !== undefined) return formatValue;
    return lastResort(run);
  };
  return (run) => {
    const cap = run.meter.limits.maxStringLength;
    if (minLength > cap) {
      // Built as long as the cap allows: too short for the schema, which the validation then says.
      run.meter.capped("maxStringLength", `${where} asks for at least ${minLength} characters; ${cap} generated`, minLength);
      run.meter.spend(cap);
      return fill(cap, cap);
    }
    const v = make(run);
    if (typeof v === "string") run.meter.spend(v.length + 2);
    return v;
  };
}

function isLooseFormat(format: string): boolean {
  return format === "binary" || format === "text" || format === "textarea" || format === "html" || format === "markdown";
}

function withoutFormat(schema: Json): Json {
  const out = { ...schema };
  delete out["format"];
  return out;
}

/** A generator picking one of these values (objects copied, so that no value is shared). */
export function pickFrom(values: readonly unknown[]): Generator {
  const objects = values.some((v) => typeof v === "object" && v !== null);
  if (values.length === 1) {
    const only = values[0];
    return objects ? () => cloneJson(only) : () => only;
  }
  return (run) => {
    const v = values[Math.floor(run.next() * values.length)];
    return objects ? cloneJson(v) : v;
  };
}

/** A string of the given lengths (words, repeated or cut). */
export function fill(minLength: number, maxLength: number): string {
  let s = "sample";
  while (s.length < minLength) s += " sample";
  return maxLength < s.length ? s.slice(0, Math.max(minLength, maxLength)) : s;
}

/**
 * A string matching a pattern (built from the pattern, bounded by the string cap, checked by the linear-time
 * matcher), else the general generator's value if it matches; undefined when neither does (an optional
 * property is then left out).
 */
function patternString(pattern: string, minLength: number, maxLength: number, fallback: Generator, where: string): Generator {
  const fits = (s: unknown): s is string => {
    if (typeof s !== "string") return false;
    const n = codePointLength(s);
    return n >= minLength && n <= maxLength && patternTest(pattern, s);
  };
  return (run) => {
    const made = buildPatternString(pattern, { seed: run.seed(), minLength, maxLength, cap: run.meter.limits.maxStringLength });
    if (made.ok) return made.value;
    if (made.reason === "cap") run.meter.capped("maxStringLength", `the pattern at ${where} matches no string shorter than ${made.minimum ?? minLength} characters`);
    const s = fallback(run);
    return fits(s) ? s : undefined;
  };
}
