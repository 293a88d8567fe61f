import type { SchemaDialect } from "./loaded-spec.js";
import { isObject, type Json } from "../json-object.js";

/** Which side of an exchange a schema checks: requests ignore `readOnly` required properties, responses `writeOnly` ones. */
export type SchemaFlavor = "request" | "response";

const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"] as const;
const SCHEMA_ARRAYS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
const SCHEMA_SINGLES = [
  "not", "if", "then", "else", "additionalProperties", "propertyNames", "contains",
  "unevaluatedProperties", "unevaluatedItems", "additionalItems",
] as const;
const SKIP_IN_DOCUMENT = new Set(["example", "examples", "default", "enum", "const"]);

/**
 * Rewrites one OpenAPI schema (in place) into plain JSON Schema for ajv:
 * 3.0 `nullable`, boolean `exclusiveMinimum/Maximum`, `type: file`, and the flavor's read/write-only rules.
 * `$id`s are dropped: every `$ref` of a bundled document is relative to the document, never to a nested `$id`.
 */
export function convertSchema(schema: unknown, dialect: SchemaDialect, flavor: SchemaFlavor): void {
  if (!isObject(schema)) return;
  if ("$id" in schema) delete schema["$id"];
  if (dialect === "3.0") convert30Keywords(schema);
  applyFlavor(schema, flavor);
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (isObject(map)) for (const sub of Object.values(map)) convertSchema(sub, dialect, flavor);
  }
  for (const key of SCHEMA_ARRAYS) {
    const list = schema[key];
    if (Array.isArray(list)) for (const sub of list) convertSchema(sub, dialect, flavor);
  }
  for (const key of SCHEMA_SINGLES) convertSchema(schema[key], dialect, flavor);
  const items = schema["items"];
  if (Array.isArray(items)) for (const sub of items) convertSchema(sub, dialect, flavor);
  else convertSchema(items, dialect, flavor);
}

function convert30Keywords(schema: Json): void {
  if (schema["type"] === "file") {
    schema["type"] = "string";
  }
  for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (typeof schema[flag] === "boolean") {
      if (schema[flag] === true && typeof schema[bound] === "number") {
        schema[flag] = schema[bound];
        delete schema[bound];
      } else {
        delete schema[flag];
      }
    }
  }
  if (schema["nullable"] === true) {
    delete schema["nullable"];
    const type = schema["type"];
    if (typeof type === "string") schema["type"] = [type, "null"];
    else if (Array.isArray(type) && !type.includes("null")) schema["type"] = [...type, "null"];
    if (Array.isArray(schema["enum"]) && !schema["enum"].includes(null)) schema["enum"] = [...schema["enum"], null];
    if (type === undefined) {
      // No type to widen (a $ref or a composition): accept null beside the schema itself.
      const inner: Json = {};
      for (const [k, v] of Object.entries(schema)) {
        if (k === "description" || k === "title" || k.startsWith("x-")) continue;
        inner[k] = v;
        delete schema[k];
      }
      schema["anyOf"] = [inner, { type: "null" }];
    }
  }
}

function applyFlavor(schema: Json, flavor: SchemaFlavor): void {
  const required = schema["required"];
  const props = schema["properties"];
  if (!Array.isArray(required) || !isObject(props)) return;
  const hidden = flavor === "request" ? "readOnly" : "writeOnly";
  const kept = required.filter((name) => {
    const p = typeof name === "string" ? props[name] : undefined;
    return !(isObject(p) && p[hidden] === true);
  });
  if (kept.length !== required.length) schema["required"] = kept;
}

/**
 * Deep-copies an OpenAPI 3.x document and converts every schema in it (components, parameters, media types,
 * headers) with `convertSchema`. The copy keeps the document's layout, so its JSON pointers stay valid.
 */
export function convertDocument(doc: unknown, dialect: SchemaDialect, flavor: SchemaFlavor): Json {
  const copy = structuredClone(doc) as Json;
  walkDocument(copy, [], dialect, flavor);
  return copy;
}

function walkDocument(node: unknown, path: string[], dialect: SchemaDialect, flavor: SchemaFlavor): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => walkDocument(item, [...path, String(i)], dialect, flavor));
    return;
  }
  if (!isObject(node)) return;
  const inSchemasMap = path.length === 2 && path[0] === "components" && path[1] === "schemas";
  for (const [key, value] of Object.entries(node)) {
    if (SKIP_IN_DOCUMENT.has(key) || key.startsWith("x-")) continue;
    if (inSchemasMap || key === "schema") {
      convertSchema(value, dialect, flavor);
      continue;
    }
    walkDocument(value, [...path, key], dialect, flavor);
  }
}
