/*
 * The offline assistant's answers, in sentences: what it did ("I created the reminder "Call the plumber"
 * (rem-2004) with due time ..."), what it found ("I found 3 books: A, B and C.") and the key facts of what it
 * read, chosen by relevance to the request (names, titles, amounts, dates, statuses, ids of created things).
 * Every value it states comes from the observations (or from the arguments the dialogue gave); nulls,
 * tool names and the catalogue search are never mentioned.
 */

import { identifierWords as words } from "../../language/words.js";

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

/** One successful call as the answer reads it. */
export interface AnswerCall {
  name: string;
  args: Json;
  status: number;
  body: unknown;
}

/** One failed call as the answer explains it. */
export interface FailedCall {
  name: string;
  status: number;
  body: unknown;
}

// ------------------------------------------------------------------------------------------------ words


function stemOf(w: string): string {
  let s = w.toLowerCase();
  if (s.length > 4 && s.endsWith("ies")) s = `${s.slice(0, -3)}y`;
  else if (s.length > 3 && s.endsWith("s") && !s.endsWith("ss")) s = s.slice(0, -1);
  if (s.length > 5 && s.endsWith("ing")) s = s.slice(0, -3);
  else if (s.length > 4 && s.endsWith("ed")) s = s.slice(0, -2);
  if (s.length > 3 && s.endsWith("e")) s = s.slice(0, -1);
  return s;
}

function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function singularOf(w: string): string {
  if (/(ss|us|is|news|series)$/.test(w)) return w;
  if (/ies$/.test(w) && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(sses|xes|ches|shes)$/.test(w)) return w.slice(0, -2);
  if (/s$/.test(w) && w.length > 3) return w.slice(0, -1);
  return w;
}

function pluralOf(w: string): string {
  if (/s$/.test(w)) return w;
  if (/[^aeiou]y$/.test(w)) return `${w.slice(0, -1)}ies`;
  if (/(x|ch|sh)$/.test(w)) return `${w}es`;
  return `${w}s`;
}

/** What an operation does, by the verb its name starts with. */
type Kind = "create" | "update" | "delete" | "list" | "get" | "action";

const VERBS: Record<string, Kind> = {
  create: "create", add: "create", new: "create", make: "create", register: "create", post: "create", insert: "create", submit: "create", schedule: "create", place: "create", apply: "create", book: "create", save: "create", upload: "create", invite: "create",
  update: "update", change: "update", modify: "update", edit: "update", replace: "update", rename: "update", set: "update", patch: "update", move: "update", mark: "update",
  delete: "delete", remove: "delete", cancel: "delete", withdraw: "delete", unsubscribe: "delete", archive: "delete", revoke: "delete", erase: "delete", clear: "delete",
  list: "list", search: "list", find: "list", browse: "list", query: "list", lookup: "get", look: "get",
  get: "get", fetch: "get", retrieve: "get", read: "get", show: "get", view: "get", describe: "get", check: "get", is: "get", has: "get",
};

const PAST: Record<string, string> = {
  create: "created", add: "added", make: "made", register: "registered", submit: "submitted", schedule: "scheduled", place: "placed", apply: "applied", book: "booked", save: "saved", upload: "uploaded", invite: "invited", post: "posted", insert: "inserted", new: "created",
  update: "updated", change: "changed", modify: "modified", edit: "edited", replace: "replaced", rename: "renamed", set: "set", patch: "updated", move: "moved", mark: "marked",
  delete: "deleted", remove: "removed", cancel: "cancelled", withdraw: "withdrew", unsubscribe: "unsubscribed", archive: "archived", revoke: "revoked", erase: "erased", clear: "cleared",
  convert: "converted", translate: "translated", detect: "detected", activate: "activated", deactivate: "deactivated", refresh: "refreshed", login: "signed in", logout: "signed out",
  sign: "signed", send: "sent", reprice: "re-priced", calculate: "calculated", compute: "computed", estimate: "estimated", play: "played", pause: "paused", turn: "turned", lock: "locked", unlock: "unlocked",
};

