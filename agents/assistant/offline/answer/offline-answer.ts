import { isObject, type Json } from "../../../../specs/json-object.js";
import { identifierWords as words, isPlural, plural, singular } from "../../../../specs/words.js";
import { lemma, lexiconTags, pastTense } from "../../../language/inflect.js";
import { LIST_HOLDER_FIELDS, PLACE_FIELD_WORDS } from "../../../language/lexicon/fields.js";
import { ANSWER_PAST, ANSWER_VERBS, DONE_VERBS, type AnswerKind } from "../../../language/lexicon/verbs.js";
import { joinList as joinAnd } from "../../../language/words.js";
import { echoesOf as argumentEchoes, factText, idOf, isIdField, isScalar, labelOf, named, nameOf, quoteLabel, requestStems, say, topFacts, type Said } from "./answer-facts.js";

/*
 * The offline assistant's answers, in sentences: what it did ("I created the reminder "Call the plumber"
 * (rem-2004) with due time ..."), what it found ("I found 3 books: A, B and C.") and the key facts of what it
 * read, chosen by relevance to the request (names, titles, amounts, dates, statuses, ids of created things), in
 * clauses that agree with their values (`answer-facts.ts`). Every value it states comes from the observations (or
 * from the arguments the dialogue gave); nulls, tool names and the catalogue search are never mentioned.
 */

/** One successful call as the answer reads it. */
export interface AnswerCall {
  name: string;
  args: Json;
  status: number;
  body: unknown;
  /** The whole lengths of lists the tool message showed in part, by path (`hours`; `` for a body that is a list). */
  lengths?: Readonly<Record<string, number>>;
}

/** One failed call as the answer explains it. */
export interface FailedCall {
  name: string;
  status: number;
  body: unknown;
}

type Kind = AnswerKind;

const DONE = new Set(DONE_VERBS);
const LIST_HOLDERS = new Set(LIST_HOLDER_FIELDS);
const LINKS = new Set(["to", "by", "for", "of", "a", "an", "the", "in", "on", "from", "with", "up", "out", "into"]);

/** Whether an answer says an operation's verb as done ("I converted ..."). */
function isDone(verb: string): boolean {
  return DONE.has(verb);
}

/**
 * What a tool's name says: its verb, what it does, and the noun it acts on (`createReminder` -> create, "reminder").
 * Segments of the name that are its arguments (`get_search_versionNumber_geocode_ext`) name nothing; a name that
 * starts with a describing word is all noun (`rental-listings-long-term`: the rental listings, got), a trailing
 * "long term" qualifies it, and a verb after the resource leads (`patients_delete`: deleted the patient).
 */
function operationOf(name: string, args?: Json): { verb: string; kind: Kind; noun: string; prep: string } {
  const bare = name.replace(/^.*__/, "");
  let kept = bare;
  for (const key of args === undefined ? [] : Object.keys(args)) if (/^[A-Za-z][A-Za-z0-9_]*$/.test(key)) kept = kept.replace(new RegExp(`(^|[_.])${key}(?=[_.]|$)`, "g"), "$1");
  let w = words(kept);
  // A resource named first and its verb last (`patients_delete`, `offices_list`, `patients_partial_update`): the verb leads.
  const last = w[w.length - 1] ?? "";
  if (w.length > 1 && ANSWER_VERBS[w[0] ?? ""] === undefined && ANSWER_VERBS[last] !== undefined) {
    const rest = w.slice(0, -1).filter((x) => x !== "partial");
    w = [last, ...(ANSWER_VERBS[last] === "list" ? rest : [...rest.slice(0, -1), singular(rest[rest.length - 1] ?? "")])].filter((x) => x !== "");
  }
  const described = w.length > 1 && ANSWER_VERBS[w[0] ?? ""] === undefined && lexiconTags(w[0] ?? "").includes("Adjective");
  const verb = described ? "get" : (w[0] ?? "");
  // "applyToJob": applied to the job.
  const prep = /^(to|for|from|into|on)$/.test(w[1] ?? "") ? `${w[1]} ` : "";
  const kind = ANSWER_VERBS[verb] ?? "action";
  // Version segments (`v1`) name no thing; `/me` is the caller's profile.
  let rest = w.slice(described ? 0 : 1).filter((x) => !LINKS.has(x) && !/^v\d+$/.test(x)).map((x) => (x === "me" ? "profile" : x));
  if (verb === "sign" || verb === "log") rest = rest.filter((x) => x !== "in" && x !== "out");
  if (rest.length > 2 && rest[rest.length - 1] === "term" && /^(long|short|mid)$/.test(rest[rest.length - 2] ?? "")) rest = rest.slice(0, -2);
  const noun = /^(is|has|can)$/.test(verb) ? "" : rest.join(" ");
  return { verb, kind, noun, prep };
}

