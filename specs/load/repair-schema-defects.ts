import { escapeSegment } from "../json-pointer.js";
import type { SchemaDialect } from "./loaded-spec.js";
import { isRecord, resolveInternalRef, visitSchemas, type JsonRecord } from "../catalog/openapi-nodes.js";
import { repairKeywordValues } from "./repair-schema-keywords.js";
import type { SpecProblem } from "./spec-problem.js";

const VALID_TYPES = new Set(["string", "number", "integer", "boolean", "array", "object", "null"]);

/** Sloppy type names seen in hand- and LLM-written specs, and the JSON Schema type (and format) they mean. */
const TYPE_ALIASES: Record<string, { type: string; format?: string }> = {
  int: { type: "integer" },
  int32: { type: "integer", format: "int32" },
  int64: { type: "integer", format: "int64" },
  long: { type: "integer", format: "int64" },
  float: { type: "number", format: "float" },
  double: { type: "number", format: "double" },
  decimal: { type: "number" },
  numeric: { type: "number" },
  bool: { type: "boolean" },
  str: { type: "string" },
  text: { type: "string" },
  date: { type: "string", format: "date" },
  datetime: { type: "string", format: "date-time" },
  "date-time": { type: "string", format: "date-time" },
  timestamp: { type: "string", format: "date-time" },
  dict: { type: "object" },
  map: { type: "object" },
  list: { type: "array" },
};

/**
 * Repairs schema defects whose meaning is clear, in place, in every schema of a bundled OpenAPI 3.x
 * document, and returns one warning per repair. See `specs/README.md` for the list of codes.
 */
export function repairSchemaDefects(doc: JsonRecord, dialect: SchemaDialect, file: string): SpecProblem[] {
  const warnings: SpecProblem[] = [];
  const warn: Warn = (pointer, code, message) => {
    warnings.push({ file, pointer, severity: "warning", code, message });
  };
  visitSchemas(doc, (schema, pointer) => {
    if (!isRecord(schema)) return;
    repairOne(schema, pointer, dialect, warn);
    repairOverlappingOneOf(doc, schema, pointer, warn);
  });
  return warnings;
}

/** Keys a schema part may have and still constrain nothing beyond `type: object` (optional properties only). */
const OPTIONAL_PART_KEYS = new Set(["type", "properties", "description", "title", "example", "examples", "readOnly", "writeOnly", "deprecated"]);

/**
 * `oneOf: [A, B]` where B is `allOf: [A, {optional properties}]` (generated from `User | UserWithStats`): A and B
 * accept the same values, so no value matches exactly one branch. Read as `anyOf`, which is what it means.
 */
function repairOverlappingOneOf(doc: JsonRecord, schema: JsonRecord, pointer: string, warn: Warn): void {
  const branches = schema["oneOf"];
  if (!Array.isArray(branches) || branches.length < 2) return;
  const refs = branches.map((b) => (isRecord(b) && typeof b["$ref"] === "string" ? b["$ref"] : undefined));
  for (const [i, branch] of branches.entries()) {
    const resolved = refs[i] !== undefined ? resolveInternalRef(doc, refs[i]) : branch;
    const parts = isRecord(resolved) ? resolved["allOf"] : undefined;
    if (!Array.isArray(parts)) continue;
    const base = parts.find((p) => isRecord(p) && typeof p["$ref"] === "string" && p["$ref"] !== refs[i] && refs.includes(p["$ref"]));
    if (base === undefined) continue;
    const rest = parts.filter((p) => p !== base);
    const onlyOptional = rest.every((p) => isRecord(p) && (p["type"] === undefined || p["type"] === "object") && Object.keys(p).every((k) => OPTIONAL_PART_KEYS.has(k) || k.startsWith("x-")));
    if (!onlyOptional) continue;
    delete schema["oneOf"];
    if (Array.isArray(schema["anyOf"])) schema["allOf"] = [...(Array.isArray(schema["allOf"]) ? schema["allOf"] : []), { anyOf: branches }];
    else schema["anyOf"] = branches;
    const other = (base as JsonRecord)["$ref"] as string;
    warn(`${pointer}/oneOf`, "schema-oneof-overlap", `oneOf branch ${i} is ${other} plus optional properties: both accept the same values, so none matches exactly one; read as anyOf`);
    return;
  }
}

type Warn = (pointer: string, code: string, message: string) => void;

function repairOne(schema: JsonRecord, pointer: string, dialect: SchemaDialect, warn: Warn): void {
  repairTypeNames(schema, pointer, warn);
  repairNullTypeWithAlternatives(schema, pointer, dialect, warn);
  if (dialect === "3.0") repairTypeArray30(schema, pointer, warn);
  else repairNullable31(schema, pointer, warn);
  repairBooleanRequired(schema, pointer, warn);
  repairExclusiveBounds(schema, pointer, dialect, warn);
  repairKeywordValues(schema, pointer, dialect, warn);
  repairRequiredUndeclared(schema, pointer, warn);
  if (dialect === "3.0" && schema["type"] === "array" && schema["items"] === undefined && schema["$ref"] === undefined) {
    schema["items"] = {};
    warn(pointer, "schema-array-without-items", "array schema without `items` (required in OpenAPI 3.0): items of any type allowed");
  }
}

