import { escapeSegment } from "../json-pointer.js";
import type { SchemaDialect } from "./loaded-spec.js";
import { isRecord, type JsonRecord } from "../catalog/openapi-nodes.js";
import { checkPattern } from "./patterns/regex-pattern.js";

/** Records one repair: where, its code and what was done. */
export type KeywordWarn = (pointer: string, code: string, message: string) => void;

const NUMBER_KEYWORDS = ["minimum", "maximum", "multipleOf"];
const COUNT_KEYWORDS = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"];
const STRING_KEYWORDS = ["pattern", "format"];
const BOOLEAN_KEYWORDS = ["uniqueItems"];
/** Keywords holding one schema (an object, or a boolean). */
const SCHEMA_KEYWORDS = ["additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "additionalItems", "unevaluatedProperties", "unevaluatedItems"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_MAPS = ["patternProperties", "dependencies", "dependentSchemas", "dependentRequired", "$defs", "definitions"];

/**
 * Repairs keyword values a validator cannot compile, in one schema (not its subschemas), in place:
 * numbers and booleans written as strings are converted, patterns JavaScript cannot compile are
 * repaired where the meaning is clear (`(?i)`, a regex literal) or dropped, and any other value of the
 * wrong type is dropped (the schema then allows more, never less). One warning per repair.
 */
export function repairKeywordValues(schema: JsonRecord, pointer: string, dialect: SchemaDialect, warn: KeywordWarn): void {
  if (hasWrongType(schema, dialect)) repairTypes(schema, pointer, dialect, warn);
  if (typeof schema["pattern"] === "string" || isRecord(schema["patternProperties"])) repairPatterns(schema, pointer, warn);
  if (Array.isArray(schema["enum"]) && typeof schema["type"] === "string") repairEnumValues(schema, schema["enum"], `${pointer}/enum`, warn);
}

function repairPatterns(schema: JsonRecord, pointer: string, warn: KeywordWarn): void {
  const at = (key: string): string => `${pointer}/${escapeSegment(key)}`;
  if (typeof schema["pattern"] === "string") {
    const written = schema["pattern"];
    const found = checkPattern(written);
    if (found.kind === "repaired") {
      warn(at("pattern"), "schema-pattern-invalid", `pattern ${JSON.stringify(written)}: ${found.reason}, as ${JSON.stringify(found.pattern)}`);
      schema["pattern"] = found.pattern;
    } else if (found.kind === "unusable") {
      const code = found.unsupported === true ? "schema-pattern-unsupported" : "schema-pattern-invalid";
      warn(at("pattern"), code, `pattern ${JSON.stringify(written)} is ${found.reason}: removed, any string of the type is allowed`);
      delete schema["pattern"];
    }
    if (found.kind !== "unusable" && found.translated !== undefined) {
      warn(at("pattern"), "schema-pattern-translated", `pattern ${JSON.stringify(written)} runs on the linear-time engine as translated: ${found.translated}`);
    }
  }
  if (isRecord(schema["patternProperties"])) {
    const map = schema["patternProperties"];
    for (const key of Object.keys(map)) {
      const found = checkPattern(key);
      const where = `${at("patternProperties")}/${escapeSegment(key)}`;
      if (found.kind !== "unusable" && found.translated !== undefined) {
        warn(where, "schema-pattern-translated", `pattern property ${JSON.stringify(key)} runs on the linear-time engine as translated: ${found.translated}`);
      }
      if (found.kind === "ok") continue;
      if (found.kind === "repaired" && !(found.pattern in map)) {
        map[found.pattern] = map[key];
        warn(where, "schema-pattern-invalid", `pattern property ${JSON.stringify(key)}: ${found.reason}, as ${JSON.stringify(found.pattern)}`);
      } else if (found.kind === "unusable") {
        warn(where, found.unsupported === true ? "schema-pattern-unsupported" : "schema-pattern-invalid", `pattern property ${JSON.stringify(key)} is ${found.reason}: removed`);
      } else warn(where, "schema-pattern-invalid", `pattern property ${JSON.stringify(key)}: ${found.reason}, as ${JSON.stringify(found.pattern)} (which the schema has already): removed`);
      delete map[key];
    }
  }
}

const isNumber = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v);
const isSchema = (v: unknown): boolean => isRecord(v) || typeof v === "boolean";
/** For each checked keyword, whether its value has the right type (the common case: checked key by key, fast). */
const FINE = new Map<string, (value: unknown, dialect: SchemaDialect) => boolean>([
  ...[...NUMBER_KEYWORDS, ...COUNT_KEYWORDS].map((k) => [k, isNumber] as const),
  ["multipleOf", (v) => isNumber(v) && (v as number) > 0],
  ["exclusiveMinimum", (v, d) => (d === "3.1" ? isNumber(v) : typeof v === "boolean" || typeof v === "number")],
  ["exclusiveMaximum", (v, d) => (d === "3.1" ? isNumber(v) : typeof v === "boolean" || typeof v === "number")],
  ...STRING_KEYWORDS.map((k) => [k, (v: unknown) => typeof v === "string"] as const),
  ...BOOLEAN_KEYWORDS.map((k) => [k, (v: unknown) => typeof v === "boolean"] as const),
  ["enum", (v) => Array.isArray(v) && v.length > 0],
  ["required", (v) => Array.isArray(v) && v.every((r) => typeof r === "string")],
  ...SCHEMA_KEYWORDS.map((k) => [k, isSchema] as const),
  ...SCHEMA_LISTS.map((k) => [k, Array.isArray] as const),
  ...SCHEMA_MAPS.map((k) => [k, isRecord] as const),
  ["items", (v, d) => isSchema(v) || (d === "3.0" && Array.isArray(v))],
]);

