import { isObject, type Json } from "../../../specs/json-object.js";
import { compileLinear } from "../../../specs/load/patterns/linear-pattern.js";
import type { OfflineToolbox } from "./offline-types.js";
import { effectiveSchema, enumOf, schemaType } from "./tool-params.js";
import { BOOLEAN_WORDS } from "../../language/lexicon/judgements.js";
import { wholeWord } from "../../language/word-patterns.js";

/*
 * Values checked against the schema they are for, and coerced where the text form differs: numbers from "$1,200",
 * booleans from "yes", dates completed to date-times, codes upper-cased to fit a pattern, enum values matched
 * regardless of case and separators.
 */

/** Lower case with `_`, `-` and spaces as one space (`in_stock` = `In stock`). */
export function normalizeWords(s: string): string {
  return s.toLowerCase().replace(/[_\-\s]+/g, " ").trim();
}

/** The enum value a text names, if any (case and separators aside). */
export function matchEnum(values: readonly unknown[], text: string): unknown {
  const t = normalizeWords(text);
  for (const v of values) if (typeof v === "string" && normalizeWords(v) === t) return v;
  for (const v of values) if (typeof v !== "string" && String(v) === text.trim()) return v;
  return undefined;
}

/** Whether a value matches a schema's pattern, in linear time whatever the pattern (one the engine cannot run accepts everything). */
export function testPattern(_box: OfflineToolbox, pattern: unknown, value: string): boolean {
  if (typeof pattern !== "string") return true;
  const compiled = compileLinear(pattern);
  return !compiled.ok || compiled.pattern.test(value);
}

const TRUE_WORDS = wholeWord(BOOLEAN_WORDS.true);
const FALSE_WORDS = wholeWord(BOOLEAN_WORDS.false);

/** A value coerced to a schema, or undefined when it cannot be one. */
export function coerce(box: OfflineToolbox, raw: string | number | boolean, schema: Json): unknown {
  const s = effectiveSchema(box, schema);
  const type = schemaType(s);
  const en = enumOf(s);
  if (en) return matchEnum(en, String(raw));
  if (type === "integer" || type === "number") {
    const n = typeof raw === "number" ? raw : Number(String(raw).replace(/[$€£,]/g, ""));
    if (!Number.isFinite(n) || String(raw).trim() === "") return undefined;
    if (type === "integer" && !Number.isInteger(n)) return undefined;
    // Bounds are the API's to check: a named value out of range is sent and repaired after the error.
    return n;
  }
  if (type === "boolean") {
    if (typeof raw === "boolean") return raw;
    if (TRUE_WORDS.test(String(raw))) return true;
    if (FALSE_WORDS.test(String(raw))) return false;
    return undefined;
  }
  if (type === "array") {
    const items = isObject(s["items"]) ? s["items"] : {};
    const one = coerce(box, raw, items);
    return one === undefined ? undefined : [one];
  }
  if (type === "object") return undefined;
  let str = String(raw);
  const format = s["format"];
  if (format === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(str)) return undefined;
  if (format === "date-time") {
    if (/^\d{4}-\d{2}-\d{2}$/.test(str)) str = `${str}T00:00:00Z`;
    else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(str)) str = `${str}:00Z`;
    else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(str)) str = `${str}Z`;
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(str)) return undefined;
  }
  if (format === "email" && !/^[^@\s]+@[^@\s]+$/.test(str)) return undefined;
  if (format === "uuid" && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(str)) return undefined;
  if ((format === "uri" || format === "url") && !/^[a-z][a-z0-9+.-]*:/i.test(str)) return undefined;
  if (!testPattern(box, s["pattern"], str)) {
    if (testPattern(box, s["pattern"], str.toUpperCase())) str = str.toUpperCase();
    else if (testPattern(box, s["pattern"], str.toLowerCase())) str = str.toLowerCase();
    else return undefined;
  }
  if (typeof s["maxLength"] === "number" && str.length > s["maxLength"]) return undefined;
  if (typeof s["minLength"] === "number" && str.length < s["minLength"]) return undefined;
  return str;
}

/** Value shape: two ids look alike when the letters before their first digit match (`bk-1001` and `bk-2040`). */
export function idShapeMatches(example: string, value: string): boolean {
  const prefix = (s: string): string => (/^([A-Za-z]+[-_]?)\d/.exec(s)?.[1] ?? "").toLowerCase();
  const pe = prefix(example);
  if (pe === "") return true;
  return prefix(value) === pe;
}
