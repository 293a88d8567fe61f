import path from "node:path";
import { escapeSegment } from "../json-pointer.js";
import type { SchemaDialect } from "./loaded-spec.js";
import { followRefs, methodsOf, isRecord, type JsonRecord } from "../catalog/openapi-nodes.js";
import { repairSchemaDefects } from "./repair-schema-defects.js";
import type { SpecProblem } from "./spec-problem.js";
import type { SourceVersion } from "./spec-version.js";

type Warn = (pointer: string, code: string, message: string) => void;

function collector(file: string): { warnings: SpecProblem[]; warn: Warn } {
  const warnings: SpecProblem[] = [];
  return { warnings, warn: (pointer, code, message) => warnings.push({ file, pointer, severity: "warning", code, message }) };
}

/**
 * Repairs the defects that would stop swagger-parser from reading a document at all (a missing or
 * non-object `info`, a number as `info.version`, no `paths`), in place, before bundling.
 */
export function repairBeforeBundle(doc: JsonRecord, version: SourceVersion, file: string): SpecProblem[] {
  const { warnings, warn } = collector(file);
  const title = file.startsWith("<") ? "API" : path.basename(file).replace(/\.(json|ya?ml)$/i, "");
  if (!isRecord(doc["info"])) {
    doc["info"] = { title, version: "0" };
    warn("/info", "info-missing", "the document has no `info` object: added one with a title from the file name and version \"0\"");
  } else {
    const info = doc["info"];
    if (typeof info["title"] !== "string") {
      info["title"] = info["title"] === undefined || info["title"] === null ? title : String(info["title"]);
      warn("/info/title", "info-missing", "`info.title` missing or not a string: set to " + JSON.stringify(info["title"]));
    }
    if (typeof info["version"] !== "string") {
      info["version"] = info["version"] === undefined || info["version"] === null ? "0" : String(info["version"]);
      warn("/info/version", "info-version-type", "`info.version` missing or not a string: set to " + JSON.stringify(info["version"]));
    }
  }
  if (version !== "2.0" && doc["paths"] === undefined && (version === "3.0" || doc["webhooks"] === undefined)) {
    doc["paths"] = {};
    warn("/paths", "paths-missing", "the document has no `paths`: read as an API without operations");
  }
  repairPathsSections(doc, warn);
  return warnings;
}

/** Document-level sections that a hand-written (or generated) spec sometimes nests inside `paths` by mistake. */
const MISPLACED_SECTIONS = new Set(["components", "definitions", "parameters", "responses", "securityDefinitions", "securitySchemes", "schemas", "servers", "security", "tags", "info", "externalDocs"]);

/** HTTP methods and the other keys a path item may hold: a `paths` entry with any of them is a path item. */
const PATH_ITEM_KEYS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace", "$ref", "summary", "description", "servers", "parameters"]);

/**
 * Moves document sections found inside `paths` (`paths.components`, as some generated specs write them) to the
 * document root, before bundling, so the `$ref`s into them resolve: merged into the root section when one exists
 * (names already there are kept, and the clash is named), `schemas` and `securitySchemes` into `components`.
 */
