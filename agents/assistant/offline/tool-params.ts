import { isObject, type Json } from "../../../specs/json-object.js";
import { identifierWords } from "../../../specs/words.js";
import { STOP_WORDS } from "../../language/lexicon/function-words.js";
import { VAGUE_NAME_LENGTH } from "../../language/lexicon/names.js";
import type { OfflineToolbox } from "./offline-types.js";
import type { OfflineToolSpec, Param } from "./offline-types.js";

export type { OfflineToolSpec, Param };

/*
 * The arguments of a tool as the offline model reads them: each parameter (nested object properties too) with
 * its path, schema, whether it is required, and the plain words a question uses for it.
 */



/** Where a parameter travels in the HTTP request. */
export type ParamLocation = "path" | "query" | "header" | "cookie" | "body";

/** The JSON type of a schema (the first non-null one of a union or a list of types). */
export function schemaType(schema: Json): string | undefined {
  const t = schema["type"];
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === "string" && x !== "null");
  if (isObject(schema["properties"])) return "object";
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = schema[key];
    if (Array.isArray(list)) {
      for (const s of list) {
        if (!isObject(s)) continue;
        const inner = schemaType(s);
        if (inner !== undefined && inner !== "null") return inner;
      }
    }
  }
  return undefined;
}

/** The first non-null alternative of a union schema, merged with its own keywords (one object per schema and toolbox: read-only). */
export function effectiveSchema(box: OfflineToolbox, schema: Json): Json {
  let out = box.effectiveSchemas.get(schema);
  if (!out) {
    out = computeEffectiveSchema(schema);
    box.effectiveSchemas.set(schema, out);
  }
  return out;
}

function computeEffectiveSchema(schema: Json): Json {
  for (const key of ["anyOf", "oneOf"]) {
    const list = schema[key];
    if (Array.isArray(list)) {
      const pick = list.find((s): s is Json => isObject(s) && s["type"] !== "null");
      if (pick) return { ...pick, ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== key)) };
    }
  }
  const all = schema["allOf"];
  if (Array.isArray(all)) {
    let merged: Json = { ...schema };
    delete merged["allOf"];
    for (const s of all) {
      if (isObject(s)) merged = { ...s, ...merged, properties: { ...(isObject(s["properties"]) ? s["properties"] : {}), ...(isObject(merged["properties"]) ? merged["properties"] : {}) } };
    }
    return merged;
  }
  return schema;
}

/** The allowed values of a schema (`enum`, or `const` as one value). */
export function enumOf(schema: Json): unknown[] | undefined {
  if (Array.isArray(schema["enum"])) return schema["enum"];
  if (schema["const"] !== undefined) return [schema["const"]];
  return undefined;
}

/** The schema's first example, if it has one. */
export function exampleOf(schema: Json): unknown {
  if (Array.isArray(schema["examples"]) && schema["examples"].length > 0) return schema["examples"][0];
  if (schema["example"] !== undefined) return schema["example"];
  return undefined;
}

/** Plain words for a parameter name: `bookId` -> `book id`, `min_price` -> `min price`, `q` -> `search words`. */
export function humanize(name: string): string {
  if (/^q$/i.test(name)) return "search words";
  const words = identifierWords(name);
  return words.length > 0 ? words.join(" ") : name.toLowerCase();
}

/** The parameters of an object schema at a path (remembered per schema and path by the toolbox). */
export function paramsOf(box: OfflineToolbox, schema: Json, path: string[] = []): Param[] {
  let byPath = box.paramLists.get(schema);
  if (!byPath) {
    byPath = new Map();
    box.paramLists.set(schema, byPath);
  }
  const key = path.join("\u0000");
  let out = byPath.get(key);
  if (!out) {
    out = computeParams(box, schema, path);
    byPath.set(key, out);
  }
  return out;
}

function computeParams(box: OfflineToolbox, schema: Json, path: string[]): Param[] {
  const s = effectiveSchema(box, schema);
  const props = isObject(s["properties"]) ? s["properties"] : {};
  const required = Array.isArray(s["required"]) ? s["required"].filter((r): r is string => typeof r === "string") : [];
  const parent = path.length > 0 ? path[path.length - 1] : undefined;
  const out = Object.entries(props)
    .filter((e): e is [string, Json] => isObject(e[1]))
    .map(([name, sub]) => ({
      name,
      path: [...path, name],
      schema: effectiveSchema(box, sub),
      required: required.includes(name),
      phrase: parent !== undefined ? `${plainName(name, sub)} of the ${humanize(parent)}` : plainName(name, sub),
      description: typeof sub["description"] === "string" ? sub["description"] : "",
    }));
  // Two parameters described alike ("from" and "to", both "ISO 4217 alphabetic currency code") are asked by name:
  // "the from currency code", "the to currency code".
  const alike = out.filter((p) => p.phrase !== humanize(p.name) && out.some((q) => q !== p && q.phrase === p.phrase));
  for (const p of alike) p.phrase = `${humanize(p.name)} ${p.phrase.split(/\s+/).slice(-2).join(" ")}`;
  return out;
}

/** Plain words for a parameter; short or vague names (`from`, `lat`) borrow the start of their description. */
function plainName(name: string, schema: Json): string {
  const plain = humanize(name);
  const description = typeof schema["description"] === "string" ? schema["description"] : "";
  const vague = name.length <= VAGUE_NAME_LENGTH || STOP_WORDS.has(name.toLowerCase());
  if (!vague || description === "") return plain;
  const head = description.split(/[.(;:,]| e\.g\./)[0]?.trim().toLowerCase() ?? "";
  const words = head.split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 6) return plain;
  return head.replace(/^(the|a|an) /, "");
}

/** Where a parameter goes, as the tool's schema says it ("... (path parameter)"), or by a header-like name. */
export function paramLocation(p: Param): ParamLocation {
  const m = /\((path|query|header|cookie) parameter\)\s*$/.exec(p.description);
  if (m) return m[1] as ParamLocation;
  if (p.path.length === 1 && (/^[A-Z][A-Za-z0-9]*(-[A-Z][A-Za-z0-9]*)+$/.test(p.name) || /^x-/i.test(p.name))) return "header";
  return "body";
}

/** The object schema of an array's items, when its items are objects. */
export function objectItems(box: OfflineToolbox, schema: Json): Json | undefined {
  const items = schema["items"];
  if (!isObject(items)) return undefined;
  const eff = effectiveSchema(box, items);
  return schemaType(eff) === "object" ? eff : undefined;
}

/** Every non-container parameter, nested properties included (two levels down). */
export function leafParams(box: OfflineToolbox, schema: Json, path: string[] = [], depth = 0): Param[] {
  const out: Param[] = [];
  for (const p of paramsOf(box, schema, path)) {
    const type = schemaType(p.schema);
    const items = type === "array" ? objectItems(box, p.schema) : undefined;
    if (type === "object" && depth < 2) out.push(...leafParams(box, p.schema, p.path, depth + 1));
    else if (items && depth < 2) out.push(...leafParams(box, items, p.path, depth + 1));
    else out.push(p);
  }
  return out;
}

/** A required parameter under an optional parent: the same parameter, not required (one copy per parameter). */
export function optionalCopy(box: OfflineToolbox, p: Param): Param {
  let q = box.optionalCopies.get(p);
  if (!q) {
    q = { ...p, required: false };
    box.optionalCopies.set(p, q);
  }
  return q;
}
