import type { SchemaFlavor } from "../load/schema-flavor.js";
import type { SchemaRegistry } from "./schema-registry.js";
import { toPointer } from "../json-pointer.js";
import { isObject } from "../json-object.js";

/** The properties of an object schema (following `$ref`s and `allOf`), with the pointer of each one's schema. */
export interface ObjectShape {
  properties: Record<string, string>;
  required: string[];
  /** Whether properties beyond the declared ones are allowed. */
  open: boolean;
}

/** Shapes already worked out, by registry, then flavor and pointer (`null`: not a plain object schema). */
const shapes = new WeakMap<SchemaRegistry, Map<string, ObjectShape | null>>();

/**
 * The shape of the object schema at a pointer, or undefined when it is not a plain object schema (oneOf, array...).
 * Worked out once per schema: the shape is frozen and shared.
 */
export function objectShape(registry: SchemaRegistry, flavor: SchemaFlavor, pointer: string): ObjectShape | undefined {
  let known = shapes.get(registry);
  if (!known) shapes.set(registry, (known = new Map()));
  const key = `${flavor} ${pointer}`;
  let shape = known.get(key);
  if (shape === undefined) {
    const made = shapeAt(registry, flavor, pointer, new Set());
    shape = made === undefined ? null : Object.freeze({ ...made, properties: Object.freeze(made.properties), required: Object.freeze(made.required) as string[] });
    known.set(key, shape);
  }
  return shape ?? undefined;
}

function shapeAt(registry: SchemaRegistry, flavor: SchemaFlavor, pointer: string, seen: ReadonlySet<string>): ObjectShape | undefined {
  const { pointer: at, schema } = registry.resolve(flavor, pointer);
  // An allOf that comes back to itself (a `$ref` cycle `loadSpec` rejects) has no shape.
  if (!isObject(schema) || seen.has(at)) return undefined;
  if (schema["oneOf"] !== undefined || schema["anyOf"] !== undefined || schema["not"] !== undefined) return undefined;
  const type = schema["type"];
  if (type !== undefined && type !== "object" && !(Array.isArray(type) && type.includes("object"))) return undefined;
  const properties: Record<string, string> = {};
  const required = new Set<string>();
  if (isObject(schema["properties"])) {
    for (const name of Object.keys(schema["properties"])) properties[name] = `${at}/properties${toPointer([name])}`;
  }
  if (Array.isArray(schema["required"])) for (const r of schema["required"]) if (typeof r === "string") required.add(r);
  let open = schema["additionalProperties"] !== false;
  if (Array.isArray(schema["allOf"])) {
    for (let i = 0; i < schema["allOf"].length; i++) {
      const part = shapeAt(registry, flavor, `${at}/allOf/${i}`, new Set(seen).add(at));
      if (!part) return undefined;
      Object.assign(properties, part.properties);
      for (const r of part.required) required.add(r);
      open = open && part.open;
    }
  }
  if (Object.keys(properties).length === 0) return undefined;
  return { properties, required: [...required].filter((r) => r in properties), open };
}

/** The pointer of the item schema when the schema at a pointer is an array, else undefined. */
export function arrayItems(registry: SchemaRegistry, flavor: SchemaFlavor, pointer: string): string | undefined {
  const { pointer: at, schema } = registry.resolve(flavor, pointer);
  if (!isObject(schema)) return undefined;
  const type = schema["type"];
  const isArray = type === "array" || (Array.isArray(type) && type.includes("array")) || (type === undefined && schema["items"] !== undefined);
  return isArray && isObject(schema["items"]) ? `${at}/items` : undefined;
}