function repairPathsSections(doc: JsonRecord, warn: Warn): void {
  const paths = doc["paths"];
  if (!isRecord(paths)) return;
  for (const key of Object.keys(paths)) {
    const value = paths[key];
    if (key.startsWith("/") || !MISPLACED_SECTIONS.has(key)) continue;
    // `paths.parameters` with HTTP methods inside is a path named without its slash, repaired later.
    if (isRecord(value) && Object.keys(value).some((k) => PATH_ITEM_KEYS.has(k) && k !== "parameters" && k !== "servers" && k !== "description")) continue;
    delete paths[key];
    const pointer = `/paths/${escapeSegment(key)}`;
    if (key === "schemas" || key === "securitySchemes") {
      const components = isRecord(doc["components"]) ? doc["components"] : (doc["components"] = {});
      const clashes = mergeSection(components, key, value);
      warn(pointer, "paths-section", `\`${key}\` inside \`paths\` is not a path: moved to \`components.${key}\`${clashes}`);
      continue;
    }
    if (key === "components" && isRecord(value)) {
      const components = isRecord(doc["components"]) ? doc["components"] : (doc["components"] = {});
      const clashes = Object.entries(value)
        .map(([section, entries]) => mergeSection(components, section, entries))
        .join("");
      warn(pointer, "paths-section", `\`components\` inside \`paths\` is not a path: moved to the document root${clashes}`);
      continue;
    }
    if (doc[key] === undefined) {
      doc[key] = value;
      warn(pointer, "paths-section", `\`${key}\` inside \`paths\` is not a path: moved to the document root`);
    } else {
      const clashes = isRecord(doc[key]) ? mergeSection(doc, key, value) : "";
      warn(pointer, "paths-section", `\`${key}\` inside \`paths\` is not a path: ${isRecord(doc[key]) ? `merged into the root \`${key}\`${clashes}` : `dropped (the root has its own \`${key}\`)`}`);
    }
  }
}

/** Merges `entries` into `owner[section]` (an object), keeping entries already there; returns a note naming the clashes. */
function mergeSection(owner: JsonRecord, section: string, entries: unknown): string {
  if (!isRecord(entries)) {
    if (owner[section] !== undefined) return `; its \`${section}\` was dropped (not an object)`;
    owner[section] = entries;
    return "";
  }
  const target = isRecord(owner[section]) ? owner[section] : (owner[section] = {});
  const kept: string[] = [];
  for (const [name, value] of Object.entries(entries)) {
    if (name in target) kept.push(name);
    else target[name] = value;
  }
  return kept.length > 0 ? `; ${section} ${kept.map((n) => JSON.stringify(n)).join(", ")} already defined at the root: the root's kept` : "";
}

/**
 * Repairs common real-world defects of a bundled OpenAPI 3.x document whose meaning is clear, in
 * place, and returns one warning (pointer + stable code) per repair. Structural errors are left for
 * `checkStructure`. The full list of codes is in `specs/README.md`.
 */
export function repairDefects(doc: JsonRecord, dialect: SchemaDialect, file: string): SpecProblem[] {
  const { warnings, warn } = collector(file);
  repairServers(doc, warn);
  repairRootSections(doc, warn);
  repairPathKeys(doc, warn);
  const repaired = new WeakSet<object>();
  const paths = doc["paths"];
  if (isRecord(paths)) {
    const operationIds = new Map<string, string>();
    for (const [template, item] of Object.entries(paths)) {
      if (!isRecord(item)) continue;
      repairPathItem(doc, template, item, `/paths/${escapeSegment(template)}`, operationIds, repaired, warn);
    }
  }
  repairComponents(doc, repaired, warn);
  return [...warnings, ...repairSchemaDefects(doc, dialect, file)];
}

// --- servers and Swagger 2.0 leftovers -------------------------------------------------------

function repairServers(doc: JsonRecord, warn: Warn): void {
  const servers = doc["servers"];
  if (typeof servers === "string") {
    doc["servers"] = [{ url: servers }];
    warn("/servers", "servers-shape", "`servers` must be a list of server objects: the URL was wrapped");
  } else if (isRecord(servers) && typeof servers["url"] === "string") {
    doc["servers"] = [servers];
    warn("/servers", "servers-shape", "`servers` must be a list of server objects: the object was wrapped in a list");
  } else if (Array.isArray(servers)) {
    servers.forEach((s, i) => {
      if (typeof s === "string") {
        servers[i] = { url: s };
        warn(`/servers/${i}`, "servers-shape", "a server must be an object with `url`: the URL was wrapped");
      }
    });
  }
  const host = doc["host"];
  const basePath = doc["basePath"];
  if (typeof host === "string" || typeof basePath === "string") {
    if (doc["servers"] === undefined) {
      const schemes = Array.isArray(doc["schemes"]) ? doc["schemes"].filter((s): s is string => typeof s === "string") : [];
      const base = typeof basePath === "string" ? basePath.replace(/\/$/, "") : "";
      doc["servers"] = typeof host === "string" ? (schemes.length > 0 ? schemes : ["https"]).map((s) => ({ url: `${s}://${host}${base}` })) : [{ url: base || "/" }];
    }
    warn("", "swagger2-fields", "Swagger 2.0 `host`/`basePath`/`schemes` in an OpenAPI 3 document: read as `servers`");
  }
  for (const key of ["host", "basePath", "schemes"]) delete doc[key];
}

/** Swagger 2.0 root sections in an OpenAPI 3 document, and where they live in 3.x. */
const ROOT_SECTIONS = [
  { key: "parameters", target: "parameters", code: "root-parameters" },
  { key: "definitions", target: "schemas", code: "root-definitions" },
  { key: "responses", target: "responses", code: "root-responses" },
  { key: "securityDefinitions", target: "securitySchemes", code: "root-security-definitions" },
] as const;

/** Moves referenced 2.0-style root sections into `components` (rewriting their `$ref`s); drops unreferenced ones. */
function repairRootSections(doc: JsonRecord, warn: Warn): void {
  for (const { key, target, code } of ROOT_SECTIONS) {
    const section = doc[key];
    if (section === undefined) continue;
    delete doc[key];
    if (!isRecord(section) || Object.keys(section).length === 0) {
      warn(`/${key}`, code, `\`${key}\` at the document root does not exist in OpenAPI 3: dropped`);
      continue;
    }
    const prefix = `#/${key}/`;
    const renames = new Map<string, string>();
    let referenced = false;
    rewriteRefs(doc, (ref) => {
      if (ref.startsWith(prefix)) referenced = true;
      return ref;
    });
    if (!referenced && key !== "securityDefinitions") {
      warn(`/${key}`, code, `\`${key}\` at the document root does not exist in OpenAPI 3 and nothing refers to it: dropped`);
      continue;
    }
    const components = isRecord(doc["components"]) ? doc["components"] : (doc["components"] = {});
    const store = isRecord(components[target]) ? components[target] : (components[target] = {});
    for (const [name, value] of Object.entries(section)) {
      let free = name;
      for (let n = 2; free in store; n++) free = `${name}_${n}`;
      store[free] = value;
      renames.set(escapeSegment(name), escapeSegment(free));
    }
    rewriteRefs(doc, (ref) => {
      if (!ref.startsWith(prefix)) return ref;
      const rest = ref.slice(prefix.length);
      const slash = rest.indexOf("/");
      const head = slash < 0 ? rest : rest.slice(0, slash);
      const tail = slash < 0 ? "" : rest.slice(slash);
      return `#/components/${target}/${renames.get(head) ?? head}${tail}`;
    });
    warn(`/${key}`, code, `\`${key}\` at the document root does not exist in OpenAPI 3: moved to \`components.${target}\``);
  }
}

function rewriteRefs(node: unknown, rewrite: (ref: string) => string): void {
  if (Array.isArray(node)) {
    for (const item of node) rewriteRefs(item, rewrite);
  } else if (isRecord(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") node[key] = rewrite(value);
      else rewriteRefs(value, rewrite);
    }
  }
}

// --- paths -----------------------------------------------------------------------------------

/** `pets/{id}` -> `/pets/{id}`, `/pets/:id` -> `/pets/{id}`, keeping the order of `paths`. */
function repairPathKeys(doc: JsonRecord, warn: Warn): void {
  const paths = doc["paths"];
  if (!isRecord(paths)) return;
  const entries = Object.entries(paths);
  if (entries.every(([template]) => template.startsWith("/") && !/\/:[A-Za-z_]/.test(template))) return;
  const rebuilt: JsonRecord = {};
  for (const [template, item] of entries) {
    let fixed = template;
    if (!fixed.startsWith("/") && !fixed.startsWith("x-")) {
      fixed = `/${fixed}`;
      warn(`/paths/${escapeSegment(template)}`, "path-leading-slash", `path ${JSON.stringify(template)} does not start with "/": read as ${JSON.stringify(fixed)}`);
    }
    if (/\/:[A-Za-z_]/.test(fixed)) {
      const before = fixed;
      fixed = fixed.replace(/\/:([A-Za-z_][A-Za-z0-9_.-]*)/g, "/{$1}");
      warn(`/paths/${escapeSegment(template)}`, "path-template-colon", `path ${JSON.stringify(before)} uses ":name" parameters: read as ${JSON.stringify(fixed)}`);
    }
    if (fixed !== template && fixed in paths) {
      warn(`/paths/${escapeSegment(template)}`, "path-duplicate", `path ${JSON.stringify(template)} repaired to ${JSON.stringify(fixed)}, which already exists: its operations were merged where the method was free`);
      const existing = rebuilt[fixed] ?? paths[fixed];
      if (isRecord(existing) && isRecord(item)) for (const [k, v] of Object.entries(item)) if (!(k in existing)) existing[k] = v;
      continue;
    }
    rebuilt[fixed] = item;
  }
  doc["paths"] = rebuilt;
}

interface ParamRef {
  /** The entry in a `parameters` list: inline or a `$ref`. */
  entry: unknown;
  /** The parameter itself (the `$ref` followed). */
  param: JsonRecord;
  /** Pointer of the parameter itself. */
  pointer: string;
  inline: boolean;
}

function resolveParams(doc: JsonRecord, list: unknown, at: string): ParamRef[] {
  if (!Array.isArray(list)) return [];
  const out: ParamRef[] = [];
  list.forEach((entry, i) => {
    const found = followRefs(doc, entry, `${at}/${i}`);
    if (found && isRecord(found.node)) out.push({ entry, param: found.node, pointer: found.pointer, inline: found.node === entry });
  });
  return out;
}

function templateNames(template: string): string[] {
  return [...template.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] ?? "").filter((n) => n !== "");
}

