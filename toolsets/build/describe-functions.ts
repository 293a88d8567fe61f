import type { Catalog } from "../../specs/catalog/catalog.js";
import { getAt } from "../../specs/json-pointer.js";
import { selectResponse } from "../../specs/call/select-response.js";
import { inlineSchema, toolArgumentsSchema } from "../../specs/catalog/tool-schema.js";
import type { Tool } from "../../specs/catalog/tool.js";
import { asSentence, joinSentences, plainText } from "../plain-text.js";
import { isObject, type Json } from "../../specs/json-object.js";

const MAX_TEXT = 400;

/** Spec text (Markdown, HTML) as plain text on one line, at most `max` characters. */
function clean(text: string, max = MAX_TEXT): string {
  const t = plainText(text);
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
}

const sentence = asSentence;

function docText(node: unknown, key: string): string {
  return isObject(node) && typeof node[key] === "string" ? plainText(node[key]) : "";
}

/**
 * What an operation does, in plain text: its summary and description as sentences (the description alone
 * when it repeats the summary), else the catalog's description (`GET /path`).
 */
export function operationText(catalog: Catalog, tool: Tool): string {
  const op = getAt(catalog.spec.document as unknown, tool.operation.pointer);
  const summary = docText(op, "summary");
  const description = docText(op, "description");
  const bare = (t: string): string => t.replace(/[.!?…\s]+$/, "").toLowerCase();
  if (summary === "" && description === "") return clean(tool.description);
  if (summary === "" || bare(description).startsWith(bare(summary))) return description;
  if (description === "" || bare(summary).startsWith(bare(description))) return summary;
  return joinSentences(summary, description);
}

/** An operation in a few words: its summary, else the first sentence of its description. */
export function operationSummary(catalog: Catalog, tool: Tool): string {
  const op = getAt(catalog.spec.document as unknown, tool.operation.pointer);
  const summary = docText(op, "summary");
  const text = summary !== "" ? summary : operationText(catalog, tool);
  return text.split(/(?<=[.!?])\s/)[0] ?? text;
}

function typeName(schema: Json): string {
  const t = schema["type"];
  const types = (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === "string" && x !== "null");
  if (types.length === 0) {
    if (isObject(schema["properties"])) return "Object";
    if (Array.isArray(schema["oneOf"]) || Array.isArray(schema["anyOf"])) return "Any";
    return "Any";
  }
  return types.map((x) => x.charAt(0).toUpperCase() + x.slice(1)).join(" or ");
}

/**
 * The shape of a schema in ToolAlpaca's NLDocumentation notation: `Object{id, tags: Array[String]}`,
 * nested up to a depth.
 */
export function describeStructure(schema: unknown, depth = 3): string {
  if (!isObject(schema)) return "Any";
  for (const key of ["allOf", "oneOf", "anyOf"] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0 && schema["properties"] === undefined) {
      const parts = list.map((s) => describeStructure(s, depth));
      return key === "allOf" ? parts.join(" & ") : parts.join(" | ");
    }
  }
  const type = typeName(schema);
  if (type === "Array") {
    const items = schema["items"];
    return `Array[${depth > 0 && isObject(items) ? describeStructure(items, depth - 1) : "Any"}]`;
  }
  const props = schema["properties"];
  if (isObject(props) && Object.keys(props).length > 0) {
    if (depth <= 0) return "Object";
    const fields = Object.entries(props).map(([name, sub]) => {
      if (!isObject(sub)) return name;
      const t = typeName(sub);
      return t === "Object" || t === "Array" ? `${name}: ${describeStructure(sub, depth - 1)}` : name;
    });
    return `Object{${fields.join(", ")}}`;
  }
  return type;
}

/** One argument documented as ToolAlpaca does: `Required. String. What it is. One of: [a, b].` */
function describeArgument(schema: Json, required: boolean): string {
  const parts: string[] = [required ? "Required." : "Optional.", `${typeName(schema) === "Any" ? "Any" : describeStructure(schema, 1)}.`];
  const description = typeof schema["description"] === "string" ? clean(schema["description"].replace(/\s*\((path|query|header|cookie) parameter\)$/, ""), 240) : "";
  if (description !== "") parts.push(sentence(description));
  if (Array.isArray(schema["enum"])) parts.push(`One of: [${schema["enum"].map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ")}].`);
  if (schema["default"] !== undefined) parts.push(`Default: ${JSON.stringify(schema["default"])}.`);
  const items = schema["items"];
  if (isObject(items) && Array.isArray(items["enum"])) parts.push(`Items one of: [${items["enum"].map(String).join(", ")}].`);
  return parts.join(" ");
}

/** The `Output:` line of a tool: the success response's description, media type and structure. */
function describeOutput(catalog: Catalog, tool: Tool): string {
  const selected = selectResponse(catalog, tool);
  const doc = catalog.spec.document as unknown as Json;
  let description = "";
  if (selected.pointer !== undefined) {
    const node = getAt(doc, selected.pointer);
    if (isObject(node) && typeof node["description"] === "string") description = clean(node["description"], 240);
  }
  const parts: string[] = [];
  if (description !== "") parts.push(sentence(description));
  if (selected.schemaPointer !== undefined) {
    const schema = inlineSchema(catalog.registry, "response", selected.schemaPointer);
    parts.push(`Format: ${selected.mediaType ?? "application/json"}. Structure: ${describeStructure(schema)}.`);
  } else if (selected.key === undefined || parts.length === 0) {
    parts.push(selected.status === 204 ? "No content." : `Status ${selected.status}, no body documented.`);
  }
  return parts.join(" ");
}

/**
 * Function documentation derived from a spec without a model, in the toolset format
 * (`1. Name: ...`, `Description:`, `Input: {...}`, `Output:`), with ToolAlpaca's NLDocumentation notation
 * for types and structures.
 */
export function describeFunctions(catalog: Catalog): string {
  return catalog.tools
    .map((tool, i) => {
      const args = toolArgumentsSchema(catalog, tool);
      const props = isObject(args["properties"]) ? args["properties"] : {};
      const required = new Set(Array.isArray(args["required"]) ? args["required"] : []);
      const input = Object.fromEntries(Object.entries(props).map(([name, s]) => [name, describeArgument(isObject(s) ? s : {}, required.has(name))]));
      return [
        `${i + 1}. Name: ${tool.name}`,
        `   Description: ${sentence(clean(operationText(catalog, tool)))}`,
        `   Input: ${JSON.stringify(input)}`,
        `   Output: ${describeOutput(catalog, tool)}`,
      ].join("\n");
    })
    .join("\n\n");
}

/** The one-line summaries of a catalog's operations, numbered as ToolAlpaca's introductions list features. */
export function featureList(catalog: Catalog, max = 12): string {
  const items = catalog.tools.slice(0, max).map((t, i) => `${i + 1}) ${clean(operationSummary(catalog, t), 120).replace(/[.]$/, "")}`);
  const more = catalog.tools.length > max ? ` and ${catalog.tools.length - max} more` : "";
  return `${items.join(". ")}${more}.`;
}
