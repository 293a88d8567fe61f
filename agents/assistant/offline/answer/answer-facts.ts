import { isObject, type Json } from "../../../../specs/json-object.js";
import { identifierWords, isIdName, singular } from "../../../../specs/words.js";
import { lemma, lexiconTags } from "../../../language/inflect.js";
import {
  FIELD_UNITS,
  FREE_TEXT_FIELDS,
  ID_LIKE_FIELDS,
  IMPORTANT_FIELD_WORDS,
  LABEL_FIELDS,
  NAME_FIELDS,
  NOISE_FIELD_PREFIXES,
  NOISE_FIELDS,
  PARENT_NOUN_FIELDS,
  QUOTED_LABEL_FIELDS,
  REQUEST_FILLER_WORDS,
} from "../../../language/lexicon/fields.js";
import { booleanClause, beFor } from "../../../language/field-clauses.js";
import { joinList } from "../../../language/words.js";

/*
 * What a result record says, as an answer says it: its facts as clauses that agree with their values ("the
 * author is X", "the authors are X and Y", "the servings are 4", "the fat is 15.8 g", "it expires in 3600"),
 * yes/no fields as words that fit the field ("the email is verified", "it is a holiday", "it is in stock"), its
 * label and id, chosen by what the request asks about.
 */

/** A string, number or boolean. */
export function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

const NOISE = new Set(NOISE_FIELDS);
const IMPORTANT = new Set(IMPORTANT_FIELD_WORDS);
const FREE_TEXT = new Set(FREE_TEXT_FIELDS);
const QUOTED_LABELS = new Set(QUOTED_LABEL_FIELDS);
const PARENT_NOUNS = new Set(PARENT_NOUN_FIELDS);
const FILLER = new Set(REQUEST_FILLER_WORDS);

function flat(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Whether a field is bookkeeping an answer never says (`createdAt`, `links`, `thumbnailUrl`). */
export function isNoiseField(key: string): boolean {
  const k = flat(key);
  return NOISE.has(k) || NOISE_FIELD_PREFIXES.some((p) => k.startsWith(p));
}

/** Whether a field identifies its record (`id`, `bookId`, `reference`, `code`). */
export function isIdField(key: string): boolean {
  return isIdName(key) || ID_LIKE_FIELDS.includes(key);
}

/** Whether a field is one an answer gives first (`totalPrice`, `status`). */
export function isImportantField(key: string): boolean {
  return identifierWords(key).some((w) => IMPORTANT.has(w) || IMPORTANT.has(singular(w)));
}

/** A value as the answer says it (undefined for what it does not say: nulls, empty strings, objects). */
export function say(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === "string") return v.trim() === "" ? undefined : v;
  if (typeof v === "number") return String(v);
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v) && v.length > 0 && v.length <= 5 && v.every(isScalar)) return joinList(v.map((x) => String(x)));
  return undefined;
}

function words(text: string): string[] {
  return identifierWords(text);
}

/** A field name in words: `feelsLike` -> "feels like", `dueAt` -> "due time", `temp.max` -> "max temp", `rates.USD` -> "USD rate". */
export function fieldWords(path: readonly string[]): string {
  const last = path[path.length - 1] ?? "";
  const parent = path[path.length - 2];
  if (parent !== undefined && /^[A-Z]{2,4}$/.test(last)) return `${last} ${words(singular(parent)).join(" ")}`;
  let w = words(last).join(" ").replace(/ at$/, " time").replace(/^is /, "");
  if (parent !== undefined && (PARENT_NOUNS.has(last) || /^(min|max)/.test(w))) {
    w = /^(min|max)$/.test(last) ? `${last} ${words(singular(parent)).join(" ")}` : `${words(singular(parent)).join(" ")} ${w}`;
  }
  return w.replace(/\bid\b/, "ID").replace(/\burl\b/, "URL");
}