function repairPathItem(
  doc: JsonRecord,
  template: string,
  item: JsonRecord,
  itemPointer: string,
  operationIds: Map<string, string>,
  repaired: WeakSet<object>,
  warn: Warn,
): void {
  const names = new Set(templateNames(template));
  // Path-level parameters: body/formData moved into each operation, unused path parameters dropped.
  dropNamelessParams(doc, item, `${itemPointer}/parameters`, warn);
  const pathLevelBodies = takeBodyParams(doc, item, itemPointer);
  for (const p of resolveParams(doc, item["parameters"], `${itemPointer}/parameters`)) {
    repairParameter(p, repaired, warn);
  }
  dropUnusedPathParams(doc, item, `${itemPointer}/parameters`, names, new Set(), warn);
  const pathLevel = resolveParams(doc, item["parameters"], `${itemPointer}/parameters`);

  for (const method of methodsOf(item)) {
    const op = item[method];
    if (!isRecord(op)) continue;
    const opPointer = `${itemPointer}/${method}`;
    repairOperationId(op, opPointer, operationIds, warn);
    dropNamelessParams(doc, op, `${opPointer}/parameters`, warn);
    const bodies = [...pathLevelBodies, ...takeBodyParams(doc, op, opPointer)];
    if (bodies.length > 0) moveBodyParams(op, opPointer, bodies, warn);
    const own = resolveParams(doc, op["parameters"], `${opPointer}/parameters`);
    for (const p of own) repairParameter(p, repaired, warn);
    removeDuplicateParams(op, own, `${opPointer}/parameters`, warn);

    // Template parameters: declared at path or operation level, required, and only those in the template.
    const declared = new Set<string>();
    for (const p of [...pathLevel, ...resolveParams(doc, op["parameters"], `${opPointer}/parameters`)]) {
      if (p.param["in"] === "path" && typeof p.param["name"] === "string") declared.add(p.param["name"]);
    }
    const undeclared = [...names].filter((n) => !declared.has(n));
    dropUnusedPathParams(doc, op, `${opPointer}/parameters`, names, new Set(undeclared), warn);
    const nowDeclared = new Set<string>();
    for (const p of [...pathLevel, ...resolveParams(doc, op["parameters"], `${opPointer}/parameters`)]) {
      if (p.param["in"] === "path" && typeof p.param["name"] === "string") nowDeclared.add(p.param["name"]);
    }
    for (const name of names) {
      if (nowDeclared.has(name) || (op["parameters"] !== undefined && !Array.isArray(op["parameters"]))) continue;
      const list = Array.isArray(op["parameters"]) ? op["parameters"] : (op["parameters"] = []);
      list.push({ name, in: "path", required: true, schema: { type: "string" } });
      warn(opPointer, "path-param-undeclared", `path parameter {${name}} of ${JSON.stringify(template)} is not declared: declared as a required string`);
    }

    repairRequestBody(op["requestBody"], `${opPointer}/requestBody`, repaired, warn);
    const responses = op["responses"];
    if (responses === undefined || responses === null || (isRecord(responses) && Object.keys(responses).length === 0)) {
      op["responses"] = { default: { description: "Response" } };
      warn(opPointer, "operation-without-responses", "operation without `responses`: a default response was added");
    } else if (isRecord(responses)) {
      for (const [status, response] of Object.entries(responses)) {
        repairResponse(response, `${opPointer}/responses/${escapeSegment(status)}`, repaired, warn);
      }
    }
  }
}