/**
 * `type: "null"` beside `oneOf` / `anyOf` alternatives of other types (generated specs write "null or one of
 * these" so) allows nothing at all: the null moves into the alternatives (3.1) or becomes `nullable` (3.0).
 */
function repairNullTypeWithAlternatives(schema: JsonRecord, pointer: string, dialect: SchemaDialect, warn: Warn): void {
  if (schema["type"] !== "null") return;
  const key = Array.isArray(schema["oneOf"]) ? "oneOf" : Array.isArray(schema["anyOf"]) ? "anyOf" : undefined;
  if (key === undefined) return;
  const alternatives = schema[key] as unknown[];
  if (alternatives.length === 0 || alternatives.some((a) => isRecord(a) && a["type"] === "null")) return;
  delete schema["type"];
  if (dialect === "3.1") schema[key] = [...alternatives, { type: "null" }];
  else schema["nullable"] = true;
  warn(`${pointer}/type`, "schema-null-type-alternatives", `type "null" beside \`${key}\` allows no value at all: read as null or one of the ${key} alternatives`);
}

/** Keywords through which something else may declare (or constrain) an object's properties. */
const OTHER_DECLARERS = ["allOf", "anyOf", "oneOf", "$ref", "patternProperties", "not", "if"];

/**
 * An object schema whose `required` names a property it does not declare (and nothing else could, no
 * composition or pattern): the property is declared with any value, so that it can be sent and synthesized.
 * Schemas inside a composition are left alone: a sibling part may declare the property.
 */
function repairRequiredUndeclared(schema: JsonRecord, pointer: string, warn: Warn): void {
  const properties = schema["properties"];
  const required = schema["required"];
  if (!isRecord(properties) || !Array.isArray(required)) return;
  let undeclared = false;
  for (const name of required) if (typeof name === "string" && !(name in properties)) undeclared = true;
  if (!undeclared) return;
  for (const key of OTHER_DECLARERS) if (schema[key] !== undefined) return;
  if (isRecord(schema["additionalProperties"]) || /\/(allOf|anyOf|oneOf)\/\d+(\/|$)/.test(pointer)) return;
  for (const name of required) {
    if (typeof name !== "string" || name in properties) continue;
    properties[name] = {};
    warn(`${pointer}/required`, "schema-required-undeclared", `required property ${JSON.stringify(name)} is not among the properties: declared with any value`);
  }
}

/** `type: int`, `type: String`, `type: [str, null]` -> standard type names; unknown names are dropped. */
function repairTypeNames(schema: JsonRecord, pointer: string, warn: Warn): void {
  const type = schema["type"];
  const fix = (name: string): string | undefined => {
    if (VALID_TYPES.has(name)) return name;
    const lower = name.trim().toLowerCase();
    if (VALID_TYPES.has(lower)) return lower;
    const alias = TYPE_ALIASES[lower];
    if (alias === undefined) return undefined;
    if (alias.format !== undefined && schema["format"] === undefined) schema["format"] = alias.format;
    return alias.type;
  };
  if (typeof type === "string") {
    const fixed = fix(type);
    if (fixed === type) return;
    if (fixed === undefined) {
      delete schema["type"];
      warn(`${pointer}/type`, "schema-type-unknown", `unknown type ${JSON.stringify(type)} removed: any value is allowed`);
    } else {
      schema["type"] = fixed;
      warn(`${pointer}/type`, "schema-type-alias", `type ${JSON.stringify(type)} read as ${JSON.stringify(fixed)}`);
    }
  } else if (Array.isArray(type)) {
    const names = type.filter((t): t is string => typeof t === "string");
    const fixed = [...new Set(names.map(fix).filter((t): t is string => t !== undefined))];
    if (fixed.length === type.length && fixed.every((t, i) => t === type[i])) return;
    if (fixed.length === 0) delete schema["type"];
    else schema["type"] = fixed;
    warn(`${pointer}/type`, "schema-type-alias", `type ${JSON.stringify(type)} read as ${JSON.stringify(fixed)}`);
  } else if (type !== undefined) {
    delete schema["type"];
    warn(`${pointer}/type`, "schema-type-unknown", `type ${JSON.stringify(type)} is not a type name: removed, any value is allowed`);
  }
}