/** A string value inside a sentence: free text quoted (so its own full stop stays its own). */
function inSentence(key: string, text: string): string {
  if (/"/.test(text)) return text;
  const free = FREE_TEXT.has(flat(key));
  // A sentence quoted inside an answer loses its own full stop (the answer's sentence goes on, or ends, after it).
  return (free && /\s/.test(text)) || /[.!?]$/.test(text) ? `"${text.replace(/\.$/, "")}"` : text;
}

/** Whether a field's first word is a verb in the third person ("expiresIn", "startsAt"): "it expires in 3600". */
function verbFirst(path: readonly string[]): string[] | undefined {
  const w = words(path[path.length - 1] ?? "");
  const first = w[0] ?? "";
  if (w.length < 2 || !first.endsWith("s")) return undefined;
  const tags = lexiconTags(first);
  const verbish = tags.includes("PresentTense") || lexiconTags(lemma(first)).includes("Infinitive");
  return verbish && !tags.includes("Plural") && !tags.includes("Singular") ? w : undefined;
}

/**
 * A fact as a clause: "the author is X", "the authors are X and Y", "the servings are 4", "the fat is 15.8 g",
 * "it expires in 3600", "the email is verified".
 */
export function factText(path: readonly string[], v: unknown, text: string): string {
  if (typeof v === "boolean") return booleanClause(path, v);
  const verb = verbFirst(path);
  if (verb) return `it ${verb.join(" ")} ${typeof v === "string" ? inSentence(path[path.length - 1] ?? "", text) : text}`;
  let field = fieldWords(path);
  const unit = typeof v === "number" ? FIELD_UNITS[field.split(" ").pop() ?? ""] : undefined;
  if (unit !== undefined && field.includes(" ")) {
    field = field.replace(/\s+\S+$/, "");
    return `the ${field} ${beFor(field)} ${text}${unit === "%" ? "%" : ` ${unit}`}`;
  }
  const list = Array.isArray(v);
  if (list && v.length === 1) field = field.replace(/(\w+)$/, (w) => singular(w));
  return `the ${field} ${beFor(field, v)} ${typeof v === "string" ? inSentence(path[path.length - 1] ?? "", text) : text}`;
}

/** A fact of a record, scored by how much the request wants it. */
interface Fact {
  path: string[];
  text: string;
  score: number;
}

/** The label of a record (its title or name) and where it sits. */
export function labelOf(obj: Json, keys: readonly string[] = LABEL_FIELDS): { key: string; value: string } | undefined {
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === "string" && v.trim() !== "" && v.length <= 90) return { key: k, value: v };
  }
  // The same names written otherwise (`display_name`, `Title`).
  const byForm = new Map(Object.keys(obj).map((k) => [k.toLowerCase().replace(/[^a-z0-9]/g, ""), k]));
  for (const k of keys) {
    const own = byForm.get(k.toLowerCase());
    const v = own !== undefined ? obj[own] : undefined;
    if (own !== undefined && typeof v === "string" && v.trim() !== "" && v.length <= 90) return { key: k, value: v };
  }
  return undefined;
}

/** A value no answer names a record by: a secret's placeholder (`[redacted-1]`), or a field that holds a token or key. */
function unsayable(key: string, value: string): boolean {
  return /^\[redacted(-\d+)?\]$/.test(value) || /(token|secret|password|passcode|api_?key|hash|signature|nonce)$/i.test(key);
}

/** The names of a record (`title`, `name`...), for a created or changed thing. */
export function nameOf(obj: Json): { key: string; value: string } | undefined {
  return labelOf(obj, NAME_FIELDS);
}

/** The id of a record: `id`, `uuid`, `<noun>Id` or `reference`. */
export function idOf(obj: Json, noun: string): string | undefined {
  const direct = obj["id"] ?? obj["uuid"];
  if (isScalar(direct) && typeof direct !== "boolean") return String(direct);
  const nounKey = `${words(noun).join("")}id`;
  for (const [k, v] of Object.entries(obj)) {
    if ((k.toLowerCase() === nounKey || k.toLowerCase() === "reference") && isScalar(v) && typeof v !== "boolean") return String(v);
  }
  return undefined;
}

/** How the facts of a record are chosen for an answer (one record: every weight of the choice). */
export const ANSWER_FACT_WEIGHTS = {
  /** Earlier fields first: the first field scores this, the n-th this / n. */
  order: 0.5,
  /** A field the request names. */
  asked: 3,
  /** A field an answer gives first (`status`, `totalPrice`). */
  important: 1.5,
  /** A yes/no field the request does not name. */
  unaskedBoolean: -1,
  /** A field of a nested record. */
  nested: -0.3,
  /** A value the call itself sent (no news to the user). */
  echo: -4,
} as const;