function repairOperationId(op: JsonRecord, opPointer: string, seen: Map<string, string>, warn: Warn): void {
  const id = op["operationId"];
  if (id === undefined) return;
  if (typeof id !== "string" || id.trim() === "") {
    delete op["operationId"];
    warn(`${opPointer}/operationId`, "operation-id-invalid", `operationId ${JSON.stringify(id)} is not a non-empty string: removed`);
    return;
  }
  const first = seen.get(id);
  if (first === undefined) seen.set(id, opPointer);
  else warn(`${opPointer}/operationId`, "duplicate-operation-id", `operationId ${JSON.stringify(id)} is also used by ${first}: kept (tool names are made unique by the catalog)`);
}

/** Takes the 2.0-style `in: body` / `in: formData` parameters out of a parameter list. */
function takeBodyParams(doc: JsonRecord, owner: JsonRecord, ownerPointer: string): ParamRef[] {
  const list = owner["parameters"];
  const taken = resolveParams(doc, list, `${ownerPointer}/parameters`).filter((p) => p.param["in"] === "body" || p.param["in"] === "formData");
  if (taken.length === 0 || !Array.isArray(list)) return [];
  const entries = new Set(taken.map((p) => p.entry));
  owner["parameters"] = list.filter((e) => !entries.has(e));
  return taken;
}

