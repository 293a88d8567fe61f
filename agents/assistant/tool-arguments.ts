import { parameterNotes } from "../../specs/catalog/parameter-examples.js";
import type { Catalog } from "../../specs/catalog/catalog.js";
import { getAt } from "../../specs/json-pointer.js";
import type { Tool } from "../../specs/catalog/tool.js";
import { isObject, type Json } from "../../specs/json-object.js";
import { identifierWords, singular } from "../../specs/words.js";

/** One argument of a tool as the offline user reasons about it: where it goes, its schema, examples and meaning. */
export interface ArgumentInfo {
  name: string;
  in: "path" | "query" | "header" | "cookie" | "body";
  required: boolean;
  /** The request schema of the argument, `$ref`s at its top followed. */
  schema: Json;
  /** JSON pointer of the argument's schema in the spec, when it has one. */
  pointer?: string;
  /** The main non-null type (`string`, `integer`, `array`...), if declared. */
  type?: string;
  format?: string;
  /** Allowed values (without `null`), when the schema (or its array items) is an enum. */
  enum?: unknown[];
  /** Example values from the parameter and its schema, in document order. */
  examples: unknown[];
  /** The parameter's or property's description (may be empty). */
  description: string;
  /** A whole request body passed as one argument. */
  wrappedBody: boolean;
  deprecated: boolean;
  readOnly: boolean;
  /**
   * For a path parameter that names a record above the operation's own (`{id}` of `/schools/{id}/sections`), the
   * noun of that record (`school`): the sections are the school's, the id is not theirs.
   */
  owner?: string;
}

const cache = new WeakMap<Tool, ArgumentInfo[]>();

function mainType(schema: Json): string | undefined {
  const t = schema["type"];
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === "string" && x !== "null");
  if (Array.isArray(schema["enum"])) {
    const first = schema["enum"].find((v) => v !== null);
    return first === undefined ? undefined : Array.isArray(first) ? "array" : typeof first === "object" ? "object" : typeof first === "number" ? (Number.isInteger(first) ? "integer" : "number") : typeof first;
  }
  if (isObject(schema["properties"])) return "object";
  if (schema["items"] !== undefined) return "array";
  return undefined;
}

function resolveSchema(catalog: Catalog, pointer: string | undefined): Json {
  if (pointer === undefined) return {};
  const { schema, pointer: at } = catalog.registry.resolve("request", pointer);
  if (!isObject(schema)) return {};
  // A lone allOf wrapper (`allOf: [$ref]`, common for adding a description) is looked through.
  const allOf = schema["allOf"];
  if (Array.isArray(allOf) && allOf.length === 1 && schema["properties"] === undefined && schema["type"] === undefined) {
    const inner = catalog.registry.resolve("request", `${at}/allOf/0`).schema;
    if (isObject(inner)) return { ...inner, ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "allOf")) };
  }
  return schema;
}

function schemaExamples(schema: Json): unknown[] {
  const out: unknown[] = [];
  if (schema["example"] !== undefined) out.push(schema["example"]);
  if (Array.isArray(schema["examples"])) out.push(...schema["examples"]);
  return out;
}

function enumOf(catalog: Catalog, schema: Json, pointer: string | undefined): unknown[] | undefined {
  if (Array.isArray(schema["enum"])) {
    const values = schema["enum"].filter((v) => v !== null);
    return values.length > 0 ? values : undefined;
  }
  if (pointer !== undefined && mainType(schema) === "array" && isObject(schema["items"])) {
    const at = catalog.registry.resolve("request", pointer).pointer;
    const items = resolveSchema(catalog, `${at}/items`);
    if (Array.isArray(items["enum"])) {
      const values = items["enum"].filter((v) => v !== null);
      return values.length > 0 ? values : undefined;
    }
  }
  return undefined;
}

