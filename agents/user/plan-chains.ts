import type { Catalog } from "../../specs/catalog/catalog.js";
import { LINKABLE_LAST_WORDS, RECORD_ID_FIELDS } from "../language/lexicon/names.js";
import { wholeWord } from "../language/word-patterns.js";
import { arrayItems, objectShape } from "../../specs/catalog/object-properties.js";
import { resourceRoute } from "../../specs/catalog/resource-routes.js";
import { responseExamples } from "../../specs/respond/schema-responder.js";
import { selectResponse } from "../../specs/call/select-response.js";
import type { Tool } from "../../specs/catalog/tool.js";
import { toolArguments } from "../assistant/tool-arguments.js";
import type { Toolbox, ToolboxEntry } from "../roles/toolbox.js";
import { coordinateOf, isIdName } from "../language/value-phrase.js";
import { humanize, identifierWords, singular } from "../language/words.js";
import { isObject } from "../../specs/json-object.js";

/** A record's id field (`id`, `slug`), any case. */
const RECORD_ID = wholeWord(RECORD_ID_FIELDS);

/** How the earlier step of a chain produces the value: a search or list result, a created resource, or a looked-up one. */
export type ChainKind = "search" | "create" | "lookup";

/** Two tools that chain: a field of the first one's response feeds required arguments of the second. */
export interface ChainCandidate {
  from: ToolboxEntry;
  to: ToolboxEntry;
  /** The arguments of `to` and the response fields of `from` (dot paths, `items.0.id`) they come from. */
  links: { arg: string; field: string }[];
  kind: ChainKind;
  /** True when the links name the earlier item itself (its id), false for a field of it (its company's id). */
  direct: boolean;
  /** True when the links are coordinates (the place the earlier result is at). */
  coordinates: boolean;
  /** What the linked value identifies, in words (`company`, `recipe`). */
  noun: string;
}

/** A field of a response body: its dot path, its name, and the schema (or parent property) it belongs to. */
export interface ResponseField {
  path: string[];
  name: string;
  owner: string;
  type?: string;
}

function typeOf(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  const t = schema["type"];
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === "string" && x !== "null");
  return undefined;
}

const MAX_DEPTH = 4;
const fieldCache = new WeakMap<Tool, ResponseField[]>();

/** The fields of a tool's success response body, through objects and arrays (`items.0.id`), a few levels deep. */
export function responseFields(catalog: Catalog, tool: Tool): ResponseField[] {
  const hit = fieldCache.get(tool);
  if (hit) return hit;
  const out: ResponseField[] = [];
  const selected = selectResponse(catalog, tool);
  const registry = catalog.registry;
  const walk = (pointer: string, path: string[], owner: string, depth: number, seen: ReadonlySet<string>): void => {
    if (depth > MAX_DEPTH) return;
    const { pointer: at } = registry.resolve("response", pointer);
    if (seen.has(at)) return;
    const inside = new Set(seen).add(at);
    const refName = /\/components\/schemas\/([^/]+)$/.exec(at)?.[1];
    const here = refName !== undefined ? decodeURIComponent(refName) : owner;
    const items = arrayItems(registry, "response", at);
    if (items !== undefined) {
      walk(items, [...path, "0"], singular(here), depth + 1, inside);
      return;
    }
    const shape = objectShape(registry, "response", at);
    if (!shape) return;
    for (const [name, propPointer] of Object.entries(shape.properties)) {
      const { schema } = registry.resolve("response", propPointer);
      const type = typeOf(schema);
      out.push({ path: [...path, name], name, owner: here, ...(type !== undefined ? { type } : {}) });
      if (type === "object" || type === "array" || (type === undefined && isObject(schema) && (schema["properties"] !== undefined || schema["items"] !== undefined || schema["allOf"] !== undefined))) {
        walk(propPointer, [...path, name], name, depth + 1, inside);
      }
    }
  };
  if (selected.schemaPointer !== undefined) walk(selected.schemaPointer, [], "", 0, new Set());
  fieldCache.set(tool, out);
  return out;
}

/** The value at a dot path (`items.0.id`) of a body, if any. */
export function valueAt(body: unknown, path: string): unknown {
  let node = body;
  for (const seg of path.split(".")) {
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (isObject(node)) node = node[seg];
    else return undefined;
  }
  return node;
}

