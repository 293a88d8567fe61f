import type { ResponseContext } from "../responder.js";
import { isObject, pointerSegment, type Json } from "../../json-object.js";
import { singularNoun } from "../../singular-noun.js";
import { snakeName } from "../../snake-name.js";

/**
 * The episode's memory of entities: every record with an id that an answer showed (a search result, a list
 * item, an object inside another) is remembered by its noun and id, so that a later answer about the same
 * record agrees with it: the album a search listed is the album read by its id, the user a login returned is
 * the user a token refresh returns. The state's collections come first (they are the truth for what was
 * created, updated or seeded); the memory is bounded (`ResourceStore.observe`).
 */

const GENERIC_LISTS = /^(items|data|results|records|entries|list|content|values|hits|rows|edges|nodes|objects|elements|docs|documents|response|payload|result)$/i;

/** The resource noun of a path: the literal segment before its last parameter, else its last literal one (`/orders/{id}/cancel` -> `order`). */
export function nounOfPath(path: string): string {
  let hit = nouns.get(path);
  if (hit === undefined) {
    hit = computeNoun(path);
    if (nouns.size > 10_000) nouns.clear();
    nouns.set(path, hit);
  }
  return hit;
}

const nouns = new Map<string, string>();

/** Last segments that say which records of a collection, not what they are (`/recipes/random`, `/articles/latest`). */
const QUALIFIERS = /^(random|latest|top|popular|featured|trending|recent|new|newest|next|upcoming|today|current|search|find|lookup|all|list|count|summary|stats|export|details|info|suggest|suggestions|autocomplete|nearby|similar|recommended|recommendations)$/i;

/** A format a path segment ends with (`/records.{format}`, `/users.json`): not part of its name. */
const EXTENSION = /\.(\{[^}]+\}|json|jsonp|xml|csv|tsv|txt|html?|ya?ml|js|rss|atom|geojson|kml|gpx|pdf)$/i;

function computeNoun(path: string): string {
  const segments = path.split("/").filter((s) => s !== "").map((s) => s.replace(EXTENSION, ""));
  // `/recipes/random` answers recipes.
  while (segments.length > 1 && QUALIFIERS.test(segments[segments.length - 1] ?? "") && !(segments[segments.length - 2] ?? "").includes("{")) segments.pop();
  let last = -1;
  segments.forEach((s, i) => {
    if (s.includes("{")) last = i;
  });
  const literal = last > 0 ? segments[last - 1] : [...segments].reverse().find((s) => !s.includes("{"));
  return singularNoun(literal ?? "");
}

/** The id of a record: `id`, `uuid`, `<noun>Id` or `<noun>_id`. */
export function recordId(record: Json, noun: string): string | undefined {
  for (const k of idKeysOf(noun)) {
    const v = record[k];
    if (typeof v === "string" || typeof v === "number") return String(v);
  }
  return undefined;
}

/** The one `<noun>Id` (or `<noun>_id`) field of a record that has no other id, as its noun and id. */
function ownIdOf(record: Json): { noun: string; id: string } | undefined {
  let found: { noun: string; id: string } | undefined;
  for (const k in record) {
    const m = /^([a-z][a-zA-Z]*?)(Id|_id)$/.exec(k);
    if (!m) continue;
    const v = record[k];
    if (found !== undefined || (typeof v !== "string" && typeof v !== "number")) return undefined;
    found = { noun: singularNoun(snakeName(m[1] as string).split("_").pop() ?? ""), id: String(v) };
  }
  return found !== undefined && found.noun !== "" ? found : undefined;
}

/** The names an id of a noun's record may have, in the order they are tried. */
function idKeysOf(noun: string): readonly string[] {
  let keys = idKeys.get(noun);
  if (keys === undefined) {
    keys = ["id", "uuid", `${noun}Id`, `${noun}_id`, `${noun}ID`];
    if (idKeys.size > 10_000) idKeys.clear();
    idKeys.set(noun, keys);
  }
  return keys;
}

const idKeys = new Map<string, readonly string[]>();

/** The noun of the records under a property (`books` -> `book`), or undefined for a generic list name (`items`, `data`). */
function nounOfKey(key: string): string | undefined {
  let hit = keyNouns.get(key);
  if (hit === undefined) {
    hit = GENERIC_LISTS.test(key) ? null : singularNoun(key);
    if (keyNouns.size > 10_000) keyNouns.clear();
    keyNouns.set(key, hit);
  }
  return hit ?? undefined;
}