/** OpenAPI 3.0 has no type arrays: `[T]` -> `T`, `[T, null]` -> `T` + `nullable`, `[T, U]` -> `anyOf`. */
function repairTypeArray30(schema: JsonRecord, pointer: string, warn: Warn): void {
  const type = schema["type"];
  if (!Array.isArray(type)) {
    if (type === "null") {
      delete schema["type"];
      schema["nullable"] = true;
      schema["enum"] = [null];
      warn(`${pointer}/type`, "schema-type-array", "type \"null\" (not in OpenAPI 3.0) read as `nullable: true, enum: [null]`");
    }
    return;
  }
  const names = type.filter((t): t is string => typeof t === "string");
  const nonNull = names.filter((t) => t !== "null");
  const nullable = nonNull.length < names.length;
  if (nonNull.length <= 1) {
    if (nonNull[0] === undefined) delete schema["type"];
    else schema["type"] = nonNull[0];
  } else {
    delete schema["type"];
    const alternatives = nonNull.map((t) => ({ type: t }));
    if (Array.isArray(schema["anyOf"])) {
      schema["allOf"] = [...(Array.isArray(schema["allOf"]) ? schema["allOf"] : []), { anyOf: alternatives }];
    } else {
      schema["anyOf"] = alternatives;
    }
  }
  if (nullable) schema["nullable"] = true;
  const result = nonNull.length > 1 ? `anyOf ${JSON.stringify(nonNull)}` : nonNull[0] !== undefined ? `type ${JSON.stringify(nonNull[0])}` : "no type";
  warn(`${pointer}/type`, "schema-type-array", `type array ${JSON.stringify(type)} (not in OpenAPI 3.0) read as ${result}${nullable ? " with nullable: true" : ""}`);
}

/** OpenAPI 3.1 has no `nullable`: `nullable: true` -> `"null"` added to `type`. */
function repairNullable31(schema: JsonRecord, pointer: string, warn: Warn): void {
  if (!("nullable" in schema)) return;
  const nullable = schema["nullable"] === true;
  delete schema["nullable"];
  const type = schema["type"];
  if (nullable && typeof type === "string") schema["type"] = [type, "null"];
  else if (nullable && Array.isArray(type) && !type.includes("null")) schema["type"] = [...type, "null"];
  if (nullable && Array.isArray(schema["enum"]) && !schema["enum"].includes(null)) schema["enum"] = [...schema["enum"], null];
  warn(`${pointer}/nullable`, "schema-nullable-in-3.1", nullable ? "`nullable` (OpenAPI 3.0) read as a \"null\" type in OpenAPI 3.1" : "`nullable: false` (OpenAPI 3.0) removed");
}

/** `properties: {a: {required: true}}` (Swagger parameter style) -> `required: ["a"]` on the object. */
function repairBooleanRequired(schema: JsonRecord, pointer: string, warn: Warn): void {
  const properties = schema["properties"];
  if (typeof schema["required"] === "string") {
    schema["required"] = [schema["required"]];
    warn(`${pointer}/required`, "schema-required-boolean", "`required` must be a list of property names: the single name was wrapped in a list");
  } else if (typeof schema["required"] === "boolean") {
    // `required: true` on a schema with no parent context: meaningless, drop it.
    delete schema["required"];
    warn(`${pointer}/required`, "schema-required-boolean", "`required` must be a list of property names: the boolean was removed");
  }
  if (!isRecord(properties)) return;
  for (const [name, property] of Object.entries(properties)) {
    if (!isRecord(property) || typeof property["required"] !== "boolean") continue;
    const required = property["required"];
    delete property["required"];
    if (required) {
      const list = Array.isArray(schema["required"]) ? schema["required"] : [];
      if (!list.includes(name)) list.push(name);
      schema["required"] = list;
    }
    warn(
      `${pointer}/properties/${escapeSegment(name)}/required`,
      "schema-required-boolean",
      required ? `\`required: true\` on property ${JSON.stringify(name)} moved to the object's \`required\` list` : `\`required: false\` on property ${JSON.stringify(name)} removed`,
    );
  }
}

/** Exclusive bounds in the other version's form: 3.0 takes booleans, 3.1 numbers. */
function repairExclusiveBounds(schema: JsonRecord, pointer: string, dialect: SchemaDialect, warn: Warn): void {
  for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    const value = schema[flag];
    if (dialect === "3.0" && typeof value === "number") {
      schema[bound] = value;
      schema[flag] = true;
      warn(`${pointer}/${flag}`, "schema-exclusive-bound", `numeric ${flag} (OpenAPI 3.1 form) read as ${bound}: ${value} with ${flag}: true`);
    } else if (dialect === "3.1" && typeof value === "boolean") {
      if (value && typeof schema[bound] === "number") {
        schema[flag] = schema[bound];
        delete schema[bound];
      } else {
        delete schema[flag];
      }
      warn(`${pointer}/${flag}`, "schema-exclusive-bound", `boolean ${flag} (OpenAPI 3.0 form) read in the OpenAPI 3.1 form`);
    }
  }
}