/** What a tool's name says: its verb, what it does, and the noun it acts on (`createReminder` -> create, "reminder"). */
function operationOf(name: string): { verb: string; kind: Kind; noun: string; prep: string } {
  const w = words(name.replace(/^.*__/, ""));
  const verb = w[0] ?? "";
  // "applyToJob": applied to the job.
  const prep = /^(to|for|from|into|on)$/.test(w[1] ?? "") ? `${w[1]} ` : "";
  const kind = VERBS[verb] ?? "action";
  let rest = w.slice(1).filter((x) => !/^(to|by|for|of|a|an|the|in|on|from|with|up|out|into)$/.test(x));
  if (verb === "sign" || verb === "log") rest = rest.filter((x) => x !== "in" && x !== "out");
  const noun = /^(is|has|can)$/.test(verb) ? "" : rest.join(" ");
  return { verb, kind, noun, prep };
}

function pastOf(verb: string): string {
  return PAST[verb] ?? (verb.endsWith("e") ? `${verb}d` : `${verb}ed`);
}

// ------------------------------------------------------------------------------------------------ facts

/** Keys that name a record (what it is called). */
const NAME_KEYS = ["title", "name", "displayName", "fullName", "headline", "subject"];
/** Keys that can stand for an item of a list when it has no name. */
const LABEL_KEYS = [...NAME_KEYS, "label", "event", "summary", "text", "translation", "word", "ingredient", "city", "symbol", "code"];
const QUOTED_LABELS = new Set(["title", "name", "label", "headline", "summary", "subject", "text"]);
const IMPORTANT = /(status|state|total|count|price|amount|result|rate|temperature|temp|condition|date|start|end|due|score|balance|quantity|duration|distance|time|summary|severity|level|category|genre|type|author|artist|currency|country|city|location|email|stock|servings|calories|description|translation|language|open|holiday)/i;
const NOISE = /^(created_?at|updated_?at|timestamp|etag|href|links?|self|version|avatar_?url|cover_?url|image_?url|thumbnail.*|generated_?at|observed_?at|cursor|next|page|offset|limit)$/i;
const ID_KEY = /^(id|uuid|[a-z]+Id|[a-z]+_id|reference|code)$/;

/** A value as the answer says it (undefined for what it does not say: nulls, empty strings, objects). */
function say(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === "string") return v.trim() === "" ? undefined : v;
  if (typeof v === "number") return String(v);
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v) && v.length > 0 && v.length <= 5 && v.every(isScalar)) return joinAnd(v.map((x) => String(x)));
  return undefined;
}

/** A field name in words: `feelsLike` -> "feels like", `dueAt` -> "due time", `temp.max` -> "max temp". */
function fieldWords(path: readonly string[]): string {
  const last = path[path.length - 1] ?? "";
  const parent = path[path.length - 2];
  // `rates.USD` -> "USD rate".
  if (parent !== undefined && /^[A-Z]{2,4}$/.test(last)) return `${last} ${words(singularOf(parent)).join(" ")}`;
  let w = words(last).join(" ").replace(/ at$/, " time").replace(/^is /, "");
  if (parent !== undefined && (/^(name|value|min|max|code|id|type|amount|total|unit|units|text)$/.test(last) || /^(min|max)/.test(w))) {
    w = /^(min|max)$/.test(last) ? `${last} ${words(singularOf(parent)).join(" ")}` : `${words(singularOf(parent)).join(" ")} ${w}`;
  }
  return w.replace(/\bid\b/, "ID").replace(/\burl\b/, "URL");
}

interface Fact {
  path: string[];
  text: string;
  score: number;
}

/** The label of a record (its title or name) and where it sits. */
function labelOf(obj: Json, keys: readonly string[] = LABEL_KEYS): { key: string; value: string } | undefined {
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === "string" && v.trim() !== "" && v.length <= 90) return { key: k, value: v };
  }
  return undefined;
}

function idOf(obj: Json, noun: string): string | undefined {
  const direct = obj["id"] ?? obj["uuid"];
  if (isScalar(direct) && typeof direct !== "boolean") return String(direct);
  const nounKey = `${words(noun).join("")}id`;
  for (const [k, v] of Object.entries(obj)) {
    if ((k.toLowerCase() === nounKey || k.toLowerCase() === "reference") && isScalar(v) && typeof v !== "boolean") return String(v);
  }
  return undefined;
}

