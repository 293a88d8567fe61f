import { cloneJson } from "../synthesize/synthesis-rules.js";
import type { Responder, ResponderAnswer, ResponseContext } from "./responder.js";
import { resourceRoute, singletonRoute, type ResourceRoute, type SingletonRoute } from "../catalog/resource-routes.js";
import { schemaAnswer } from "./schema-responder.js";
import type { SelectedResponse } from "../call/select-response.js";
import { selectedResponse } from "./response-cache.js";
import { arrayItems, objectShape, type ObjectShape } from "../catalog/object-properties.js";
import { guessIdField } from "./resource-store.js";
import { deriveSeed } from "../seed.js";
import { synthesize } from "../synthesize/synthesize.js";
import { freshStringId, renamedSlug } from "./fresh-id.js";
import { answerRecords } from "./world/entity-memory.js";
import { exampleRecord } from "./world/example-records.js";
import { completeRequired, settleOmitted } from "./created-resource.js";
import { obeyBindings } from "./bindings/obey-bindings.js";
import { askedViews, obeyPlan } from "./bindings/obey-plan.js";
import { isSessionOperation, sessionFields } from "./world/session-user.js";
import type { ParameterBinding, Tool } from "../catalog/tool.js";
import { listItemPointer, listSlot, selectPage, withItems } from "./state-list.js";
import { consumeStock, errorAnswer, guardWrite } from "./state-guards.js";
import { bindingsOf, type EffectBinding } from "./bindings/bindings.js";
import { worldOf } from "./world-settings.js";
import { isObject, type Json } from "../json-object.js";

const PAGING_ARGS = new Set(["limit", "per_page", "perPage", "pageSize", "page_size", "size", "count", "max", "maxResults", "max_results", "top", "n", "num", "offset", "skip", "start", "page", "pageNumber", "page_number"]);

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
  const selected = selectedResponse(ctx.catalog, ctx.call.tool, 404);
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
    known: { has: (id: string) => ctx.state.hasId(key, id) },
    maxOfShape: (prefix, suffix) => ctx.state.maxOfShape(key, prefix, suffix),
    fits: (id) => checks.every((check) => check(id)),
    ...(format !== undefined ? { format } : {}),
    seed: ctx.seed,
    ...(idPointer !== undefined ? { synthesize: (seed: number) => synthesize(registry, "response", idPointer, { seed }).value } : {}),
  });
  return fresh ?? uniqueStringId(ctx, key, candidate);
}

/**
 * Where a model id is a slug of its record's name (`scn-leaving-home` of the example's "Leaving home"), the slug of
 * the new record's name; else the model id. The model's name is the stored record's, else the spec's examples'.
 */
function slugOfName(ctx: ResponseContext, key: string, answer: unknown, shape: ObjectShape | undefined, requestBody: Json, candidate: string): string {
  const field = ["name", "title", "displayName", "label"].find((k) => typeof requestBody[k] === "string");
  if (field === undefined) return candidate;
  const noun = answerRecords(answer, ctx.call.tool.operation).find((r) => r.id === candidate)?.noun;
  const model = ctx.state.get(key, candidate) ?? (noun !== undefined ? exampleRecord(ctx.catalog, noun, candidate) : undefined);
  // A synthesized record's id and name come from the schema's examples of its fields (`scn-leaving-home`, "Leaving home").
  const at = shape?.properties[field];
  const schema = at !== undefined ? ctx.catalog.registry.resolve("response", at).schema : undefined;
  const fieldExamples = isObject(schema) ? [schema["example"], ...(Array.isArray(schema["examples"]) ? schema["examples"] : [])] : [];
  for (const name of [model?.[field], ...fieldExamples]) {
    const slug = renamedSlug(candidate, name, requestBody[field]);
    if (slug !== undefined) return slug;
  }
  return candidate;
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

/** An action on an item (`POST /rides/{rideId}/cancel`): the item route it acts on, and the id parameter. */
interface ActionRoute {
  item: ResourceRoute;
  collectionKey: string;
  id: string;
  rawId: unknown;
}

/** The item an action path acts on (`/rides/{rideId}/cancel` -> `/rides/{rideId}`), when that is an item route. */
function actionRoute(ctx: ResponseContext): ActionRoute | undefined {
  const tool = ctx.call.tool;
  if (!["post", "put", "patch"].includes(tool.operation.method)) return undefined;
  const m = /^(.*\/\{([^}]+)\})\/[^/{}]+$/.exec(tool.operation.path);
  if (!m) return undefined;
  const itemPath = m[1] ?? "";
  const reader = ctx.catalog.tools.find((t: Tool) => t.operation.path === itemPath && t.operation.method === "get");
  const item = reader ? resourceRoute(ctx.catalog, reader) : undefined;
  if (!item || item.kind !== "item") return undefined;
  const param = tool.parameters.find((p) => p.in === "path" && p.name === m[2]);
  const rawId = param ? ctx.call.args[param.arg] : undefined;
  if (rawId === undefined || rawId === null) return undefined;
  const depth = ctx.call.request.path.split("/").length - 1;
  const collectionKey = ctx.call.request.path.split("/").slice(0, depth - 1).join("/") || "/";
  return { item, collectionKey, id: String(rawId), rawId };
}

