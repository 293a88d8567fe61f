import { isObject, type Json } from "../../specs/json-object.js";

/**
 * Lists whose records share a name: two items with different ids and the same `name` or `title` (every persona
 * called "Deftly-D", the trace of a spec's one example copied into each item). A reader takes them for copies.
 */

/** Fields that name a record. */
const NAME_FIELDS = ["name", "title", "display_name", "displayName", "full_name", "fullName", "label"];
/** Fields that hold a record's id. */
const ID_FIELDS = ["id", "uuid", "key", "slug"];

/** One list of named records: its path, and the name its different records share (undefined: none). */
export interface NamedList {
  path: string;
  shared?: { field: string; value: string };
}

function idOf(record: Json): string | undefined {
  for (const k of ID_FIELDS) {
    const v = record[k];
    if (typeof v === "string" || typeof v === "number") return String(v);
  }
  return undefined;
}

/** The lists of named records in a value (two or more items that have ids), each with the name its records share. */
export function namedLists(value: unknown, path = "", depth = 0, out: NamedList[] = []): NamedList[] {
  if (depth > 8) return out;
  if (Array.isArray(value)) {
    const records = value.filter(isObject).filter((r) => idOf(r) !== undefined);
    const field = NAME_FIELDS.find((f) => records.filter((r) => typeof r[f] === "string").length >= 2);
    if (records.length >= 2 && field !== undefined) {
      const seen = new Map<string, string>();
      let shared: NamedList["shared"];
      for (const r of records) {
        const name = r[field];
        const id = idOf(r) as string;
        if (typeof name !== "string") continue;
        const other = seen.get(name);
        if (other !== undefined && other !== id) shared ??= { field, value: name };
        else seen.set(name, id);
      }
      out.push({ path, ...(shared ? { shared } : {}) });
    }
    value.forEach((v, i) => namedLists(v, `${path}[${i}]`, depth + 1, out));
    return out;
  }
  if (isObject(value)) for (const [k, v] of Object.entries(value)) if (typeof v === "object" && v !== null) namedLists(v, path === "" ? k : `${path}.${k}`, depth + 1, out);
  return out;
}