const keyNouns = new Map<string, string | null>();

/** A record of an answer with an id, where it sits and what it is. */
export interface AnswerRecord {
  noun: string;
  id: string;
  record: Json;
  /** JSON pointer of the record in the answer. */
  pointer: string;
  /** Whether it is an item of a list (`/items/3`). */
  inList: boolean;
}

/** An operation as far as its records' noun goes: its path, and its id for a path that does not say (`/random`). */
export interface NounSource {
  path: string;
  operationId?: string;
}

/**
 * The noun of an operation's records: its path's (`/orders/{id}` -> `order`), or, for a path of a qualifier only
 * (`/random`, `/latest`), the last noun of its operation id (`getRandomRecipe` -> `recipe`).
 */
export function nounOfOperation(op: NounSource): string {
  const noun = nounOfPath(op.path);
  if (!QUALIFIERS.test(noun) || op.operationId === undefined) return noun;
  const words = snakeName(op.operationId).split("_").filter((w) => w !== "" && !QUALIFIERS.test(w));
  return words.length > 1 ? singularNoun(words[words.length - 1] as string) : noun;
}

/** The records with ids of an answer: the answer itself, its lists' items and the objects inside them (two levels). */
export function answerRecords(body: unknown, op: NounSource): AnswerRecord[] {
  const out: AnswerRecord[] = [];
  const pathNoun = nounOfOperation(op);
  const visit = (value: unknown, noun: string, pointer: string, inList: boolean, depth: number): void => {
    if (depth > 3) return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => visit(v, noun, `${pointer}/${i}`, true, depth + 1));
      return;
    }
    if (!isObject(value)) return;
    const id = recordId(value, noun);
    if (id !== undefined && noun !== "") out.push({ noun, id, record: value, pointer, inList });
    else if (id === undefined && (inList || depth === 0)) {
      // A hit that names itself by another noun's id, its only one (`placeId` of a geocode result).
      const own = ownIdOf(value);
      if (own !== undefined) out.push({ noun: own.noun, id: own.id, record: value, pointer, inList });
    }
    for (const k in value) {
      if (!Object.prototype.hasOwnProperty.call(value, k)) continue;
      const v = value[k];
      if (typeof v !== "object" || v === null) continue;
      const childNoun = nounOfKey(k) ?? (depth === 0 ? pathNoun : noun);
      visit(v, childNoun, `${pointer}/${pointerSegment(k)}`, false, depth + 1);
    }
  };
  visit(body, pathNoun, "", false, 0);
  return out;
}

/** Whether a field name may hold a record's id as {@link answerRecords} reads ids (`id`, `uuid`, `bookId`, `book_id`, `bookID`). */
function idLike(key: string): boolean {
  return key === "id" || key === "uuid" || key.endsWith("Id") || key.endsWith("_id") || key.endsWith("ID");
}

/**
 * Whether two items of one list of an answer may be the same record: they share an id-like value (under any id
 * field). Cheap, and never false where {@link answerRecords} would find two records of one list with one id.
 */
export function mayRepeatIds(value: unknown, depth = 0): boolean {
  if (depth > 3 || typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) {
    if (value.length >= 2) {
      const seen = new Set<string>();
      for (const item of value) {
        if (!isObject(item)) continue;
        const own = new Set<string>();
        for (const k in item) {
          const v = item[k];
          if ((typeof v === "string" || typeof v === "number") && idLike(k)) own.add(String(v));
        }
        for (const id of own) {
          if (seen.has(id)) return true;
          seen.add(id);
        }
      }
    }
    for (const item of value) if (mayRepeatIds(item, depth + 1)) return true;
    return false;
  }
  for (const k in value) if (Object.prototype.hasOwnProperty.call(value, k) && mayRepeatIds((value as Json)[k], depth + 1)) return true;
  return false;
}

/** The collection paths of the state whose noun is `noun` (`/books` for `book`). */
function collectionsOf(ctx: ResponseContext, noun: string): string[] {
  return ctx.state.keys().filter((k) => !k.includes("{") && singularNoun(k.slice(k.lastIndexOf("/") + 1)) === noun);
}

