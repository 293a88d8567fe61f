import type { Catalog } from "../../catalog/catalog.js";
import type { Json } from "../../json-object.js";
import { isSuccessKey } from "../../call/select-response.js";
import { examplesOf } from "../response-examples.js";
import { selectedResponse } from "../response-cache.js";
import { answerRecords } from "./entity-memory.js";

/**
 * The records a spec's own response examples show, by noun and id: a search example's hits, a list example's
 * items, a read's example. A synthesized answer about one of those ids (a field example such as `id: 48213` is
 * drawn often) agrees with what the spec says of it, as an answer agrees with what the episode showed: recipe
 * 48213 is the Indian curry for 4 of the search example, not an Italian one for 6. A field two examples give
 * differently is left out (the spec does not say which holds). Built once per catalog, up to `MAX_RECORDS`.
 */

/** Records kept per catalog (a spec of thousands of operations keeps its first ones). */
const MAX_RECORDS = 5_000;

type Index = Map<string, Json>;

const indexes = new WeakMap<Catalog, Index>();

/** What the spec's examples say of a record (its scalar fields), if any example shows it. */
export function exampleRecord(catalog: Catalog, noun: string, id: string): Json | undefined {
  return indexOf(catalog).get(keyOf(noun, id));
}

/** Whether any example of the spec shows a record with an id. */
export function hasExampleRecords(catalog: Catalog): boolean {
  return indexOf(catalog).size > 0;
}

const idSets = new WeakMap<Catalog, ReadonlySet<string>>();

/**
 * Whether a value holds one of the examples' record ids under an id-like key (`id`, `uuid`, `bookId`), three levels
 * deep: a cheap look before the records of an answer are listed (most answers show none).
 */
export function mentionsExampleId(catalog: Catalog, value: unknown): boolean {
  let ids = idSets.get(catalog);
  if (ids === undefined) {
    ids = new Set([...indexOf(catalog).keys()].map((k) => k.slice(k.indexOf("\u0000") + 1)));
    idSets.set(catalog, ids);
  }
  return holdsId(value, ids, 0);
}

function holdsId(value: unknown, ids: ReadonlySet<string>, depth: number): boolean {
  if (depth > 4 || typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) {
    for (const v of value) if (holdsId(v, ids, depth + 1)) return true;
    return false;
  }
  for (const k in value) {
    const v = (value as Json)[k];
    if ((typeof v === "string" || typeof v === "number") && (k === "id" || k === "uuid" || /[a-z0-9](Id|ID|_id)$/.test(k)) && ids.has(String(v))) return true;
    if (typeof v === "object" && v !== null && holdsId(v, ids, depth + 1)) return true;
  }
  return false;
}

function keyOf(noun: string, id: string): string {
  return `${noun}\u0000${id}`;
}

function indexOf(catalog: Catalog): Index {
  let index = indexes.get(catalog);
  if (index === undefined) {
    index = buildIndex(catalog);
    indexes.set(catalog, index);
  }
  return index;
}

function buildIndex(catalog: Catalog): Index {
  const index: Index = new Map();
  const ambiguous = new Map<string, Set<string>>();
  for (const tool of catalog.tools) {
    const selected = selectedResponse(catalog, tool);
    if (selected.key === undefined || !isSuccessKey(selected.key)) continue;
    for (const example of examplesOf(catalog, selected)) {
      for (const r of answerRecords(example, tool.operation)) {
        const key = keyOf(r.noun, r.id);
        let known = index.get(key);
        if (known === undefined) {
          if (index.size >= MAX_RECORDS) continue;
          known = {};
          index.set(key, known);
        }
        const dropped = ambiguous.get(key) ?? new Set<string>();
        for (const [field, value] of Object.entries(r.record)) {
          if (value !== null && typeof value === "object") continue;
          if (dropped.has(field)) continue;
          if (!(field in known)) known[field] = value;
          else if (known[field] !== value) {
            delete known[field];
            dropped.add(field);
            ambiguous.set(key, dropped);
          }
        }
      }
    }
  }
  for (const [key, record] of index) if (Object.keys(record).length === 0) index.delete(key);
  return index;
}
