import type { Catalog } from "../../catalog/catalog.js";
import type { Tool } from "../../catalog/tool.js";
import { schemaFields, valueFields, type SchemaField } from "../../catalog/schema-fields.js";
import { responseExamples } from "../response-examples.js";
import { resourceRoute } from "../../catalog/resource-routes.js";
import { selectedResponse } from "../response-cache.js";
import type { Binding, BindingMatch, EffectBinding, TotalBinding } from "./binding-types.js";
import { BOOKKEEPING_DATE, findBy, isDateField, ITEM_DATES, itemFields, listsOthersById, mainLists, norm, recordFields, snake } from "./response-fields.js";
import { todayBindings } from "./today-bindings.js";
import { spanArgOf } from "./span-args.js";
import { nounOfOperation } from "../world/entity-memory.js";
import { snakeName } from "../../snake-name.js";
import { singularNoun } from "../../singular-noun.js";

/**
 * Infers an operation's bindings from names, types and formats of its inputs and its success response:
 * equality (the same name, or an equivalent one: `city` -> `location.name`, `email` -> `user.email`, the id
 * parameter -> `id`), filters over list items, date and number ranges, searches, route ends, references to
 * other resources, action effects on a status and computed totals. Conservative: a binding is inferred only
 * where the names leave no doubt; a toolset declares the rest.
 */

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function singular(word: string): string {
  if (/ies$/.test(word)) return word.slice(0, -3) + "y";
  if (/(ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (/s$/.test(word) && !/ss$/.test(word)) return word.slice(0, -1);
  return word;
}

const CREDENTIAL = /token|secret|password|passwd|passphrase|api_?key|credential|signature|otp$|authorization|cookie|session/;
const PAGING = /^(limit|offset|page|page_?size|per_?page|size|count|max_?results|max|top|skip|start_?index|cursor|next|after_?cursor|page_?token|sort|sort_?by|order|order_?by|direction|dir|fields|include|expand|embed|format|callback|jsonp|pretty|verbose|debug|units?|lang|language|locale|accept_?language|display_?language|precision|version|v|mode|output|view|detail|details|zoom|hours|days|servings|timezone|tz)$/;
const SEARCH = /^(q|query|search|search_?query|search_?term|search_?string|keyword|keywords|term|terms|text_?query|phrase)$/;
const FROM_DATE = /^(from|start|start_?date|date_?from|from_?date|since|after|begin|start_?time|min_?date|earliest|date_?start|created_?after|updated_?after|published_?after)$/;
const TO_DATE = /^(to|end|end_?date|date_?to|to_?date|until|before|end_?time|max_?date|latest|date_?end|created_?before|updated_?before|published_?before)$/;
const SEARCH_FIELDS = ["name", "title", "symbol", "displayname", "headline", "label", "fullname", "localname", "city", "iatacode", "iata", "code", "ticker", "description", "summary", "text", "content", "keywords", "tags"];
const PLACE_PARENT = /^(location|place|city|geo|address|area|position|site|venue)$/;
const IDENTITY_PARENT = /^(user|account|profile|me|customer|member|person|owner|contact)$/;
/** Arguments that scope a whole answer (its country, currency, language, day): a nested record of the same field shares them. */
const SCOPE = /^(country|countrycode|countryiso|currency|currencycode|language|languagecode|lang|locale|date|day|year)$/;
const ECHO_PARENT = /^(query|request|params|parameters|search|filters|filter|criteria|input|args|arguments)$/;
const ORIGIN = ["from", "origin", "departureairport", "originairport", "source", "departurecode", "fromairport", "originlocationcode"];
const DESTINATION = ["to", "destination", "arrivalairport", "destinationairport", "arrivalcode", "toairport", "destinationlocationcode"];
const VERBS: ReadonlyArray<readonly [verb: RegExp, state: RegExp, word: string]> = [
  [/^cancel/, /cancel/, "cancelled"],
  [/^approve/, /approv/, "approved"],
  [/^archive/, /archiv/, "archived"],
  [/^unarchive/, /^(active|open|unarchived)/, "active"],
  [/^reject/, /reject/, "rejected"],
  [/^decline/, /declin/, "declined"],
  [/^confirm/, /confirm/, "confirmed"],
  [/^complete/, /complet/, "completed"],
  [/^close/, /closed/, "closed"],
  [/^reopen/, /^(open|reopen)/, "open"],
  [/^suspend/, /suspend/, "suspended"],
  [/^publish/, /publish/, "published"],
  [/^unpublish/, /^(unpublish|draft)/, "draft"],
  [/^refund/, /refund/, "refunded"],
  [/^accept/, /accept/, "accepted"],
  [/^deactivate/, /^(inactive|deactivat)/, "inactive"],
  [/^activate/, /^activ/, "active"],
  [/^disable/, /disabl/, "disabled"],
  [/^enable/, /enabl/, "enabled"],
  [/^pause/, /paus/, "paused"],
  [/^resume/, /^(active|resum|running)/, "active"],
  [/^ship/, /ship/, "shipped"],
  [/^deliver/, /deliver/, "delivered"],
  [/^withdraw/, /withdr/, "withdrawn"],
  [/^revoke/, /revok/, "revoked"],
  [/^block/, /block/, "blocked"],
  [/^unblock/, /^(unblock|active)/, "active"],
  [/^(lock)$/, /^lock/, "locked"],
  [/^unlock/, /unlock/, "unlocked"],
];

interface Input {
  /** The argument name (a path into the arguments for body fields). */
  arg: string;
  name: string;
  in: "path" | "query" | "body" | "header" | "cookie";
  schema: Json;
  lastPathParam: boolean;
}

/** Operations that search or look up whatever their method (`POST /search`, `POST /reverse`): their body holds filters. */
/** Arguments that name one country, and the fields (normalized, by preference) that say an answer's country. */
const COUNTRY_ARG = /^(country|countrycode|countryiso|countryiso2|countryalpha2)$/;
const COUNTRY_FIELDS = ["countrycode", "country", "countryiso", "countryiso2", "countryalpha2", "countryname", "countrydisplayname"];
const SEARCHING_OPERATION = /search|query|find|lookup|filter|reverse|geocod|autocomplete|suggest/i;

function inputsOf(catalog: Catalog, tool: Tool): Input[] {
  const out: Input[] = [];
  // The id parameter: the path's last segment (`/orders/{orderId}`), or the one an action follows (`/orders/{orderId}/cancel`).
  const action = /\{([^}]+)\}\/([^/{}]+)$/.exec(tool.operation.path);
  // In the last segment, its first parameter that is no file extension (`{record_id}.{format}`: `record_id`).
  const segment = tool.operation.path.slice(tool.operation.path.lastIndexOf("/") + 1);
  const named = /\}$/.test(segment) ? [...segment.matchAll(/(^|[^.])\{([^}]+)\}/g)].map((m) => m[2])[0] : undefined;
  const last = named ?? (action && tool.operation.method !== "get" && VERBS.some(([v]) => v.test(snake(action[2] ?? ""))) ? action[1] : undefined);
  for (const p of tool.parameters) {
    if (p.in === "header" || p.in === "cookie") continue;
    const schema = p.schemaPointer !== undefined ? catalog.registry.resolve("request", p.schemaPointer).schema : {};
    out.push({ arg: p.arg, name: p.name, in: p.in, schema: isObject(schema) ? schema : {}, lastPathParam: p.in === "path" && p.name === last });
  }
  if (tool.body?.mode === "flat") {
    for (const [name, pointer] of Object.entries(tool.body.properties)) {
      if (out.some((i) => i.arg === name)) continue;
      const schema = catalog.registry.resolve("request", pointer).schema;
      out.push({ arg: name, name, in: "body", schema: isObject(schema) ? schema : {}, lastPathParam: false });
    }
  }
  return out;
}