const PARAM_SCHEMA_KEYS = [
  "type", "format", "items", "enum", "default", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "multipleOf",
];

/** The JSON Schema of a 2.0-style parameter: its `schema`, or its type keywords. */
function paramSchema(param: JsonRecord): JsonRecord {
  if (isRecord(param["schema"])) return param["schema"];
  const schema: JsonRecord = {};
  for (const key of PARAM_SCHEMA_KEYS) if (param[key] !== undefined) schema[key] = param[key];
  if (schema["type"] === "file") {
    schema["type"] = "string";
    schema["format"] = "binary";
  }
  return schema;
}

/** 2.0-style `in: body` / `in: formData` parameters in an OpenAPI 3 operation -> `requestBody`. */
function moveBodyParams(op: JsonRecord, opPointer: string, params: ParamRef[], warn: Warn): void {
  const hasBody = op["requestBody"] !== undefined;
  const body = params.find((p) => p.param["in"] === "body");
  const form = params.filter((p) => p.param["in"] === "formData");
  if (hasBody) {
    warn(`${opPointer}/parameters`, "parameter-in-body", "2.0-style body/formData parameters next to a `requestBody`: dropped");
    return;
  }
  if (body !== undefined) {
    const requestBody: JsonRecord = { content: { "application/json": { schema: paramSchema(body.param) } } };
    if (body.param["required"] === true) requestBody["required"] = true;
    if (typeof body.param["description"] === "string") requestBody["description"] = body.param["description"];
    op["requestBody"] = requestBody;
    warn(body.pointer, "parameter-in-body", `2.0-style \`in: body\` parameter ${JSON.stringify(body.param["name"])}: moved to \`requestBody\` (application/json)`);
    return;
  }
  const properties: JsonRecord = {};
  const required: string[] = [];
  let binary = false;
  for (const p of form) {
    const name = typeof p.param["name"] === "string" ? p.param["name"] : `field${Object.keys(properties).length + 1}`;
    const schema = paramSchema(p.param);
    if (schema["format"] === "binary") binary = true;
    if (typeof p.param["description"] === "string" && schema["description"] === undefined) schema["description"] = p.param["description"];
    properties[name] = schema;
    if (p.param["required"] === true) required.push(name);
  }
  const schema: JsonRecord = { type: "object", properties };
  if (required.length > 0) schema["required"] = required;
  const mediaType = binary ? "multipart/form-data" : "application/x-www-form-urlencoded";
  op["requestBody"] = { content: { [mediaType]: { schema } }, ...(required.length > 0 ? { required: true } : {}) };
  warn(`${opPointer}/parameters`, "parameter-in-body", `2.0-style \`in: formData\` parameters moved to \`requestBody\` (${mediaType})`);
}

