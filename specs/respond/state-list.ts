import { arrayItems, objectShape } from "../catalog/object-properties.js";
import type { ResponseContext } from "./responder.js";
import { bindingsOf, type Binding } from "./bindings/bindings.js";
import { checkBindings } from "./bindings/binding-check.js";
import { firstValue } from "../catalog/field-path.js";

/**
 * Lists answered from state: the items that pass the call's filters (by its bindings: filters, ranges,
 * searches; by name for parameters without one), then one page of them by the operation's own paging
 * parameters (`limit`/`offset`, `page`/`pageSize`, `per_page`, `top`/`skip`...), with totals counting every
 * match. A list operation with paging parameters answers its default page size when none is asked; one
 * without them answers at most `MAX_UNPAGED` items.
 */

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const LIMIT_ARGS = new Set(["limit", "per_page", "perPage", "pageSize", "page_size", "size", "count", "max", "maxResults", "max_results", "top", "$top", "n", "num", "first", "rows", "maxItems", "max_items", "itemsPerPage", "items_per_page", "resultsPerPage"]);
const OFFSET_ARGS = new Set(["offset", "skip", "$skip", "start", "startIndex", "start_index", "from"]);
const PAGE_ARGS = new Set(["page", "pageNumber", "page_number", "pageNo", "page_no", "p"]);
const SEARCH_ARGS = new Set(["q", "query", "search", "keyword", "keywords", "term", "text"]);
const LIST_FIELDS = ["items", "data", "results", "records", "entries", "list", "content", "values"];
const TOTAL_FIELDS = ["total", "count", "totalCount", "total_count", "totalResults", "total_results", "totalItems", "total_items", "totalElements", "numFound"];
/** Most items a list without paging parameters answers from state. */
export const MAX_UNPAGED = 1000;
const DEFAULT_PAGE = 20;

/** Where the items of a list body sit: the body itself, or its list field. */
export interface ListSlot {
  items: unknown[];
  field?: string;
}

/** The array of items in a list body (the body itself, or its first array-of-objects field) and where it sits. */
export function listSlot(body: unknown): ListSlot | undefined {
  if (Array.isArray(body)) return { items: body };
  if (!isObject(body)) return undefined;
  const arrayFields = Object.keys(body).filter((k) => Array.isArray(body[k]));
  const field = LIST_FIELDS.find((f) => arrayFields.includes(f)) ?? arrayFields[0];
  return field !== undefined ? { items: body[field] as unknown[], field } : undefined;
}

/** The pointer of the item schema of a list body (the body's own `items`, or those of its list field). */
export function listItemPointer(ctx: ResponseContext, schemaPointer: string | undefined, slot: { field?: string }): string | undefined {
  if (schemaPointer === undefined) return undefined;
  const registry = ctx.catalog.registry;
  if (slot.field === undefined) return arrayItems(registry, "response", schemaPointer);
  const fieldPointer = objectShape(registry, "response", schemaPointer)?.properties[slot.field];
  return fieldPointer !== undefined ? arrayItems(registry, "response", fieldPointer) : undefined;
}

/** A list body with other items; its total fields count `total` (every match, not just this page). */
export function withItems(body: unknown, slot: { field?: string }, items: unknown[], total = items.length, page?: PageRequest): unknown {
  if (slot.field === undefined) return items;
  const out: Json = { ...(body as Json), [slot.field]: items };
  for (const t of TOTAL_FIELDS) if (typeof out[t] === "number" && t !== slot.field) out[t] = total;
  if (page) {
    for (const k of ["hasMore", "has_more", "hasNext", "has_next", "more"]) if (typeof out[k] === "boolean") out[k] = page.offset + items.length < total;
    for (const k of ["totalPages", "total_pages", "pages", "pageCount", "page_count"]) if (typeof out[k] === "number" && page.limit !== undefined && page.limit > 0) out[k] = Math.max(1, Math.ceil(total / page.limit));
  }
  return out;
}

/** The page a list call asks for, by the operation's own paging parameters. */
export interface PageRequest {
  offset: number;
  limit?: number;
  /** Whether the call gave the page size (not the parameter's default). */
  limitGiven?: boolean;
}

/** A paging parameter of an operation: its argument, what it pages by, and its schema. */
interface PagingParam {
  arg: string;
  kind: "limit" | "offset" | "page";
  schema: Json | undefined;
}

/** The paging parameters of each tool (they depend on the spec alone). */
const pagingByTool = new WeakMap<ResponseContext["call"]["tool"], readonly PagingParam[]>();

