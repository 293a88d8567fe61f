import { isObject } from "../json-object.js";
import { escapeSegment, getAt } from "../json-pointer.js";

/** A JSON object node of a spec document. */
export type JsonRecord = Record<string, unknown>;

/** The HTTP methods that can hold an operation in an OpenAPI path item. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** One HTTP method of a path item. */
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The operation keys of a path item (`get`, `post`...), in document order. */
export function methodsOf(item: JsonRecord): HttpMethod[] {
  return Object.keys(item).filter((key): key is HttpMethod => (HTTP_METHODS as readonly string[]).includes(key));
}

/** True for a JSON object (not null, not an array): `isObject` of `specs/json-object.ts`, by the name the loader uses. */
export const isRecord: (value: unknown) => value is JsonRecord = isObject;

/** The target of an internal `$ref` (`#/...`), or undefined if it is malformed or dangling. */
export function resolveInternalRef(doc: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  try {
    return getAt(doc, ref);
  } catch {
    return undefined; // a malformed %-escape in the fragment
  }
}

/**
 * Follows a chain of internal `$ref`s from `node` to the object it stands for, with the pointer of
 * that object (`at` if `node` is not a reference). Undefined when a link is dangling or circular.
 */
export function followRefs(doc: unknown, node: unknown, at: string): { node: unknown; pointer: string } | undefined {
  let current = node;
  let pointer = at;
  for (let hops = 0; hops < 32; hops++) {
    if (!isRecord(current) || typeof current["$ref"] !== "string") return { node: current, pointer };
    const ref = current["$ref"];
    const target = resolveInternalRef(doc, ref);
    if (target === undefined) return undefined;
    current = target;
    pointer = safeDecode(ref.slice(1));
  }
  return undefined;
}

function safeDecode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** Keys whose values are maps of names (not keywords) in the document outside schemas. */
const NAME_MAPS = new Set([
  "paths", "webhooks", "responses", "content", "headers", "encoding", "links", "callbacks", "variables",
  "parameters", "requestBodies", "securitySchemes", "pathItems", "mapping", "scopes",
]);
/** Keys whose values are data, never schemas. */
const DATA_KEYS = new Set(["example", "examples", "default", "enum", "const"]);
const SUBSCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const SUBSCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SUBSCHEMA_SINGLES = [
  "not", "if", "then", "else", "additionalProperties", "propertyNames", "contains",
  "unevaluatedProperties", "unevaluatedItems", "additionalItems",
];

/**
 * Calls `visit` on every schema position of an OpenAPI 3.x document (`schema` of parameters, media
 * types and headers, `components.schemas`, and their subschemas), parent before children, with its
 * JSON pointer. The value may be anything (a defect); the visitor may repair it in place.
 */
export function visitSchemas(doc: unknown, visit: (schema: unknown, pointer: string) => void): void {
  const seen = new WeakSet<object>();
  const visitSchema = (schema: unknown, pointer: string): void => {
    if (isRecord(schema)) {
      if (seen.has(schema)) return;
      seen.add(schema);
    }
    visit(schema, pointer);
    if (!isRecord(schema)) return;
    for (const key of SUBSCHEMA_MAPS) {
      const map = schema[key];
      if (isRecord(map)) for (const [name, sub] of Object.entries(map)) visitSchema(sub, `${pointer}/${key}/${escapeSegment(name)}`);
    }
    for (const key of SUBSCHEMA_LISTS) {
      const list = schema[key];
      if (Array.isArray(list)) list.forEach((sub, i) => visitSchema(sub, `${pointer}/${key}/${i}`));
    }
    for (const key of SUBSCHEMA_SINGLES) {
      if (schema[key] !== undefined && typeof schema[key] !== "boolean") visitSchema(schema[key], `${pointer}/${key}`);
    }
    const items = schema["items"];
    if (Array.isArray(items)) items.forEach((sub, i) => visitSchema(sub, `${pointer}/items/${i}`));
    else if (items !== undefined) visitSchema(items, `${pointer}/items`);
  };
  const visitNode = (node: unknown, pointer: string, namesHere: boolean): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => visitNode(item, `${pointer}/${i}`, false));
      return;
    }
    if (!isRecord(node) || seen.has(node)) return;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${escapeSegment(key)}`;
      if (namesHere) visitNode(value, at, false);
      else if (key.startsWith("x-") || DATA_KEYS.has(key)) continue;
      else if (key === "schema") visitSchema(value, at);
      else if (key === "schemas" && pointer === "/components" && isRecord(value)) {
        for (const [name, sub] of Object.entries(value)) visitSchema(sub, `${at}/${escapeSegment(name)}`);
      } else visitNode(value, at, NAME_MAPS.has(key));
    }
  };
  visitNode(doc, "", false);
}