/** The past tense an answer uses ("cancelled", "signed in", "re-priced"). */
function pastOf(verb: string): string {
  return ANSWER_PAST[verb] ?? pastTense(verb);
}

/** `is` or `are` for a noun phrase, by its last word ("the rates" are, "the time series" is). */
function beOf(nounPhrase: string): "is" | "are" {
  return isPlural(nounPhrase.split(" ").pop() ?? "") ? "are" : "is";
}

/** The records of a list result: the body itself, or its one list of records (`items`, `books`...). */
function listOf(body: unknown): { items: unknown[]; key: string; rest: Json } | undefined {
  if (Array.isArray(body)) return { items: body, key: "", rest: {} };
  if (!isObject(body)) return undefined;
  const lists = Object.entries(body).filter(([, v]) => Array.isArray(v) && (v.length === 0 || v.some(isObject)));
  const pick = lists.find(([k]) => LIST_HOLDERS.has(k)) ?? (lists.length === 1 ? lists[0] : undefined);
  if (!pick) return undefined;
  return { items: pick[1] as unknown[], key: pick[0], rest: Object.fromEntries(Object.entries(body).filter(([k]) => k !== pick[0])) };
}

/** "3 books", "1 book", "2 days": a count and its noun in agreement. */
function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function counted(n: number, noun: string): string {
  const parts = noun.split(" ");
  const last = parts.pop() ?? "";
  return `${n} ${[...parts, n === 1 ? singular(last) : plural(singular(last))].join(" ")}`;
}

/** Words that qualify results rather than name them (`/search/organic`, `/jokes/random`): such a list holds "results". */
const QUALIFIERS = new Set(["organic", "random", "latest", "popular", "trending", "recent", "top", "featured", "new", "related", "similar", "suggested", "nearby", "all", "paid", "sponsored"]);

/** What a list field names, in words: `airport_list` -> "airports" (a holder word such as list or array says nothing). */
function listWords(key: string): string {
  const w = words(key);
  if (w.length > 1 && /^(list|array|collection|set|items|results|data)$/.test(w[w.length - 1] ?? "")) return plural(singular(w.slice(0, -1).join(" ")));
  return w.join(" ");
}

/** Words after a noun that do not name the thing (`records more like this`, `property records random`). */
const TRAILING = new Set(["more", "like", "this", "that", "these", "those", "by", "id", "ids", "with", "all"]);

/** The word of a noun phrase that names the things: its last, before trailing qualifiers; undefined for none (a verb or a qualifier). */
function headWord(noun: string): string | undefined {
  const w = words(noun);
  let head = w.pop();
  while (head !== undefined && w.length > 0 && (QUALIFIERS.has(head) || TRAILING.has(head))) head = w.pop();
  if (head === undefined || QUALIFIERS.has(head) || TRAILING.has(head)) return undefined;
  return head !== words(noun).pop() && ANSWER_VERBS[head] !== undefined ? undefined : head;
}

