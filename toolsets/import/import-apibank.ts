import { fail, ok, type Result } from "../../specs/result.js";
import type { SpecProblem } from "../../specs/load/spec-problem.js";
import { databaseCollection, databaseFixtures } from "./apibank-fixtures.js";
import { APIBANK_EXTENSION } from "../apibank/apibank-responder.js";
import type { SearchableApi } from "../apibank/tool-searcher.js";
import type { ImportedToolset, ImportResult } from "./import-toolalpaca.js";
import { slugify } from "../slug.js";
import type { ToolsetFile } from "../toolset.js";
import { isObject, type Json } from "../../specs/json-object.js";

/** One API of API-Bank's `api_descriptions.json`. */
export interface ApiBankApi {
  name: string;
  description: string;
  input_parameters: Record<string, { type: string; description?: string }>;
  output_parameters: Record<string, { type: string; description?: string }>;
  database_name?: string | null;
  requires_token?: boolean;
  /** `apis` (levels 1 and 2) or `lv3_apis` (level 3). */
  api_set?: string;
  /** Set on a level-3 copy of an API of the main set. */
  duplicate_of?: string;
}

/** Options of {@link importApiBank}. */
export interface ApiBankImportOptions {
  /** API-Bank's initial databases by name (`init_database/<Name>.json`), for the fixtures and the accepted tokens. */
  databases?: Record<string, unknown>;
  /** Where the descriptions came from (in problems). */
  source?: string;
  /** One toolset per API set with all its APIs and databases (API-Bank's evaluation world) instead of one per database. */
  single?: boolean;
}

/** The API that hands out tokens: added to every toolset whose APIs need one, so each toolset is usable alone. */
const TOKEN_API = "GetUserToken";
const TOKEN_PARAM = "token";

/**
 * The JSON Schema of an API-Bank parameter type: Python names (`str`, `int`, `float`, `bool`, `list`, `dict`,
 * `json`), their JSON Schema spellings (`string`, `integer`, `number`, `boolean`, `object`), `list(str)`,
 * `List[str]` and `Union[A, B]`; an unknown type allows any value. With a description, the schema carries it.
 * The one converter of API-Bank types (the importer and the API-Bank evaluation world both use it).
 */
export function apiBankSchema(type: string, description?: string): Json {
  const schema = typeSchema(type);
  return description !== undefined ? { ...schema, description } : schema;
}

function typeSchema(type: string): Json {
  const t = type.trim();
  const list = /^list\((\w+)\)$/i.exec(t) ?? /^List\[(.+)\]$/.exec(t);
  if (list?.[1] !== undefined) return { type: "array", items: typeSchema(list[1]) };
  switch (t.toLowerCase()) {
    case "str":
    case "string":
      return { type: "string" };
    case "int":
    case "integer":
      return { type: "integer" };
    case "float":
    case "number":
      return { type: "number" };
    case "bool":
    case "boolean":
      return { type: "boolean" };
    case "list":
      return { type: "array", items: {} };
    case "dict":
    case "json":
    case "object":
      return { type: "object" };
    default: {
      const union = /^Union\[(.*)\]$/.exec(t);
      if (union?.[1] !== undefined) return { oneOf: union[1].split(/,(?![^[]*\])/).map((p) => typeSchema(p.trim())) };
      return {};
    }
  }
}

function isApi(v: unknown): v is ApiBankApi {
  return isObject(v) && typeof v["name"] === "string" && isObject(v["input_parameters"]) && isObject(v["output_parameters"]);
}

/**
 * An operation summary from an API-Bank description's first sentence, without the "This API ..." framing
 * and the inputs it lists (the offline user phrases requests from summaries; the description keeps them):
 * "This API queries the stock price of a given stock code and date" -> "Queries the stock price",
 * "The API for adding a agenda item includes content, time and location" -> "Adding a agenda item".
 */
export function summaryOf(firstSentence: string): string {
  const s = firstSentence
    .replace(/^(this is an? |this |the )?api (that |which )?(allows users to |for |to )?/i, "")
    .replace(/\s+includes\b.*$/i, "")
    .replace(/(,\s*|\s+)(given\b|based on\b|by\b|(of|for|from) (a|the) given\b).*$/i, "")
    .trim();
  return s === "" ? firstSentence : s.charAt(0).toUpperCase() + s.slice(1);
}