/** A string value inside a sentence: free text quoted (so its own full stop stays its own). */
function inSentence(key: string, text: string): string {
  if (/"/.test(text)) return text;
  const free = /^(description|text|message|note|notes|comment|summary|title|headline|subject|bio|content|caption|reason|cover_?letter)$/i.test(key);
  // A sentence quoted inside an answer loses its own full stop (the answer's sentence goes on, or ends, after it).
  return (free && /\s/.test(text)) || /[.!?]$/.test(text) ? `"${text.replace(/\.$/, "")}"` : text;
}

const UNITS: Record<string, string> = { g: "g", mg: "mg", kg: "kg", km: "km", m: "m", ml: "ml", kcal: "kcal", pct: "%", percent: "%", minutes: "minutes", seconds: "seconds", hours: "hours", days: "days", ms: "ms", c: "°C", f: "°F", kmh: "km/h", mph: "mph", hpa: "hPa", mm: "mm", cm: "cm" };

/** "the author is X", "the authors are X and Y", "the fat is 15.8 g": the field and the verb agree with the value. */
function factText(path: readonly string[], v: unknown, text: string): string {
  let field = fieldWords(path);
  const unit = typeof v === "number" ? UNITS[field.split(" ").pop() ?? ""] : undefined;
  if (unit !== undefined && field.includes(" ")) {
    field = field.replace(/\s+\S+$/, "");
    return `the ${field} is ${text}${unit === "%" ? "%" : ` ${unit}`}`;
  }
  const list = Array.isArray(v);
  if (list && v.length === 1) field = field.replace(/(\w+)$/, (w) => singularOf(w));
  const many = list && v.length > 1;
  return `the ${field} ${many ? "are" : "is"} ${typeof v === "string" ? inSentence(path[path.length - 1] ?? "", text) : text}`;
}

/** The scalar facts of a record (two levels deep), scored by how much the request wants them; echoes of the call's own arguments last. */
function factsOf(obj: Json, request: ReadonlySet<string>, skip: ReadonlySet<string>, echoes: ReadonlySet<string> = new Set()): Fact[] {
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
      if (text === undefined || skip.has(text) || NOISE.test(k) || text.length > 100 || /^https?:/.test(text)) continue;
      if (ID_KEY.test(k) && path.length === 0) continue;
      const keyStems = words(k).map(stemOf);
      let score = (1 / (1 + order++)) * 0.5;
      if (keyStems.some((s) => request.has(s))) score += 3;
      if (IMPORTANT.test(k)) score += 1.5;
      if (typeof v === "boolean" && !keyStems.some((s) => request.has(s))) score -= 1;
      if (depth > 0) score -= 0.3;
      // What the user just gave is no news: "the query amount is 250".
      if (echoes.has(text.toLowerCase())) score -= 4;
      out.push({ path: here, text: factText(here, v, text), score });
    }
  };
  visit(obj, [], 0);
  return out.sort((a, b) => b.score - a.score);
}

function topFacts(obj: Json, request: ReadonlySet<string>, skip: ReadonlySet<string>, max: number, echoes?: ReadonlySet<string>, said?: Said): string[] {
  const out: string[] = [];
  const fields = new Set<string>();
  for (const f of factsOf(obj, request, skip, echoes)) {
    if (out.length >= max) break;
    if (said?.facts.has(f.text)) continue;
    // Two facts named alike ("the duration is 210 minutes and the duration is 40 minutes") would confuse: the first one.
    const field = f.text.replace(/ (is|are) .*$/, "");
    if (fields.has(field)) continue;
    fields.add(field);
    out.push(f.text);
    said?.facts.add(f.text);
  }
  return out;
}

/** The argument values of a call, lower-cased (a result that repeats them tells the user nothing new). */
function echoesOf(call: AnswerCall): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) Object.values(v).forEach(walk);
    else {
      const t = say(v);
      if (t !== undefined) out.add(t.toLowerCase());
    }
  };
  walk(call.args);
  return out;
}

