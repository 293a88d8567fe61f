import { isObject, type Json } from "../json-object.js";
import type { FieldHint } from "./values/realistic-value.js";
/**
 * The rules every synthesis path shares: how deep a value grows (ref levels), which keywords generate,
 * and small checks on schema nodes.
 */

/** Ref levels (nested `$ref`s crossed) from which only required properties are generated. */
export const REQUIRED_ONLY_LEVEL = 3;
/** Ref level from which arrays hold at most one item (below it, one or two). */
export const ONE_ITEM_LEVEL = 2;
/** Ref level from which arrays hold only `minItems` items and nullable values are null: recursion stops here. */
export const STOP_LEVEL = 6;
/** Beyond this ref level nothing more is generated. */
export const HARD_LEVEL = 12;
/** Optional properties holding objects or lists kept per object below the top level. */
export const MAX_OPTIONAL_NESTED = 4;

/** The JSON Schema keywords synthesis reads (anything else on a node, vendor keys included, is ignored). */
export const KEYWORDS: ReadonlySet<string> = new Set([
  "description",
  "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "minLength", "maxLength", "pattern", "format", "items", "prefixItems", "additionalItems", "contains", "minContains",
  "maxContains", "minItems", "maxItems", "uniqueItems", "properties", "required", "additionalProperties",
  "patternProperties", "minProperties", "maxProperties", "propertyNames", "dependentRequired", "dependentSchemas",
  "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref", "default", "examples",
]);

/** Keywords that say nothing about the value's shape. */
export const NON_GENERATIVE: ReadonlySet<string> = new Set(["examples", "default", "description"]);

/** Known-good values of string formats, for when no realistic value fits the other constraints. */
export const FORMAT_VALUES: Readonly<Record<string, string>> = {
  "date-time": "2024-05-17T09:30:00Z",
  "iso-date-time": "2024-05-17T09:30:00Z",
  date: "2024-05-17",
  time: "09:30:00Z",
  "iso-time": "09:30:00Z",
  email: "jane.doe@example.com",
  "idn-email": "jane.doe@example.com",
  uri: "https://example.com/resource",
  url: "https://example.com/resource",
  iri: "https://example.com/resource",
  "uri-reference": "https://example.com/resource",
  "iri-reference": "https://example.com/resource",
  "uri-template": "https://example.com/{id}",
  hostname: "api.example.com",
  "idn-hostname": "api.example.com",
  ipv4: "192.168.1.20",
  ipv6: "2001:db8::1",
  uuid: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  byte: "ZXhhbXBsZQ==",
  duration: "PT15M",
  "json-pointer": "/items/0",
  "relative-json-pointer": "1/items",
  regex: "^[a-z]+$",
  int32: "42",
  int64: "42",
};

/** A schema of an object, a list, a `$ref` or a composition (as opposed to a scalar). */
export function isNested(s: unknown): boolean {
  if (!isObject(s)) return false;
  if (s["$ref"] !== undefined || s["allOf"] !== undefined || s["anyOf"] !== undefined || s["oneOf"] !== undefined) return true;
  const t = s["type"];
  const types = Array.isArray(t) ? t : [t];
  return types.includes("object") || types.includes("array") || s["properties"] !== undefined || s["items"] !== undefined;
}

/** `null`, `0`, `""`, `false`, `[]`, `{}`: values that read worse than a realistic one. */
export function isZeroValue(v: unknown): boolean {
  if (v === null || v === 0 || v === "" || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObject(v) && Object.keys(v).length === 0;
}

/** `{type: "null"}` (with at most a description or title). */
export function isNullSchema(s: unknown): boolean {
  return isObject(s) && s["type"] === "null" && Object.keys(s).every((k) => k === "type" || k === "description" || k === "title");
}

/** A deep copy of a JSON value (plain objects and arrays copied; anything else by `structuredClone`). */
export function cloneJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  return copy(value, 0) as T;
}

function copy(value: object, depth: number): unknown {
  if (depth > 200) return structuredClone(value);
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      out[i] = typeof v === "object" && v !== null ? copy(v, depth + 1) : v;
    }
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Json = {};
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const v: unknown = (value as Json)[key];
    if (key === "__proto__") Object.defineProperty(out, key, { value: typeof v === "object" && v !== null ? copy(v, depth + 1) : v, enumerable: true, writable: true, configurable: true });
    else out[key] = typeof v === "object" && v !== null ? copy(v, depth + 1) : v;
  }
  return out;
}

/**
 * The field hint of a value from the names on its path (array indexes are skipped): its own name and the
 * names around it, the root's name (a parameter's) first. A value with no name on its path is named `rootName`.
 */
export function fieldHint(segments: readonly string[], rootName: string | undefined): FieldHint {
  const names = segments.filter((s) => !/^\d+$/.test(s));
  if (names.length === 0) return rootName !== undefined ? { name: rootName } : {};
  const name = names[names.length - 1] as string;
  const parents = rootName !== undefined ? [rootName, ...names.slice(0, -1)] : names.slice(0, -1);
  return { name, parents };
}