/** The state's item of a record (in a collection of its noun), if the state holds it. */
function storedRecord(ctx: ResponseContext, noun: string, id: string): Json | undefined {
  for (const key of collectionsOf(ctx, noun)) {
    const item = ctx.state.get(key, id);
    if (item) return item;
  }
  return undefined;
}

/** What the episode knows of a record: the state's item (a collection of its noun), else what an earlier answer showed. */
export function knownRecord(ctx: ResponseContext, noun: string, id: string): Json | undefined {
  return storedRecord(ctx, noun, id) ?? ctx.state.observed(noun, id);
}

/**
 * Remembers the records of a successful answer (scalar fields only: nested objects are records of their own), but
 * not the fields at `views` (pointers): what the call asked to see (`servings=6`) is not news about the record.
 */
export function observeAnswer(ctx: ResponseContext, body: unknown, views: ReadonlySet<string> = NO_VIEWS): void {
  if (!isObject(body) && !Array.isArray(body)) return;
  for (const r of answerRecords(body, ctx.call.tool.operation)) {
    // A record the state holds is known from there (a session's creates are not kept twice).
    if (storedRecord(ctx, r.noun, r.id) !== undefined) continue;
    const scalars: Json = {};
    for (const [k, v] of Object.entries(r.record)) if ((v === null || typeof v !== "object") && (views.size === 0 || !views.has(`${r.pointer}/${pointerSegment(k)}`))) scalars[k] = v;
    ctx.state.observe(r.noun, r.id, scalars);
  }
  for (const r of naturalRecords(body)) {
    const known: Json = {};
    for (const f of NATURAL_FIELDS) if (typeof r.record[f] === "string") known[f] = r.record[f];
    ctx.state.observe(`@${r.key}`, r.value, { ...(ctx.state.observed(`@${r.key}`, r.value) ?? {}), ...known });
  }
}

const NO_VIEWS: ReadonlySet<string> = new Set();

/** Keys that name a thing of the world whatever resource shows it (a search hit's and a quote's `symbol`). */
const NATURAL_KEYS = ["symbol", "ticker", "isbn", "isbn13", "iataCode", "iata", "icaoCode"];

/** Whether a field names which record an object is: an id (`id`, `uuid`, `bookId`, `book_id`) or a natural key (`symbol`). */
export function isIdentityField(name: string): boolean {
  let known = identityFields.get(name);
  if (known === undefined) {
    known = /^(id|uuid)$/i.test(name) || /[a-z0-9](Id|ID|_id)$/.test(name) || NATURAL_KEYS.includes(name);
    if (identityFields.size > 10_000) identityFields.clear();
    identityFields.set(name, known);
  }
  return known;
}

/** Field names already judged by {@link isIdentityField} (a field name is judged once). */
const identityFields = new Map<string, boolean>();
/** What such a thing is called and where it belongs: the same in every answer of an episode. */
export const NATURAL_FIELDS = ["name", "title", "exchange", "currency", "country", "city"];

/** An object of an answer named by a natural key, and where it sits. */
export interface NaturalRecord {
  key: string;
  value: string;
  record: Json;
  pointer: string;
}

/** The objects of an answer that a natural key names (`{symbol: NWRB, name: ...}`), four levels deep. */
export function naturalRecords(body: unknown): NaturalRecord[] {
  const out: NaturalRecord[] = [];
  const visit = (value: unknown, pointer: string, depth: number): void => {
    if (depth > 4) return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => visit(v, `${pointer}/${i}`, depth + 1));
      return;
    }
    if (!isObject(value)) return;
    const key = NATURAL_KEYS.find((k) => typeof value[k] === "string" && value[k] !== "");
    if (key !== undefined && NATURAL_FIELDS.some((f) => typeof value[f] === "string")) out.push({ key, value: value[key] as string, record: value, pointer });
    for (const [k, v] of Object.entries(value)) if (typeof v === "object" && v !== null) visit(v, `${pointer}/${pointerSegment(k)}`, depth + 1);
  };
  visit(body, "", 0);
  return out;
}

/** What the episode's earlier answers called the thing a natural key names. */
export function knownNatural(ctx: ResponseContext, r: NaturalRecord): Json | undefined {
  return ctx.state.observed(`@${r.key}`, r.value);
}