function firstSentence(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  const m = /^(.{10,160}?[.!?])(\s|$)/.exec(t);
  return (m?.[1] ?? t).replace(/[.]$/, "");
}

/**
 * `[Optional]` in a description marks an optional input, and so does "Only needed for the first call"
 * (ForgotPassword's two phases); everything else is required.
 */
function isOptional(description: string | undefined): boolean {
  return /\[optional\]|\boptional\b|\bonly needed\b/i.test(description ?? "");
}

function cleanDescription(description: string | undefined): string {
  return (description ?? "").replace(/\[optional\]\s*/i, "").trim();
}

/** A scalar example for an input, from the fixtures of the toolset: the first item with a field of that name. */
function exampleFrom(fixtures: Record<string, Json[]>, name: string, schema: Json): unknown {
  for (const items of Object.values(fixtures)) {
    for (const item of items) {
      const v = item[name];
      if (v === undefined || v === null) continue;
      if (schema["type"] === "string" && typeof v === "string") return v;
      if ((schema["type"] === "number" || schema["type"] === "integer") && typeof v === "number") return v;
      if (schema["type"] === "boolean" && typeof v === "boolean") return v;
      if (schema["type"] === "array" && Array.isArray(v)) return v;
    }
  }
  return undefined;
}

interface Group {
  key: string;
  apis: ApiBankApi[];
  databases: string[];
}

/** APIs grouped by database (one toolset per database); those without one by API set (`utilities`, `level-3`). */
function groupApis(apis: ApiBankApi[]): Group[] {
  const groups = new Map<string, Group>();
  for (const api of apis) {
    const key = api.database_name ?? (api.api_set === "lv3_apis" ? "Level-3" : "Utilities");
    let g = groups.get(key);
    if (!g) {
      g = { key, apis: [], databases: api.database_name ? [api.database_name] : [] };
      groups.set(key, g);
    }
    if (!g.apis.some((a) => a.name === api.name)) g.apis.push(api);
  }
  return [...groups.values()];
}

/** The schema of a raw single output: its type, or any scalar for a scalar (ForgotPassword answers 970420 or "success"). */
function rawOutputSchema(type: string): Json {
  const s = apiBankSchema(type);
  return ["string", "integer", "number", "boolean"].includes(String(s["type"])) ? { anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }] } : s;
}

/** An API as ToolSearcher returns it. */
function searchableOf(api: ApiBankApi): SearchableApi {
  return { name: api.name, description: api.description, input_parameters: api.input_parameters, output_parameters: api.output_parameters };
}