/** Whether an unknown id of a collection is a 404: the collection is complete (fixtures) and the world is closed, or the id was deleted. */
function unknownIsMissing(ctx: ResponseContext, key: string, id: string): boolean {
  return ctx.state.isDeleted(key, id) || (ctx.state.collection(key)?.authoritative === true && worldOf(ctx.catalog).open !== true);
}

/**
 * Answers CRUD calls from the episode's state, inferred from paths: POST creates (the request body merged into a
 * synthesized resource, with a fresh id, its references and stock checked), GET reads what exists (or 404 in a
 * closed world), lists hold what exists, filtered by the call's bindings and paged by the operation's own
 * paging parameters, PUT/PATCH update, DELETE removes (or, when it answers with the resource and an effect,
 * acts on it), and actions (`POST /rides/{id}/cancel`) leave their effect on the item. Unknown items of open
 * collections are synthesized and remembered (boundedly), so later reads agree. Operations that are not CRUD
 * pass to the next responder.
 */
export const stateResponder: Responder = {
  name: "state",
  respond(ctx) {
    if (ctx.status !== undefined && (ctx.status < 200 || ctx.status > 299)) return undefined;
    const single = singletonRoute(ctx.catalog, ctx.call.tool);
    if (single) return singleton(ctx, single);
    const route = resourceRoute(ctx.catalog, ctx.call.tool);
    if (!route) {
      const action = actionRoute(ctx);
      return action ? act(ctx, action.item, action.collectionKey, action.id, action.rawId) : undefined;
    }
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
        return effectOf(ctx) ? act(ctx, route, key, id, rawId) : remove(ctx, route, key, id);
      default:
        return undefined;
    }
  },
};

function jsonAnswer(selected: SelectedResponse, body: unknown, notes: string[] = []): ResponderAnswer {
  return { status: selected.status, body, ...(selected.mediaType ? { contentType: selected.mediaType } : {}), source: "state", ...(notes.length > 0 ? { notes } : {}) };
}

/**
 * A synthesized record with the id asked for, where its schema has a place for it (a JSON:API document names its
 * `data.id`, not a root `id`): the body as it is otherwise.
 */
function withIdAt(ctx: ResponseContext, schemaPointer: string | undefined, body: Json, idField: string, rawId: unknown): Json {
  const shape = schemaPointer !== undefined ? objectShape(ctx.catalog.registry, "response", schemaPointer) : undefined;
  if (!Object.prototype.hasOwnProperty.call(body, idField) && shape !== undefined && !Object.prototype.hasOwnProperty.call(shape.properties, idField)) return body;
  return { ...body, [idField]: typeof body[idField] === "number" && typeof rawId !== "number" ? Number(rawId) || rawId : rawId };
}

/** The stored item of a collection, or one invented for an open world (remembered, boundedly); undefined when it is missing. */
function itemOrInvented(ctx: ResponseContext, route: ResourceRoute, key: string, id: string, rawId: unknown, reader: Tool): Json | undefined {
  const existing = ctx.state.get(key, id);
  if (existing) return existing;
  if (unknownIsMissing(ctx, key, id)) return undefined;
  const readCtx: ResponseContext = { ...ctx, call: { ...ctx.call, tool: reader, args: route.idParam ? { [route.idParam.arg]: rawId } : {}, body: undefined } };
  const selected = selectedResponse(ctx.catalog, reader);
  const answer = schemaAnswer(readCtx, selected);
  if (!isObject(answer.body)) return undefined;
  const idField = idFieldFor(ctx, route, key, answer.body, selected.schemaPointer);
  const withId = withIdAt(ctx, selected.schemaPointer, answer.body, idField, rawId);
  const conformed = conform(readCtx, selected.schemaPointer, withId, answer.body);
  const body = isObject(conformed) ? conformed : withId;
  ctx.state.put(key, id, body, idField, { invented: true });
  return body;
}