function hasWrongType(schema: JsonRecord, dialect: SchemaDialect): boolean {
  for (const key in schema) {
    const fine = FINE.get(key);
    if (fine !== undefined && !fine(schema[key], dialect)) return true;
  }
  return false;
}

/** The type repairs of `repairKeywordValues`, for a schema with at least one keyword value of the wrong type. */
function repairTypes(schema: JsonRecord, pointer: string, dialect: SchemaDialect, warn: KeywordWarn): void {
  const at = (key: string): string => `${pointer}/${escapeSegment(key)}`;
  const drop = (key: string, why: string): void => {
    const value = schema[key];
    delete schema[key];
    warn(at(key), "schema-keyword-type", `\`${key}: ${short(value)}\` ${why}: removed`);
  };
  const exclusive = dialect === "3.1" ? ["exclusiveMinimum", "exclusiveMaximum"] : [];
  for (const key of [...NUMBER_KEYWORDS, ...COUNT_KEYWORDS, ...exclusive]) {
    if (!(key in schema)) continue;
    const value = schema[key];
    if (typeof value === "number" && Number.isFinite(value)) {
      if (key === "multipleOf" && value <= 0) drop(key, "must be greater than 0");
      continue;
    }
    const number = typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
    if (Number.isFinite(number) && !(key === "multipleOf" && number <= 0)) {
      schema[key] = number;
      warn(at(key), "schema-keyword-type", `\`${key}: ${short(value)}\` read as the number ${number}`);
    } else drop(key, "is not a number");
  }
  if (dialect === "3.0") {
    for (const key of ["exclusiveMinimum", "exclusiveMaximum"]) {
      // Numbers are the 3.1 form (repaired as `schema-exclusive-bound`); "true" / "false" are booleans.
      const value = schema[key];
      if (value === undefined || typeof value === "boolean" || typeof value === "number") continue;
      if (value === "true" || value === "false") {
        schema[key] = value === "true";
        warn(at(key), "schema-keyword-type", `\`${key}: ${short(value)}\` read as the boolean ${value}`);
      } else drop(key, "is not a boolean");
    }
  }
  for (const key of BOOLEAN_KEYWORDS) {
    const value = schema[key];
    if (value === undefined || typeof value === "boolean") continue;
    if (value === "true" || value === "false") {
      schema[key] = value === "true";
      warn(at(key), "schema-keyword-type", `\`${key}: ${short(value)}\` read as the boolean ${value}`);
    } else drop(key, "is not a boolean");
  }
  for (const key of STRING_KEYWORDS) {
    if (key in schema && typeof schema[key] !== "string") drop(key, "is not a string");
  }
  if ("enum" in schema) {
    const value = schema["enum"];
    if (!Array.isArray(value)) drop("enum", "is not a list");
    else if (value.length === 0) drop("enum", "allows no value at all");
  }
  if ("required" in schema && !Array.isArray(schema["required"])) drop("required", "is not a list of property names");
  else if (Array.isArray(schema["required"]) && schema["required"].some((r) => typeof r !== "string")) {
    const before = schema["required"];
    schema["required"] = before.filter((r): r is string => typeof r === "string");
    warn(at("required"), "schema-keyword-type", `\`required: ${short(before)}\` keeps its property names only`);
  }
  for (const key of SCHEMA_KEYWORDS) {
    const value = schema[key];
    if (value === undefined || isRecord(value) || typeof value === "boolean") continue;
    if (value === "true" || value === "false") {
      schema[key] = value === "true";
      warn(at(key), "schema-keyword-type", `\`${key}: ${short(value)}\` read as the boolean ${value}`);
    } else drop(key, "is not a schema");
  }
  for (const key of SCHEMA_LISTS) {
    const value = schema[key];
    if (value === undefined || Array.isArray(value)) continue;
    if (isRecord(value)) {
      schema[key] = [value];
      warn(at(key), "schema-keyword-type", `\`${key}\` holds one schema, not a list of schemas: wrapped in a list`);
    } else drop(key, "is not a list of schemas");
  }
  for (const key of SCHEMA_MAPS) {
    if (key in schema && !isRecord(schema[key])) drop(key, "is not an object");
  }
  const items = schema["items"];
  if (items !== undefined && !isRecord(items) && typeof items !== "boolean") {
    if (Array.isArray(items) && dialect === "3.0") {
      // A tuple (draft 7): ajv takes it.
    } else if (Array.isArray(items) && items.length === 1 && isRecord(items[0])) {
      schema["items"] = items[0];
      warn(at("items"), "schema-keyword-type", "`items` as a list of one schema (not JSON Schema 2020-12) read as that schema");
    } else if (Array.isArray(items) && items.every(isRecord) && schema["prefixItems"] === undefined) {
      delete schema["items"];
      schema["prefixItems"] = items;
      warn(at("items"), "schema-keyword-type", "`items` as a list of schemas (a tuple before JSON Schema 2020-12) read as `prefixItems`");
    } else drop("items", "is not a schema");
  }
}

/**
 * Enum values written in another type than the schema's own (`type: integer, enum: ["1", "2"]`, `type: string,
 * enum: [1, 2]`) can never validate: each is converted to the schema's type where that reads the same.
 */
function repairEnumValues(schema: JsonRecord, values: unknown[], pointer: string, warn: KeywordWarn): void {
  const type = schema["type"];
  if (typeof type !== "string") return;
  let mismatched = false;
  for (const v of values) if (convertTo(type, v) !== v) mismatched = true;
  if (!mismatched) return;
  const converted = values.map((v) => convertTo(type, v));
  schema["enum"] = converted;
  warn(pointer, "schema-enum-type", `enum values ${short(values)} are not of type ${JSON.stringify(type)}: read as ${short(converted)}`);
}

function convertTo(type: string, value: unknown): unknown {
  if (typeof value === "string" && (type === "integer" || type === "number")) {
    const number = value.trim() === "" ? NaN : Number(value);
    return Number.isFinite(number) && (type === "number" || Number.isInteger(number)) ? number : value;
  }
  if (typeof value === "string" && type === "boolean") return value === "true" ? true : value === "false" ? false : value;
  if ((typeof value === "number" || typeof value === "boolean") && type === "string") return String(value);
  return value;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