function isDateSchema(s: Json, name: string): boolean {
  if (s["type"] !== undefined && s["type"] !== "string") return false;
  const f = s["format"];
  if (f === "date" || f === "date-time") return true;
  if (typeof f === "string" || Array.isArray(s["enum"])) return false;
  if (typeof s["example"] === "string" && /^\d{4}-\d\d-\d\d/.test(s["example"])) return true;
  return /date|day/.test(snake(name)) || (typeof s["description"] === "string" && /\b(date|YYYY-MM-DD|ISO ?8601)\b/i.test(s["description"]) && !/currency/i.test(s["description"]));
}

function isNumeric(f: SchemaField): boolean {
  return f.type === "number" || f.type === "integer";
}

function isIataLike(s: Json, name: string): boolean {
  const pattern = typeof s["pattern"] === "string" ? s["pattern"] : "";
  const text = `${typeof s["description"] === "string" ? s["description"] : ""} ${name}`;
  return /\{3\}|\[A-Z\]\{3\}/.test(pattern) || s["maxLength"] === 3 || /iata|airport|origin|destination/i.test(text);
}

function matchFor(field: SchemaField, input: Input, filter = false): BindingMatch {
  if (field.list) return "contains";
  if (!filter) return isDateField(field) && isDateSchema(input.schema, input.name) ? "day" : "exact";
  if (isDateField(field) || isDateSchema(input.schema, input.name)) return "day";
  if (field.enum !== undefined || Array.isArray(input.schema["enum"])) return "exact";
  if (field.type === "string" && input.schema["type"] === "string" && !/(id|code|key|type|status|state|symbol|email|currency|country|language|lang|slug|iata|icao)$/.test(norm(input.name))) {
    return typeof input.schema["pattern"] === "string" ? "exact" : "contains";
  }
  return "exact";
}

/**
 * Whether a presentation-like argument (`language`, `format`, `units`) is a filter after all: the list's
 * items carry a field of its name (or its plural), and the argument names a locale or shares enum values
 * with that field (`listSources(language=pt)` -> every source's `language` is `pt`; `format=json` beside
 * an item `format: [hardcover, ebook]` stays presentation).
 */
function pagingFilters(input: Input, items: readonly SchemaField[]): boolean {
  const names = filterNames(input.name);
  const same = items.find((f) => names.includes(norm(f.name)) && !f.object);
  if (same === undefined) return false;
  if (/^(lang|language|locale|languages|locales)$/.test(norm(input.name))) return same.type === undefined || same.type === "string" || same.list;
  const argValues = Array.isArray(input.schema["enum"]) ? input.schema["enum"] : [];
  return argValues.length > 0 && same.enum !== undefined && argValues.every((v) => same.enum?.includes(v));
}