/** One parameter: 2.0-style type keywords -> `schema`, no schema -> string, path parameters required. */
function repairParameter(p: ParamRef, repaired: WeakSet<object>, warn: Warn): void {
  const param = p.param;
  if (repaired.has(param)) return;
  repaired.add(param);
  if (param["schema"] === undefined && param["content"] === undefined) {
    const schema = paramSchema(param);
    const hadType = Object.keys(schema).length > 0;
    for (const key of PARAM_SCHEMA_KEYS) delete param[key];
    if (!hadType) schema["type"] = "string";
    param["schema"] = schema;
    const collection = param["collectionFormat"];
    if (typeof collection === "string") {
      delete param["collectionFormat"];
      if (collection === "multi") param["explode"] = true;
      else if (collection === "csv") param["explode"] = false;
    }
    warn(
      p.pointer,
      "parameter-schema-missing",
      hadType ? "2.0-style parameter type keywords moved into `schema`" : "parameter without `schema` or `content`: declared as a string",
    );
  }
  if (param["in"] === "path" && param["required"] !== true) {
    const was = param["required"] === undefined ? "has no `required`" : `is marked required: ${JSON.stringify(param["required"])}`;
    param["required"] = true;
    warn(p.pointer, "path-param-required", `path parameter ${JSON.stringify(param["name"])} ${was}: path parameters are always required`);
  }
}

/** Parameters named `""` (left over from API tools' exports) carry nothing: dropped. */
function dropNamelessParams(doc: JsonRecord, owner: JsonRecord, listPointer: string, warn: Warn): void {
  const list = owner["parameters"];
  if (!Array.isArray(list)) return;
  const nameless = resolveParams(doc, list, listPointer).filter((p) => typeof p.param["name"] === "string" && p.param["name"].trim() === "");
  if (nameless.length === 0) return;
  for (const p of nameless) warn(`${listPointer}/${list.indexOf(p.entry)}`, "parameter-name-empty", `parameter in ${String(p.param["in"])} with an empty name: dropped`);
  const drop = new Set(nameless.map((p) => p.entry));
  owner["parameters"] = list.filter((e) => !drop.has(e));
}

/** Removes a second declaration of the same parameter (name + location) in one list; the first wins. */
function removeDuplicateParams(op: JsonRecord, params: ParamRef[], listPointer: string, warn: Warn): void {
  const list = op["parameters"];
  if (!Array.isArray(list)) return;
  const seen = new Set<string>();
  const drop = new Set<unknown>();
  for (const p of params) {
    const where = String(p.param["in"]);
    const name = String(p.param["name"]);
    const key = `${where}:${where === "header" ? name.toLowerCase() : name}`;
    if (seen.has(key)) {
      drop.add(p.entry);
      warn(`${listPointer}/${list.indexOf(p.entry)}`, "duplicate-parameter", `parameter ${JSON.stringify(name)} in ${where} is declared twice: the first declaration is kept`);
    }
    seen.add(key);
  }
  if (drop.size > 0) op["parameters"] = list.filter((e) => !drop.has(e));
}

/**
 * Path parameters whose name is not in the template. When exactly one inline one is left and exactly
 * one template name is undeclared, it is that name misspelt: renamed. Otherwise dropped.
 */