function operationFor(api: ApiBankApi, fixtures: Record<string, Json[]>, searchable: SearchableApi[] = []): { path: string; item: Json; schemas: Json } {
  const token = api.requires_token === true && api.input_parameters[TOKEN_PARAM] !== undefined;
  const properties: Json = {};
  const required: string[] = [];
  for (const [name, p] of Object.entries(api.input_parameters)) {
    if (token && name === TOKEN_PARAM) continue;
    const schema: Json = { ...apiBankSchema(p.type), description: cleanDescription(p.description) || name };
    const example = exampleFrom(fixtures, name, schema);
    if (example !== undefined) schema["example"] = example;
    properties[name] = schema;
    if (!isOptional(p.description)) required.push(name);
  }
  const outputs: Json = {};
  for (const [name, p] of Object.entries(api.output_parameters)) outputs[name] = { ...apiBankSchema(p.type), description: cleanDescription(p.description) || name };
  // API-Bank's APIs return their output raw ("success", 77.33333333333333, a record, a list) or as a dict of
  // their output parameters ({"token": ...}): both shapes are allowed.
  const single = Object.values(api.output_parameters).length === 1 ? rawOutputSchema((Object.values(api.output_parameters)[0] as { type: string }).type) : undefined;
  const schemas: Json = {
    [`${api.name}Response`]: {
      description: `The output of ${api.name}, as API-Bank returns it.`,
      anyOf: [{ type: "object", properties: outputs }, ...(single ? [single] : [])],
    },
  };
  // The summary is the first sentence and the description the rest, so a tool's text does not repeat itself.
  const op: Json = {
    operationId: api.name,
    summary: summaryOf(firstSentence(api.description)),
    description: api.description.replace(/\s+/g, " ").trim(),
    [APIBANK_EXTENSION]: { api: api.name, set: api.api_set === "lv3_apis" ? "lv3_apis" : "apis", ...(api.name === "ToolSearcher" ? { tools: searchable } : {}) },
  };
  if (token) {
    const tokenInput = api.input_parameters[TOKEN_PARAM];
    const credential = (fixtures[databaseCollection("Account")] ?? []).map((a) => a["token"]).find((t) => typeof t === "string");
    op["parameters"] = [
      {
        name: TOKEN_PARAM,
        in: "query",
        required: true,
        description: `${cleanDescription(tokenInput?.description) || "The user's token."} Get it with ${TOKEN_API}.`,
        schema: { type: "string", ...(credential !== undefined ? { example: credential } : {}) },
      },
    ];
    op["security"] = [{ [TOKEN_PARAM]: [] }];
  }
  if (Object.keys(properties).length > 0) {
    schemas[`${api.name}Request`] = { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
    op["requestBody"] = {
      required: required.length > 0,
      description: `The inputs of ${api.name}.`,
      content: { "application/json": { schema: { $ref: `#/components/schemas/${api.name}Request` } } },
    };
  }
  op["responses"] = {
    "200": { description: `The output of ${api.name}.`, content: { "application/json": { schema: { $ref: `#/components/schemas/${api.name}Response` } } } },
    "400": { description: "The API raised an exception (bad or missing inputs).", content: { "application/json": { schema: { $ref: "#/components/schemas/Exception" } } } },
    "500": { description: "A Python error escaped the API (as in API-Bank's implementation).", content: { "application/json": { schema: { $ref: "#/components/schemas/Exception" } } } },
    ...(token ? { "401": { description: "The token is missing or unknown.", content: { "application/json": { schema: { $ref: "#/components/schemas/Exception" } } } } } : {}),
  };
  return { path: `/${api.name}`, item: { post: op }, schemas };
}

function toolsetFor(group: Group, byName: Map<string, ApiBankApi>, databases: Record<string, unknown>, searchable: Record<string, SearchableApi[]>): ImportedToolset {
  const needsToken = group.apis.some((a) => a.requires_token === true);
  const tokenApi = byName.get(TOKEN_API);
  const apis = needsToken && tokenApi && !group.apis.includes(tokenApi) ? [...group.apis, tokenApi] : group.apis;
  const dbNames = [...group.databases, ...(needsToken && !group.databases.includes("Account") ? ["Account"] : [])];
  const fixtures: Record<string, Json[]> = {};
  for (const db of dbNames) {
    if (databases[db] === undefined) continue;
    const items = databaseFixtures(db, databases[db]);
    if (items.length > 0) fixtures[databaseCollection(db)] = items;
  }
  const paths: Json = {};
  const schemas: Json = {
    Exception: { type: "object", properties: { exception: { type: "string", description: "What went wrong, as API-Bank reports it." } }, required: ["exception"] },
  };
  for (const api of apis) {
    const op = operationFor(api, fixtures, searchable[api.api_set === "lv3_apis" ? "lv3_apis" : "apis"] ?? []);
    paths[op.path] = op.item;
    Object.assign(schemas, op.schemas);
  }
  const title = `API-Bank ${group.key.replace(/-/g, " ")}`;
  const names = apis.map((a) => a.name);
  const openapi: Json = {
    openapi: "3.0.3",
    info: {
      title,
      version: "1.0.0",
      description: `API-Bank's ${group.key} APIs (${names.join(", ")}), each a POST of its inputs as a JSON object.`,
    },
    servers: [{ url: "https://apibank.example.com" }],
    paths,
    components: {
      schemas,
      ...(needsToken
        ? { securitySchemes: { [TOKEN_PARAM]: { type: "apiKey", in: "query", name: TOKEN_PARAM, description: `API-Bank's user token, from ${TOKEN_API}; the APIs take it as their "token" argument.` } } }
        : {}),
    },
  };
  const tokens = (fixtures[databaseCollection("Account")] ?? []).map((a) => a["token"]).filter((t): t is string => typeof t === "string");
  const toolset: ToolsetFile = {
    name: title,
    category: "API-Bank",
    introduction: group.databases.length > 0 ? `API-Bank's ${group.key} APIs: ${names.join(", ")}.` : `API-Bank's ${group.key.toLowerCase()} APIs: ${names.join(", ")}.`,
    description: apis.map((a) => `${a.name}: ${a.description.replace(/\s+/g, " ").trim()}`).join(" "),
    link: "https://github.com/AlibabaResearch/DAMO-ConvAI/tree/main/api-bank",
    functions: "",
    openapi,
    // The APIs check tokens themselves (one GetUserToken or RegisterUser issued is as good as a starting one).
    ...(needsToken ? { auth: { type: "apiKey" as const, in: "query" as const, name: TOKEN_PARAM, credentials: tokens, checkedBy: "api" as const } } : {}),
    ...(Object.keys(fixtures).length > 0 ? { fixtures } : {}),
  };
  return { slug: `apibank-${slugify(group.key)}`, toolset };
}

/**
 * Turns API-Bank's API descriptions into toolsets: every API becomes an operation `POST /<ApiName>` whose
 * JSON body holds its inputs (types from API-Bank's Python type names; `[Optional]` inputs optional) and whose
 * 200 response holds its output parameters. APIs are grouped by database, one toolset each (those without one
 * into `utilities` and `level-3`); the databases become fixtures; APIs that need a token take it as the `token`
 * query parameter of an apiKey scheme (an argument, as in API-Bank), the toolset accepts the tokens of the
 * Account database, and `GetUserToken` is added so each toolset can sign in on its own. Level-3 copies of
 * main APIs (`duplicate_of`) are left out. The function documentation is left empty for the caller to derive
 * from the spec (see `describeFunctions`).
 */
export function importApiBank(data: unknown, options: ApiBankImportOptions = {}): Result<ImportResult, SpecProblem> {
  const source = options.source ?? "<api-bank>";
  if (!Array.isArray(data)) {
    return fail([{ file: source, pointer: "", severity: "error", code: "not-apibank", message: "API-Bank descriptions are a JSON array of {name, description, input_parameters, output_parameters, ...}" }]);
  }
  const skipped: SpecProblem[] = [];
  const apis: ApiBankApi[] = [];
  data.forEach((entry, i) => {
    if (!isApi(entry)) {
      skipped.push({ file: source, pointer: `/${i}`, severity: "error", code: "apibank-entry", message: "not an API-Bank API: needs name, input_parameters and output_parameters" });
      return;
    }
    // A level-3 copy of a main API (Calculator, ToolSearcher) stays: the level-3 toolset needs its own.
    apis.push({ ...entry, description: typeof entry.description === "string" ? entry.description : entry.name });
  });
  const byName = new Map<string, ApiBankApi>();
  for (const api of apis) if (api.api_set !== "lv3_apis" && !byName.has(api.name)) byName.set(api.name, api);
  const searchable = searchableBySet(apis);
  const groups = options.single ? singleGroups(apis) : groupApis(apis);
  const toolsets = groups.map((g) => toolsetFor(g, byName, options.databases ?? {}, searchable));
  return ok({ toolsets, skipped });
}

/** What each set's ToolSearcher searches: the set's other APIs, as API-Bank describes them. */
function searchableBySet(apis: readonly ApiBankApi[]): Record<string, SearchableApi[]> {
  const out: Record<string, SearchableApi[]> = { apis: [], lv3_apis: [] };
  for (const api of apis) if (api.name !== "ToolSearcher") (out[api.api_set === "lv3_apis" ? "lv3_apis" : "apis"] as SearchableApi[]).push(searchableOf(api));
  return out;
}

/** One group per API set with every database: API-Bank's evaluation world (`single`). */
function singleGroups(apis: readonly ApiBankApi[]): Group[] {
  const sets: Array<[string, string]> = [
    ["apis", "Level-1-2"],
    ["lv3_apis", "Level-3"],
  ];
  return sets
    .map(([set, key]) => {
      const list = apis.filter((a) => (a.api_set === "lv3_apis" ? "lv3_apis" : "apis") === set);
      return { key, apis: list, databases: [...new Set(list.flatMap((a) => (a.database_name ? [a.database_name] : [])))] };
    })
    .filter((g) => g.apis.length > 0);
}