/** The scalar facts of a record (two levels deep), scored by how much the request wants them; echoes of the call's own arguments last. */
function recordFacts(obj: Json, request: ReadonlySet<string>, skip: ReadonlySet<string>, echoes: ReadonlySet<string>): Fact[] {
  const out: Fact[] = [];
  let order = 0;
  const visit = (o: Json, path: string[], depth: number): void => {
    for (const [k, v] of Object.entries(o)) {
      const here = [...path, k];
      if (isObject(v)) {
        if (depth < 1) visit(v, here, depth + 1);
        continue;
      }
      const text = say(v);
      if (text === undefined || skip.has(text) || isNoiseField(k) || text.length > 100 || /^https?:/.test(text)) continue;
      if (isIdField(k) && path.length === 0) continue;
      const keyStems = words(k).map((w) => lemma(w));
      const W = ANSWER_FACT_WEIGHTS;
      let score = (1 / (1 + order++)) * W.order;
      const asked = keyStems.some((s) => request.has(s));
      if (asked) score += W.asked;
      if (isImportantField(k)) score += W.important;
      if (typeof v === "boolean" && !asked) score += W.unaskedBoolean;
      if (depth > 0) score += W.nested;
      // What the user just gave is no news: "the query amount is 250".
      if (echoes.has(text.toLowerCase())) score += W.echo;
      out.push({ path: here, text: factText(here, v, text), score });
    }
  };
  visit(obj, [], 0);
  return out.sort((a, b) => b.score - a.score);
}

/** What an answer said already (ids, labels, facts), so a read after a create says it once. */
export interface Said {
  ids: Set<string>;
  labels: Set<string>;
  facts: Set<string>;
}

/** The best few facts of a record, each field once. */
export function topFacts(obj: Json, request: ReadonlySet<string>, skip: ReadonlySet<string>, max: number, echoes: ReadonlySet<string> = new Set(), said?: Said): string[] {
  const out: string[] = [];
  const fields = new Set<string>();
  for (const f of recordFacts(obj, request, skip, echoes)) {
    if (out.length >= max) break;
    if (said?.facts.has(f.text)) continue;
    // Two facts named alike ("the duration is 210 minutes and the duration is 40 minutes") would confuse: the first one.
    const field = fieldWords(f.path);
    if (fields.has(field)) continue;
    fields.add(field);
    out.push(f.text);
    said?.facts.add(f.text);
  }
  return out;
}

/** Titles are quoted; a name only when it is not a proper name ("Leaving home", not "Porto Alegre"). */
export function quoteLabel(label: { key: string; value: string }): string {
  if (!QUOTED_LABELS.has(label.key) || !/\s/.test(label.value) || /"/.test(label.value)) return label.value;
  if (label.key === "name" && label.value.split(/\s+/).every((w) => /^[\p{Lu}\p{N}&'’.-]/u.test(w) || /^(of|and|de|du|la|le|the|von|van|da)$/.test(w))) return label.value;
  return `"${label.value.replace(/\.$/, "")}"`;
}

/** A record named in passing: `"Salt and Saffron" (bk-1003)`, or a record without a name by its date and a number. */
export function named(obj: Json, noun: string): string {
  // A GeoJSON feature is named by its properties.
  if (obj["type"] === "Feature" && isObject(obj["properties"])) return named(obj["properties"], noun);
  const label = labelOf(obj);
  const id = idOf(obj, noun);
  if (label && id && id !== label.value) return `${quoteLabel(label)} (${id})`;
  const date = Object.entries(obj).find(([k, v]) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v) && !isNoiseField(k))?.[1] as string | undefined;
  if (label) return date !== undefined ? `${quoteLabel(label)} (${date})` : quoteLabel(label);
  // A person: first and last name.
  const first = obj["firstName"] ?? obj["first_name"] ?? obj["givenName"];
  const last = obj["lastName"] ?? obj["last_name"] ?? obj["familyName"];
  if (typeof first === "string" && typeof last === "string") return id !== undefined ? `${first} ${last} (${id})` : `${first} ${last}`;
  // No name: an id or a date, with a telling number (a price, a temperature).
  const numbers = Object.entries(obj).filter(([k, v]) => typeof v === "number" && !isIdField(k));
  const number = numbers.find(([k]) => isImportantField(k)) ?? numbers[0];
  const head = id ?? date;
  if (head !== undefined) return number ? `${head} (${fieldWords([number[0]])} ${String(number[1])})` : head;
  const text = Object.entries(obj).find(([k, v]) => typeof v === "string" && v.length <= 40 && v.trim() !== "" && !isIdField(k) && !isNoiseField(k) && !/^https?:/.test(v) && !unsayable(k, v))?.[1];
  return typeof text === "string" ? text : "";
}

/** The argument values of a call, lower-cased (a result that repeats them tells the user nothing new). */
export function echoesOf(args: Json): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) Object.values(v).forEach(walk);
    else {
      const t = say(v);
      if (t !== undefined) out.add(t.toLowerCase());
    }
  };
  walk(args);
  return out;
}

/** Lemmas of the content words of the request (what the user asked about). */
export function requestStems(text: string): Set<string> {
  return new Set(
    words(text)
      .filter((w) => w.length > 2 && !FILLER.has(w))
      .map((w) => lemma(w)),
  );
}
