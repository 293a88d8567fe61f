import { parameterNotes } from "./parameter-examples.js";
import type { Catalog } from "./catalog.js";
import type { SchemaRegistry } from "./schema-registry.js";
import type { SchemaFlavor } from "../load/schema-flavor.js";
import type { Tool } from "./tool.js";
import { isObject, type Json } from "../json-object.js";

const KEEP = new Set([
  "type", "description", "enum", "const", "format", "default", "examples", "title",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
]);
const MAX_REF_REPEAT = 2;

/**
 * A self-contained copy of a schema for a model to read: `$ref`s inlined (recursion cut after two levels),
 * vendor keywords dropped, `readOnly` properties left out of request schemas.
 */
export function inlineSchema(registry: SchemaRegistry, flavor: SchemaFlavor, pointer: string): Json {
  return inline(registry, flavor, registry.at(flavor, pointer), new Map()) ?? {};
}

function inline(registry: SchemaRegistry, flavor: SchemaFlavor, node: unknown, refs: Map<string, number>): Json | undefined {
  if (node === true || node === undefined) return {};
  if (!isObject(node)) return undefined;
  if (typeof node["$ref"] === "string" && node["$ref"].startsWith("#")) {
    const ref = node["$ref"];
    const count = refs.get(ref) ?? 0;
    if (count >= MAX_REF_REPEAT) return { type: "object", description: "(recursive; omitted)" };
    const next = new Map(refs).set(ref, count + 1);
    const target = registry.at(flavor, decodeURIComponent(ref.slice(1)));
    const resolved = inline(registry, flavor, target, next) ?? {};
    if (typeof node["description"] === "string" && resolved["description"] === undefined) resolved["description"] = node["description"];
    return resolved;
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) if (KEEP.has(k)) out[k] = v;
  if (node["example"] !== undefined && out["examples"] === undefined) out["examples"] = [node["example"]];
  if (isObject(node["properties"])) {
    const props: Json = {};
    for (const [name, sub] of Object.entries(node["properties"])) {
      if (flavor === "request" && isObject(sub) && sub["readOnly"] === true) continue;
      if (flavor === "response" && isObject(sub) && sub["writeOnly"] === true) continue;
      props[name] = inline(registry, flavor, sub, refs) ?? {};
    }
    out["properties"] = props;
  }
  if (Array.isArray(node["required"])) {
    const props = isObject(out["properties"]) ? out["properties"] : undefined;
    const req = node["required"].filter((r) => typeof r === "string" && (!props || r in props));
    if (req.length > 0) out["required"] = req;
  }
  if (node["items"] !== undefined && !Array.isArray(node["items"])) out["items"] = inline(registry, flavor, node["items"], refs) ?? {};
  if (node["additionalProperties"] === false) out["additionalProperties"] = false;
  else if (isObject(node["additionalProperties"])) out["additionalProperties"] = inline(registry, flavor, node["additionalProperties"], refs) ?? {};
  for (const key of ["allOf", "anyOf", "oneOf"] as const) {
    const list = node[key];
    if (Array.isArray(list)) out[key] = list.map((s) => inline(registry, flavor, s, refs) ?? {});
  }
  return out;
}

/** The JSON Schema of a tool's arguments (parameters and body merged), self-contained, for models and docs. */
export function toolArgumentsSchema(catalog: Catalog, tool: Tool): Json {
  const registry = catalog.registry;
  const properties: Json = {};
  for (const p of tool.parameters) {
    const schema = p.schemaPointer !== undefined ? inlineSchema(registry, "request", p.schemaPointer) : { type: "string" };
    const description = [p.description, `(${p.in} parameter)`].filter(Boolean).join(" ");
    // A text parameter whose own examples are numbers (`amount`, in cents: 500) takes numbers as text: its examples say so.
    const examples = schema["type"] === "string" && schema["example"] === undefined && schema["examples"] === undefined ? parameterNotes(catalog, p).examples : [];
    if (!examples.every((e) => typeof e === "number")) examples.length = 0;
    properties[p.arg] = { ...schema, description: schema["description"] ?? description, ...(examples.length > 0 ? { examples } : {}) };
  }
  const body = tool.body;
  if (body?.mode === "flat") {
    for (const [name, pointer] of Object.entries(body.properties)) {
      const raw = registry.at("request", pointer);
      if (isObject(raw) && raw["readOnly"] === true) continue;
      properties[name] = inlineSchema(registry, "request", pointer);
    }
  } else if (body?.mode === "wrapped" && body.arg !== undefined) {
    const schema = body.schemaPointer !== undefined ? inlineSchema(registry, "request", body.schemaPointer) : {};
    properties[body.arg] = { ...schema, description: schema["description"] ?? body.description ?? `Request body (${body.mediaType})` };
  }
  const required = tool.required.filter((r) => r in properties);
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}

/** A tool in OpenAI's function-calling form: `{type: "function", function: {name, description, parameters}}`. */
export interface OpenAIFunctionTool {
  type: "function";
  function: { name: string; description: string; parameters: Json };
}

/** Every tool of a catalog in OpenAI's function-calling form. */
export function toOpenAIFunctions(catalog: Catalog): OpenAIFunctionTool[] {
  return catalog.tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: toolArgumentsSchema(catalog, tool) },
  }));
}