function read(ctx: ResponseContext, route: ResourceRoute, key: string, id: string, rawId: unknown): ResponderAnswer {
  const existing = ctx.state.get(key, id);
  const selected = selectedResponse(ctx.catalog, ctx.call.tool, ctx.status);
  if (existing) {
    let body: unknown = existing;
    if (selected.schemaPointer !== undefined && !ctx.catalog.registry.validatorAt("response", selected.schemaPointer)(existing)) {
      // Stored from a shorter view (a search result): complete it once, and remember the full record.
      body = conform(ctx, selected.schemaPointer, existing, schemaAnswer(ctx, selected).body);
      if (isObject(body)) ctx.state.put(key, id, body, idFieldFor(ctx, route, key, existing));
    }
    // Query parameters shape this answer only (`?servings=6`): obeyed, not kept.
    if (selected.schemaPointer !== undefined) body = obeyBindings(ctx, selected.schemaPointer, body, { synthesized: false, rewriteItems: false, recall: false });
    return jsonAnswer(selected, cloneJson(body));
  }
  if (unknownIsMissing(ctx, key, id)) return notFound(ctx, `${key}/${id}`);
  // Not seen yet (an open world): synthesize it (what earlier answers showed of it included) and remember it,
  // as it is: a view the call asks for (`?servings=6`) shapes this answer only, as for a stored record.
  const views = askedViews(obeyPlan(ctx.catalog, ctx.call.tool), ctx.call.args);
  if (views.length > 0 && selected.schemaPointer !== undefined) {
    const args = { ...ctx.call.args };
    for (const v of views) delete args[v.arg];
    const record = read({ ...ctx, call: { ...ctx.call, args } }, route, key, id, rawId);
    if (!isObject(record.body)) return record;
    const body = obeyBindings(ctx, selected.schemaPointer, cloneJson(record.body), { synthesized: false, rewriteItems: false, recall: false });
    return { ...record, body };
  }
  const answer = schemaAnswer(ctx, selected);
  if (isObject(answer.body)) {
    const idField = idFieldFor(ctx, route, key, answer.body, selected.schemaPointer);
    const withId = withIdAt(ctx, selected.schemaPointer, answer.body, idField, rawId);
    // The requested id is kept unless the schema rejects it (a `uuid` id asked for as "u1"): bodies always validate.
    const conformed = conform(ctx, selected.schemaPointer, withId, answer.body);
    const body = isObject(conformed) ? conformed : withId;
    ctx.state.put(key, id, body, idField, { invented: true });
    return { ...answer, body: cloneJson(body), notes: [...(answer.notes ?? []), "synthesized and remembered in state"] };
  }
  return answer;
}

function list(ctx: ResponseContext, route: ResourceRoute, key: string): ResponderAnswer {
  const selected = selectedResponse(ctx.catalog, ctx.call.tool, ctx.status);
  const known = ctx.state.collection(key);
  const answer = schemaAnswer(ctx, selected);
  const slot = listSlot(answer.body);
  if (!slot) return answer;
  if (known && (known.authoritative || known.items.size > 0 || known.deleted.size > 0)) {
    const { page, total, request } = selectPage(ctx, ctx.state.list(key), slot);
    let body = conform(ctx, selected.schemaPointer, withItems(answer.body, slot, page.map((i) => cloneJson(i)), total, request), answer.body);
    if (selected.schemaPointer !== undefined) body = obeyBindings(ctx, selected.schemaPointer, body, { synthesized: false, rewriteItems: false, recall: false });
    return { ...answer, body, source: "state", notes: [] };
  }
  // First look at this collection: the synthesized items were made to fit the call's bindings; a filter value
  // the item schema does not allow (outside an enum, 2.5 for an integer) matches no item. They are remembered.
  const filters = ctx.call.tool.parameters.filter((p) => p.in === "query" && !PAGING_ARGS.has(p.name));
  const bound = new Set(bindingsOf(ctx.catalog, ctx.call.tool).map((b) => ("arg" in b ? b.arg : "")));
  const registry = ctx.catalog.registry;
  const itemPointer = listItemPointer(ctx, selected.schemaPointer, slot);
  const validItem = itemPointer !== undefined ? registry.validatorAt("response", itemPointer) : undefined;
  let items: Json[] = [];
  for (const item of slot.items.filter(isObject)) {
    const copy = { ...item };
    let matchesAll = true;
    for (const p of filters) {
      const v = ctx.call.args[p.arg];
      if (v === undefined || v === null || bound.has(p.arg) || !(p.name in copy) || typeof copy[p.name] !== typeof v) continue;
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
      if (id !== undefined && id !== null && !ctx.state.isDeleted(key, String(id)) && !ctx.state.get(key, String(id))) ctx.state.put(key, String(id), item, idField, { invented: true });
    }
  }
  return { ...answer, body, notes: [...(answer.notes ?? []), "synthesized list remembered in state"] };
}

