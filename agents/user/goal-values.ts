import { isObject } from "../../specs/json-object.js";
import { arrayItems, objectShape } from "../../specs/catalog/object-properties.js";
import type { SchemaRegistry } from "../../specs/catalog/schema-registry.js";
import type { Rng } from "../../specs/seed.js";

/*
 * Values as a person gives them: a structured value (a scene's action, an order's address, a passenger) says its
 * required fields and one or two of its optional ones, not every field the schema allows ("set the brightness to
 * 60", not "on yes, brightness 60, color temperature 4400, target temperature 19, mode heat, locked yes, ...").
 */

/** At most this many optional fields of one object are said. */
export const MAX_OPTIONAL_FIELDS = 2;

/**
 * The value without the optional fields a person would not mention: in every object (nested ones and list items
 * too), the required fields and one or two optional ones, drawn with `rng`. The schema comes from the registry at
 * `pointer` (request flavour); a value the schema says nothing about is kept as it is.
 */
export function asPersonSaysIt(registry: SchemaRegistry, pointer: string | undefined, value: unknown, rng: Rng, depth = 0): unknown {
  if (pointer === undefined || depth > 5) return value;
  if (Array.isArray(value)) {
    const items = arrayItems(registry, "request", pointer);
    return items === undefined ? value : value.map((v) => asPersonSaysIt(registry, items, v, rng, depth + 1));
  }
  if (!isObject(value)) return value;
  const shape = objectShape(registry, "request", pointer);
  if (!shape) return value;
  const keys = Object.keys(value);
  const required = keys.filter((k) => shape.required.includes(k) || shape.properties[k] === undefined);
  const optional = keys.filter((k) => !required.includes(k));
  const keep = new Set(required);
  if (optional.length > 0) {
    // One or two details, never none when nothing is required (an empty object says nothing).
    const count = Math.min(optional.length, required.length === 0 ? rng.int(1, MAX_OPTIONAL_FIELDS) : rng.int(0, MAX_OPTIONAL_FIELDS));
    const pool = [...optional];
    for (let i = 0; i < count; i++) {
      const k = pool.splice(rng.int(0, pool.length - 1), 1)[0];
      if (k !== undefined) keep.add(k);
    }
  }
  return Object.fromEntries(keys.filter((k) => keep.has(k)).map((k) => [k, asPersonSaysIt(registry, shape.properties[k], value[k], rng, depth + 1)]));
}
