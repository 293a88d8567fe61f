import { createHash } from "node:crypto";
import type { LoadedSpec } from "../load/loaded-spec.js";
import { SchemaRegistry } from "./schema-registry.js";
import { getAt, toPointer } from "../json-pointer.js";
import { objectShape } from "./object-properties.js";
import { htmlText } from "./html-text.js";
import type { BodyBinding, HttpMethod, ParameterBinding, ParameterLocation, Tool } from "./tool.js";
import { isObject, type Json } from "../json-object.js";
import { restateExamples } from "../synthesize/world/dated-examples.js";
import { replacePlaceholderExamples } from "../synthesize/world/placeholder-examples.js";

/** The HTTP methods, in the order operations are listed. */
export const HTTP_METHODS: readonly HttpMethod[] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every operation of a spec as a tool, with lookup by name. */
export interface Catalog {
  spec: LoadedSpec;
  registry: SchemaRegistry;
  /** The API's title (`info.title`). */
  title: string;
  tools: Tool[];
  /** The tool of a name, if any. */
  get(name: string): Tool | undefined;
}

const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;

/** A model-safe tool name (`^[a-zA-Z0-9_-]{1,64}$`) from an operationId, or from method and path. */
export function toolNameFor(method: HttpMethod, path: string, operationId?: string): string {
  let base = (operationId ?? "").replace(/[^a-zA-Z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
  if (base === "") {
    const segments = path
      .split("/")
      .filter((s) => s !== "")
      .map((s) => s.replace(/[{}]/g, "").replace(/[^a-zA-Z0-9]+/g, "_").replace(/^_+|_+$/g, ""))
      .filter((s) => s !== "");
    base = [method, ...segments].join("_");
  }
  if (base.length > MAX_NAME) {
    const hash = createHash("sha256").update(`${method} ${path} ${operationId ?? ""}`).digest("hex").slice(0, 8);
    base = `${base.slice(0, MAX_NAME - 9)}_${hash}`;
  }
  return base;
}

function uniqueName(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) {
    const suffix = `_${i}`;
    const candidate = name.slice(0, MAX_NAME - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Follows a document-internal `$ref` (parameters, request bodies, responses); returns node and pointer. */
export function derefNode(doc: unknown, node: unknown, pointer: string): { node: unknown; pointer: string } {
  const seen = new Set<string>();
  let current = node;
  let at = pointer;
  while (isObject(current) && typeof current["$ref"] === "string") {
    const ref = current["$ref"];
    if (!ref.startsWith("#") || seen.has(ref)) break;
    seen.add(ref);
    at = decodeURIComponent(ref.slice(1));
    current = getAt(doc, at);
  }
  return { node: current, pointer: at };
}

/** The preferred media type of a content map: JSON first, then `+json`, then any. */
export function pickMediaType(content: unknown): string | undefined {
  if (!isObject(content)) return undefined;
  const types = Object.keys(content);
  return (
    types.find((t) => /^application\/json\b/i.test(t)) ??
    types.find((t) => /[/+]json\b/i.test(t)) ??
    types.find((t) => /^application\/x-www-form-urlencoded/i.test(t)) ??
    types[0]
  );
}

function describe(op: Json): string {
  const summary = typeof op["summary"] === "string" ? htmlText(op["summary"]).trim() : "";
  const description = typeof op["description"] === "string" ? htmlText(op["description"]).trim() : "";
  let text = summary;
  // A summary that ends its own sentence ("Retrieve the pricing.") is not given a second full stop.
  if (description !== "" && description !== summary) text = text === "" ? description : /[.!?;:]$/.test(text) ? `${text} ${description}` : `${text}. ${description}`;
  text = text.replace(/\s+/g, " ");
  return text.length > MAX_DESCRIPTION ? text.slice(0, MAX_DESCRIPTION - 1) + "…" : text;
}

/** The separator of an array parameter's items when they travel as one string (see `ParameterBinding.delimiter`). */
function delimiterOf(style: string, explode: boolean, collectionFormat: unknown): string | undefined {
  // Swagger 2.0 `tsv` has no OpenAPI 3 style: the converter keeps it as `x-collectionFormat`.
  if (collectionFormat === "tsv") return "\t";
  if (style === "spaceDelimited") return " ";
  if (style === "pipeDelimited") return "|";
  if (style === "simple" || (style === "form" && !explode)) return ",";
  return undefined;
}

function isArraySchema(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const type = schema["type"];
  return type === "array" || (Array.isArray(type) && type.includes("array") && !type.includes("string"));
}

function collectParameters(doc: Json, registry: SchemaRegistry, pathItem: Json, op: Json, pathPointer: string, opPointer: string): ParameterBinding[] {
  const byKey = new Map<string, ParameterBinding>();
  const add = (list: unknown, listPointer: string): void => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, i) => {
      const { node, pointer } = derefNode(doc, raw, `${listPointer}/${i}`);
      if (!isObject(node) || typeof node["name"] !== "string") return;
      const location = node["in"];
      if (location !== "path" && location !== "query" && location !== "header" && location !== "cookie") return;
      if (location === "header" && /^(accept|content-type|authorization)$/i.test(node["name"])) return;
      let schemaPointer: string | undefined;
      if (isObject(node["schema"])) schemaPointer = `${pointer}/schema`;
      else if (isObject(node["content"])) {
        const mt = pickMediaType(node["content"]);
        if (mt !== undefined) schemaPointer = `${pointer}/content${toPointer([mt])}/schema`;
      }
      const style = typeof node["style"] === "string" ? node["style"] : location === "query" || location === "cookie" ? "form" : "simple";
      const explode = typeof node["explode"] === "boolean" ? node["explode"] : style === "form";
      const delimiter = schemaPointer !== undefined && isArraySchema(registry.resolve("request", schemaPointer).schema) ? delimiterOf(style, explode, node["x-collectionFormat"]) : undefined;
      const binding: ParameterBinding = {
        arg: node["name"],
        name: node["name"],
        in: location as ParameterLocation,
        required: location === "path" ? true : node["required"] === true,
        style,
        explode,
        ...(delimiter !== undefined ? { delimiter } : {}),
        ...(typeof node["description"] === "string" ? { description: node["description"] } : {}),
        ...(schemaPointer !== undefined ? { schemaPointer } : {}),
      };
      byKey.set(`${location}:${node["name"]}`, binding);
    });
  };
  add(pathItem["parameters"], `${pathPointer}/parameters`);
  add(op["parameters"], `${opPointer}/parameters`);
  const params = [...byKey.values()];
  // Two parameters may share a name in different places: the later ones get `<in>_<name>`.
  const seen = new Set<string>();
  for (const p of params) {
    if (seen.has(p.arg)) p.arg = `${p.in}_${p.name}`;
    seen.add(p.arg);
  }
  return params;
}

function bindBody(doc: Json, registry: SchemaRegistry, op: Json, opPointer: string, params: ParameterBinding[]): BodyBinding | undefined {
  if (op["requestBody"] === undefined) return undefined;
  const { node, pointer } = derefNode(doc, op["requestBody"], `${opPointer}/requestBody`);
  if (!isObject(node)) return undefined;
  const mediaType = pickMediaType(node["content"]) ?? "application/json";
  const media = isObject(node["content"]) ? node["content"][mediaType] : undefined;
  const schemaPointer = isObject(media) && isObject(media["schema"]) ? `${pointer}/content${toPointer([mediaType])}/schema` : undefined;
  const required = node["required"] === true;
  const description = typeof node["description"] === "string" ? node["description"] : undefined;
  const argNames = new Set(params.map((p) => p.arg));
  const structured = /json|x-www-form-urlencoded|multipart\/form-data/i.test(mediaType);
  const flat = schemaPointer !== undefined && structured ? objectShape(registry, "request", schemaPointer) : undefined;
  if (flat && Object.keys(flat.properties).every((name) => !argNames.has(name))) {
    return {
      mediaType,
      required,
      mode: "flat",
      properties: flat.properties,
      requiredProperties: required ? flat.required : [],
      ...(schemaPointer !== undefined ? { schemaPointer } : {}),
      ...(description !== undefined ? { description } : {}),
    };
  }
  let arg = "body";
  while (argNames.has(arg)) arg = `request_${arg}`;
  return {
    mediaType,
    required,
    mode: "wrapped",
    arg,
    properties: {},
    requiredProperties: [],
    ...(schemaPointer !== undefined ? { schemaPointer } : {}),
    ...(description !== undefined ? { description } : {}),
  };
}

function securityOf(doc: Json, op: Json): string[][] {
  const reqs = Array.isArray(op["security"]) ? op["security"] : Array.isArray(doc["security"]) ? doc["security"] : [];
  return reqs.filter(isObject).map((r) => Object.keys(r));
}

/** Builds the catalog of a loaded spec: one tool per operation, in document order. */
export function buildCatalog(spec: LoadedSpec): Catalog {
  const doc = spec.document as unknown as Json;
  // The spec's examples as of the simulated today (what they say already happened, happened by then).
  restateExamples(doc);
  // Placeholders where a value goes (`email: XXXXXXXXXXX`, `url: <Webhook URL>`) are values of their kind.
  replacePlaceholderExamples(doc);
  const registry = SchemaRegistry.of(spec);
  const tools: Tool[] = [];
  const taken = new Set<string>();
  const paths = isObject(doc["paths"]) ? doc["paths"] : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    // A path item may be a `$ref` to another one: its operations and parameters are found (and pointed at) there.
    const { node: pathItem, pointer: pathPointer } = derefNode(doc, rawItem, toPointer(["paths", path]));
    if (!isObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const op = pathItem[method];
      if (!isObject(op)) continue;
      const opPointer = `${pathPointer}/${method}`;
      const operationId = typeof op["operationId"] === "string" && op["operationId"].trim() !== "" ? op["operationId"] : undefined;
      const name = uniqueName(toolNameFor(method, path, operationId), taken);
      taken.add(name);
      const parameters = collectParameters(doc, registry, pathItem, op, pathPointer, opPointer);
      const body = bindBody(doc, registry, op, opPointer, parameters);
      const required = parameters.filter((p) => p.required).map((p) => p.arg);
      if (body?.mode === "flat") required.push(...body.requiredProperties);
      if (body?.mode === "wrapped" && body.required && body.arg !== undefined) required.push(body.arg);
      tools.push({
        name,
        description: describe(op) || `${method.toUpperCase()} ${path}`,
        operation: { ...(operationId !== undefined ? { operationId } : {}), method, path, pointer: opPointer },
        parameters,
        ...(body ? { body } : {}),
        required,
        responses: isObject(op["responses"]) ? Object.keys(op["responses"]) : [],
        tags: Array.isArray(op["tags"]) ? op["tags"].filter((t): t is string => typeof t === "string") : [],
        security: securityOf(doc, op),
        deprecated: op["deprecated"] === true,
      });
    }
  }
  const byName = new Map(tools.map((t) => [t.name, t]));
  const info = isObject(doc["info"]) ? doc["info"] : {};
  return {
    spec,
    registry,
    title: typeof info["title"] === "string" ? info["title"] : "API",
    tools,
    get: (name) => byName.get(name),
  };
}