function create(ctx: ResponseContext, route: ResourceRoute, key: string): ResponderAnswer | undefined {
  const requestBody = ctx.call.body;
  if (!isObject(requestBody)) return undefined;
  const refused = guardWrite(ctx);
  if (refused) return refused;
  if (ctx.state.full()) return errorAnswer(ctx, [507, 503], `the simulated state is full (${ctx.state.itemCount} items): reset it or raise the limit`, "state full");
  const answer = schemaAnswer(ctx);
  const selected = selectedResponse(ctx.catalog, ctx.call.tool, ctx.status);
  const shape = selected.schemaPointer !== undefined ? objectShape(ctx.catalog.registry, "response", selected.schemaPointer) : undefined;
  const base: Json = isObject(answer.body) && shape ? answer.body : {};
  const idField = idFieldFor(ctx, route, key, Object.keys(base).length > 0 ? base : requestBody, selected.schemaPointer);
  // An answer whose schema has no place for the id is not the created record (`POST /company-overview` answers
  // `{companies, responseInfo}`): it is answered as it was made, and the record is stored without it.
  if (shape && !Object.prototype.hasOwnProperty.call(shape.properties, idField) && !(isObject(answer.body) && Object.prototype.hasOwnProperty.call(answer.body, idField))) {
    const id = requestBody[idField] ?? ctx.state.nextNumericId(key);
    if (!ctx.state.put(key, String(id), { ...requestBody, [idField]: id }, idField)) return errorAnswer(ctx, [507, 503], `the simulated state is full (${ctx.state.itemCount} items)`, "state full");
    return { ...answer, source: "state", notes: [`created ${key}/${String(id)} (the answer has no place for its id)`] };
  }
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
    else id = newStringId(ctx, route, key, slugOfName(ctx, key, answer.body, shape, requestBody, String(id)), shape?.properties[idField]);
    resource[idField] = id;
  }
  let conformed = shape ? conform(ctx, selected.schemaPointer, resource, answer.body, new Set(Object.keys(requestBody))) : undefined;
  // References carry the referenced resources' fields (a line's title and price), totals add up.
  if (isObject(conformed) && selected.schemaPointer !== undefined) conformed = obeyBindings(ctx, selected.schemaPointer, conformed, { synthesized: false, rewriteItems: false, recall: false, touch: "made" });
  const stored = isObject(conformed) ? conformed : { ...requestBody, [idField]: id };
  if (!ctx.state.put(key, String(id), stored, idField)) return errorAnswer(ctx, [507, 503], `the simulated state is full (${ctx.state.itemCount} items)`, "state full");
  consumeStock(ctx);
  let body = shape ? cloneJson(stored) : isObject(answer.body) && idField in answer.body ? { ...answer.body, [idField]: id } : answer.body;
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
  if (!existing && unknownIsMissing(ctx, key, id)) return notFound(ctx, `${key}/${id}`);
  const refused = guardWrite(ctx);
  if (refused) return refused;
  const answer = schemaAnswer(ctx);
  const selected = selectedResponse(ctx.catalog, ctx.call.tool, ctx.status);
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
    if (selected.schemaPointer !== undefined) body = obeyBindings(ctx, selected.schemaPointer, body, { synthesized: false, rewriteItems: false, recall: false, touch: "changed" });
    if (isObject(body) && idField in body) Object.assign(merged, body);
  }
  ctx.state.put(key, id, merged, idField);
  return { ...answer, body, source: "state", notes: [`${method === "put" ? "replaced" : "updated"} ${key}/${id}`] };
}