/** The records of a list result: the body itself, or its one list of records (`items`, `books`...). */
function listOf(body: unknown): { items: unknown[]; key: string; rest: Json } | undefined {
  if (Array.isArray(body)) return { items: body, key: "", rest: {} };
  if (!isObject(body)) return undefined;
  const lists = Object.entries(body).filter(([, v]) => Array.isArray(v) && (v.length === 0 || v.some(isObject)));
  const pick = lists.find(([k]) => /^(items|results|data|records|entries|hits|matches|list)$/.test(k)) ?? (lists.length === 1 ? lists[0] : undefined);
  if (!pick) return undefined;
  return { items: pick[1] as unknown[], key: pick[0], rest: Object.fromEntries(Object.entries(body).filter(([k]) => k !== pick[0])) };
}

/** Titles are quoted; a name only when it is not a proper name ("Leaving home", not "Porto Alegre"). */
function quoteLabel(label: { key: string; value: string }): string {
  if (!QUOTED_LABELS.has(label.key) || !/\s/.test(label.value) || /"/.test(label.value)) return label.value;
  if (label.key === "name" && label.value.split(/\s+/).every((w) => /^[\p{Lu}\p{N}&'’.-]/u.test(w) || /^(of|and|de|du|la|le|the|von|van|da)$/.test(w))) return label.value;
  return `"${label.value.replace(/\.$/, "")}"`;
}

/** A record named in passing: `"Salt and Saffron" (bk-1003)`, or a record without a name by its date and a number. */
function named(obj: Json, noun: string): string {
  const label = labelOf(obj);
  const id = idOf(obj, noun);
  if (label && id && id !== label.value) return `${quoteLabel(label)} (${id})`;
  const date = Object.entries(obj).find(([k, v]) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v) && !NOISE.test(k))?.[1] as string | undefined;
  if (label) return date !== undefined ? `${quoteLabel(label)} (${date})` : quoteLabel(label);
  // A person: first and last name.
  const first = obj["firstName"] ?? obj["first_name"] ?? obj["givenName"];
  const last = obj["lastName"] ?? obj["last_name"] ?? obj["familyName"];
  if (typeof first === "string" && typeof last === "string") return id !== undefined ? `${first} ${last} (${id})` : `${first} ${last}`;
  // No name: an id or a date, with a telling number (a price, a temperature).
  const number = Object.entries(obj).find(([k, v]) => typeof v === "number" && !ID_KEY.test(k) && IMPORTANT.test(k)) ?? Object.entries(obj).find(([k, v]) => typeof v === "number" && !ID_KEY.test(k));
  const head = id ?? date;
  if (head !== undefined) return number ? `${head} (${fieldWords([number[0]])} ${String(number[1])})` : head;
  const text = Object.entries(obj).find(([k, v]) => typeof v === "string" && v.length <= 40 && v.trim() !== "" && !ID_KEY.test(k) && !NOISE.test(k) && !/^https?:/.test(v))?.[1];
  return typeof text === "string" ? text : "";
}

// ------------------------------------------------------------------------------------------------ sentences

/** Stems of the content words of the request (what the user asked about). */
function requestStems(text: string): Set<string> {
  return new Set(
    words(text)
      .filter((w) => w.length > 2 && !/^(the|and|for|with|can|you|please|show|get|tell|find|what|which|from|into|then|also|this|that|want|need|like|would|could|look|check|give|me|my)$/.test(w))
      .map(stemOf),
  );
}

interface Said {
  ids: Set<string>;
  labels: Set<string>;
  facts: Set<string>;
}

function listSentence(call: AnswerCall, list: { items: unknown[]; key: string; rest: Json }, noun: string, verb?: string): string {
  const generic = /^(items|results|data|records|hits|matches|list)$/.test(list.key);
  const holder = list.key !== "" && !generic && !(list.key === "entries" && noun !== "") ? words(list.key).join(" ") : "";
  const thing = holder || (noun !== "" && (list.key === "" || generic) ? pluralOf(words(noun).pop() ?? noun) : list.key !== "" ? words(list.key).join(" ") : "results");
  const total = list.rest["total"] ?? list.rest["count"] ?? list.rest["totalResults"];
  const n = typeof total === "number" && Number.isInteger(total) && total >= list.items.length ? total : list.items.length;
  const names = [...new Set(list.items.map((x) => (isObject(x) ? named(x, singularOf(thing)) : (say(x) ?? ""))).filter((s) => s !== ""))].slice(0, 3);
  // An action that answers with its results: "I translated the text: ...".
  if (verb !== undefined) return names.length > 0 ? `I ${pastOf(verb)}${noun !== "" ? ` the ${noun}` : ""}: ${joinAnd(names)}.` : `I ${pastOf(verb)}${noun !== "" ? ` the ${noun}` : ""}.`;
  if (list.items.length === 0) return `I found no ${thing}.`;
  const one = n === 1 ? singularOf(thing) : thing;
  if (names.length === 0) return `I found ${n} ${one}.`;
  const more = n > names.length ? `, among others` : "";
  return `I found ${n} ${one}: ${joinAnd(names)}${more}.`;
}

function objectSentence(call: AnswerCall, obj: Json, op: { verb: string; kind: Kind; noun: string; prep: string }, request: ReadonlySet<string>, said: Said): string {
  // A created or changed thing is named by its name, else by its text ("the reminder "Call the plumber"").
  const label = labelOf(obj, NAME_KEYS) ?? (op.kind === "create" || op.kind === "update" || op.kind === "delete" ? labelOf(obj, ["text", "summary", "label", "word"]) : undefined);
  const id = idOf(obj, op.noun);
  const skip = new Set<string>([...(label ? [label.value] : []), ...(id !== undefined ? [id] : [])]);
  const noun = op.noun !== "" ? op.noun : "result";
  const echoes = echoesOf(call);
  const known = (id !== undefined && said.ids.has(id)) || (label !== undefined && said.labels.has(label.value));
  const argId = Object.entries(call.args).find(([k, v]) => ID_KEY.test(k) && isScalar(v))?.[1];
  const who = label ? [quoteLabel(label), id !== undefined && id !== label.value ? `(${id})` : ""].filter((x) => x !== "").join(" ") : (id ?? (argId !== undefined && op.kind !== "get" ? String(argId) : ""));
  if (op.kind === "create") {
    const facts = topFacts(obj, request, skip, 2, echoes, said);
    return `I ${pastOf(op.verb)} ${op.prep}the ${noun}${who !== "" ? ` ${who}` : ""}${facts.length > 0 ? `; ${joinAnd(facts)}` : ""}.`;
  }
  if (op.kind === "update") {
    // What changed: the arguments the call set, as the result now has them.
    const changed: string[] = [];
    for (const k of Object.keys(call.args)) {
      if (ID_KEY.test(k) || !(k in obj)) continue;
      const text = say(obj[k]);
      if (text !== undefined) changed.push(factText([k], obj[k], text).replace(/ (is|are) /, " $1 now "));
    }
    const facts = changed.length > 0 ? changed.slice(0, 3) : topFacts(obj, request, skip, 2, echoes, said);
    return `I ${pastOf(op.verb)} the ${noun}${who !== "" ? ` ${who}` : ""}${facts.length > 0 ? `: ${joinAnd(facts)}` : ""}.`;
  }
  if (op.kind === "delete") return `I ${pastOf(op.verb)} the ${noun}${who !== "" ? ` ${who}` : ""}.`;
  if (known && op.kind === "get") {
    const facts = topFacts(obj, request, skip, 2, echoes, said);
    return facts.length > 0 ? `I checked it again: ${joinAnd(facts)}.` : "I checked that it is saved.";
  }
  // A read or an action: the record's key facts. A nested place or location names where it is about.
  let about = who;
  let record = obj;
  if (about === "") {
    const nested = Object.entries(obj).find(([k, v]) => isObject(v) && /location|place|city|address|station|area|venue/i.test(k) && labelOf(v) !== undefined);
    const where = nested ? labelOf(nested[1] as Json) : undefined;
    if (nested && where) {
      about = `for ${where.value}`;
      // The place says where; its coordinates and country are not the answer.
      record = Object.fromEntries(Object.entries(obj).filter(([k]) => k !== nested[0]));
    }
  }
  const facts = topFacts(record, request, skip, 3, echoes, said);
  // A record that holds the answer as a list (a forecast's days, a search's albums and tracks).
  const lists = Object.entries(record).filter(([, v]) => Array.isArray(v) && v.some(isObject)) as Array<[string, unknown[]]>;
  const listed = lists
    .slice(0, 3)
    .map(([k, items]) => {
      const names = [...new Set(items.map((x) => (isObject(x) ? named(x, singularOf(k)) : "")).filter((x) => x !== ""))].slice(0, 3);
      const thing = words(items.length === 1 ? singularOf(k) : k).join(" ");
      return names.length > 0 ? `${items.length} ${thing}: ${joinAnd(names)}` : `${items.length} ${thing}`;
    });
  const tail = listed.map((l, i) => ` It ${i > 0 ? "also " : ""}lists ${l}.`).join("");
  if (op.kind === "action" && PAST[op.verb] !== undefined) {
    const head = `I ${pastOf(op.verb)}${noun !== "result" ? ` the ${noun}` : ""}${about !== "" ? ` ${about}` : ""}`;
    return (facts.length > 0 ? `${head}: ${joinAnd(facts)}.` : `${head}.`) + tail;
  }
  // A question ("is today a holiday?") or an operation whose name says little: what was found.
  const plain = op.kind === "action" || /^(is|has|can|check)$/.test(op.verb) || noun === "result";
  const what = plain ? "what I found" : `the ${noun}`;
  const be = !plain && /[^siu]s$/.test(noun.split(" ").pop() ?? "") ? "are" : "is";
  const where = about === "" ? "" : plain && !about.startsWith("for ") ? ` for ${about}` : ` ${about}`;
  const head = `Here ${plain ? "is" : be} ${what}${where}`;
  if (facts.length === 0 && listed.length > 0) return op.kind === "list" ? `I found ${joinAnd(listed.map((l) => l.replace(/: .*$/, "")))}.${tail}` : `${head}.${tail}`;
  return (facts.length > 0 ? `${head}: ${joinAnd(facts)}.` : `${head}.`) + tail;
}

function callSentence(call: AnswerCall, request: ReadonlySet<string>, said: Said): string {
  const op = operationOf(call.name);
  const body = call.body;
  const argId = Object.entries(call.args).find(([k, v]) => ID_KEY.test(k) && isScalar(v))?.[1];
  if (body === null || body === undefined || body === "" || (isObject(body) && Object.keys(body).length === 0)) {
    const noun = op.noun !== "" ? op.noun : "request";
    if (op.kind === "delete" || op.kind === "update" || op.kind === "create") return `I ${pastOf(op.verb)} the ${noun}${argId !== undefined ? ` ${String(argId)}` : ""}.`;
    if (op.kind === "action") return `I ${pastOf(op.verb)}${op.noun !== "" ? ` the ${op.noun}` : ""}.`;
    return `There is nothing to show for the ${noun}.`;
  }
  if (isScalar(body)) return `The ${op.noun !== "" ? op.noun : "result"} is ${say(body) ?? ""}.`;
  const list = listOf(body);
  if (list && isListPayload(body, list, op)) return listSentence(call, list, op.noun, op.kind === "action" && PAST[op.verb] !== undefined ? op.verb : undefined);
  if (isObject(body)) {
    const sentence = objectSentence(call, body, op, request, said);
    const label = labelOf(body, NAME_KEYS);
    const id = idOf(body, op.noun);
    if (id !== undefined) said.ids.add(id);
    if (label) said.labels.add(label.value);
    return sentence;
  }
  if (Array.isArray(body)) return listSentence(call, { items: body, key: "", rest: {} }, op.noun);
  return `I ${pastOf(op.verb)} the ${op.noun !== "" ? op.noun : "request"}.`;
}

/**
 * Whether a result is its list (a search's items, the holidays of a year) rather than one record that
 * happens to hold a list (an event with its attendees, an artist with albums).
 */
function isListPayload(body: unknown, list: { items: unknown[]; key: string; rest: Json }, op: { kind: Kind; noun: string; prep: string }): boolean {
  if (op.kind === "create" || op.kind === "update" || op.kind === "delete") return false;
  if (Array.isArray(body) || op.kind === "list") return true;
  // A record (it has an id or a name) that holds a list: an order and its items, a glossary and its entries.
  if (isObject(body) && (idOf(body, op.noun) !== undefined || labelOf(body, NAME_KEYS) !== undefined)) return false;
  if (/^(items|results|data|records|entries|hits|matches|list)$/.test(list.key)) return true;
  const last = stemOf(op.noun.split(" ").pop() ?? "");
  if (last !== "" && stemOf(list.key) === last) return true;
  // The list is all there is besides a few echoes of the request (`{symbol, interval, bars: [...]}`).
  const scalars = Object.values(list.rest).filter((v) => isScalar(v)).length;
  const records = Object.values(list.rest).filter((v) => isObject(v) || (Array.isArray(v) && v.some(isObject))).length;
  return records === 0 && scalars <= 3 && labelOf(list.rest) === undefined;
}

/**
 * The final answer to a request from its successful calls (the catalogue search left out): one sentence per
 * call, in order, naming the key facts; repeated reads of the same thing are said once.
 */
export function composeAnswer(request: string, calls: readonly AnswerCall[]): string {
  if (calls.length === 0) return "I could not get a result for this request.";
  const stems = requestStems(request);
  const said: Said = { ids: new Set(), labels: new Set(), facts: new Set() };
  const sentences: string[] = [];
  for (const call of calls) {
    const s = callSentence(call, stems, said);
    if (s !== "" && !sentences.includes(s)) sentences.push(s);
  }
  return sentences.join(" ").replace(/\?(?=\s|$)/g, ".").replace(/\.\./g, ".");
}

/** What went wrong, from the error result: its title, message, detail and validation problems. */
function errorDetail(body: unknown): string {
  const parts: string[] = [];
  if (isObject(body)) {
    for (const k of ["title", "error", "message", "detail", "description"]) {
      const v = body[k];
      if (typeof v === "string" && v !== "" && !parts.includes(v)) parts.push(v);
      else if (isObject(v) && typeof v["message"] === "string" && !parts.includes(v["message"])) parts.push(v["message"]);
    }
    const validation = Array.isArray(body["validation"]) ? body["validation"] : [];
    const issues = validation
      .filter(isObject)
      .slice(0, 3)
      .map((i) => `${Array.isArray(i["location"]) ? i["location"].join(".") : ""} ${typeof i["message"] === "string" ? i["message"] : ""}`.trim())
      .filter((s) => s !== "" && !parts.some((p) => p.includes(s)));
    if (issues.length > 0) parts.push(issues.join("; "));
  } else if (typeof body === "string" && body !== "") parts.push(body.slice(0, 200));
  return parts.map((p) => p.replace(/[.\s]+$/, "")).join(". ");
}

/** A failed call explained to the user: what could not be done, the status, and the service's own words. */
export function describeFailure(call: FailedCall): string {
  const op = operationOf(call.name);
  const base = op.verb === "login" ? "sign in" : op.verb === "logout" ? "sign out" : op.verb;
  const what = op.noun !== "" ? `${base} the ${op.noun}` : base !== "" ? base : "do that";
  const detail = errorDetail(call.body);
  return `I could not ${what}: the service answered with status ${call.status}${detail !== "" ? ` (${detail})` : ""}.`;
}

/** "There is nothing to show in more detail": an empty search result said as such. */
export function emptyResultAnswer(call: AnswerCall): string {
  const list = listOf(call.body);
  const op = operationOf(call.name);
  const sentence = list ? listSentence(call, list, op.noun) : `I found nothing for the ${op.noun !== "" ? op.noun : "request"}.`;
  return `${sentence.replace(/\.$/, "")}, so there is nothing to show in more detail.`;
}
