import type { Responder, ResponderAnswer, ResponseContext } from "./responder.js";
import { resourceRoute, singletonRoute, type ResourceRoute, type SingletonRoute } from "../catalog/resource-routes.js";
import { schemaAnswer } from "./schema-responder.js";
import { selectResponse } from "../call/select-response.js";
import { arrayItems, objectShape } from "../catalog/object-properties.js";
import { guessIdField } from "./resource-store.js";
import { deriveSeed } from "../seed.js";
import { synthesize } from "../synthesize/synthesize.js";
import { freshStringId } from "./fresh-id.js";
import { completeRequired, settleOmitted } from "./created-resource.js";
import { echoArguments } from "./echo-arguments.js";
import type { ParameterBinding } from "../catalog/tool.js";
import { isObject, type Json } from "../json-object.js";

const LIMIT_ARGS = new Set(["limit", "per_page", "perPage", "pageSize", "page_size", "size", "count", "max", "maxResults", "max_results", "top", "n", "num"]);
const OFFSET_ARGS = new Set(["offset", "skip", "start"]);
const PAGE_ARGS = new Set(["page", "pageNumber", "page_number"]);
const SEARCH_ARGS = new Set(["q", "query", "search", "keyword", "keywords", "term", "text"]);
const LIST_FIELDS = ["items", "data", "results", "records", "entries", "list", "content", "values"];
const TOTAL_FIELDS = ["total", "count", "totalCount", "total_count", "totalResults", "total_results", "totalItems"];