/** An example that stands for a value rather than being one (`{{BLOCK_ID}}`, `<page_id>`, `YOUR_API_KEY`, `:id`): no user says it. */
export function isPlaceholder(example: unknown): boolean {
  return typeof example === "string" && /^(?:\{\{.*\}\}|<[^<>]+>|\$\{.*\}|:[a-z_]+|\[[A-Z_ ]+\]|(?:YOUR|MY)[_-][A-Z0-9_-]+)$/i.test(example.trim());
}

function info(catalog: Catalog, name: string, where: ArgumentInfo["in"], required: boolean, pointer: string | undefined, extra: { description?: string; examples?: unknown[]; deprecated?: boolean; wrappedBody?: boolean }): ArgumentInfo {
  const schema = resolveSchema(catalog, pointer);
  const type = mainType(schema);
  const en = enumOf(catalog, schema, pointer);
  const description = extra.description ?? (typeof schema["description"] === "string" ? schema["description"] : "");
  return {
    name,
    in: where,
    required,
    schema,
    ...(pointer !== undefined ? { pointer } : {}),
    ...(type !== undefined ? { type } : {}),
    ...(typeof schema["format"] === "string" ? { format: schema["format"] } : {}),
    ...(en !== undefined ? { enum: en } : {}),
    examples: [...(extra.examples ?? []), ...schemaExamples(schema)].filter((e) => !isPlaceholder(e)),
    description: description.replace(/\s+/g, " ").trim(),
    wrappedBody: extra.wrappedBody === true,
    deprecated: extra.deprecated === true || schema["deprecated"] === true,
    readOnly: schema["readOnly"] === true,
  };
}

/** The noun of the record a path parameter names when more of the path follows it (`/schools/{id}/sections` -> `school`). */
function ownerOf(path: string, name: string): string | undefined {
  const segments = path.split("/").filter((s) => s !== "");
  const at = segments.indexOf(`{${name}}`);
  if (at < 1 || at === segments.length - 1 || !segments.slice(at + 1).some((s) => !s.startsWith("{"))) return undefined;
  const noun = segments[at - 1] ?? "";
  return noun.startsWith("{") || !/^[A-Za-z][A-Za-z_-]*$/.test(noun) ? undefined : singular(identifierWords(noun).join(" "));
}

/** The arguments of a tool (parameters, then body properties or the wrapped body), with what the spec says of each. */
export function toolArguments(catalog: Catalog, tool: Tool): ArgumentInfo[] {
  const hit = cache.get(tool);
  if (hit) return hit;
  const out: ArgumentInfo[] = [];
  for (const p of tool.parameters) {
    const { examples, deprecated } = parameterNotes(catalog, p);
    const owner = p.in === "path" ? ownerOf(tool.operation.path, p.name) : undefined;
    out.push({ ...info(catalog, p.arg, p.in, p.required, p.schemaPointer, { ...(p.description !== undefined ? { description: p.description } : {}), examples, deprecated }), ...(owner !== undefined ? { owner } : {}) });
  }
  const body = tool.body;
  if (body?.mode === "flat") {
    for (const [name, pointer] of Object.entries(body.properties)) {
      out.push(info(catalog, name, "body", body.requiredProperties.includes(name), pointer, {}));
    }
  } else if (body?.mode === "wrapped" && body.arg !== undefined) {
    const media = body.schemaPointer !== undefined ? getAt(catalog.spec.document as unknown, body.schemaPointer.replace(/\/schema$/, "")) : undefined;
    const examples: unknown[] = [];
    if (isObject(media)) {
      if (media["example"] !== undefined) examples.push(media["example"]);
      if (isObject(media["examples"])) for (const ex of Object.values(media["examples"])) if (isObject(ex) && ex["value"] !== undefined) examples.push(ex["value"]);
    }
    out.push(info(catalog, body.arg, "body", body.required, body.schemaPointer, { ...(body.description !== undefined ? { description: body.description } : {}), examples, wrappedBody: true }));
  }
  cache.set(tool, out);
  return out;
}
