import { isObject, pointerSegment, type Json } from "../../json-object.js";
/**
 * Lists that repeat a record: a synthesized list whose items were all drawn from one example, or copies that
 * differ only in their ids (`[{date: 2025-05-29, dayCount: 4}, {date: 2025-05-29, dayCount: 4}]`, two "Amsterdam"
 * with one population). A real service lists each record once; the later copies are left out.
 */

const ID_KEY = /^(id|uuid|guid|key|slug|ref|href|url|uri|link)$|_(id|uuid|key|ref|href|url|uri|link)$/i;
const CAMEL_ID_KEY = /[a-z0-9](Id|ID|Uuid|Key|Ref|Href|Url|URL|Uri|Link)$/;

const idKeys = new Map<string, boolean>();

function isIdKey(k: string): boolean {
  let hit = idKeys.get(k);
  if (hit === undefined) {
    hit = ID_KEY.test(k) || CAMEL_ID_KEY.test(k);
    if (idKeys.size > 10_000) idKeys.clear();
    idKeys.set(k, hit);
  }
  return hit;
}
const IDENTITY_KEY = /^(name|title|displayname|display_name|label|headline|text|fullname|full_name|summary|description|word|term|question)$/i;

function scalar(v: unknown): boolean {
  return v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

/** A value without its ids, as text: two records that differ only in ids (nested ones too) read the same. */
function withoutIds(v: unknown, depth = 0): string {
  if (depth > 8) return "";
  if (Array.isArray(v)) return `[${v.map((x) => withoutIds(x, depth + 1)).join(",")}]`;
  if (isObject(v)) return `{${Object.keys(v).filter((k) => !isIdKey(k)).map((k) => `${k}:${withoutIds(v[k], depth + 1)}`).join(",")}}`;
  return JSON.stringify(v) ?? "";
}

/**
 * Whether `b` repeats `a`: every field other than ids is the same (nested values too, ids left out), or they
 * share a name (title, text ...) and at least half of their other fields.
 */
export function repeatsRecord(a: Json, b: Json): boolean {
  let scalars = 0;
  let scalarsEqual = 0;
  let sharedName = false;
  let others = 0;
  let othersEqual = 0;
  const structured: string[] = [];
  for (const k of keysOf(a, b)) {
    const va = a[k];
    const vb = b[k];
    if (!scalar(va) && !scalar(vb)) {
      structured.push(k);
      continue;
    }
    scalars++;
    const same = va === vb;
    if (same) scalarsEqual++;
    if (IDENTITY_KEY.test(k) && typeof va === "string" && va.trim() !== "") {
      if (same) sharedName = true;
    } else {
      others++;
      if (same) othersEqual++;
    }
  }
  if (scalars === 0) return false;
  // Cheap verdicts first: nested values are compared (as text, ids left out) only when they can decide.
  const allScalarsEqual = scalarsEqual === scalars;
  const byName = sharedName && ((others + structured.length) === 0 || (othersEqual + structured.length) * 2 >= others + structured.length);
  if (!allScalarsEqual && !byName) return false;
  let structuredEqual = 0;
  for (const k of structured) if (withoutIds(a[k]) === withoutIds(b[k])) structuredEqual++;
  if (allScalarsEqual && structuredEqual === structured.length) return true;
  return sharedName && ((others + structured.length) === 0 || (othersEqual + structuredEqual) * 2 >= others + structured.length);
}

function keysOf(a: Json, b: Json): string[] {
  const keys: string[] = [];
  for (const k in a) if (!isIdKey(k)) keys.push(k);
  for (const k in b) if (!(k in a) && !isIdKey(k)) keys.push(k);
  return keys;
}

/** Pointers (`/results/2`) of the list items that repeat an earlier item of their list, deepest lists first. */
export function repeatedItems(value: unknown): string[] {
  const out: string[] = [];
  collectRepeated(value, [], 0, out);
  return out;
}

/** The pointer of a path of keys and indexes. */
function pointerOf(path: readonly (string | number)[]): string {
  let p = "";
  for (const s of path) p += `/${typeof s === "number" ? s : pointerSegment(s)}`;
  return p;
}

/** Adds to `out` the pointers of repeated items under `value` (at `path`); a pointer is written only for a hit. */
function collectRepeated(value: unknown, path: Array<string | number>, depth: number, out: string[]): void {
  if (depth > 12) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v !== "object" || v === null) continue;
      path.push(i);
      collectRepeated(v, path, depth + 1, out);
      path.pop();
    }
    // A long list is a stored collection or a page of one, not a synthesized copy of an example: left as it is.
    if (value.length > 200 || value.length < 2) return;
    const kept: Json[] = [];
    const words = new Set<string>();
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      // A list of words (`types: [public, public]`) names each once too.
      if (typeof v === "string") {
        if (words.has(v)) out.push(`${pointerOf(path)}/${i}`);
        words.add(v);
        continue;
      }
      if (!isObject(v)) continue;
      if (kept.some((k) => repeatsRecord(k, v))) out.push(`${pointerOf(path)}/${i}`);
      else kept.push(v);
    }
  } else if (isObject(value)) {
    for (const k in value) {
      const v = value[k];
      if (typeof v !== "object" || v === null) continue;
      path.push(k);
      collectRepeated(v, path, depth + 1, out);
      path.pop();
    }
  }
}

function holderOf(root: unknown, pointer: string): unknown {
  let v: unknown = root;
  for (const p of pointer.split("/").slice(1)) {
    const k = p.replace(/~1/g, "/").replace(/~0/g, "~");
    v = Array.isArray(v) ? v[Number(k)] : isObject(v) ? v[k] : undefined;
  }
  return v;
}

/**
 * The value without the list items that repeat an earlier one (changed in place), when it still `fits`
 * (the schema's `minItems`); the value as it was otherwise. Returns whether anything was left out.
 */
export function dropRepeatedItems(value: unknown, fits: (v: unknown) => boolean): boolean {
  const repeated = repeatedItems(value);
  if (repeated.length === 0) return false;
  const removed: Array<{ list: unknown[]; index: number; item: unknown }> = [];
  // Deeper lists first, and later items first, so that the pointers still left stay valid.
  const split = (p: string): [string, number] => [p.slice(0, p.lastIndexOf("/")), Number(p.slice(p.lastIndexOf("/") + 1))];
  const order = repeated.map(split).sort((x, y) => (x[0] === y[0] ? y[1] - x[1] : y[0].split("/").length - x[0].split("/").length || (x[0] < y[0] ? -1 : 1)));
  for (const [listPointer, index] of order) {
    const list = holderOf(value, listPointer);
    if (!Array.isArray(list) || index >= list.length) continue;
    removed.push({ list, index, item: list[index] });
    list.splice(index, 1);
  }
  if (fits(value)) return removed.length > 0;
  for (const r of removed.reverse()) r.list.splice(r.index, 0, r.item);
  return false;
}