function pagingParams(ctx: ResponseContext): readonly PagingParam[] {
  const tool = ctx.call.tool;
  let hit = pagingByTool.get(tool);
  if (hit !== undefined) return hit;
  const out: PagingParam[] = [];
  for (const p of tool.parameters) {
    if (p.in !== "query") continue;
    const kind = LIMIT_ARGS.has(p.name) ? "limit" : OFFSET_ARGS.has(p.name) && p.name !== "from" ? "offset" : PAGE_ARGS.has(p.name) ? "page" : undefined;
    if (kind === undefined) continue;
    const schema = p.schemaPointer !== undefined ? ctx.catalog.registry.resolve("request", p.schemaPointer).schema : undefined;
    if (isObject(schema) && schema["type"] !== undefined && schema["type"] !== "integer" && schema["type"] !== "number") continue;
    out.push({ arg: p.arg, kind, schema: isObject(schema) ? schema : undefined });
  }
  pagingByTool.set(tool, (hit = out));
  return hit;
}

/** The paging parameters of the operation and what the call asked: offset and page size (its default when not given). */
export function pageRequest(ctx: ResponseContext): PageRequest {
  let limit: number | undefined;
  let offset = 0;
  let page: number | undefined;
  let limitParam: Json | undefined;
  let given = false;
  const params = pagingParams(ctx);
  for (const p of params) {
    if (p.kind === "limit") limitParam = p.schema ?? {};
    const raw = ctx.call.args[p.arg];
    const v = typeof raw === "number" ? raw : typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : undefined;
    if (v === undefined) continue;
    if (p.kind === "limit") {
      limit = v;
      given = true;
    } else if (p.kind === "offset") offset = v;
    else page = v;
  }
  if (limit === undefined && limitParam !== undefined) {
    const d = limitParam["default"];
    const max = limitParam["maximum"];
    limit = typeof d === "number" ? d : typeof max === "number" ? Math.min(max, DEFAULT_PAGE) : DEFAULT_PAGE;
  }
  if (limit === undefined && params.length === 0) limit = MAX_UNPAGED;
  if (page !== undefined && limit !== undefined) offset = Math.max(0, page - 1) * limit;
  return { offset: Math.max(0, offset), ...(limit !== undefined ? { limit: Math.max(0, limit) } : {}), ...(given ? { limitGiven: true } : {}) };
}

/** Whether an item passes a filter by name: text filters match a part of the field, enum filters (`genre=fiction`) the whole value. */
function matchesByName(item: Json, name: string, value: unknown, exact: boolean): boolean {
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

const ITEM_KINDS = new Set<Binding["kind"]>(["filter", "range", "search"]);

/**
 * The items of a state list that pass the call's filters: each binding on this list's items (filters,
 * ranges, searches) must hold for the item; query parameters without a binding filter by name.
 */
export function filterItems(ctx: ResponseContext, items: readonly Json[], slot: { field?: string }): readonly Json[] {
  const listPath = slot.field === undefined ? "[]" : `${slot.field}[]`;
  const onList = bindingsOf(ctx.catalog, ctx.call.tool).filter((b) => {
    if (!ITEM_KINDS.has(b.kind)) return false;
    const fields = b.kind === "search" ? b.fields : "field" in b && b.field !== undefined ? [b.field] : [];
    return fields.some((f) => f.startsWith(`${listPath}.`) || f === listPath);
  });
  const bound = new Set(onList.map((b) => ("arg" in b ? b.arg : "")));
  // A binding whose argument the call left out holds for every item (checkBindings judges given arguments only).
  const given = (arg: string | undefined): boolean => {
    const v = arg === undefined ? undefined : firstValue(ctx.call.args, arg);
    return v !== undefined && v !== null && v !== "";
  };
  const bindings = onList.filter((b) => !("arg" in b) || given(b.arg));
  let out = items;
  if (bindings.length > 0) {
    out = out.filter((item) => checkBindings(bindings, ctx.call.args, slot.field === undefined ? [item] : { [slot.field]: [item] }).length === 0);
  }
  for (const p of ctx.call.tool.parameters) {
    if (p.in !== "query" || bound.has(p.arg) || LIMIT_ARGS.has(p.name) || OFFSET_ARGS.has(p.name) || PAGE_ARGS.has(p.name)) continue;
    const v = ctx.call.args[p.arg];
    if (v === undefined || v === null || v === "" || typeof v === "object") continue;
    const schema = p.schemaPointer !== undefined ? ctx.catalog.registry.resolve("request", p.schemaPointer).schema : undefined;
    const exact = isObject(schema) && Array.isArray(schema["enum"]);
    out = out.filter((item) => matchesByName(item, p.name, v, exact));
  }
  return out;
}

/** One page of the items that pass the filters, and how many passed. */
export function selectPage(ctx: ResponseContext, items: readonly Json[], slot: { field?: string }): { page: Json[]; total: number; request: PageRequest } {
  const passed = filterItems(ctx, items, slot);
  const request = pageRequest(ctx);
  const page = passed.slice(request.offset, request.limit !== undefined ? request.offset + request.limit : undefined);
  return { page, total: passed.length, request };
}