function dropUnusedPathParams(doc: JsonRecord, owner: JsonRecord, listPointer: string, names: Set<string>, undeclared: Set<string>, warn: Warn): void {
  const list = owner["parameters"];
  if (!Array.isArray(list)) return;
  const unused = resolveParams(doc, list, listPointer).filter((p) => p.param["in"] === "path" && !names.has(String(p.param["name"])));
  if (unused.length === 0) return;
  const [only] = unused;
  const [target] = [...undeclared];
  if (unused.length === 1 && undeclared.size === 1 && only !== undefined && target !== undefined && only.inline) {
    warn(only.pointer, "path-param-renamed", `path parameter ${JSON.stringify(only.param["name"])} is not in the path template, whose {${target}} is undeclared: renamed to ${JSON.stringify(target)}`);
    only.param["name"] = target;
    return;
  }
  const drop = new Set(unused.map((p) => p.entry));
  for (const p of unused) {
    warn(`${listPointer}/${list.indexOf(p.entry)}`, "path-param-not-in-template", `path parameter ${JSON.stringify(p.param["name"])} does not occur in the path template: dropped`);
  }
  owner["parameters"] = list.filter((e) => !drop.has(e));
}

// --- request bodies and responses ------------------------------------------------------------

function repairRequestBody(body: unknown, pointer: string, repaired: WeakSet<object>, warn: Warn): void {
  if (!isRecord(body) || body["$ref"] !== undefined || repaired.has(body)) return;
  repaired.add(body);
  if (body["content"] === undefined && isRecord(body["schema"])) {
    body["content"] = { "application/json": { schema: body["schema"] } };
    delete body["schema"];
    warn(pointer, "request-body-schema-without-content", "`schema` directly on a request body: moved into `content: {application/json: {schema}}`");
  } else if (body["content"] === undefined) {
    body["content"] = { "application/json": { schema: {} } };
    warn(pointer, "request-body-without-content", "request body without `content`: read as a JSON body of any shape");
  }
}

function repairResponse(response: unknown, pointer: string, repaired: WeakSet<object>, warn: Warn): void {
  if (!isRecord(response) || response["$ref"] !== undefined || repaired.has(response)) return;
  repaired.add(response);
  if (typeof response["description"] !== "string") {
    const was = response["description"];
    response["description"] = was === undefined || was === null ? "Response" : String(was);
    warn(pointer, "response-description-missing", "response without a `description` (required): set to " + JSON.stringify(response["description"]));
  }
  const schema = response["schema"];
  if (schema !== undefined) {
    delete response["schema"];
    if (response["content"] === undefined && isRecord(schema)) {
      const media: JsonRecord = { schema };
      const examples = response["examples"];
      if (isRecord(examples) && examples["application/json"] !== undefined) {
        media["example"] = examples["application/json"];
        delete response["examples"];
      }
      response["content"] = { "application/json": media };
      warn(pointer, "response-schema-without-content", "2.0-style `schema` directly on a response: moved into `content: {application/json: {schema}}`");
    } else {
      warn(pointer, "response-schema-without-content", "2.0-style `schema` directly on a response that also has `content`: dropped");
    }
  }
}

function repairComponents(doc: JsonRecord, repaired: WeakSet<object>, warn: Warn): void {
  const components = doc["components"];
  if (!isRecord(components)) return;
  const responses = components["responses"];
  if (isRecord(responses)) {
    for (const [name, response] of Object.entries(responses)) repairResponse(response, `/components/responses/${escapeSegment(name)}`, repaired, warn);
  }
  const bodies = components["requestBodies"];
  if (isRecord(bodies)) {
    for (const [name, body] of Object.entries(bodies)) repairRequestBody(body, `/components/requestBodies/${escapeSegment(name)}`, repaired, warn);
  }
  const params = components["parameters"];
  if (isRecord(params)) {
    for (const [name, param] of Object.entries(params)) {
      if (isRecord(param) && param["$ref"] === undefined && param["in"] !== "body" && param["in"] !== "formData") {
        repairParameter({ entry: param, param, pointer: `/components/parameters/${escapeSegment(name)}`, inline: true }, repaired, warn);
      }
    }
  }
}
