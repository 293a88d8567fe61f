import { KEYWORDS, NON_GENERATIVE } from "./synthesis-rules.js";
import { isObject, type Json } from "../json-object.js";
/**
 * What a schema node says about the shape of its values, read without generating: its types, whether it says
 * nothing, whether two nodes generate alike, whether the branches of a union can overlap.
 */

/** The node at a pointer of the document. */
type NodeAt = (pointer: string) => unknown;

/** The types a node allows, stated or inferred from its keywords; undefined when nothing says. */
export function typesOf(node: Json): string[] | undefined {
  const t = node["type"];
  if (typeof t === "string") return [t];
  if (Array.isArray(t)) return t.every((x) => typeof x === "string") && t.length > 0 ? (t as string[]) : undefined;
  if (t !== undefined) return undefined;
  if (node["properties"] !== undefined || node["required"] !== undefined || node["additionalProperties"] !== undefined) return ["object"];
  if (node["items"] !== undefined || node["minItems"] !== undefined || node["maxItems"] !== undefined) return ["array"];
  if (node["pattern"] !== undefined || node["format"] !== undefined || node["minLength"] !== undefined || node["maxLength"] !== undefined) return ["string"];
  if (node["minimum"] !== undefined || node["maximum"] !== undefined || node["exclusiveMinimum"] !== undefined || node["exclusiveMaximum"] !== undefined || node["multipleOf"] !== undefined) {
    return ["number"];
  }
  return ["string"];
}

/** Whether a value's JSON type is one of these (an integer is a number). */
export function ofTypes(types: readonly string[], v: unknown): boolean {
  const actual = v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v;
  return types.some((t) => t === actual || (t === "number" && actual === "integer"));
}

/** A schema that says nothing about its value (beside a description): generated as a string. */
export function isBare(node: unknown): boolean {
  if (!isObject(node)) return false;
  for (const key in node) if (KEYWORDS.has(key) && key !== "description") return false;
  return true;
}

/** Two property schemas that generate alike: equal once descriptions, examples and vendor keys are set aside. */
export function sameShape(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return JSON.stringify(shapeOf(a)) === JSON.stringify(shapeOf(b));
}

function shapeOf(node: unknown): unknown {
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const key of Object.keys(node).sort()) if (KEYWORDS.has(key) && !NON_GENERATIVE.has(key)) out[key] = node[key];
  return out;
}

/**
 * Whether no value can match two of these schemas: each has one plain type, all different (integer counts
 * as number), or all are objects told apart by a required property with disjoint `enum`/`const` values.
 */
export function disjointBranches(schemas: readonly unknown[], nodeAt: NodeAt): boolean {
  const resolved: Json[] = [];
  for (let s of schemas) {
    for (let guard = 0; isObject(s) && typeof s["$ref"] === "string" && guard < 8; guard++) {
      const ref = s["$ref"];
      if (!ref.startsWith("#")) return false;
      s = nodeAt(ref === "#" ? "" : decodeURIComponent(ref.slice(1)));
    }
    if (!isObject(s)) return false;
    resolved.push(s);
  }
  const types = new Set<string>();
  let distinctTypes = true;
  for (const s of resolved) {
    const type = s["type"] === "integer" ? "number" : s["type"];
    if (typeof type !== "string" || types.has(type)) {
      distinctTypes = false;
      break;
    }
    types.add(type);
  }
  return distinctTypes || discriminated(resolved, nodeAt);
}

/** Objects with a common required property whose allowed values (`enum`/`const`, through `$ref`s) never overlap. */
function discriminated(schemas: readonly Json[], nodeAt: NodeAt): boolean {
  const first = schemas[0];
  if (first === undefined || !Array.isArray(first["required"])) return false;
  for (const name of first["required"]) {
    if (typeof name !== "string") continue;
    const seen = new Set<string>();
    let ok = true;
    for (const s of schemas) {
      const values = Array.isArray(s["required"]) && s["required"].includes(name) && isObject(s["properties"]) ? allowedValues(s["properties"][name], nodeAt) : undefined;
      if (values === undefined) {
        ok = false;
        break;
      }
      for (const v of values) {
        const key = JSON.stringify(v);
        if (seen.has(key)) ok = false;
        seen.add(key);
      }
      if (!ok) break;
    }
    if (ok) return true;
  }
  return false;
}

/** The values a schema allows by `enum` or `const` (through `$ref`s); undefined when it does not list them. */
function allowedValues(schema: unknown, nodeAt: NodeAt): unknown[] | undefined {
  for (let guard = 0; isObject(schema) && typeof schema["$ref"] === "string" && guard < 8; guard++) {
    const ref = schema["$ref"];
    if (!ref.startsWith("#/")) return undefined;
    schema = nodeAt(decodeURIComponent(ref.slice(1)));
  }
  if (!isObject(schema)) return undefined;
  if (schema["const"] !== undefined) return [schema["const"]];
  if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) return schema["enum"];
  return undefined;
}