function listSentence(call: AnswerCall, list: { items: unknown[]; key: string; rest: Json }, noun: string, verb?: string): string {
  const generic = LIST_HOLDERS.has(list.key) && list.key !== "entries";
  const holder = list.key !== "" && !generic && !(list.key === "entries" && noun !== "") ? listWords(list.key) : "";
  const head = headWord(noun);
  const fromNoun = head === undefined ? "results" : plural(singular(head));
  const thing = holder || (noun !== "" && (list.key === "" || generic) ? fromNoun : list.key !== "" ? listWords(list.key) : "results");
  const total = list.rest["total"] ?? list.rest["count"] ?? list.rest["totalResults"];
  const shown = call.lengths?.[list.key] ?? list.items.length;
  const n = typeof total === "number" && Number.isInteger(total) && total >= shown ? total : shown;
  const names = [...new Set(list.items.map((x) => (isObject(x) ? named(x, singular(thing)) : (say(x) ?? ""))).filter((s) => s !== ""))].slice(0, 3);
  // An action that answers with its results: "I translated the text: ...".
  if (verb !== undefined) return names.length > 0 ? `I ${pastOf(verb)}${noun !== "" ? ` the ${noun}` : ""}: ${joinAnd(names)}.` : `I ${pastOf(verb)}${noun !== "" ? ` the ${noun}` : ""}.`;
  if (list.items.length === 0) return `I found no ${thing}.`;
  if (names.length === 0) return `I found ${counted(n, thing)}.`;
  const more = n > names.length ? `, among others` : "";
  return `I found ${counted(n, thing)}: ${joinAnd(names)}${more}.`;
}

function objectSentence(call: AnswerCall, obj: Json, op: { verb: string; kind: Kind; noun: string; prep: string }, request: ReadonlySet<string>, said: Said): string {
  // A created or changed thing is named by its name, else by its text ("the reminder "Call the plumber"").
  const label = nameOf(obj) ?? (op.kind === "create" || op.kind === "update" || op.kind === "delete" ? labelOf(obj, ["text", "summary", "label", "word"]) : undefined);
  const id = idOf(obj, op.noun);
  const skip = new Set<string>([...(label ? [label.value] : []), ...(id !== undefined ? [id] : [])]);
  const argId = Object.entries(call.args).find(([k, v]) => isIdField(k) && isScalar(v))?.[1];
  // One record read by its id is one (`get_records_{record_id}`: "the record", not "the records").
  const one = id !== undefined && argId !== undefined && String(argId) === id;
  const noun = op.noun === "" ? "result" : one ? op.noun.replace(/(\w+)$/, (last) => singular(last)) : op.noun;
  const echoes = argumentEchoes(call.args);
  const known = (id !== undefined && said.ids.has(id)) || (label !== undefined && said.labels.has(label.value));
  const who = label ? [quoteLabel(label), id !== undefined && id !== label.value ? `(${id})` : ""].filter((x) => x !== "").join(" ") : (id ?? (argId !== undefined && op.kind !== "get" ? String(argId) : ""));
  if (op.kind === "create") {
    const facts = topFacts(obj, request, skip, 2, echoes, said);
    return `I ${pastOf(op.verb)} ${op.prep}the ${noun}${who !== "" ? ` ${who}` : ""}${facts.length > 0 ? `; ${joinAnd(facts)}` : ""}.`;
  }
  if (op.kind === "update") {
    // What changed: the arguments the call set, as the result now has them.
    const changed: string[] = [];
    for (const k of Object.keys(call.args)) {
      if (isIdField(k) || !(k in obj)) continue;
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
    const nested = Object.entries(obj).find(([k, v]) => isObject(v) && words(k).some((w) => PLACE_FIELD_WORDS.includes(w)) && labelOf(v) !== undefined);
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
      const names = [...new Set(items.map((x) => (isObject(x) ? named(x, singular(k)) : "")).filter((x) => x !== ""))].slice(0, 3);
      const thing = counted((obj === call.body ? call.lengths?.[k] : undefined) ?? items.length, listWords(k));
      return names.length > 0 ? `${thing}: ${joinAnd(names)}` : thing;
    });
  const tail = listed.map((l, i) => ` It ${i > 0 ? "also " : ""}lists ${l}.`).join("");
  if (op.kind === "action" && isDone(op.verb)) {
    const head = `I ${pastOf(op.verb)}${noun !== "result" ? ` the ${noun}` : ""}${about !== "" ? ` ${about}` : ""}`;
    return (facts.length > 0 ? `${head}: ${joinAnd(facts)}.` : `${head}.`) + tail;
  }
  // A question ("is today a holiday?") or an operation whose name says little: what was found.
  const plain = op.kind === "action" || /^(is|has|can|check)$/.test(op.verb) || noun === "result";
  const what = plain ? "what I found" : `the ${noun}`;
  const be = plain ? "is" : beOf(noun);
  const where = about === "" ? "" : plain && !about.startsWith("for ") ? ` for ${about}` : ` ${about}`;
  const head = `Here ${be} ${what}${where}`;
  if (facts.length === 0 && listed.length > 0) return op.kind === "list" ? `I found ${joinAnd(listed.map((l) => l.replace(/: .*$/, "")))}.${tail}` : `${head}.${tail}`;
  return (facts.length > 0 ? `${head}: ${joinAnd(facts)}.` : `${head}.`) + tail;
}