/** The plural forms of a normalized name (`diet` -> `diets`, `category` -> `categories`, `box` -> `boxes`). */
function pluralsOf(n: string): string[] {
  return [`${n}s`, `${n}es`, ...(n.endsWith("y") ? [`${n.slice(0, -1)}ies`] : [])];
}

/** Filter names an argument may match in list items besides its own (`region` -> `continent`, `diet` -> `diets`). */
function filterNames(name: string): string[] {
  const n = norm(name);
  const single = norm(singular(snake(name)));
  const out = [n, single, ...pluralsOf(single)];
  if (n === "region") out.push("continent", "subregion");
  if (n === "country" || n === "countrycode" || n === "countries" || n === "countrycodes") out.push("countrycode", "country", "countryiso");
  if (n === "type" || n === "types") out.push("type", "kind", "category");
  if (n === "genre") out.push("genres");
  if (n === "author") out.push("authors");
  if (n === "category") out.push("categories");
  if (n === "language" || n === "lang") out.push("language", "lang", "languages");
  if (n === "tag") out.push("tags");
  return [...new Set(out)];
}

/** The top-level objects of an answer that hold two or more of the call's scalar arguments under their names. */
function echoingObjects(record: readonly SchemaField[], inputs: readonly Input[]): Set<string> {
  const names = new Set(inputs.filter((i) => i.schema["type"] !== "object" && i.schema["type"] !== "array").map((i) => norm(i.name)));
  const counts = new Map<string, number>();
  for (const f of record) {
    const parts = f.path.split(".");
    if (parts.length !== 2 || f.object || f.list || (parts[0] ?? "").endsWith("[]") || !names.has(norm(f.name))) continue;
    counts.set(parts[0] as string, (counts.get(parts[0] as string) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, n]) => n >= 2).map(([p]) => p));
}