/** The effect binding of the called operation, if it has one. */
function effectOf(ctx: ResponseContext): EffectBinding | undefined {
  return bindingsOf(ctx.catalog, ctx.call.tool).find((b): b is EffectBinding => b.kind === "effect");
}

/**
 * An action on an item (`POST /rides/{id}/cancel`, a `DELETE` that answers the cancelled booking): the item
 * (stored, or invented in an open world; else 404) takes the action's effect and is kept; the answer is the
 * item when the action answers with the resource, else the operation's own answer obeying its bindings.
 */
function act(ctx: ResponseContext, route: ResourceRoute, key: string, id: string, rawId: unknown): ResponderAnswer | undefined {
  const reader = ctx.catalog.tools.find((t) => t.operation.method === "get" && resourceRoute(ctx.catalog, t)?.kind === "item" && resourceRoute(ctx.catalog, t)?.collection === route.collection);
  const item = reader ? itemOrInvented(ctx, route, key, id, rawId, reader) : ctx.state.get(key, id);
  if (!item) return unknownIsMissing(ctx, key, id) ? notFound(ctx, `${key}/${id}`) : undefined;
  const refused = guardWrite(ctx);
  if (refused) return refused;
  const selected = selectedResponse(ctx.catalog, ctx.call.tool, ctx.status);
  const effect = effectOf(ctx);
  const idField = idFieldFor(ctx, route, key, item);
  const updated: Json = { ...item };
  // The effect's field on the item itself (`status`, or `booking.status` when the action wraps the resource).
  const effectField = effect ? (effect.field.split(".").pop() ?? effect.field) : undefined;
  if (effect && effectField !== undefined && (effectField in updated || !effect.field.includes("."))) updated[effectField] = effect.value;
  ctx.state.put(key, id, updated, idField);
  if (selected.schemaPointer === undefined) return { ...schemaAnswer(ctx, selected), source: "state", notes: [`acted on ${key}/${id}`] };
  const shape = objectShape(ctx.catalog.registry, "response", selected.schemaPointer);
  const answer = schemaAnswer(ctx, selected);
  const isResource = shape !== undefined && idField in shape.properties && Object.keys(updated).filter((k) => k in shape.properties).length >= Math.min(3, Object.keys(shape.properties).length);
  let body: unknown = answer.body;
  if (isResource) {
    const out: Json = {};
    for (const [k, v] of Object.entries(updated)) if (k in (shape?.properties ?? {}) || shape?.open) out[k] = v;
    body = conform(ctx, selected.schemaPointer, out, answer.body);
  }
  body = obeyBindings(ctx, selected.schemaPointer, body, { synthesized: false, rewriteItems: false, recall: !isResource });
  return { ...answer, body, source: "state", notes: [`${effect ? `${effect.field} = ${JSON.stringify(effect.value)} on` : "acted on"} ${key}/${id}`] };
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
  if (!existed && unknownIsMissing(ctx, key, id)) return notFound(ctx, `${key}/${id}`);
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
  const selected = selectedResponse(ctx.catalog, ctx.call.tool, ctx.status);
  let stored = ctx.state.singleton(key);
  // The caller's own record (`/me`) is the session's user: another login or registration since it was kept changes it.
  const session = stored && isSessionOperation(ctx) ? sessionFields(ctx, stored) : undefined;
  if (stored && session && Object.entries(session).some(([k, v]) => stored?.[k] !== v)) {
    stored = { ...stored, ...session };
    ctx.state.putSingleton(key, stored);
  }
  if (method === "get") {
    if (stored) {
      let body: unknown = stored;
      if (selected.schemaPointer !== undefined && !ctx.catalog.registry.validatorAt("response", selected.schemaPointer)(stored)) {
        body = conform(ctx, selected.schemaPointer, stored, schemaAnswer(ctx, selected).body);
      }
      return { status: selected.status, body: cloneJson(body), ...(selected.mediaType ? { contentType: selected.mediaType } : {}), source: "state" };
    }
    const answer = schemaAnswer(ctx, selected);
    if (!isObject(answer.body)) return undefined;
    ctx.state.putSingleton(key, answer.body as Json);
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
  return { ...answer, body: cloneJson(body), source: "state", notes };
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