/** An answer wrapped in one field (`{found: {type: "FeatureCollection", features}}`): what it wraps. */
function unwrapped(body: unknown): unknown {
  if (!isObject(body)) return body;
  const keys = Object.keys(body);
  const inner = keys.length === 1 ? body[keys[0] as string] : undefined;
  return isObject(inner) && Object.keys(inner).length > 0 ? inner : body;
}

function callSentence(call: AnswerCall, request: ReadonlySet<string>, said: Said): string {
  const op = operationOf(call.name, call.args);
  const body = unwrapped(call.body);
  const argId = Object.entries(call.args).find(([k, v]) => isIdField(k) && isScalar(v))?.[1];
  if (body === null || body === undefined || body === "" || (isObject(body) && Object.keys(body).length === 0)) {
    const noun = op.noun !== "" ? op.noun : "request";
    if (op.kind === "delete" || op.kind === "update" || op.kind === "create") return `I ${pastOf(op.verb)} the ${noun}${argId !== undefined ? ` ${String(argId)}` : ""}.`;
    if (op.kind === "action") return `I ${pastOf(op.verb)}${op.noun !== "" ? ` the ${op.noun}` : ""}.`;
    return `There is nothing to show for the ${noun}.`;
  }
  if (isScalar(body)) {
    const noun = op.noun !== "" ? op.noun : "result";
    return typeof body === "boolean" ? `${capitalized(factText([noun.replace(/ /g, "_")], body, ""))}.` : `The ${noun} ${beOf(noun)} ${say(body) ?? ""}.`;
  }
  const list = listOf(body);
  if (list && isListPayload(body, list, op)) return listSentence(call, list, op.noun, op.kind === "action" && isDone(op.verb) ? op.verb : undefined);
  if (isObject(body)) {
    const sentence = objectSentence(call, body, op, request, said);
    const label = nameOf(body);
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
  if (isObject(body) && (idOf(body, op.noun) !== undefined || nameOf(body) !== undefined)) return false;
  if (LIST_HOLDERS.has(list.key)) return true;
  const last = lemma(op.noun.split(" ").pop() ?? "");
  if (last !== "" && lemma(list.key) === last) return true;
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
  const op = operationOf(call.name, call.args);
  const sentence = list ? listSentence(call, list, op.noun) : `I found nothing for the ${op.noun !== "" ? op.noun : "request"}.`;
  return `${sentence.replace(/\.$/, "")}, so there is nothing to show in more detail.`;
}