/** The bindings of one tool, inferred from its spec (not cached: `bindingsOf` caches). */
export function inferBindings(catalog: Catalog, tool: Tool): Binding[] {
  const selected = selectedResponse(catalog, tool);
  if (selected.status < 200 || selected.status > 299) return [];
  // Without a schema, the spec's example says what the answer holds.
  const example = selected.schemaPointer === undefined ? responseExamples(catalog, selected)[0] : undefined;
  if (selected.schemaPointer === undefined && example === undefined) return [];
  const fields = selected.schemaPointer !== undefined ? schemaFields(catalog.registry, "response", selected.schemaPointer) : valueFields(example);
  if (fields.length === 0) return [];
  const inputs = inputsOf(catalog, tool);
  const out: Binding[] = [];
  const taken = new Set<string>();
  const add = (b: Binding): void => {
    const key = b.kind === "search" ? `search:${b.arg}:${b.fields.join(",")}` : "field" in b && b.field !== undefined ? `${b.kind === "range" || b.kind === "today" ? `${b.kind}:${b.field}:${b.bound}` : b.kind === "span" ? `span:${b.field}` : b.field}` : `${b.kind}:${"arg" in b ? b.arg : ""}`;
    if (taken.has(key)) return;
    taken.add(key);
    out.push({ ...b, source: "inferred" });
  };
  const record = recordFields(fields);
  const lists = mainLists(fields);
  const method = tool.operation.method;
  // A read of one record (`/runs/{run_id}` answering an object), not a list scoped by its path (`/holidays/{year}` answering a list).
  const readsOne = /\}$/.test(tool.operation.path) && !lists.includes("[]");
  const searchesByPost = method === "post" && SEARCHING_OPERATION.test(`${tool.operation.operationId ?? ""} ${tool.operation.path}`);

  // An object of the answer that holds two or more of the call's arguments by name (a standardized address's
  // `addressLine1`, `city`, `zipCode`) says them back: its fields of those names echo the call.
  const echoes = echoingObjects(record, inputs);
  for (const input of inputs) {
    const n = norm(input.name);
    const sn = snake(input.name);
    if (CREDENTIAL.test(sn)) continue;
    const object = input.schema["type"] === "object" || input.schema["type"] === "array";
    // A list of plain values (`countries: [SE, PT]`, `ids: [...]`): each item of an answer's list is one of them.
    const listed = input.schema["items"];
    const scalarList = input.schema["type"] === "array" && isObject(listed) && (["string", "integer", "number"].includes(String(listed["type"])) || Array.isArray(listed["enum"]));
    // Same name at the answer's top level (a created resource keeps what was sent; a read echoes what it was asked).
    // (A list named in the plural holds it too: `diet` -> `diets`.)
    // A country asked (`country=DE`) is the answer's country however it names it (`countryCode`, `countryName: Germany`).
    const countryFields = !object && COUNTRY_ARG.test(n) ? COUNTRY_FIELDS.flatMap((nm) => record.filter((f) => !f.path.includes(".") && norm(f.name) === nm && !f.object && !f.list)) : [];
    const countryField = countryFields[0];
    // (Each of them: an answer may have its name without its code.)
    for (const f of countryFields.slice(1)) add({ kind: "equals", arg: input.arg, field: f.path, match: "exact" });
    const sameField = record.find((f) => !f.path.includes(".") && norm(f.name) === n && !f.object) ?? (object ? undefined : record.find((f) => !f.path.includes(".") && f.list && !f.object && pluralsOf(n).includes(norm(f.name)))) ?? countryField;
    // A list of objects (`days: [...]`) is not what a scalar argument (`days=3`) says.
    const same = sameField && !object && sameField.list && fields.some((f) => f.path.startsWith(`${sameField.path}[].`)) ? undefined : sameField;
    if (same && !object) add({ kind: "equals", arg: input.arg, field: same.path, match: matchFor(same, input) });
    else if (same === undefined && object) {
      // Objects and lists sent in a body are kept as given (completed only where the answer requires more).
      const whole = record.find((f) => !f.path.includes(".") && norm(f.name) === n);
      if (whole && input.in === "body") add({ kind: "equals", arg: input.arg, field: whole.path, match: "exact" });
    } else if (same && object && input.in === "body") add({ kind: "equals", arg: input.arg, field: same.path, match: "exact" });
    // A search's echo under another search name (`q` -> `query`): the answer repeats what was searched.
    if (!same && !object && SEARCH.test(sn)) {
      const echo = record.find((f) => !f.path.includes(".") && !f.object && !f.list && f.type === "string" && SEARCH.test(snake(f.name)));
      if (echo) add({ kind: "equals", arg: input.arg, field: echo.path, match: "exact" });
    }
    // The id parameter of a read: the record's `id`; in the query, the id of the one record it reads
    // (`GET /dish?dishId=7`, `getRecipeInformation(recipeId)`).
    if (!same && (input.lastPathParam || (input.in === "query" && method === "get" && !lists.includes("[]") && namesRecord(n, tool)))) {
      const noun = norm(nounOfOperation(tool.operation));
      // Its `id`, else the id named after it (`ride_id` of `/rides/{id}/receipt`), else a JSON:API document's `data.id`.
      const id = record.find((f) => f.path === "id") ?? record.find((f) => !f.path.includes(".") && !f.object && !f.list && noun !== "" && norm(f.name) === `${noun}id`) ?? record.find((f) => f.path === "data.id" && !f.object && !f.list);
      if (id) add({ kind: "equals", arg: input.arg, field: id.path, match: "exact" });
    } else if (!same && input.in === "path") {
      // The id of the record a sub-resource belongs to (`ride_id` of `/rides/{id}/receipt`).
      const owner = new RegExp(`/([^/{}]+)/\\{${input.name.replace(/[^A-Za-z0-9_]/g, "")}\\}`).exec(tool.operation.path)?.[1];
      const noun = owner !== undefined ? norm(singular(snake(owner))) : "";
      const id = noun === "" ? undefined : record.find((f) => !f.path.includes(".") && !f.object && !f.list && norm(f.name) === `${noun}id`);
      if (id) add({ kind: "equals", arg: input.arg, field: id.path, match: "exact" });
    }
    // A list of ids sent (`companyIds`, `ids`: a read of those records, even by POST) names the records answered.
    const idList = input.schema["type"] === "array" && (n === "ids" || /[a-z0-9](ids|_ids)$/i.test(input.name.replace(/IDs$/, "Ids")) && /ids$/.test(n));
    if (object && scalarList && (input.in !== "body" || method === "get" || searchesByPost || idList)) {
      for (const list of lists) {
        const items = itemFields(fields, list);
        const target = filterNames(input.name).map((nm) => items.find((f) => norm(f.name) === nm && !f.object && !f.list)).find((f) => f !== undefined) ?? fieldByNoun(items, list, n);
        if (target) add({ kind: "filter", arg: input.arg, field: target.path, match: "oneOf" });
      }
    }
    if (object) continue;
    // An echo of the request (`query: {from, to, amount}`), and nested places and identities.
    for (const f of record) {
      if (!f.path.includes(".") || f.path.split(".").length !== 2 || f.parent === undefined) continue;
      const parent = norm(f.parent);
      const fn = norm(f.name);
      const placeArg = /^(city|town|location|place|locality|cityname)$/.test(n);
      if ((ECHO_PARENT.test(parent) || (echoes.has(f.path.slice(0, f.path.indexOf("."))) && !f.object && !f.list)) && fn === n) add({ kind: "equals", arg: input.arg, field: f.path, match: matchFor(f, input) });
      // An argument named by its place in the answer: `fromLat` -> `from.lat`, `origin_city` -> `origin.city`.
      else if (parent + fn === n && !f.object && !f.list) add({ kind: "equals", arg: input.arg, field: f.path, match: /^(lat|latitude|lon|lng|long|longitude)$/.test(fn) ? "near" : matchFor(f, input) });
      else if (PLACE_PARENT.test(parent) && placeArg && (fn === "name" || fn === "city")) add({ kind: "equals", arg: input.arg, field: f.path, match: "exact" });
      else if (PLACE_PARENT.test(parent) && /^(country|countrycode)$/.test(n) && /^(country|countrycode)$/.test(fn)) add({ kind: "equals", arg: input.arg, field: f.path, match: "exact" });
      else if (PLACE_PARENT.test(parent) && /^(lat|latitude)$/.test(n) && /^(lat|latitude)$/.test(fn)) add({ kind: "equals", arg: input.arg, field: f.path, match: "near" });
      else if (PLACE_PARENT.test(parent) && /^(lon|lng|long|longitude)$/.test(n) && /^(lon|lng|long|longitude)$/.test(fn)) add({ kind: "equals", arg: input.arg, field: f.path, match: "near" });
      else if (IDENTITY_PARENT.test(parent) && /^(email|username|login|phone|userid)$/.test(n) && fn === n) add({ kind: "equals", arg: input.arg, field: f.path, match: "exact" });
      // What scopes the whole answer scopes the records inside it too (`isTodayHoliday(PT)` -> `holiday.countryCode`).
      else if (SCOPE.test(n) && fn === n && !f.list && !f.object && record.some((r) => r.path === input.name && !r.object)) add({ kind: "equals", arg: input.arg, field: f.path, match: matchFor(f, input) });
    }
    if (!same) {
      if (/^(city|town|locality|cityname)$/.test(n)) {
        const city = record.find((f) => norm(f.name) === "city" && !f.path.includes("."));
        if (city) add({ kind: "equals", arg: input.arg, field: city.path, match: "exact" });
      }
      if (/^(lat|latitude)$/.test(n)) {
        const f = findBy(record.filter((x) => !x.path.includes(".")), ["latitude", "lat"]);
        if (f) add({ kind: "equals", arg: input.arg, field: f.path, match: "near" });
      }
      if (/^(lon|lng|long|longitude)$/.test(n)) {
        const f = findBy(record.filter((x) => !x.path.includes(".")), ["longitude", "lon", "lng"]);
        if (f) add({ kind: "equals", arg: input.arg, field: f.path, match: "near" });
      }
    }
    // Lists: filters, searches, ranges and routes, for what scopes a read (query and path parameters).
    // (A body's fields are what a write sends, except for a search sent by POST: its filters.)
    if (input.in === "body" && method !== "get" && !searchesByPost) continue;
    // The id of the one record read scopes its nested lists only where their items name it (`runs[].run_id` for `run_id`).
    const scopesOnlyByName = input.lastPathParam && readsOne;
    if (n === "id") continue;
    // A query's filter that the one record read has itself (`?doctor=75` of a message with a `doctor`) says nothing of its parts' own (its attachments' doctors).
    if (readsOne && input.in === "query" && same && !object) continue;
    const selects = selectorBindings(input, lists);
    if (selects.length > 0) {
      for (const b of selects) add(b);
      continue;
    }
    for (const list of lists) {
      const items = itemFields(fields, list);
      if (items.length === 0) continue;
      // Named with the items' noun first (`airport_iata` for `airport_list[].iata_code`, `user_email` for `users[].email`).
      const byNoun = fieldByNoun(items, list, n);
      // A record a path names is not among the records of its sub-resource (`/records/{record_id}/more_like_this`: others like it).
      if (input.in === "path" && !input.lastPathParam && byNoun !== undefined && norm(byNoun.name) === "id") continue;
      if (scopesOnlyByName && !SEARCH.test(sn) && !/(search_?term|term|query|keyword)$/.test(sn) && !items.some((f) => norm(f.name) === n) && byNoun === undefined) continue;
      // Items of another noun whose only id is the one the path names are records of that kind, each with its own
      // (`/company/competitor/id/{companyId}` lists competitors by their `company_id`), not the named record's parts.
      if (scopesOnlyByName && listsOthersById(items.map((f) => f.name), list, input.name)) continue;
      if (SEARCH.test(sn) || /(^|_)(search_?term|search_?query|keyword|query)$/.test(sn)) {
        const searched = SEARCH_FIELDS.map((s) => items.find((f) => norm(f.name) === s && f.type === "string" && !f.list)).filter((f): f is SchemaField => f !== undefined);
        const others = items.filter((f) => f.type === "string" && !f.list && !searched.includes(f) && !isDateField(f) && f.format === undefined && !/(id|url|uri|href|link|image|email)$/.test(norm(f.name)));
        const chosen = searched.length > 0 ? searched : others;
        if (chosen.length > 0) add({ kind: "search", arg: input.arg, fields: chosen.map((f) => f.path), note: `every item of ${list} mentions it` });
        continue;
      }
      if (PAGING.test(sn) && !pagingFilters(input, items)) continue;
      const dateArg = isDateSchema(input.schema, input.name);
      if (dateArg && (FROM_DATE.test(sn) || TO_DATE.test(sn))) {
        const dates = items.filter(isDateField);
        const date = findBy(dates, ITEM_DATES) ?? dates.find((f) => !BOOKKEEPING_DATE.test(norm(f.name))) ?? dates[0];
        if (date) add({ kind: "range", arg: input.arg, field: date.path, bound: FROM_DATE.test(sn) ? "min" : "max" });
        continue;
      }
      const bound = /^(min|max)_?(.+)$/.exec(sn) ?? /^(.+?)_(min|max)(imum)?$/.exec(sn);
      if (bound && (input.schema["type"] === "number" || input.schema["type"] === "integer")) {
        const isMin = bound[1] === "min" || bound[2] === "min";
        const target = norm(bound[1] === "min" || bound[1] === "max" ? (bound[2] ?? "") : (bound[1] ?? ""));
        const direct = items.find((f) => isNumeric(f) && (norm(f.name) === target || norm(f.name) === `${target}s`));
        if (direct) {
          add({ kind: "range", arg: input.arg, field: direct.path, bound: isMin ? "min" : "max" });
          continue;
        }
        // A range object (`salary: {min, max}`): a minimum asked bounds its max, a maximum its min.
        const holder = itemFields(fields, list, true).find((f) => isNumeric(f) && f.parent !== undefined && norm(f.parent) === target && norm(f.name) === (isMin ? "max" : "min"));
        if (holder) add({ kind: "range", arg: input.arg, field: holder.path, bound: isMin ? "min" : "max" });
        continue;
      }
      const origin = /^(origin|from|departure|departureairport|fromairport|originairport|originlocationcode)$/.test(n);
      const destination = /^(destination|to|arrival|arrivalairport|toairport|destinationairport|destinationlocationcode)$/.test(n);
      if ((origin || destination) && isIataLike(input.schema, input.name)) {
        for (const b of routeBindings(fields, list, input.arg, origin)) add(b);
        continue;
      }
      if (dateArg && /^(departure|return|outbound|inbound)_?date$/.test(sn)) {
        for (const b of tripDateBindings(fields, list, input.arg, /^(return|inbound)/.test(sn))) add(b);
        continue;
      }
      if (n === "year" || n === "years") {
        const year = items.find((f) => norm(f.name) === "year" && !f.list);
        const dates = items.filter(isDateField);
        const date = findBy(dates, ITEM_DATES) ?? dates.find((f) => !BOOKKEEPING_DATE.test(norm(f.name))) ?? dates[0];
        if (year) add({ kind: "filter", arg: input.arg, field: year.path, match: "exact" });
        else if (date) add({ kind: "filter", arg: input.arg, field: date.path, match: "year" });
        continue;
      }
      const names = scopesOnlyByName ? [n] : filterNames(input.name);
      let target = names.map((nm) => items.find((f) => norm(f.name) === nm && !f.object)).find((f) => f !== undefined);
      target ??= byNoun;
      if (!target && /^(email|username|userid|phone|login|owner|owneremail)$/.test(n)) {
        // An identity inside the item (`candidate.email` for `email`): one level down, when only one field has the name.
        const nested = itemFields(fields, list, true).filter((f) => norm(f.name) === n && !f.object && !f.list && f.path.slice(list.length + 1).split(".").length === 2);
        if (nested.length === 1) target = nested[0];
      }
      if (target && (target.type === undefined || target.type === "string" || target.type === "array" || typeof input.schema["type"] !== "string" || target.type === input.schema["type"] || isNumeric(target))) {
        if (target.list && !["string", "integer", "number", undefined].includes(fields.find((f) => f.path === `${target.path}[]`)?.type)) continue;
        add({ kind: "filter", arg: input.arg, field: target.path, match: matchFor(target, input, true) });
      }
    }
  }
  // Dated by the simulated today (`getNextHolidays`, `isTodayHoliday`), where no argument names another day.
  for (const b of todayBindings(tool, fields, inputs.filter((i) => i.in !== "body" && isDateSchema(i.schema, i.name)))) add(b);
  // A span asked for (`days`, `hours`) is the length of the answer's dated list.
  const span = spanArgOf(catalog, tool);
  // A dated list for days and hours; the answer's own list (the body itself too) for what a generator makes.
  const spanned =
    span === undefined
      ? undefined
      : span.unit === "item"
        ? [...lists, ...fields.map((f) => f.path).filter((p) => /^[^.[\]]*\[\]$/.test(p))].find((l) => l === "[]" || !l.slice(0, -2).includes("."))
        : lists.find((l) => l !== "[]" && !l.slice(0, -2).includes(".") && itemFields(fields, l).some(isDateField));
  if (span !== undefined && spanned !== undefined) add({ kind: "span", arg: span.arg, field: spanned, unit: span.unit });
  const effect = effectBinding(tool, fields);
  if (effect) add(effect);
  for (const b of referenceBindings(catalog, tool, fields)) add(b);
  for (const b of totalBindings(fields, lists)) add(b);
  return out;
}