/** Deep merge for conforming state to a schema: `over` wins, `base` fills what `over` lacks (arrays item by item). */
export function mergeDeep(base: unknown, over: unknown): unknown {
  if (isObject(base) && isObject(over)) {
    const out: Json = { ...base };
    for (const [k, v] of Object.entries(over)) out[k] = k in base ? mergeDeep(base[k], v) : v;
    return out;
  }
  if (Array.isArray(base) && Array.isArray(over) && base.length > 0) {
    return over.map((el, i) => (isObject(el) ? mergeDeep(base[i % base.length], el) : el));
  }
  return over;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Makes a state-made body valid against the response schema: fields the state lacks are filled from a
 * synthesized body; a field that still fails is completed from a value synthesized for its own schema
 * (so nested request items missing response-only fields keep their data), and only then replaced by the
 * synthesized one.
 */
function conform(ctx: ResponseContext, schemaPointer: string | undefined, value: unknown, base: unknown, asGiven: ReadonlySet<string> = NONE): unknown {
  if (schemaPointer === undefined) return value;
  const validate = ctx.catalog.registry.validatorAt("response", schemaPointer);
  if (validate(value)) return value;
  const merged: unknown = mergeDeep(base, value);
  // Values the request gave are kept as given (a new address is not merged with the example's).
  if (isObject(merged) && isObject(value)) for (const k of asGiven) if (k in value) merged[k] = value[k];
  if (validate(merged)) return merged;
  if (isObject(merged as unknown) && isObject(base)) {
    const out = merged as Json;
    const shape = objectShape(ctx.catalog.registry, "response", schemaPointer);
    let bad = badFields(validate.errors);
    for (const k of bad) {
      const pointer = shape?.properties[k];
      if (pointer !== undefined && k in out) out[k] = asGiven.has(k) ? completeRequired(ctx, pointer, out[k], base[k]) : completeFromSchema(ctx, pointer, k, out[k]);
    }
    if (validate(out as unknown)) return out;
    bad = badFields(validate.errors);
    for (const k of bad) {
      if (k in base) out[k] = base[k];
      else delete out[k];
    }
    if (validate(out)) return out;
  }
  return value;
}

/** The top-level fields named by validation errors. */
function badFields(errors: ReadonlyArray<{ instancePath: string; params: Record<string, unknown> }> | null | undefined): Set<string> {
  const bad = new Set<string>();
  for (const e of errors ?? []) {
    const top = e.instancePath.split("/")[1] ?? (typeof e.params["additionalProperty"] === "string" ? e.params["additionalProperty"] : undefined);
    if (top !== undefined) bad.add(top.replace(/~1/g, "/").replace(/~0/g, "~"));
  }
  return bad;
}

/** A field's value completed with what a value synthesized for its schema has (arrays item by item). */
function completeFromSchema(ctx: ResponseContext, pointer: string, field: string, value: unknown): unknown {
  const registry = ctx.catalog.registry;
  const items = arrayItems(registry, "response", pointer);
  if (items !== undefined && Array.isArray(value)) {
    return value.map((el, i) => (isObject(el) ? mergeDeep(synthesize(registry, "response", items, { seed: deriveSeed(ctx.seed, field, i) }).value, el) : el));
  }
  if (!isObject(value)) return value;
  return mergeDeep(synthesize(registry, "response", pointer, { seed: deriveSeed(ctx.seed, field) }).value, value);
}

function collectionKey(route: ResourceRoute, requestPath: string): string {
  if (route.kind === "collection") return requestPath;
  const i = requestPath.lastIndexOf("/");
  return i <= 0 ? "/" : requestPath.slice(0, i);
}

function notFound(ctx: ResponseContext, what: string): ResponderAnswer {
  const selected = selectResponse(ctx.catalog, ctx.call.tool, 404);
  if (selected.key !== undefined) {
    const answer = schemaAnswer(ctx, selected);
    return { ...answer, source: "state", notes: [...(answer.notes ?? []), `not found: ${what}`] };
  }
  return {
    status: 404,
    contentType: "application/problem+json",
    body: { type: "https://toolsim.dev/problems/not-found", title: "Not Found", status: 404, detail: `${what} does not exist` },
    source: "state",
    notes: ["the spec declares no 404 response: answered with problem details"],
  };
}

/** The array of items in a list body (the body itself, or its first array-of-objects field) and where it sits. */
function listSlot(body: unknown): { items: unknown[]; field?: string } | undefined {
  if (Array.isArray(body)) return { items: body };
  if (!isObject(body)) return undefined;
  const arrayFields = Object.keys(body).filter((k) => Array.isArray(body[k]));
  const field = LIST_FIELDS.find((f) => arrayFields.includes(f)) ?? arrayFields[0];
  return field !== undefined ? { items: body[field] as unknown[], field } : undefined;
}

/** The pointer of the item schema of a list body (the body's own `items`, or those of its list field). */
function listItemPointer(ctx: ResponseContext, schemaPointer: string | undefined, slot: { field?: string }): string | undefined {
  if (schemaPointer === undefined) return undefined;
  const registry = ctx.catalog.registry;
  if (slot.field === undefined) return arrayItems(registry, "response", schemaPointer);
  const fieldPointer = objectShape(registry, "response", schemaPointer)?.properties[slot.field];
  return fieldPointer !== undefined ? arrayItems(registry, "response", fieldPointer) : undefined;
}

function withItems(body: unknown, slot: { field?: string }, items: unknown[]): unknown {
  if (slot.field === undefined) return items;
  const out = { ...(body as Json), [slot.field]: items };
  for (const t of TOTAL_FIELDS) if (typeof out[t] === "number") out[t] = items.length;
  return out;
}

/** Whether an item passes a filter: text filters match a part of the field, enum filters (`genre=fiction`) the whole value. */
function matches(item: Json, name: string, value: unknown, exact = false): boolean {
  if (SEARCH_ARGS.has(name) && !(name in item)) {
    const needle = String(value).toLowerCase();
    return Object.values(item).some((v) => typeof v === "string" && v.toLowerCase().includes(needle));
  }
  if (!(name in item)) return true;
  const field = item[name];
  if (typeof field === "string" && typeof value === "string") return exact ? field.toLowerCase() === value.toLowerCase() : field.toLowerCase().includes(value.toLowerCase());
  if (Array.isArray(field)) return field.some((f) => String(f).toLowerCase() === String(value).toLowerCase());
  return String(field) === String(value);
}

function hasEnum(schema: unknown): boolean {
  return isObject(schema) && Array.isArray(schema["enum"]);
}

function filterAndPage(ctx: ResponseContext, items: Json[]): Json[] {
  let out = items;
  let limit: number | undefined;
  let offset = 0;
  let page: number | undefined;
  for (const p of ctx.call.tool.parameters) {
    if (p.in !== "query") continue;
    const v = ctx.call.args[p.arg];
    if (v === undefined || v === null || v === "") continue;
    if (LIMIT_ARGS.has(p.name) && typeof v === "number") limit = v;
    else if (OFFSET_ARGS.has(p.name) && typeof v === "number") offset = v;
    else if (PAGE_ARGS.has(p.name) && typeof v === "number") page = v;
    else if (typeof v !== "object") {
      const exact = p.schemaPointer !== undefined && hasEnum(ctx.catalog.registry.resolve("request", p.schemaPointer).schema);
      out = out.filter((item) => matches(item, p.name, v, exact));
    }
  }
  if (page !== undefined && limit !== undefined) offset = Math.max(0, page - 1) * limit;
  return out.slice(offset, limit !== undefined ? offset + limit : undefined);
}

function idFieldFor(ctx: ResponseContext, route: ResourceRoute, key: string, sample?: Json, schemaPointer?: string): string {
  const known = ctx.state.collection(key);
  if (known && known.items.size > 0) return known.idField;
  // The schema's properties count too: a synthesized sample may leave out an optional `id`.
  const declared = schemaPointer !== undefined ? Object.keys(objectShape(ctx.catalog.registry, "response", schemaPointer)?.properties ?? {}) : [];
  if (declared.length > 0) return guessIdField({ ...Object.fromEntries(declared.map((k) => [k, true])), ...sample }, route.idHints);
  return sample ? guessIdField(sample, route.idHints) : known?.idField ?? route.idHints.find((h) => h === "id") ?? route.idHints[0] ?? "id";
}

function uniqueStringId(ctx: ResponseContext, key: string, id: string): string {
  let candidate = id;
  for (let i = 2; ctx.state.get(key, candidate) !== undefined || ctx.state.isDeleted(key, candidate); i++) candidate = `${id}-${i}`;
  return candidate;
}

/**
 * A new string id for a created resource, unique in its collection and valid where ids travel: against the
 * id field's schema and the item path parameter's (`^rem-[0-9]{4,}$`, `format: uuid`); `rem-2004` after
 * `rem-2003`, a seeded uuid for uuid ids. Falls back to a `-2` suffix when nothing fits.
 */
function newStringId(ctx: ResponseContext, route: ResourceRoute, key: string, candidate: string, idPointer: string | undefined): string {
  const registry = ctx.catalog.registry;
  const checks: Array<(v: unknown) => boolean> = [];
  let format: string | undefined;
  if (idPointer !== undefined) {
    checks.push(registry.validatorAt("response", idPointer));
    const { schema } = registry.resolve("response", idPointer);
    if (isObject(schema) && typeof schema["format"] === "string") format = schema["format"];
  }
  const param = itemIdParam(ctx, route);
  if (param?.schemaPointer !== undefined) checks.push(registry.validatorAt("request", param.schemaPointer, true));
  const fresh = freshStringId({
    candidate,
    known: ctx.state.knownIds(key),
    fits: (id) => checks.every((check) => check(id)),
    ...(format !== undefined ? { format } : {}),
    seed: ctx.seed,
    ...(idPointer !== undefined ? { synthesize: (seed: number) => synthesize(registry, "response", idPointer, { seed }).value } : {}),
  });
  return fresh ?? uniqueStringId(ctx, key, candidate);
}

/** The id parameter of the item route of a collection (`reminderId` of `/reminders/{reminderId}`), if the spec has one. */
function itemIdParam(ctx: ResponseContext, route: ResourceRoute): ParameterBinding | undefined {
  if (route.idParam) return route.idParam;
  for (const tool of ctx.catalog.tools) {
    const other = resourceRoute(ctx.catalog, tool);
    if (other?.kind === "item" && other.collection === route.collection && other.idParam) return other.idParam;
  }
  return undefined;
}

/**
 * Answers CRUD calls from the episode's state, inferred from paths: POST creates (the request body merged into a
 * synthesized resource, with a fresh id), GET reads what exists (or 404), lists include created items and honour
 * filters and paging, PUT/PATCH update, DELETE removes. Unknown items of collections without fixtures are
 * synthesized once and remembered, so later reads agree. Operations that are not CRUD pass to the next responder.
 */
export const stateResponder: Responder = {
  name: "state",
  respond(ctx) {
    if (ctx.status !== undefined && (ctx.status < 200 || ctx.status > 299)) return undefined;
    const single = singletonRoute(ctx.catalog, ctx.call.tool);
    if (single) return singleton(ctx, single);
    const route = resourceRoute(ctx.catalog, ctx.call.tool);
    if (!route) return undefined;
    const method = ctx.call.tool.operation.method;
    const key = collectionKey(route, ctx.call.request.path);
    if (route.kind === "collection") return method === "post" ? create(ctx, route, key) : list(ctx, route, key);
    const rawId = route.idParam ? ctx.call.args[route.idParam.arg] : undefined;
    if (rawId === undefined || rawId === null) return undefined;
    const id = String(rawId);
    switch (method) {
      case "get":
        return read(ctx, route, key, id, rawId);
      case "put":
      case "patch":
        return update(ctx, route, key, id, rawId, method);
      case "delete":
        return remove(ctx, route, key, id);
      default:
        return undefined;
    }
  },
};

function read(ctx: ResponseContext, route: ResourceRoute, key: string, id: string, rawId: unknown): ResponderAnswer {
  const existing = ctx.state.get(key, id);
  const selected = selectResponse(ctx.catalog, ctx.call.tool, ctx.status);
  if (existing) {
    let body: unknown = existing;
    if (selected.schemaPointer !== undefined && !ctx.catalog.registry.validatorAt("response", selected.schemaPointer)(existing)) {
      // Stored from a shorter view (a search result): complete it once, and remember the full record.
      body = conform(ctx, selected.schemaPointer, existing, schemaAnswer(ctx, selected).body);
      if (isObject(body)) ctx.state.put(key, id, body, idFieldFor(ctx, route, key, existing));
    }
    // Query parameters shape this answer only (`?servings=6`): echoed, not kept.
    if (selected.schemaPointer !== undefined) body = echoArguments(ctx, selected.schemaPointer, body);
    return { status: selected.status, body: structuredClone(body), ...(selected.mediaType ? { contentType: selected.mediaType } : {}), source: "state" };
  }
  if (ctx.state.isDeleted(key, id) || ctx.state.collection(key)?.authoritative) return notFound(ctx, `${key}/${id}`);
  // Not seen yet: synthesize it once and remember it, so that later calls agree.
  const answer = schemaAnswer(ctx, selected);
  if (isObject(answer.body)) {
    const idField = idFieldFor(ctx, route, key, answer.body, selected.schemaPointer);
    const withId = { ...answer.body, [idField]: typeof answer.body[idField] === "number" && typeof rawId !== "number" ? Number(rawId) || rawId : rawId };
    // The requested id is kept unless the schema rejects it (a `uuid` id asked for as "u1"): bodies always validate.
    const conformed = conform(ctx, selected.schemaPointer, withId, answer.body);
    const body = isObject(conformed) ? conformed : withId;
    ctx.state.put(key, id, body, idField);
    return { ...answer, body: structuredClone(body), notes: [...(answer.notes ?? []), "synthesized and remembered in state"] };
  }
  return answer;
}

function list(ctx: ResponseContext, route: ResourceRoute, key: string): ResponderAnswer {
  const selected = selectResponse(ctx.catalog, ctx.call.tool, ctx.status);
  const known = ctx.state.collection(key);
  const answer = schemaAnswer(ctx, selected);
  const slot = listSlot(answer.body);
  if (!slot) return answer;
  if (known && (known.authoritative || known.items.size > 0 || known.deleted.size > 0)) {
    const items = filterAndPage(ctx, ctx.state.list(key)).map((i) => structuredClone(i));
    const body = conform(ctx, selected.schemaPointer, withItems(answer.body, slot, items), answer.body);
    return { ...answer, body, source: "state", notes: [] };
  }
  // First look at this collection: the synthesized items are made to match the filters, and remembered. A
  // filter value the item schema does not allow (outside an enum, 2.5 for an integer) matches no item.
  const filters = ctx.call.tool.parameters.filter(
    (p) => p.in === "query" && !LIMIT_ARGS.has(p.name) && !OFFSET_ARGS.has(p.name) && !PAGE_ARGS.has(p.name),
  );
  const registry = ctx.catalog.registry;
  const itemPointer = listItemPointer(ctx, selected.schemaPointer, slot);
  const validItem = itemPointer !== undefined ? registry.validatorAt("response", itemPointer) : undefined;
  let items: Json[] = [];
  for (const item of slot.items.filter(isObject)) {
    const copy = { ...item };
    let matchesAll = true;
    for (const p of filters) {
      const v = ctx.call.args[p.arg];
      if (v === undefined || v === null || !(p.name in copy) || typeof copy[p.name] !== typeof v) continue;
      const before = copy[p.name];
      copy[p.name] = v;
      if (validItem !== undefined && !validItem(copy as unknown)) {
        copy[p.name] = before;
        matchesAll = false;
      }
    }
    if (matchesAll) items.push(copy);
  }
  let body = withItems(answer.body, slot, items);
  if (selected.schemaPointer !== undefined && body !== answer.body && !registry.validatorAt("response", selected.schemaPointer)(body)) {
    // Fewer items (or a total) the list schema does not allow: the synthesized list as it was.
    body = answer.body;
    items = slot.items.filter(isObject);
  }
  if (items.length > 0) {
    const idField = idFieldFor(ctx, route, key, items[0]);
    for (const item of items) {
      const id = item[idField];
      if (id !== undefined && id !== null && !ctx.state.isDeleted(key, String(id))) ctx.state.put(key, String(id), structuredClone(item), idField);
    }
  }
  return { ...answer, body, notes: [...(answer.notes ?? []), "synthesized list remembered in state"] };
}

function create(ctx: ResponseContext, route: ResourceRoute, key: string): ResponderAnswer | undefined {
  const requestBody = ctx.call.body;
  if (!isObject(requestBody)) return undefined;
  const answer = schemaAnswer(ctx);
  const selected = selectResponse(ctx.catalog, ctx.call.tool, ctx.status);
  const shape = selected.schemaPointer !== undefined ? objectShape(ctx.catalog.registry, "response", selected.schemaPointer) : undefined;
  const base: Json = isObject(answer.body) && shape ? answer.body : {};
  const idField = idFieldFor(ctx, route, key, Object.keys(base).length > 0 ? base : requestBody, selected.schemaPointer);
  const resource: Json = { ...base };
  if (shape) settleOmitted(ctx, shape, resource, requestBody, idField);
  for (const [k, v] of Object.entries(requestBody)) {
    const at = shape?.properties[k];
    // A given object or list is the request's, completed only where the response requires more.
    if (at !== undefined) resource[k] = completeRequired(ctx, at, v, base[k]);
    else if (!shape || shape.open) resource[k] = v;
  }
  // The synthesized body's id gives the id its type when the schema has no plain object shape (a oneOf).
  let id = resource[idField] ?? (isObject(answer.body) ? answer.body[idField] : undefined);
  if (requestBody[idField] === undefined) {
    if (typeof id === "number" || id === undefined) id = ctx.state.nextNumericId(key);
    else id = newStringId(ctx, route, key, String(id), shape?.properties[idField]);
    resource[idField] = id;
  }
  const conformed = shape ? conform(ctx, selected.schemaPointer, resource, answer.body, new Set(Object.keys(requestBody))) : undefined;
  const stored = isObject(conformed) ? conformed : { ...requestBody, [idField]: id };
  ctx.state.put(key, String(id), stored, idField);
  let body = shape ? structuredClone(stored) : isObject(answer.body) && idField in answer.body ? { ...answer.body, [idField]: id } : answer.body;
  const notes = [`created ${key}/${String(id)}`];
  if (!shape && body !== answer.body && selected.schemaPointer !== undefined && !ctx.catalog.registry.validatorAt("response", selected.schemaPointer)(body)) {
    body = answer.body; // the id does not fit the response schema: the synthesized body as it was
    notes.push("the new id does not fit the response schema: answered the synthesized body");
  }
  return { ...answer, body, source: "state", notes };
}

function update(ctx: ResponseContext, route: ResourceRoute, key: string, id: string, rawId: unknown, method: "put" | "patch"): ResponderAnswer | undefined {
  const requestBody = ctx.call.body;
  const existing = ctx.state.get(key, id);
  if (!existing && (ctx.state.isDeleted(key, id) || ctx.state.collection(key)?.authoritative)) return notFound(ctx, `${key}/${id}`);
  const answer = schemaAnswer(ctx);
  const selected = selectResponse(ctx.catalog, ctx.call.tool, ctx.status);
  const idField = existing ? idFieldFor(ctx, route, key, existing) : idFieldFor(ctx, route, key, isObject(answer.body) ? answer.body : undefined, selected.schemaPointer);
  const base: Json = existing ?? (isObject(answer.body) ? answer.body : {});
  const changes = isObject(requestBody) ? requestBody : {};
  // PATCH merges the changes into the resource; PUT replaces it with the request body, keeping the id and
  // the fields a client cannot send (`readOnly`: `createdAt`...).
  const merged: Json = method === "put" && existing ? { ...readOnlyFields(ctx, existing), ...changes } : { ...base, ...changes };
  merged[idField] = existing?.[idField] ?? (typeof base[idField] === "number" ? Number(rawId) || rawId : rawId);
  const shape = selected.schemaPointer !== undefined ? objectShape(ctx.catalog.registry, "response", selected.schemaPointer) : undefined;
  let body: unknown = answer.body;
  if (shape) {
    // The resource itself, completed from the synthesized body only where the schema requires it.
    const out: Json = {};
    for (const [k, v] of Object.entries(merged)) if (k in shape.properties || shape.open) out[k] = v;
    const fill = existing && isObject(answer.body) ? mergeDeep(answer.body, existing) : answer.body;
    body = conform(ctx, selected.schemaPointer, out, fill, new Set(Object.keys(changes)));
    if (isObject(body) && idField in body) Object.assign(merged, body);
  }
  ctx.state.put(key, id, merged, idField);
  return { ...answer, body, source: "state", notes: [`${method === "put" ? "replaced" : "updated"} ${key}/${id}`] };
}

/** The fields of a stored resource that the request body schema marks `readOnly`. */
function readOnlyFields(ctx: ResponseContext, resource: Json): Json {
  const body = ctx.call.tool.body;
  const shape = body?.schemaPointer !== undefined ? objectShape(ctx.catalog.registry, "request", body.schemaPointer) : undefined;
  const out: Json = {};
  for (const [k, pointer] of Object.entries(shape?.properties ?? {})) {
    const schema = ctx.catalog.registry.at("request", pointer);
    if (k in resource && isObject(schema) && schema["readOnly"] === true) out[k] = resource[k];
  }
  return out;
}

function remove(ctx: ResponseContext, route: ResourceRoute, key: string, id: string): ResponderAnswer {
  const existed = ctx.state.get(key, id) !== undefined;
  if (!existed && (ctx.state.isDeleted(key, id) || ctx.state.collection(key)?.authoritative)) return notFound(ctx, `${key}/${id}`);
  ctx.state.delete(key, id, idFieldFor(ctx, route, key));
  const answer = schemaAnswer(ctx);
  return { ...answer, source: "state", notes: [`deleted ${key}/${id}`] };
}

/**
 * A singleton (`/me`): the first read (fixtures, else the read operation's example or synthesis) is kept;
 * PATCH merges the changes into it, PUT replaces what a client can send; later reads return what was kept.
 */
function singleton(ctx: ResponseContext, route: SingletonRoute): ResponderAnswer | undefined {
  const method = ctx.call.tool.operation.method;
  const key = ctx.call.request.path;
  const selected = selectResponse(ctx.catalog, ctx.call.tool, ctx.status);
  const stored = ctx.state.singleton(key);
  if (method === "get") {
    if (stored) {
      let body: unknown = stored;
      if (selected.schemaPointer !== undefined && !ctx.catalog.registry.validatorAt("response", selected.schemaPointer)(stored)) {
        body = conform(ctx, selected.schemaPointer, stored, schemaAnswer(ctx, selected).body);
      }
      return { status: selected.status, body: structuredClone(body), ...(selected.mediaType ? { contentType: selected.mediaType } : {}), source: "state" };
    }
    const answer = schemaAnswer(ctx, selected);
    if (!isObject(answer.body)) return undefined;
    ctx.state.putSingleton(key, structuredClone(answer.body));
    return { ...answer, notes: [...(answer.notes ?? []), `remembered ${key} in state`] };
  }
  if (method !== "put" && method !== "patch") return undefined;
  const changes = ctx.call.body;
  if (!isObject(changes)) return undefined;
  let base = stored;
  if (!base) {
    // Never read yet: what a read would have answered first.
    const first = schemaAnswer({ ...ctx, call: { ...ctx.call, tool: route.read, args: {}, body: undefined } });
    base = isObject(first.body) ? first.body : {};
  }
  const merged: Json = method === "patch" ? { ...base, ...changes } : { ...unsendableFields(ctx, base), ...changes };
  const answer = schemaAnswer(ctx, selected);
  const notes = [`${method === "put" ? "replaced" : "updated"} ${key}`];
  const shape = selected.schemaPointer !== undefined ? objectShape(ctx.catalog.registry, "response", selected.schemaPointer) : undefined;
  // The answer is the resource when the update answers with one (the fields of what was read); else the spec's own answer.
  if (!shape || !Object.keys(shape.properties).some((k) => k in base)) {
    ctx.state.putSingleton(key, merged);
    return { ...answer, source: "state", notes: [...(answer.notes ?? []), ...notes] };
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(merged)) if (k in shape.properties || shape.open) out[k] = v;
  const body = conform(ctx, selected.schemaPointer, out, isObject(answer.body) ? mergeDeep(answer.body, base) : answer.body, new Set(Object.keys(changes)));
  if (isObject(body)) for (const [k, v] of Object.entries(body)) if (!(k in merged)) merged[k] = v;
  ctx.state.putSingleton(key, merged);
  return { ...answer, body: structuredClone(body), source: "state", notes };
}

/** The fields of a resource a client cannot send with PUT: those the request body does not declare, and `readOnly` ones. */
function unsendableFields(ctx: ResponseContext, resource: Json): Json {
  const body = ctx.call.tool.body;
  const shape = body?.schemaPointer !== undefined ? objectShape(ctx.catalog.registry, "request", body.schemaPointer) : undefined;
  if (!shape) return {};
  const out: Json = readOnlyFields(ctx, resource);
  for (const [k, v] of Object.entries(resource)) if (!(k in shape.properties)) out[k] = v;
  return out;
}