function norm(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function coordinateKey(name: string): string | undefined {
  const c = coordinateOf(name);
  return c === undefined ? undefined : `${norm(c.prefix)}${c.axis}`;
}

/** Arguments whose values come from earlier results: identifiers, codes, keys and coordinates. */
export function isLinkableName(name: string): boolean {
  const last = identifierWords(name).pop() ?? "";
  return isIdName(name) || LINKABLE_LAST_WORDS.includes(last) || coordinateOf(name) !== undefined;
}

/** The noun an argument's value identifies: `recipeId` -> `recipe`; a bare `id` -> the noun of the tool's collection. */
function stemOf(catalog: Catalog, tool: Tool, arg: string): string {
  const words = identifierWords(arg);
  const stem = words.slice(0, -1).join("");
  if (stem !== "") return stem;
  const route = resourceRoute(catalog, tool);
  const collection = route?.collection ?? tool.operation.path;
  const last = collection.split("/").filter((s) => s !== "" && !s.startsWith("{")).pop() ?? "";
  return norm(singular(last));
}

function typesFit(fieldType: string | undefined, argType: string | undefined, inBody: boolean): boolean {
  if (fieldType === undefined || argType === undefined || fieldType === argType) return true;
  const numeric = (t: string): boolean => t === "integer" || t === "number";
  if (numeric(fieldType) && numeric(argType)) return argType === "number" || fieldType === "integer";
  // Parameters are coerced from strings, so a number can feed a string parameter (never the reverse).
  return !inBody && argType === "string" && numeric(fieldType);
}

/** A tool that can start a chain, with its response fields indexed for matching. */
interface Source {
  tool: Tool;
  method: string;
  /** Normalized names of its own arguments. */
  argKeys: Set<string>;
  /** Scalar response fields by normalized name (coordinates by axis). */
  byKey: Map<string, IndexedField[]>;
  /** Scalar fields named `id`, `uuid`, `key` or `slug`. */
  idFields: IndexedField[];
}

interface IndexedField {
  field: ResponseField;
  key: string;
  owner: string;
}

function sourceOf(catalog: Catalog, tool: Tool): Source | undefined {
  const method = tool.operation.method;
  if (tool.deprecated || (method !== "get" && method !== "post")) return undefined;
  // A POST is a source only when it creates a resource (not an action such as "activate a scene").
  if (method === "post" && resourceRoute(catalog, tool)?.kind !== "collection") return undefined;
  const fields = responseFields(catalog, tool);
  if (fields.length === 0) return undefined;
  const byKey = new Map<string, IndexedField[]>();
  const idFields: IndexedField[] = [];
  for (const field of fields) {
    if (field.type === "object" || field.type === "array") continue;
    const indexed = { field, key: coordinateKey(field.name) ?? norm(field.name), owner: norm(singular(field.owner)) };
    const list = byKey.get(indexed.key);
    if (list) list.push(indexed);
    else byKey.set(indexed.key, [indexed]);
    if (RECORD_ID.test(field.name)) idFields.push(indexed);
  }
  return { tool, method, argKeys: new Set(toolArguments(catalog, tool).map((a) => norm(a.name))), byKey, idFields };
}

/** The best response field of a source for argument `arg` of a later tool, with its score. */
function bestField(source: Source, arg: string, stem: string, argType: string | undefined, inBody: boolean): { field: ResponseField; score: number; direct: boolean } | undefined {
  let best: { field: ResponseField; score: number; direct: boolean } | undefined;
  const argKey = coordinateKey(arg) ?? norm(arg);
  const stemKey = norm(stem);
  const idArg = isIdName(arg);
  const candidates = [...(source.byKey.get(argKey) ?? []), ...(idArg ? source.idFields : [])];
  for (const { field: f, key: fieldKey, owner } of candidates) {
    if (!typesFit(f.type, argType, inBody)) continue;
    let score = 0;
    if (fieldKey === argKey) score = 2.5;
    const ownerMatches = stemKey !== "" && owner !== "" && (owner.includes(stemKey) || stemKey.includes(owner));
    if (idArg && RECORD_ID.test(f.name) && ownerMatches) score = Math.max(score, 3);
    if (score === 0) continue;
    // Shallow fields first: `items.0.id` rather than `items.0.tracks.0.id`.
    score -= f.path.length * 0.1;
    // The same name (`countryCode`, `symbol`) names the same thing; an id names its owner's item.
    const direct = ownerMatches || (!idArg && fieldKey === argKey);
    if (!best || score > best.score) best = { field: f, score, direct };
  }
  return best;
}

/** A chain between two tools of one catalog (before the tools get their toolbox names). */
type CatalogChain = Omit<ChainCandidate, "from" | "to"> & { from: Tool; to: Tool };

const catalogCache = new WeakMap<Catalog, CatalogChain[]>();
const chainCache = new WeakMap<Toolbox, ChainCandidate[]>();

/**
 * Every chain the toolbox allows within one toolset: a search, list, create or read whose response has
 * a field (an id, a code, coordinates) that a later operation requires, such as search recipes -> get a
 * recipe by id, or create a playlist -> get the playlist.
 */
export function chainCandidates(toolbox: Toolbox): ChainCandidate[] {
  const hit = chainCache.get(toolbox);
  if (hit) return hit;
  const out: ChainCandidate[] = [];
  const toolsets = [...new Set(toolbox.entries.map((e) => e.toolset))];
  for (const toolset of toolsets) {
    const entries = toolbox.entries.filter((e) => e.toolset === toolset);
    const entryOf = new Map(entries.map((e) => [e.tool, e]));
    for (const chain of catalogChains(toolset.catalog)) {
      const from = entryOf.get(chain.from);
      const to = entryOf.get(chain.to);
      if (from && to) out.push({ ...chain, from, to });
    }
  }
  chainCache.set(toolbox, out);
  return out;
}

/** The chains between the tools of one catalog (computed once per catalog). */
export function catalogChains(catalog: Catalog): CatalogChain[] {
  const hit = catalogCache.get(catalog);
  if (hit) return hit;
  const out: CatalogChain[] = [];
  const sources = catalog.tools.map((t) => sourceOf(catalog, t)).filter((x): x is Source => x !== undefined);
  for (const to of catalog.tools) {
    if (to.deprecated) continue;
    const targets = toolArguments(catalog, to).filter((a) => a.required && !a.wrappedBody && (a.type === undefined || a.type === "string" || a.type === "integer" || a.type === "number") && isLinkableName(a.name));
    if (targets.length === 0) continue;
    const stems = new Map(targets.map((t) => [t.name, stemOf(catalog, to, t.name)]));
    for (const source of sources) {
      const from = source.tool;
      if (from === to) continue;
      const method = source.method;
      const fromArgs = source.argKeys;
      const links: { arg: string; field: string; path: string[]; direct: boolean; stem: string }[] = [];
      let known = 0;
      for (const target of targets) {
        // The user already knows a value the earlier call takes as input: no chain needed for it.
        if (fromArgs.has(norm(target.name))) {
          known++;
          continue;
        }
        const stem = stems.get(target.name) ?? "";
        const found = bestField(source, target.name, stem, target.type, target.in === "body");
        const noun = isIdName(target.name) ? identifierWords(target.name).slice(0, -1).join(" ") || stem : humanize(target.name);
        if (found) links.push({ arg: target.name, field: found.field.path.join("."), path: found.field.path, direct: found.direct, stem: noun });
      }
      // Coordinates come in pairs: link both or neither.
      const coordinateTargets = targets.filter((t) => coordinateOf(t.name) !== undefined && !fromArgs.has(norm(t.name)));
      const coordinateLinks = links.filter((l) => coordinateOf(l.arg) !== undefined);
      const kept = coordinateLinks.length > 0 && coordinateLinks.length < coordinateTargets.length ? links.filter((l) => coordinateOf(l.arg) === undefined) : links;
      // The same resource on both sides ("get book 5, then replace book 5"): not a chain.
      if (kept.length === 0 || known > 0) continue;
      // Coordinates the user gave to the earlier call are not learnt from its result.
      if (kept.every((l) => coordinateOf(l.arg) !== undefined) && [...fromArgs].some((a) => coordinateOf(a) !== undefined || /(lat|lon|lng)$/.test(a))) continue;
      // All links of one chain come from the same item of the earlier result.
      const firstPath = kept[0]?.path ?? [];
      const arrayAt = firstPath.indexOf("0");
      const prefix = arrayAt >= 0 ? firstPath.slice(0, arrayAt + 1).join(".") : "";
      const consistent = kept.filter((l) => prefix === "" || l.field.startsWith(prefix + "."));
      if (consistent.length === 0) continue;
      const kind: ChainKind = method === "post" ? "create" : consistent.some((l) => l.path.includes("0")) ? "search" : "lookup";
      const arrays = Math.max(...consistent.map((l) => l.path.filter((p) => p === "0").length));
      // A created resource is referred to by its own fields; a search by one item of one list.
      if ((kind === "create" && arrays > 0) || arrays > 1) continue;
      const coordinates = consistent.every((l) => coordinateOf(l.arg) !== undefined);
      const direct = consistent.every((l) => l.direct);
      // Changing, deleting or creating from an earlier result only makes sense for the result itself.
      const toMethod = to.operation.method;
      if (toMethod !== "get" && !direct) continue;
      if (toMethod === "post") {
        // Creating from a search result: something else that refers to it (apply to a job, book an offer).
        const ownNoun = stemOf(catalog, to, "id");
        if (kind !== "search" || !consistent.every((l) => isIdName(l.arg) && identifierWords(l.arg).length > 1 && norm(l.stem) !== ownNoun)) continue;
      }
      // When the spec shows what the earlier call answers, the field must be in one of its examples
      // (a search whose example has an empty `artists` list cannot give an artist's id).
      const examples = responseExamples(catalog, selectResponse(catalog, from));
      if (examples.length > 0 && !examples.some((ex) => consistent.every((l) => valueAt(ex, l.field) !== undefined))) continue;
      const noun = consistent.find((l) => coordinateOf(l.arg) === undefined)?.stem ?? "place";
      out.push({ from, to, links: consistent.map(({ arg, field }) => ({ arg, field })), kind, direct, coordinates, noun });
    }
  }
  catalogCache.set(catalog, out);
  return out;
}
