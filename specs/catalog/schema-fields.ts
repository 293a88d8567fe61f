import type { SchemaFlavor } from "../load/schema-flavor.js";
import { arrayItems, objectShape } from "./object-properties.js";
import type { SchemaRegistry } from "./schema-registry.js";
import { isObject } from "../json-object.js";

/**
 * The fields of a schema as paths (`location.name`, `holidays[].date`, `[].region`): what bindings are
 * inferred from. Objects and lists are followed (`$ref`, `allOf`, the first object branch of a `oneOf` or
 * `anyOf`), to a bounded depth and count.
 */

type Json = Record<string, unknown>;

/** One field of a schema. */
export interface SchemaField {
  /** Its path from the schema's root (a field path). */
  path: string;
  /** Its property name (`""` for list items of a list of scalars). */
  name: string;
  /** The property name of the object holding it (`location` for `location.name`), if any. */
  parent?: string;
  /** The pointer of its schema. */
  pointer: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  pattern?: string;
  description?: string;
  /** Whether it is a list (of scalars or objects). */
  list: boolean;
  /** Whether it is an object (its fields are listed too). */
  object: boolean;
}

const MAX_DEPTH = 6;
const MAX_FIELDS = 400;

/** The first object-like branch of a `oneOf`/`anyOf` schema, if any. */
function branchOf(registry: SchemaRegistry, flavor: SchemaFlavor, pointer: string): string | undefined {
  const { pointer: at, schema } = registry.resolve(flavor, pointer);
  if (!isObject(schema)) return undefined;
  for (const key of ["oneOf", "anyOf"] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    for (let i = 0; i < branches.length; i++) {
      const p = `${at}/${key}/${i}`;
      if (objectShape(registry, flavor, p) || arrayItems(registry, flavor, p)) return p;
    }
  }
  return undefined;
}

function typeOf(schema: Json): string | undefined {
  const t = schema["type"];
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === "string" && x !== "null");
  if (schema["properties"] !== undefined) return "object";
  if (schema["items"] !== undefined) return "array";
  return undefined;
}

/** Every field of the schema at a pointer (the root itself is not listed; a root list shows as `[]`). */
export function schemaFields(registry: SchemaRegistry, flavor: SchemaFlavor, pointer: string): SchemaField[] {
  const out: SchemaField[] = [];
  const walk = (at: string, path: string, name: string, parent: string | undefined, depth: number, seen: ReadonlySet<string>): void => {
    if (out.length >= MAX_FIELDS || depth > MAX_DEPTH) return;
    const resolved = registry.resolve(flavor, at);
    if (seen.has(resolved.pointer)) return;
    const inner = new Set(seen).add(resolved.pointer);
    const items = arrayItems(registry, flavor, at);
    if (items !== undefined) {
      const listPath = `${path}[]`;
      if (path !== "") push(at, path, name, parent, true, false);
      walk(items, listPath, name, parent, depth + 1, inner);
      return;
    }
    const shape = objectShape(registry, flavor, at) ?? (() => {
      const b = branchOf(registry, flavor, at);
      return b !== undefined ? objectShape(registry, flavor, b) : undefined;
    })();
    if (shape) {
      if (path !== "" && !path.endsWith("[]")) push(at, path, name, parent, false, true);
      for (const [k, p] of Object.entries(shape.properties)) {
        if (/[.[\]]/.test(k)) continue;
        walk(p, path === "" ? k : `${path}.${k}`, k, name === "" ? undefined : name, depth + 1, inner);
      }
      return;
    }
    if (path !== "" && !path.endsWith("[]")) push(at, path, name, parent, false, false);
    else if (path.endsWith("[]")) push(at, path, "", name, false, false);
  };
  const push = (at: string, path: string, name: string, parent: string | undefined, list: boolean, object: boolean): void => {
    const { schema } = registry.resolve(flavor, at);
    const s = isObject(schema) ? schema : {};
    const type = typeOf(s);
    out.push({
      path,
      name,
      ...(parent !== undefined && parent !== "" ? { parent } : {}),
      pointer: at,
      ...(type !== undefined ? { type } : {}),
      ...(typeof s["format"] === "string" ? { format: s["format"] } : {}),
      ...(Array.isArray(s["enum"]) ? { enum: s["enum"] } : {}),
      ...(typeof s["pattern"] === "string" ? { pattern: s["pattern"] } : {}),
      ...(typeof s["description"] === "string" ? { description: s["description"] } : {}),
      list,
      object,
    });
  };
  walk(pointer, "", "", undefined, 0, new Set());
  return out;
}

/** The fields of a value (an example answer without a schema), as {@link schemaFields} lists a schema's: lists by their first item. */
export function valueFields(value: unknown): SchemaField[] {
  const out: SchemaField[] = [];
  const typeOfValue = (v: unknown): string | undefined => (v === null ? undefined : Array.isArray(v) ? "array" : typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v);
  const walk = (v: unknown, path: string, name: string, parent: string | undefined, depth: number): void => {
    if (out.length >= MAX_FIELDS || depth > MAX_DEPTH) return;
    if (Array.isArray(v)) {
      if (path !== "") out.push({ path, name, ...(parent !== undefined ? { parent } : {}), pointer: "", type: "array", list: true, object: false });
      const first = v.find((x) => x !== null && x !== undefined);
      if (first !== undefined) walk(first, `${path}[]`, name, parent, depth + 1);
      return;
    }
    if (isObject(v)) {
      if (path !== "" && !path.endsWith("[]")) out.push({ path, name, ...(parent !== undefined ? { parent } : {}), pointer: "", type: "object", list: false, object: true });
      for (const [k, x] of Object.entries(v)) {
        if (/[.[\]]/.test(k)) continue;
        walk(x, path === "" ? k : `${path}.${k}`, k, name === "" ? undefined : name, depth + 1);
      }
      return;
    }
    const type = typeOfValue(v);
    if (path.endsWith("[]")) out.push({ path, name: "", ...(name !== "" ? { parent: name } : {}), pointer: "", ...(type !== undefined ? { type } : {}), list: false, object: false });
    else if (path !== "") out.push({ path, name, ...(parent !== undefined ? { parent } : {}), pointer: "", ...(type !== undefined ? { type } : {}), ...(typeof v === "string" && /^\d{4}-\d\d-\d\d(T|$)/.test(v) ? { format: v.length > 10 ? "date-time" : "date" } : {}), list: false, object: false });
  };
  walk(value, "", "", undefined, 0);
  return out;
}
