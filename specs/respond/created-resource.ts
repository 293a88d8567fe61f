import { arrayItems, objectShape, type ObjectShape } from "../catalog/object-properties.js";
import { singular } from "../words.js";
import type { ResponseContext } from "./responder.js";
import { deriveSeed } from "../seed.js";
import { synthesize } from "../synthesize/synthesize.js";
import { cloneJson } from "../synthesize/synthesis-rules.js";
import { isObject, type Json } from "../json-object.js";

/**
 * How a created resource is made from the request and the spec's answer (an example or a synthesized
 * body): the request's values win, nested objects as the request gave them (completed only with what the
 * schema requires), fields the client could have sent but did not take their defaults, and items that
 * point at other resources of the state (`bookId`) take those resources' shared fields (`title`).
 */

/** Fields that describe the object holding them, never copied from a referenced resource. */
const OWN_FIELD = /^(id|uuid|key|status|state)$|(^|_)id$|[a-z]Id$|At$|_at$|[dD]ate$|^(created|updated|modified)/;

/**
 * A request value (`value`) completed, where the response schema at `pointer` requires more, with the
 * answer's value at the same place (`base`; list items by position), else a synthesized one. Optional
 * fields the request left out are not added: a given object is replaced, not merged with the example.
 * Items of lists that hold an `xxxId` of a resource in another collection take that resource's fields
 * of the same name first.
 */
export function completeRequired(ctx: ResponseContext, pointer: string, value: unknown, base: unknown, inList = false, depth = 0): unknown {
  if (depth > 12) return value;
  const registry = ctx.catalog.registry;
  if (Array.isArray(value)) {
    const items = arrayItems(registry, "response", pointer);
    if (items === undefined) return value;
    const baseItems = Array.isArray(base) && base.length > 0 ? base : undefined;
    return value.map((el, i) => completeRequired(ctx, items, el, baseItems?.[i % baseItems.length], true, depth + 1));
  }
  if (!isObject(value)) return value;
  const shape = objectShape(registry, "response", pointer);
  if (!shape) return value;
  const out: Json = { ...value };
  if (inList) copyReferenced(ctx, shape, out);
  for (const k of shape.required) {
    if (k in out) continue;
    const at = shape.properties[k];
    if (isObject(base) && k in base) out[k] = cloneJson(base[k]);
    else if (at !== undefined) out[k] = synthesize(registry, "response", at, { seed: deriveSeed(ctx.seed, "required", k, depth) }).value;
  }
  for (const [k, v] of Object.entries(out)) {
    const at = shape.properties[k];
    if (at !== undefined && k in value && typeof v === "object" && v !== null) out[k] = completeRequired(ctx, at, v, isObject(base) ? base[k] : undefined, false, depth + 1);
  }
  return out;
}

/**
 * Copies into a list item the fields it shares with the resource its `xxxId` names (an order line's
 * `title` from the book `bookId`), where the item lacks them and the value fits the item's schema.
 * Only a resource already in the state counts: in its collection named like the field (`/books` for
 * `bookId`), else the only collection that has that id.
 */
function copyReferenced(ctx: ResponseContext, shape: ObjectShape, item: Json): void {
  for (const [field, ref] of Object.entries(item)) {
    const m = /^(.+?)(Id|_id)$/.exec(field);
    if (!m || (typeof ref !== "string" && typeof ref !== "number")) continue;
    const target = referenced(ctx, m[1] ?? "", String(ref));
    if (!target) continue;
    for (const [k, v] of Object.entries(target)) {
      const at = shape.properties[k];
      if (at === undefined || k in item || OWN_FIELD.test(k)) continue;
      if (ctx.catalog.registry.validatorAt("response", at)(v)) item[k] = cloneJson(v);
    }
  }
}

function referenced(ctx: ResponseContext, noun: string, id: string): Json | undefined {
  const found: Array<{ key: string; item: Json }> = [];
  for (const key of ctx.state.keys()) {
    const item = ctx.state.get(key, id);
    if (item) found.push({ key, item });
  }
  const named = found.find(({ key }) => singularOf(key.slice(key.lastIndexOf("/") + 1)).toLowerCase() === noun.replace(/_/g, "").toLowerCase());
  return named?.item ?? (found.length === 1 ? found[0]?.item : undefined);
}

function singularOf(word: string): string {
  return singular(word).replace(/[-_]/g, "");
}

/**
 * Settles the fields of a new resource that the client could have sent (the request body declares them)
 * but did not: the request schema's `default`; else, where the answer has a value, an empty list for a list,
 * `null` where the response allows it, or left out where the response does not require it; else the answer's value. A `status` with an enum nobody set
 * starts at the response schema's default, else its first value (a new order is `pending`, not the
 * example's `shipped`).
 */
export function settleOmitted(ctx: ResponseContext, responseShape: ObjectShape, resource: Json, requestBody: Json, idField: string): void {
  const registry = ctx.catalog.registry;
  const bodyPointer = ctx.call.tool.body?.schemaPointer;
  const requestShape = bodyPointer !== undefined ? objectShape(registry, "request", bodyPointer) : undefined;
  for (const [k, at] of Object.entries(responseShape.properties)) {
    if (k in requestBody || k === idField) continue;
    const sent = requestShape?.properties[k];
    const requestDefault = sent !== undefined ? defaultOf(registry.resolve("request", sent).schema) : undefined;
    const fits = registry.validatorAt("response", at);
    if (requestDefault !== undefined && fits(requestDefault)) {
      resource[k] = cloneJson(requestDefault);
      continue;
    }
    if (k === "status") {
      const start = initialStatus(registry.resolve("response", at).schema);
      if (start !== undefined && fits(start)) {
        resource[k] = start;
        continue;
      }
    }
    if (sent === undefined || !(k in resource)) continue;
    // A list the client could have filled and did not is empty (a new playlist given only a name has no tracks).
    if (Array.isArray(resource[k]) && fits([])) resource[k] = [];
    else if (fits(null)) resource[k] = null;
    else if (!responseShape.required.includes(k)) delete resource[k];
  }
}

function defaultOf(schema: unknown): unknown {
  return isObject(schema) ? schema["default"] : undefined;
}

function initialStatus(schema: unknown): unknown {
  if (!isObject(schema)) return undefined;
  if (schema["default"] !== undefined && schema["default"] !== null) return schema["default"];
  const values = Array.isArray(schema["enum"]) ? schema["enum"].filter((v) => v !== null) : [];
  return values[0];
}