/**
 * An argument whose values name the answer's lists (`type: [artist, album, track]` beside `artists`,
 * `albums`, `tracks`): it selects which of them may have items.
 */
function selectorBindings(input: Input, lists: readonly string[]): Binding[] {
  const values = Array.isArray(input.schema["enum"]) ? input.schema["enum"].filter((v): v is string => typeof v === "string").map((v) => norm(v)) : [];
  if (values.length < 2) return [];
  const named = lists.filter((l) => /^[^.[\]]+\[\]$/.test(l)).map((l) => ({ list: l, noun: norm(singular(snake(l.slice(0, -2)))) }));
  const hits = named.filter((l) => values.includes(l.noun));
  if (hits.length < 2) return [];
  return hits.map((h) => ({ kind: "filter", arg: input.arg, field: h.list, match: "selects" }));
}

/** Route ends in a list's items: a leg list (`segments`) gives `[0].from` and `[-1].to` (reversed on a return trip). */
function routeBindings(fields: readonly SchemaField[], list: string, arg: string, origin: boolean): Binding[] {
  const inItem = itemFields(fields, list, true).filter((f) => f.type === "string" && !isDateField(f));
  const out: Binding[] = [];
  const names = (o: boolean): string[] => (o ? ORIGIN : DESTINATION);
  for (const f of inItem) {
    const rest = f.path.slice(list.length + 1);
    const back = /(^|\.)(inbound|return|returnflight|back)(\.|\[)/i.test(rest);
    const wantOrigin = back ? !origin : origin;
    if (!names(wantOrigin).includes(norm(f.name))) continue;
    // Only the leg list's own ends: `segments[].from` -> `segments[0].from` (origin) or `segments[-1].to` (destination).
    const legs = rest.lastIndexOf("[]");
    const field = legs < 0 ? f.path : `${list}.${rest.slice(0, legs)}[${wantOrigin ? 0 : -1}]${rest.slice(legs + 2)}`;
    if (rest.indexOf("[]") !== legs) continue; // deeper lists: too far to tell
    out.push({ kind: "route", arg, field });
  }
  return out;
}

/** A trip's date: the first leg of the outbound (or the return) itinerary departs on it. */
function tripDateBindings(fields: readonly SchemaField[], list: string, arg: string, back: boolean): Binding[] {
  const out: Binding[] = [];
  for (const f of itemFields(fields, list, true)) {
    if (!isDateField(f) || !/^(departure|departureat|departuretime|departs|departsat)$/.test(norm(f.name))) continue;
    const rest = f.path.slice(list.length + 1);
    const isBack = /(^|\.)(inbound|return|returnflight|back)(\.|\[)/i.test(rest);
    if (isBack !== back) continue;
    const legs = rest.lastIndexOf("[]");
    if (rest.indexOf("[]") !== legs) continue;
    out.push({ kind: "equals", arg, field: legs < 0 ? f.path : `${list}.${rest.slice(0, legs)}[0]${rest.slice(legs + 2)}`, match: "day" });
  }
  return out;
}

function verbOf(tool: Tool): string {
  const id = tool.operation.operationId ?? tool.name;
  return snake(id).split("_")[0] ?? "";
}

/** An action's effect on a status: `cancelBooking`, `POST /rides/{id}/cancel` -> the status enum's cancelled value. */
function effectBinding(tool: Tool, fields: readonly SchemaField[]): EffectBinding | undefined {
  const segments = tool.operation.path.split("/").filter((s) => s !== "");
  const last = segments[segments.length - 1] ?? "";
  const action = !last.startsWith("{") && segments.length >= 2 && (segments[segments.length - 2] ?? "").startsWith("{") ? snake(last) : "";
  const verb = verbOf(tool);
  const row = VERBS.find(([v]) => v.test(action)) ?? VERBS.find(([v]) => v.test(verb));
  if (!row) return undefined;
  if (tool.operation.method === "get") return undefined;
  const status = fields.find((f) => (f.path === "status" || f.path === "state") && f.type === "string") ?? fields.find((f) => /^[^.[\]]+\.(status|state)$/.test(f.path) && f.type === "string" && !ECHO_PARENT.test(norm(f.parent ?? "")));
  if (!status) return undefined;
  if (status.enum !== undefined) {
    const value = status.enum.find((v): v is string => typeof v === "string" && row[1].test(v.toLowerCase()));
    return value !== undefined ? { kind: "effect", field: status.path, value } : undefined;
  }
  return { kind: "effect", field: status.path, value: row[2] };
}

/** Collections of the catalog by the noun of their last segment (`book` -> `/books`). */
function collectionsByNoun(catalog: Catalog): Map<string, { collection: string; reader: Tool }> {
  const out = new Map<string, { collection: string; reader: Tool }>();
  for (const t of catalog.tools) {
    const route = resourceRoute(catalog, t);
    if (!route || route.kind !== "item" || t.operation.method !== "get") continue;
    if (route.collection.includes("{")) continue;
    const noun = norm(singular(snake(route.collection.split("/").pop() ?? "")));
    if (noun !== "" && !out.has(noun)) out.set(noun, { collection: route.collection, reader: t });
  }
  return out;
}

const OWN = /^(id|uuid|key|status|state|createdat|updatedat|created|updated|quantity|qty)$/;

/** References from the request to other resources (`items[].bookId`, `jobId`) and the fields they bring into the answer. */
function referenceBindings(catalog: Catalog, tool: Tool, fields: readonly SchemaField[]): Binding[] {
  if (tool.operation.method === "get" || tool.operation.method === "delete" || tool.body === undefined) return [];
  const nouns = collectionsByNoun(catalog);
  if (nouns.size === 0) return [];
  const refs: Array<{ arg: string; noun: string; responseList?: string }> = [];
  const bodyPointer = tool.body.schemaPointer;
  const requestFields = bodyPointer !== undefined ? schemaFields(catalog.registry, "request", bodyPointer) : [];
  for (const f of requestFields) {
    const m = /^(.+?)_?id$/.exec(snake(f.name));
    if (!m || f.object || f.list) continue;
    const noun = norm(m[1] ?? "");
    if (!nouns.has(noun)) continue;
    const arg = tool.body.mode === "wrapped" && tool.body.arg !== undefined ? `${tool.body.arg}.${f.path}` : f.path;
    if ((f.path.match(/\[\]/g) ?? []).length > 1) continue;
    refs.push({ arg, noun, ...(f.path.includes("[]") ? { responseList: f.path.slice(0, f.path.indexOf("[]") + 2) } : {}) });
  }
  const out: Binding[] = [];
  for (const ref of refs) {
    const target = nouns.get(ref.noun);
    if (!target) continue;
    const targetSelected = selectedResponse(catalog, target.reader);
    if (targetSelected.schemaPointer === undefined) continue;
    const targetFields = recordFields(schemaFields(catalog.registry, "response", targetSelected.schemaPointer)).filter((f) => !f.path.includes(".") && !f.object);
    const byName = new Map(targetFields.map((f) => [norm(f.name), f.name]));
    // Where the referenced values go: the response list of the same name (`items[]`), else the answer's top level.
    const where = ref.responseList !== undefined && fields.some((f) => f.path.startsWith(`${ref.responseList}.`)) ? ref.responseList : ref.responseList === undefined ? "" : undefined;
    if (where === undefined) continue;
    const candidates = where === "" ? recordFields(fields).filter((f) => !f.path.includes(".")) : itemFields(fields, where);
    const map: Record<string, string> = {};
    for (const f of candidates) {
      if (f.object) continue;
      const fn = norm(f.name);
      let theirs: string | undefined;
      if (/^unit_?price$|^unitprice$|^priceeach$|^itemprice$/.test(fn)) theirs = byName.get("price");
      else if (fn.startsWith(ref.noun) && fn.length > ref.noun.length) theirs = byName.get(fn.slice(ref.noun.length)); // jobTitle -> title
      else if (where !== "" && !OWN.test(fn) && byName.has(fn) && !/id$/.test(fn)) theirs = byName.get(fn);
      if (theirs !== undefined && !OWN.test(norm(theirs))) map[f.path] = theirs;
    }
    if (Object.keys(map).length > 0) out.push({ kind: "reference", arg: ref.arg, collection: target.collection, fields: map });
  }
  return out;
}

/** Totals of an order-like answer: a subtotal (or total) as the sum of its lines, a total as the subtotal plus costs. */
function totalBindings(fields: readonly SchemaField[], lists: readonly string[]): TotalBinding[] {
  const record = recordFields(fields).filter((f) => !f.path.includes(".") && isNumeric(f));
  const out: TotalBinding[] = [];
  for (const list of lists) {
    if (list === "[]" || list.includes(".")) continue;
    const items = itemFields(fields, list);
    const price = findBy(items.filter(isNumeric), ["unitprice", "price", "priceeach", "itemprice"]);
    const quantity = findBy(items.filter(isNumeric), ["quantity", "qty", "count"]);
    if (!price || !quantity) continue;
    const subtotal = findBy(record, ["subtotal", "itemstotal", "itemtotal"]);
    const total = findBy(record, ["total", "totalprice", "totalamount", "grandtotal", "amount"]);
    const extras = record.filter((f) => /^(shipping|shippingcost|shippingfee|tax|taxes|taxamount|vat|fee|fees|handling|servicefee)$/.test(norm(f.name)));
    const minus = record.filter((f) => /^(discount|discountamount|promotion|credit)$/.test(norm(f.name)));
    const line = { items: list, price: price.name, quantity: quantity.name };
    if (subtotal) {
      out.push({ kind: "total", field: subtotal.path, ...line });
      if (total) out.push({ kind: "total", field: total.path, add: [subtotal.path, ...extras.map((e) => e.path)], ...(minus.length > 0 ? { subtract: minus.map((m) => m.path) } : {}) });
    } else if (total && extras.length === 0 && minus.length === 0) out.push({ kind: "total", field: total.path, ...line });
    break;
  }
  return out;
}

/** Whether a (normalized) parameter name is the id of the operation's record: `dishId` on `/dish`, `recipeId` on `getRecipeInformation`. */
function namesRecord(n: string, tool: Tool): boolean {
  if (!n.endsWith("id") || n.length <= 2) return false;
  const words = [nounOfOperation(tool.operation), ...snakeName(tool.operation.operationId ?? "").split("_").map(singularNoun)];
  return words.some((w) => w !== "" && norm(w) + "id" === n);
}

/** The item field a (normalized) parameter name names after the items' noun: `airportiata` -> `iata_code` of `airport_list[]`. */
function fieldByNoun(items: readonly SchemaField[], list: string, n: string): SchemaField | undefined {
  const noun = listNoun(list);
  if (noun === "" || !n.startsWith(noun) || n.length <= noun.length + 1) return undefined;
  const rest = n.slice(noun.length);
  return [rest, `${rest}code`].map((nm) => items.find((f) => norm(f.name) === nm && !f.object && !f.list)).find((f) => f !== undefined);
}

/** The noun of a list's items, normalized (`airport_list` -> `airport`, `data.airports` -> `airport`); "" for a root list. */
function listNoun(list: string): string {
  const last = list.replace(/\[\]$/, "").split(".").pop() ?? "";
  const base = snake(last).replace(/_?(list|array|items|results|collection)$/, "");
  return base === "" ? "" : norm(singular(base));
}
