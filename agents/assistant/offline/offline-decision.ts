import MiniSearch from "minisearch";
import { stableStringify } from "../../../specs/stable-stringify.js";
import { argumentsFromObject, GIVE_UP_PREFIX, messageText, parseToolResultText } from "../dialogue-text.js";
import { Memo } from "../../roles/memo.js";
import { composeAnswer, describeFailure, emptyResultAnswer, type AnswerCall } from "./offline-answer.js";
import { compileLinear } from "../../../specs/load/linear-pattern.js";

/*
 * The offline assistant: a deterministic tool-calling chat model. It reads only the LangChain messages it is
 * given (never the user's plan) and, each turn, either calls one tool, asks the user one question, answers, or
 * gives up. How it decides:
 *   1. the latest request (a user message after an answer; later user messages after questions are replies)
 *      is split into clauses ("find X, then show Y"); each clause gets the best tool by BM25 (minisearch over
 *      split tool names, descriptions, parameter names and enum values, with verb groups and everyday
 *      concepts), re-ranked by how many of the user's values the tool can take;
 *   2. a step whose id nobody gave is preceded by a search tool that the user's words can fill;
 *   3. arguments are filled in stages across all parameters: values named or cued in the clause and in replies,
 *      then typed values (e-mails, dates, codes, ids), then earlier observations, then weaker guesses;
 *   4. missing required values are asked for once, in plain words; still missing after that: the schema's
 *      example, else give up; a failed call is repaired once from its validation errors, else explained;
 *   5. when every step succeeded, the answer summarises the results with their own values.
 * Where it puts what:
 *   - tool calls in `AIMessage.tool_calls` (ids `call_<n>`, n counting every call in the conversation);
 *   - the reasoning of the turn in `AIMessage.additional_kwargs.thought` (a string);
 *   - what the turn is in `AIMessage.additional_kwargs.intent`: "call" | "question" | "final" | "give-up";
 *   - questions end with "?", final answers never do, give-ups start with {@link GIVE_UP_PREFIX}.
 */

/*
 * This module is the decision alone, without LangChain: `OfflineChatModel` (offline-chat-model.ts) wraps it as a
 * LangChain chat model, and the offline assistant (offline-assistant.ts) calls it directly with plain messages.
 */

/** What one offline turn is. */
export type OfflineIntent = "call" | "question" | "final" | "give-up";

/** A tool as the offline model reads it (OpenAI function form, flattened). */
export interface OfflineToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (`{type: "object", properties, required}`). */
  parameters: Record<string, unknown>;
}

/** The decision of one turn, before it is wrapped in an AIMessage. */
export interface OfflineDecision {
  intent: OfflineIntent;
  /** The message text: empty for calls, the question, the answer, or `GIVE UP: reason`. */
  text: string;
  /** Why: which tool matched, where each argument came from, what is missing. */
  thought: string;
  calls: Array<{ id: string; name: string; args: Record<string, unknown> }>;
  /** For a question: the arguments it asks for (dot paths of nested ones). */
  asks?: string[];
}

/** A chat message as the offline model reads it: a LangChain `BaseMessage` or any object of the same shape. */
export interface ChatMessageLike {
  /** `system`, `human`, `ai` or `tool`. */
  readonly type: string;
  readonly content: unknown;
  readonly additional_kwargs?: Record<string, unknown>;
  /** AI messages: the tool calls. */
  readonly tool_calls?: ReadonlyArray<{ id?: string | undefined; name: string; args: Record<string, unknown> }>;
  /** Tool messages: the call answered, and the tool's name. */
  readonly tool_call_id?: string;
  readonly name?: string | undefined;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------------------------
// Words: tokens, stems, stop words, synonyms
// ---------------------------------------------------------------------------------------------------------

const STOP_WORDS = new Set(
  (
    "a an the and or but if of to in on at by for with from into onto about as is are was were be been being am do does did " +
    "i me my mine we us our you your it its this that these those there here he she they them their his her " +
    "please can could would will shall should may might must let lets let's i'd i'm i'll id im ill want wants wanted like " +
    "need needs needed some any all just also too very so then than now what which who whom whose when where how why " +
    "tell give know help thanks thank hi hello hey okay ok sure yes no not one ones thing things get got have has had " +
    "e g eg e.g etc via per up out over against"
  ).split(/\s+/),
);
// Words kept although they look like stop words: they decide the operation.
const KEEP_WORDS = new Set(["get", "give", "show", "tell", "find", "list", "search", "new", "add"]);

/** Splits text into word tokens, also at camelCase and snake_case boundaries. */
function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((t) => t !== "");
}

/** The lowercase word tokens of a short text, remembered (shared: do not change the list). */
function lowerTokens(text: string): readonly string[] {
  if (text.length > 80) return tokenize(text).map((w) => w.toLowerCase());
  return LOWER_TOKENS.getOrCompute(text, (t) => tokenize(t).map((w) => w.toLowerCase()));
}

const LOWER_TOKENS = new Memo<string, readonly string[]>(4096);
/** Stems of recent words (a plain map, emptied when full: the hottest lookup of the model). */
const STEMS = new Map<string, string>();

/** A light English stemmer: plural, -ing, -ed and a final -e go, so create/created/creating meet. */
function stem(word: string): string {
  let s = STEMS.get(word);
  if (s === undefined) {
    if (STEMS.size >= 8192) STEMS.clear();
    s = computeStem(word);
    STEMS.set(word, s);
  }
  return s;
}

function computeStem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ss|ll)$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** Operation verbs: every word of a group also indexes its group name, so "find" meets "list" and "search". */
const VERB_GROUPS: Record<string, string[]> = {
  xsearch: ["search", "find", "list", "browse", "query", "filter", "discover", "explore"],
  xget: ["get", "show", "detail", "details", "fetch", "retrieve", "read", "view", "display", "describe", "info", "information", "return", "returns", "open", "lookup"],
  xcreate: ["create", "add", "new", "make", "register", "post", "insert", "submit", "schedule", "start", "put", "save", "reserve"],
  xupdate: ["update", "change", "modify", "edit", "replace", "rename", "adjust", "patch", "set", "move", "reschedule"],
  xdelete: ["delete", "remove", "cancel", "withdraw", "erase", "drop", "clear", "unsubscribe", "discard"],
};
/** Everyday words for what common APIs are about: "how warm" meets "temperature", "how much" meets "amount". */
const CONCEPTS: Record<string, string[]> = {
  xweather: ["weather", "temperature", "warm", "cold", "hot", "rain", "raining", "rainy", "sunny", "snow", "snowing", "wind", "windy", "humid", "humidity", "umbrella", "forecast", "degrees", "celsius", "fahrenheit"],
  xmoney: ["money", "amount", "cost", "costs", "price", "prices", "priced", "expensive", "cheap", "much", "pay", "exchange", "currency", "currencies", "euro", "euros", "dollar", "dollars", "yen", "pound", "pounds", "rate"],
  xcalendar: ["calendar", "agenda", "appointment", "meeting", "event", "events", "schedule", "diary"],
  xlocation: ["where", "address", "located", "location", "coordinates", "latitude", "longitude", "map"],
  xmusic: ["song", "songs", "track", "tracks", "music", "album", "albums", "artist", "band", "playlist", "listen"],
  xfood: ["recipe", "recipes", "cook", "cooking", "dish", "meal", "ingredient", "ingredients", "dinner", "lunch", "breakfast"],
  xjob: ["job", "jobs", "position", "vacancy", "vacancies", "hiring", "career", "employer", "salary"],
  xholiday: ["holiday", "holidays", "vacation", "festival", "bank holiday", "public"],
};
const CURRENCY_CODES = new Set(["USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD", "CNY", "INR", "SEK", "NOK", "DKK", "PLN", "BRL", "MXN", "ZAR", "KRW", "SGD", "HKD", "TRY", "RUB"]);

const SYNONYM: Map<string, string[]> = (() => {
  const m = new Map<string, string[]>();
  for (const [group, words] of Object.entries({ ...VERB_GROUPS, ...CONCEPTS })) {
    for (const w of words) {
      const s = stem(w);
      m.set(s, [...(m.get(s) ?? []), group]);
    }
  }
  return m;
})();

/** Two-word verbs rewritten to one word before indexing and searching ("look up" is a read, "set up" a create). */
const PHRASAL: Array<[RegExp, string]> = [
  [/\blook(?:s|ing)? up\b/gi, "lookup retrieve"],
  [/\blook(?:s|ing)? for\b/gi, "search"],
  [/\bpull(?:s|ing)? up\b/gi, "retrieve"],
  [/\bset(?:s|ting)? up\b/gi, "create"],
  [/\b(?:sign(?:s|ing)?|log(?:s|ging)?) (?:me )?in(?:to)?\b/gi, "login"],
  [/\bsign(?:s|ing)? (?:me )?up\b/gi, "register"],
  [/\b(?:sign(?:s|ing)?|log(?:s|ging)?) (?:me )?out\b/gi, "logout"],
  [/\b(the|this|that|my|your) new\b/gi, "$1 created"],
  [/\bplac(?:e|es|ing) (an?|the|my|new|another|one)\b/gi, "create $1"],
  [/\bfind(?:s|ing)? out\b/gi, "check"],
  [/\bturn(?:s|ing)? (on|off)\b/gi, "switch $1"],
];

function rewritePhrasal(text: string): string {
  let out = text;
  for (const [re, to] of PHRASAL) out = out.replace(re, to);
  return out;
}

/** Turns a token into index terms: its stem plus its verb group; stop words give nothing. */
function processTerm(term: string): string[] | null {
  if (CURRENCY_CODES.has(term)) return [term.toLowerCase(), "currency", "xmoney"];
  const lower = term.toLowerCase();
  if (STOP_WORDS.has(lower) && !KEEP_WORDS.has(lower)) return null;
  if (lower.length < 2 && !/^\d$/.test(lower)) return lower === "q" ? ["query"] : null;
  const s = stem(lower);
  // Past tense describes, it does not ask: "orders I placed" is not "place an order".
  if (lower.length > 4 && lower.endsWith("ed")) return [s, ...(SYNONYM.get(s) ?? []).filter((g) => !(g in VERB_GROUPS))];
  return [s, ...(SYNONYM.get(s) ?? [])];
}

/** The content words of a text, stemmed (no stop words). */
function contentStems(text: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(text)) {
    const lower = t.toLowerCase();
    if (STOP_WORDS.has(lower) && !KEEP_WORDS.has(lower)) continue;
    if (lower.length < 2) continue;
    out.push(stem(lower));
  }
  return out;
}

/** Plain words for a parameter name: `bookId` -> `book id`, `min_price` -> `min price`, `q` -> `search words`. */
export function humanize(name: string): string {
  if (/^q$/i.test(name)) return "search words";
  const words = lowerTokens(name);
  return words.length > 0 ? words.join(" ") : name.toLowerCase();
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const NORMALIZED_KEYS = new Memo<string, string>(4096);

function normalizeKey(s: string): string {
  return NORMALIZED_KEYS.getOrCompute(s, (x) => {
    const k = x.toLowerCase().replace(/[^a-z0-9]/g, "");
    return KEY_ALIASES[k] ?? k;
  });
}

const HOLDER_STEMS = new Memo<string, readonly string[]>(1024);

/** The word stems of an observation record's holder key and tool name (remembered: both come from a small set). */
function holderStems(holder: string, tool: string): readonly string[] {
  return HOLDER_STEMS.getOrCompute(`${holder} ${tool}`, (text) => tokenize(text).map((w) => stem(w.toLowerCase())));
}

/** Names that mean the same value (`lat` and `latitude`). */
const KEY_ALIASES: Record<string, string> = { lat: "latitude", lng: "longitude", lon: "longitude", long: "longitude", zip: "postalcode", zipcode: "postalcode", postcode: "postalcode" };

function normalizeWords(s: string): string {
  return s.toLowerCase().replace(/[_\-\s]+/g, " ").trim();
}

// ---------------------------------------------------------------------------------------------------------
// Tools
// ---------------------------------------------------------------------------------------------------------

/** One argument of a tool (or a property of an object argument), with what helps to fill it. */
interface Param {
  /** Argument name (last path segment). */
  name: string;
  /** Path from the top-level arguments (nested object properties). */
  path: string[];
  schema: Json;
  required: boolean;
  /** Plain words naming it, as used in questions (`book id`, `city of the shipping address`). */
  phrase: string;
  description: string;
}

function schemaType(schema: Json): string | undefined {
  const t = schema["type"];
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === "string" && x !== "null");
  if (isObject(schema["properties"])) return "object";
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = schema[key];
    if (Array.isArray(list)) {
      for (const s of list) if (isObject(s)) {
        const inner = schemaType(s);
        if (inner !== undefined && inner !== "null") return inner;
      }
    }
  }
  return undefined;
}

const EFFECTIVE = new WeakMap<Json, Json>();

/** The first non-null alternative of a union schema, merged with its own keywords (one object per schema: read-only). */
function effectiveSchema(schema: Json): Json {
  let out = EFFECTIVE.get(schema);
  if (!out) {
    out = computeEffectiveSchema(schema);
    EFFECTIVE.set(schema, out);
  }
  return out;
}

function computeEffectiveSchema(schema: Json): Json {
  for (const key of ["anyOf", "oneOf"]) {
    const list = schema[key];
    if (Array.isArray(list)) {
      const pick = list.find((s): s is Json => isObject(s) && s["type"] !== "null");
      if (pick) return { ...pick, ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== key)) };
    }
  }
  const all = schema["allOf"];
  if (Array.isArray(all)) {
    let merged: Json = { ...schema };
    delete merged["allOf"];
    for (const s of all) if (isObject(s)) merged = { ...s, ...merged, properties: { ...(isObject(s["properties"]) ? s["properties"] : {}), ...(isObject(merged["properties"]) ? merged["properties"] : {}) } };
    return merged;
  }
  return schema;
}

function enumOf(schema: Json): unknown[] | undefined {
  if (Array.isArray(schema["enum"])) return schema["enum"];
  if (schema["const"] !== undefined) return [schema["const"]];
  return undefined;
}

const PARAMS = new WeakMap<Json, Map<string, Param[]>>();

function paramsOf(schema: Json, path: string[] = []): Param[] {
  let byPath = PARAMS.get(schema);
  if (!byPath) {
    byPath = new Map();
    PARAMS.set(schema, byPath);
  }
  const key = path.join("\u0000");
  let out = byPath.get(key);
  if (!out) {
    out = computeParams(schema, path);
    byPath.set(key, out);
  }
  return out;
}

function computeParams(schema: Json, path: string[]): Param[] {
  const s = effectiveSchema(schema);
  const props = isObject(s["properties"]) ? s["properties"] : {};
  const required = Array.isArray(s["required"]) ? s["required"].filter((r): r is string => typeof r === "string") : [];
  const parent = path.length > 0 ? path[path.length - 1] : undefined;
  const out = Object.entries(props)
    .filter((e): e is [string, Json] => isObject(e[1]))
    .map(([name, sub]) => ({
      name,
      path: [...path, name],
      schema: effectiveSchema(sub),
      required: required.includes(name),
      phrase: parent !== undefined ? `${plainName(name, sub)} of the ${humanize(parent)}` : plainName(name, sub),
      description: typeof sub["description"] === "string" ? sub["description"] : "",
    }));
  // Two parameters described alike ("from" and "to", both "ISO 4217 alphabetic currency code") are asked by name:
  // "the from currency code", "the to currency code".
  const alike = out.filter((p) => p.phrase !== humanize(p.name) && out.some((q) => q !== p && q.phrase === p.phrase));
  for (const p of alike) p.phrase = `${humanize(p.name)} ${p.phrase.split(/\s+/).slice(-2).join(" ")}`;
  return out;
}

/** Plain words for a parameter; short or vague names (`from`, `lat`) borrow the start of their description. */
function plainName(name: string, schema: Json): string {
  const plain = humanize(name);
  const description = typeof schema["description"] === "string" ? schema["description"] : "";
  const vague = name.length <= 4 || STOP_WORDS.has(name.toLowerCase());
  if (!vague || description === "") return plain;
  const head = description.split(/[.(;:,]| e\.g\./)[0]?.trim().toLowerCase() ?? "";
  const words = head.split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 6) return plain;
  return head.replace(/^(the|a|an) /, "");
}

/** The words of a tool's name, lower-case (`translateText` -> translate, text). */
function nameWords(tool: OfflineToolSpec): Set<string> {
  return new Set(toolTraits(tool).nameWords);
}

/** Whether the step's words name the resource an id parameter points at ("... for the event" for `eventId`). */
function mentionsResource(p: Param, input: FillInput): boolean {
  const text = (input.clause ?? input.request.text).toLowerCase();
  const resource = paramTraits(p).idResource;
  if (resource.length === 0) return true;
  const stems = new Set(lowerTokens(text).map(stem));
  // The tool's own resource ("get the book" for `bookId`) is no mention of something else.
  const own = new Set(toolTraits(input.tool).nameStems);
  return resource.some((w) => stems.has(w) && !own.has(w));
}

/** Where a parameter goes, as the tool's schema says it ("... (path parameter)"), or by a header-like name. */
function paramLocation(p: Param): "path" | "query" | "header" | "cookie" | "body" {
  const m = /\((path|query|header|cookie) parameter\)\s*$/.exec(p.description);
  if (m) return m[1] as "path" | "query" | "header" | "cookie";
  if (p.path.length === 1 && (/^[A-Z][A-Za-z0-9]*(-[A-Z][A-Za-z0-9]*)+$/.test(p.name) || /^x-/i.test(p.name))) return "header";
  return "body";
}

/** Every non-container parameter, nested properties included. */
function leafParams(schema: Json, path: string[] = [], depth = 0): Param[] {
  const out: Param[] = [];
  for (const p of paramsOf(schema, path)) {
    const type = schemaType(p.schema);
    if (type === "object" && depth < 2) out.push(...leafParams(p.schema, p.path, depth + 1));
    else if (type === "array" && isObject(p.schema["items"]) && schemaType(effectiveSchema(p.schema["items"])) === "object" && depth < 2) out.push(...leafParams(effectiveSchema(p.schema["items"]), p.path, depth + 1));
    else out.push(p);
  }
  return out;
}

const ID_NAME = /(?:^|[a-z0-9_-])(?:id|ids|Id|Ids|ID|_id|uuid|key)$|^id$/;

function isIdParam(p: Param): boolean {
  return paramTraits(p).isId;
}

function computeIsId(p: Param): boolean {
  if (schemaType(p.schema) === "object" || schemaType(p.schema) === "array") return false;
  return ID_NAME.test(p.name) || /\bidentifier\b/i.test(p.description);
}

/** The resource an id names: `bookId` -> `book`; a bare `id` borrows the tool's resource word (shared list: do not change it). */
function idResource(p: Param, toolName: string): readonly string[] {
  const t = paramTraits(p);
  if (t.idResource.length > 0) return t.idResource;
  return TOOL_RESOURCES.getOrCompute(toolName, (name) =>
    lowerTokens(name)
      .filter((w) => !STOP_WORDS.has(w) && !SYNONYM.has(stem(w)) && w !== "by" && w !== "id")
      .map(stem),
  );
}

const TOOL_RESOURCES = new Memo<string, readonly string[]>(1024);

/** What slot filling reads of a parameter, computed once per parameter object (parameters are read-only). */
interface ParamTraits {
  /** The lowercase words of the name. */
  words: readonly string[];
  /** {@link normalizeKey} of the name. */
  key: string;
  /** The name's path, joined. */
  pathKey: string;
  isId: boolean;
  /** The id's resource words from the name (empty: the tool's name says it). */
  idResource: readonly string[];
  /** The cue rules that apply, each with its words-before expression compiled. */
  cues: ReadonlyArray<{ kinds: readonly SpanKind[]; before: RegExp }>;
  kinds?: SpanKind[];
  anchors?: string[];
  specificity?: number;
}

const PARAM_TRAITS = new WeakMap<Param, ParamTraits>();

function paramTraits(p: Param): ParamTraits {
  let t = PARAM_TRAITS.get(p);
  if (!t) {
    const words = lowerTokens(p.name);
    const key = normalizeKey(p.name);
    const resource = words.filter((w) => w !== "id" && w !== "ids" && w !== "uuid" && w !== "key");
    t = {
      words,
      key,
      pathKey: p.path.join("\u0000"),
      isId: computeIsId(p),
      idResource: resource.map(stem),
      cues: CUES.filter((cue) => cue.test.test(key) || words.some((w) => cue.test.test(w))).map((cue) => ({ kinds: cue.kinds, before: cueBefore(cue.before) })),
    };
    PARAM_TRAITS.set(p, t);
  }
  return t;
}

const CUE_BEFORE = new Map<string, RegExp>();

/** `\b(?:in|at|near)\s+(?:the\s+)?$`: one of the cue words just before a value (one expression per cue list). */
function cueBefore(words: readonly string[]): RegExp {
  const key = words.join("|");
  let re = CUE_BEFORE.get(key);
  if (!re) {
    re = new RegExp(`\\b(?:${key})\\s+(?:the\\s+)?$`);
    CUE_BEFORE.set(key, re);
  }
  return re;
}

// ---------------------------------------------------------------------------------------------------------
// Tool index (BM25 via minisearch)
// ---------------------------------------------------------------------------------------------------------

interface ToolDoc {
  id: number;
  name: string;
  description: string;
  params: string;
}

class ToolIndex {
  private readonly search: MiniSearch<ToolDoc>;
  /** The word stems of each tool's name, description and parameters. */
  readonly stems: Array<Set<string>>;

  constructor(
    readonly tools: readonly OfflineToolSpec[],
    /** The identity of the tool list (see {@link toolsKey}). */
    readonly key: string,
  ) {
    this.search = new MiniSearch<ToolDoc>({
      fields: ["name", "description", "params"],
      storeFields: [],
      tokenize,
      processTerm,
      searchOptions: {
        boost: { name: 2, description: 1, params: 0.6 },
        prefix: (term) => term.length >= 5,
        fuzzy: (term) => (term.length >= 7 ? 0.15 : false),
        combineWith: "OR",
        // Long descriptions are not penalised much: they are documentation, not noise.
        bm25: { k: 1.2, b: 0.3, d: 0.5 },
      },
    });
    this.stems = tools.map((t) => new Set(contentStems(`${t.name} ${rewritePhrasal(t.description)} ${paramsOf(t.parameters).map((p) => p.name).join(" ")}`)));
    this.search.addAll(
      tools.map((t, id) => ({
        id,
        name: t.name,
        description: rewritePhrasal(t.description),
        params: paramsOf(t.parameters)
          .map((p) => [p.name, ...(enumOf(p.schema) ?? []).filter((v): v is string => typeof v === "string")].join(" "))
          .join(" "),
      })),
    );
  }

  private readonly scoreMemo = new Memo<string, ReadonlyMap<number, number>>(128);
  private readonly termMemo = new Memo<string, ReadonlyMap<number, number>>(2048);

  /**
   * BM25 score per tool index for a text (tools that do not match are absent); shared: do not change it.
   * The same scores as `search(rewritePhrasal(text))` with the index's options (OR over the query's terms:
   * the sum of each term's score, times the number of distinct terms that matched), computed from each
   * term's scores, which are remembered: the words of requests repeat, their combinations do not.
   */
  scores(text: string): ReadonlyMap<number, number> {
    if (text.trim() === "") return EMPTY_SCORES;
    return this.scoreMemo.getOrCompute(text, (t) => {
      const terms = tokenize(rewritePhrasal(t))
        .flatMap((term) => processTerm(term))
        .filter((term): term is string => !!term);
      const acc = new Map<number, { score: number; terms: string[] }>();
      for (const term of terms) {
        for (const [id, score] of this.termScores(term)) {
          const hit = acc.get(id);
          if (!hit) acc.set(id, { score, terms: [term] });
          else {
            hit.score = hit.score + score;
            if (!hit.terms.includes(term)) hit.terms.push(term);
          }
        }
      }
      const out = new Map<number, number>();
      for (const [id, { score, terms: matched }] of acc) out.set(id, score * (matched.length || 1));
      return out;
    });
  }

  /** The score of each tool for one processed query term (its exact, prefix and fuzzy matches). */
  private termScores(term: string): ReadonlyMap<number, number> {
    return this.termMemo.getOrCompute(term, (t) => {
      const out = new Map<number, number>();
      for (const r of this.search.search(t, { tokenize: (s) => [s], processTerm: (x) => x })) out.set(r.id as number, r.score);
      return out;
    });
  }

  private holders: Map<string, number> | undefined;

  /** How many tools of the index have a word stem. */
  stemHolders(w: string): number {
    if (!this.holders) {
      this.holders = new Map();
      for (const set of this.stems) for (const x of set) this.holders.set(x, (this.holders.get(x) ?? 0) + 1);
    }
    return this.holders.get(w) ?? 0;
  }

  private verbs: string[] | undefined;

  /** {@link catalogVerbs} of the tools. */
  catalogVerbs(): string[] {
    this.verbs ??= catalogVerbs(this.tools);
    return this.verbs;
  }

  private names: Set<string> | undefined;

  /** The stems of the words of the tools' names. */
  nameStems(): ReadonlySet<string> {
    this.names ??= new Set(this.tools.flatMap((t) => toolTraits(t).nameStems));
    return this.names;
  }
}

const EMPTY_SCORES: ReadonlyMap<number, number> = new Map();

const INDEX_CACHE = new Map<string, ToolIndex>();

const SCHEMA_IDS = new WeakMap<object, number>();
let nextSchemaId = 0;
const SCHEMA_TEXT_IDS = new Map<string, number>();

function schemaId(parameters: object): number {
  let id = SCHEMA_IDS.get(parameters);
  if (id === undefined) {
    // Equal schemas share an id, so a new toolbox over the same toolsets finds its index again.
    const text = JSON.stringify(parameters);
    id = SCHEMA_TEXT_IDS.get(text);
    if (id === undefined) {
      id = nextSchemaId++;
      if (SCHEMA_TEXT_IDS.size > 20000) SCHEMA_TEXT_IDS.clear();
      SCHEMA_TEXT_IDS.set(text, id);
    }
    SCHEMA_IDS.set(parameters, id);
  }
  return id;
}

const SPEC_IDS = new WeakMap<OfflineToolSpec, { name: string; description: string; parameters: object; id: number }>();
let nextSpecId = 0;
const SPEC_TEXT_IDS = new Map<string, number>();

/** The identity of a tool: equal for tools with the same name, description and parameters (numbered once per tool object). */
function specId(t: OfflineToolSpec): number {
  const hit = SPEC_IDS.get(t);
  if (hit && hit.name === t.name && hit.description === t.description && hit.parameters === t.parameters) return hit.id;
  const text = `${schemaId(t.parameters)}\u0000${t.name}\u0000${t.description}`;
  let id = SPEC_TEXT_IDS.get(text);
  if (id === undefined) {
    id = nextSpecId++;
    if (SPEC_TEXT_IDS.size > 20000) SPEC_TEXT_IDS.clear();
    SPEC_TEXT_IDS.set(text, id);
  }
  SPEC_IDS.set(t, { name: t.name, description: t.description, parameters: t.parameters, id });
  return id;
}

/** A cheap identity of a tool list: the identity of each tool (name, description and parameters), in order. */
function toolsKey(tools: readonly OfflineToolSpec[]): string {
  let key = "";
  for (const t of tools) key += `${specId(t)},`;
  return key;
}

function toolIndex(tools: readonly OfflineToolSpec[]): ToolIndex {
  const key = toolsKey(tools);
  let index = INDEX_CACHE.get(key);
  if (!index) {
    index = new ToolIndex(tools, key);
    if (INDEX_CACHE.size >= 64) {
      const first = INDEX_CACHE.keys().next();
      if (!first.done) INDEX_CACHE.delete(first.value);
    }
    INDEX_CACHE.set(key, index);
  }
  return index;
}

// ---------------------------------------------------------------------------------------------------------
// Values in text
// ---------------------------------------------------------------------------------------------------------

type SpanKind = "quoted" | "url" | "email" | "datetime" | "date" | "time" | "id" | "number" | "code3" | "code2" | "lang" | "proper";

/** ISO 639-1 codes that are not also everyday English words. */
const LANGUAGE_CODES = new Set(["en", "de", "fr", "es", "pt", "nl", "sv", "da", "fi", "pl", "cs", "ru", "uk", "tr", "el", "ar", "hi", "ja", "ko", "zh", "th", "vi", "ms", "ro", "hu", "bg", "hr", "sk", "sl", "et", "lv", "lt", "ca", "eu", "gl", "ga", "cy", "fa", "ur", "bn", "ta", "te", "sw", "af", "nb", "nn"]);

interface Span {
  kind: SpanKind;
  start: number;
  end: number;
  /** The value as found (a number for numbers, ISO text for dates). */
  value: string | number;
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const MONTH_RE = "(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)";

function monthIndex(name: string): number {
  const lower = name.toLowerCase().slice(0, 3);
  return MONTHS.findIndex((m) => m.startsWith(lower));
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Words that start sentences and are not names. */
const NOT_PROPER = new Set([
  ...STOP_WORDS,
  ...Object.values(VERB_GROUPS).flat(),
  "i", "please", "can", "could", "would", "what", "whats", "what's", "how", "when", "where", "which", "who", "is", "are", "do", "does",
  "then", "and", "also", "after", "first", "next", "finally", "now", "book", "order", "convert", "send", "translate", "play", "plan",
  "give", "tell", "show", "find", "look", "list", "my", "our", "the", "a", "an", "it", "its", "it's", "thanks", "thank", "yes", "no",
  "sure", "okay", "ok", "hi", "hello", "hey", "use", "make", "set", "remind", "id", "api",
]);

/** Everything value-like in a text: quoted strings, e-mails, dates, numbers, ids, codes and proper names. */
class TextFacts {
  readonly lower: string;
  readonly spans: Span[] = [];

  constructor(readonly text: string) {
    this.lower = text.toLowerCase();
    const taken: Array<[number, number]> = [];
    const free = (s: number, e: number): boolean => taken.every(([a, b]) => e <= a || s >= b);
    const add = (kind: SpanKind, start: number, end: number, value: string | number): void => {
      if (!free(start, end)) return;
      taken.push([start, end]);
      this.spans.push({ kind, start, end, value });
    };
    const scan = (re: RegExp, fn: (m: RegExpExecArray) => void): void => {
      re.lastIndex = 0;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        fn(m);
        if (m[0] === "") re.lastIndex++;
      }
    };
    scan(/"([^"]+)"|“([^”]+)”|(?<=^|[\s(:,])'([^']+?)'(?=$|[\s.,;:!?)])/g, (m) => {
      const inner = m[1] ?? m[2] ?? m[3] ?? "";
      if (inner.trim() !== "") add("quoted", m.index, m.index + m[0].length, inner.trim());
    });
    scan(/https?:\/\/[^\s"'<>]+[^\s"'<>.,;:!?)]/g, (m) => add("url", m.index, m.index + m[0].length, m[0]));
    scan(/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g, (m) => add("email", m.index, m.index + m[0].length, m[0]));
    scan(/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, (m) =>
      add("datetime", m.index, m.index + m[0].length, m[0].replace(" ", "T")),
    );
    scan(/\b\d{4}-\d{2}-\d{2}\b/g, (m) => add("date", m.index, m.index + m[0].length, m[0]));
    scan(new RegExp(`\\b${MONTH_RE}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, "gi"), (m) => {
      const month = monthIndex(m[1] ?? "");
      if (month >= 0) add("date", m.index, m.index + m[0].length, `${m[3]}-${pad2(month + 1)}-${pad2(Number(m[2]))}`);
    });
    scan(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\.?,?\\s+(\\d{4})\\b`, "gi"), (m) => {
      const month = monthIndex(m[2] ?? "");
      if (month >= 0) add("date", m.index, m.index + m[0].length, `${m[3]}-${pad2(month + 1)}-${pad2(Number(m[1]))}`);
    });
    scan(/\b([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?\b/g, (m) => add("time", m.index, m.index + m[0].length, m[0]));
    scan(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, (m) => add("id", m.index, m.index + m[0].length, m[0]));
    scan(/(?<![\w.@-])(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*(?![\w@-])/g, (m) =>
      add("id", m.index, m.index + m[0].length, m[0]),
    );
    scan(/(?<![\w.-])[-+]?[$€£]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w-])|(?<![\w.-])[-+]?[$€£]?\d+(?:\.\d+)?(?![\w-]|\.\d)/g, (m) => {
      const n = Number(m[0].replace(/[$€£,+]/g, ""));
      if (Number.isFinite(n)) add("number", m.index, m.index + m[0].length, n);
    });
    scan(/(?<![\w.@/-])[a-z]{2,3}[-_](?:[A-Z]{2}|[A-Z][a-z]{3}|\d{3})(?![\w/-])/g, (m) => add("lang", m.index, m.index + m[0].length, m[0]));
    scan(/(?<![\w/-])[A-Z]{3}(?![\w/-])/g, (m) => add("code3", m.index, m.index + m[0].length, m[0]));
    // "with ID bk-1002": the word ID is no code.
    scan(/(?<![\w/-])[A-Z]{2}(?![\w/-])/g, (m) => {
      if (m[0] !== "ID") add("code2", m.index, m.index + m[0].length, m[0]);
    });
    scan(/(?<![\w/-])[a-z]{2}(?![\w/'’-])/g, (m) => {
      if (LANGUAGE_CODES.has(m[0])) add("lang", m.index, m.index + m[0].length, m[0]);
    });
    // Time zones and other slash names ("Europe/London") and slugs with two hyphens ("co-brightline-analytics").
    scan(/(?<![\w/-])[A-Z][A-Za-z]+(?:\/[A-Z][A-Za-z_-]+)+(?![\w/])/g, (m) => add("proper", m.index, m.index + m[0].length, m[0]));
    scan(/(?<![\w.@/-])[a-z0-9]+(?:-[a-z0-9]+){2,}(?![\w@/-])/g, (m) => add("id", m.index, m.index + m[0].length, m[0]));
    // Proper names: runs of capitalised words (a lowercase joiner allowed between two of them).
    scan(/(?<![\p{L}\p{N}_-])[A-Z][\p{L}'’-]*(?:\s+(?:(?:of|de|la|le|du|van|von|der|del|at|on|in|the|and)\s+)?[A-Z][\p{L}'’-]*)*/gu, (m) => {
      let start = m.index;
      let words = m[0].split(/\s+/);
      const sentenceStart = /(^|[.!?]\s*|["“(]\s*)$/.test(text.slice(0, start));
      while (words.length > 0 && (words[0] === "I" || (sentenceStart && NOT_PROPER.has((words[0] ?? "").toLowerCase().replace(/[’']s$/, ""))))) {
        start += (words[0] ?? "").length;
        const rest = text.slice(start);
        start += rest.length - rest.trimStart().length;
        words = words.slice(1);
      }
      if (words.length === 0) return;
      // A lone capitalised word that starts a sentence is just a sentence start.
      if (sentenceStart && start === m.index && words.length === 1) return;
      let phrase = words.join(" ").replace(/[’']s$/, "");
      phrase = phrase.replace(/\s+(?:of|de|la|le|du|van|von|der|del|at|on|in|the|and)$/i, "");
      if (phrase.length < 2 || /^(?:I|A)$/.test(phrase)) return;
      add("proper", start, start + phrase.length, phrase);
    });
    this.spans.sort((a, b) => a.start - b.start);
  }

  /** The span starting at (or just after) a position, if any. */
  spanAt(pos: number): Span | undefined {
    return this.spans.find((s) => s.start >= pos && s.start <= pos + 1);
  }

  /** Start and end of each occurrence of a phrase as whole words. */
  find(phrase: string): Array<[number, number]> {
    const cached = this.found.get(phrase);
    if (cached) return cached;
    const out: Array<[number, number]> = [];
    const lowerPhrase = phrase.toLowerCase();
    if (this.lower.includes(lowerPhrase.split(/[ _-]/)[0] ?? lowerPhrase)) {
      const re = phraseRegExp(lowerPhrase);
      re.lastIndex = 0;
      for (let m = re.exec(this.lower); m !== null; m = re.exec(this.lower)) out.push([m.index, m.index + m[0].length]);
    }
    this.found.set(phrase, out);
    return out;
  }

  private readonly found = new Map<string, Array<[number, number]>>();
}

const PHRASE_RES = new Memo<string, RegExp>(1024);

function phraseRegExp(phrase: string): RegExp {
  let re = PHRASE_RES.get(phrase);
  if (!re) {
    const flexible = escapeRegExp(phrase).replace(/\\?[ _-]+/g, "[\\s_-]*");
    re = new RegExp(`(?<![a-z0-9])${flexible}(?![a-z0-9])`, "g");
    PHRASE_RES.set(phrase, re);
  }
  return re;
}

const FACTS = new Memo<string, TextFacts>(256);

/** The facts of a text, shared between calls (texts repeat across the turns of a dialogue). */
function factsOf(text: string): TextFacts {
  let f = FACTS.get(text);
  if (!f) {
    f = new TextFacts(text);
    FACTS.set(text, f);
  }
  return f;
}

const FILLER = /^(?:\s|[:=,]|\b(?:is|are|was|be|should|must|will|of|to|for|as|at|in|on|with|named|called|titled|equal|set|the|a|an|my|its|number|no\.?|#|please|use|be)\b)*/i;

/** The words just after a position, up to a boundary (punctuation or a joining word). */
function phraseAfter(facts: TextFacts, pos: number, maxWords: number): { start: number; end: number; value: string } | undefined {
  const rest = facts.text.slice(pos);
  const m = /^\s*([^\s,.;!?()"“”]+(?:\s+[^\s,.;!?()"“”]+)*)/.exec(rest);
  if (!m || m[1] === undefined) return undefined;
  const words = m[1].split(/\s+/);
  const kept: string[] = [];
  for (const w of words) {
    const lower = w.toLowerCase();
    if (/^(and|then|but|or|with|for|from|to|in|on|at|by|please|so|that|which|who|whose|where|when|while|if|because|since|until|sorted|under|over|below|above|between|before|after|also|using)$/.test(lower) && kept.length > 0) break;
    kept.push(w);
    if (kept.length >= maxWords) break;
  }
  while (kept.length > 0 && STOP_WORDS.has((kept[kept.length - 1] ?? "").toLowerCase())) kept.pop();
  while (kept.length > 0 && STOP_WORDS.has((kept[0] ?? "").toLowerCase())) kept.shift();
  if (kept.length === 0) return undefined;
  const value = kept.join(" ");
  const start = pos + rest.indexOf(kept[0] ?? "");
  return { start, end: start + value.length, value };
}

// ---------------------------------------------------------------------------------------------------------
// Value checks and coercion
// ---------------------------------------------------------------------------------------------------------

function matchEnum(values: readonly unknown[], text: string): unknown {
  const t = normalizeWords(text);
  for (const v of values) if (typeof v === "string" && normalizeWords(v) === t) return v;
  for (const v of values) if (typeof v !== "string" && String(v) === text.trim()) return v;
  return undefined;
}

function testPattern(pattern: unknown, value: string): boolean {
  if (typeof pattern !== "string") return true;
  const compiled = compileLinear(pattern); // linear time, whatever the spec's pattern
  return !compiled.ok || compiled.pattern.test(value);
}

/** A value coerced to a schema, or undefined when it cannot be one. */
function coerce(raw: string | number | boolean, schema: Json): unknown {
  const s = effectiveSchema(schema);
  const type = schemaType(s);
  const en = enumOf(s);
  if (en) {
    const hit = matchEnum(en, String(raw));
    return hit;
  }
  if (type === "integer" || type === "number") {
    const n = typeof raw === "number" ? raw : Number(String(raw).replace(/[$€£,]/g, ""));
    if (!Number.isFinite(n) || String(raw).trim() === "") return undefined;
    if (type === "integer" && !Number.isInteger(n)) return undefined;
    // Bounds are the API's to check: a named value out of range is sent and repaired after the error.
    return n;
  }
  if (type === "boolean") {
    if (typeof raw === "boolean") return raw;
    if (/^(true|yes|y|1)$/i.test(String(raw))) return true;
    if (/^(false|no|n|0)$/i.test(String(raw))) return false;
    return undefined;
  }
  if (type === "array") {
    const items = isObject(s["items"]) ? s["items"] : {};
    const one = coerce(raw, items);
    return one === undefined ? undefined : [one];
  }
  if (type === "object") return undefined;
  let str = String(raw);
  const format = s["format"];
  if (format === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(str)) return undefined;
  if (format === "date-time") {
    if (/^\d{4}-\d{2}-\d{2}$/.test(str)) str = `${str}T00:00:00Z`;
    else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(str)) str = `${str}:00Z`;
    else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(str)) str = `${str}Z`;
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(str)) return undefined;
  }
  if (format === "email" && !/^[^@\s]+@[^@\s]+$/.test(str)) return undefined;
  if (format === "uuid" && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(str)) return undefined;
  if ((format === "uri" || format === "url") && !/^[a-z][a-z0-9+.-]*:/i.test(str)) return undefined;
  if (!testPattern(s["pattern"], str)) {
    if (testPattern(s["pattern"], str.toUpperCase())) str = str.toUpperCase();
    else if (testPattern(s["pattern"], str.toLowerCase())) str = str.toLowerCase();
    else return undefined;
  }
  if (typeof s["maxLength"] === "number" && str.length > s["maxLength"]) return undefined;
  if (typeof s["minLength"] === "number" && str.length < s["minLength"]) return undefined;
  return str;
}

/** The kinds of text value a parameter accepts, best first. */
function acceptedKinds(p: Param): SpanKind[] {
  const t = paramTraits(p);
  t.kinds ??= computeKinds(p);
  return t.kinds;
}

function computeKinds(p: Param): SpanKind[] {
  const s = p.schema;
  const type = schemaType(s);
  const format = typeof s["format"] === "string" ? s["format"] : "";
  const name = `${p.name} ${p.description}`.toLowerCase();
  if (type === "integer" || type === "number") return ["number"];
  if (format === "date") return ["date", "datetime"];
  if (format === "date-time") return ["datetime", "date"];
  if (format === "email" || /e-?mail/.test(p.name.toLowerCase())) return ["email", "quoted"];
  if (format === "uri" || format === "url" || /url|uri|link/.test(p.name.toLowerCase())) return ["url", "quoted"];
  if (format === "time" || /\btime\b/.test(p.name.toLowerCase())) return ["time", "quoted"];
  if (/date|day|birthday/.test(p.name.toLowerCase())) return ["date", "datetime", "quoted"];
  if (isIdParam(p)) return ["id", "quoted", "number", "code3"];
  if (/currenc|iso 4217|\bbase\b|\bsymbol\b/.test(name) || testPatternOnly(s, "USD")) return ["code3", "quoted"];
  const flat = normalizeKey(p.name);
  const isLanguage =
    /^(lang|language|locale|hl|languagecode|langcode|acceptlanguage)$/.test(flat) ||
    /iso 639|bcp ?47|\b(language|locale) (code|tag)\b/.test(p.description.toLowerCase()) ||
    (/^(source|target|from|to)(lang|language)?$/.test(flat) && /language/i.test(p.description));
  if (isLanguage) return ["lang", "code2", "quoted"];
  if (/^(country|countrycode|countries|countrycodes|market)$/.test(flat) || /iso 3166|alpha-2/.test(p.description.toLowerCase()) || testPatternOnly(s, "US")) return ["code2", "quoted", "proper"];
  if (/^(name|title|label|subject|summary|description|message|text|note|comment|content|q|query|displayname|fullname)$/i.test(p.name.replace(/[_-]/g, ""))) return ["quoted", "proper"];
  return ["quoted", "proper", "id", "code3", "code2", "email"];
}

function testPatternOnly(s: Json, sample: string): boolean {
  return typeof s["pattern"] === "string" && testPattern(s["pattern"], sample) && !testPattern(s["pattern"], sample.toLowerCase() + "zz9");
}

/** Value shape: `bk-1001` -> `aa-9`; two ids look alike when the letters before the first digit match. */
function idShapeMatches(example: string, value: string): boolean {
  const prefix = (s: string): string => (/^([A-Za-z]+[-_]?)\d/.exec(s)?.[1] ?? "").toLowerCase();
  const pe = prefix(example);
  if (pe === "") return true;
  return prefix(value) === pe;
}

function exampleOf(schema: Json): unknown {
  if (Array.isArray(schema["examples"]) && schema["examples"].length > 0) return schema["examples"][0];
  if (schema["example"] !== undefined) return schema["example"];
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Dialogue history
// ---------------------------------------------------------------------------------------------------------

interface Call {
  id: string;
  name: string;
  args: Json | string;
  result?: { status: number; body: unknown };
}

interface Reply {
  text: string;
  facts: TextFacts;
  /** The question it answers. */
  question: string;
}

interface RequestView {
  text: string;
  facts: TextFacts;
  replies: Reply[];
  questions: string[];
  calls: Call[];
}

interface History {
  requests: RequestView[];
  current: RequestView | undefined;
  totalCalls: number;
  /** The kind of the last non-system message. */
  last: "user" | "ai" | "tool" | "none";
}

function isQuestion(text: string, kwargs: Json): boolean {
  if (kwargs["intent"] === "question") return true;
  if (kwargs["intent"] !== undefined) return false;
  const t = text.trim();
  return t.endsWith("?") && !t.startsWith(GIVE_UP_PREFIX);
}

const PARSED = new WeakMap<ChatMessageLike, { text: string; status: number; body: unknown }>();

/**
 * The status and body of a tool message, parsed once per message object: a dialogue's messages are read again
 * on every turn (the offline assistant passes the same message objects each time). Bodies are only read.
 */
function toolResultOf(m: ChatMessageLike, text: string): { status: number; body: unknown } {
  const hit = PARSED.get(m);
  if (hit && hit.text === text) return hit;
  const parsed = parseToolResultText(text);
  const out = { text, status: parsed.status, body: parsed.body };
  PARSED.set(m, out);
  return out;
}

function readHistory(messages: readonly ChatMessageLike[]): History {
  const requests: RequestView[] = [];
  let current: RequestView | undefined;
  let pendingQuestion: string | undefined;
  let lastAiWasAnswer = true;
  let totalCalls = 0;
  let last: History["last"] = "none";
  const byId = new Map<string, Call>();
  for (const m of messages) {
    const type = m.type;
    if (type === "system") continue;
    const text = messageText(m);
    if (type === "human") {
      last = "user";
      if (current !== undefined && pendingQuestion !== undefined) {
        current.replies.push({ text, facts: factsOf(text), question: pendingQuestion });
      } else if (current !== undefined && !lastAiWasAnswer) {
        current.text = `${current.text}\n${text}`;
        current.facts = factsOf(current.text);
      } else {
        current = { text, facts: factsOf(text), replies: [], questions: [], calls: [] };
        requests.push(current);
      }
      pendingQuestion = undefined;
      lastAiWasAnswer = false;
    } else if (type === "ai") {
      last = "ai";
      const calls = m.tool_calls ?? [];
      if (!current) {
        current = { text: "", facts: factsOf(""), replies: [], questions: [], calls: [] };
        requests.push(current);
      }
      if (calls.length > 0) {
        for (const c of calls) {
          totalCalls++;
          const call: Call = { id: c.id ?? `call_${totalCalls}`, name: c.name, args: argumentsFromObject(c.args) };
          current.calls.push(call);
          byId.set(call.id, call);
        }
        pendingQuestion = undefined;
      } else if (isQuestion(text, m.additional_kwargs ?? {})) {
        current.questions.push(text);
        pendingQuestion = text;
      } else {
        pendingQuestion = undefined;
        lastAiWasAnswer = true;
      }
    } else if (type === "tool") {
      last = "tool";
      const id = m.tool_call_id ?? "";
      const parsed = toolResultOf(m, text);
      const call = byId.get(id);
      if (call) call.result = { status: parsed.status, body: parsed.body };
      else if (current) current.calls.push({ id, name: m.name ?? "", args: {}, result: { status: parsed.status, body: parsed.body } });
    }
  }
  return { requests, current, totalCalls, last };
}

function succeeded(c: Call): boolean {
  return c.result !== undefined && c.result.status >= 200 && c.result.status < 300;
}

function failed(c: Call): boolean {
  return c.result !== undefined && c.result.status >= 400;
}

// ---------------------------------------------------------------------------------------------------------
// Observations: records in earlier results
// ---------------------------------------------------------------------------------------------------------

interface ObsRecord {
  fields: Json;
  tool: string;
  /** The key of the array or object that held it (`books`, `items`...). */
  holder: string;
  /** Position in its array (0 for single objects). */
  position: number;
  /** How many siblings it had. */
  siblings: number;
  /** Recency rank: 0 is the newest result of the current request. */
  age: number;
}

function recordsOf(body: unknown, tool: string, age: number): ObsRecord[] {
  const out: ObsRecord[] = [];
  const walk = (v: unknown, holder: string, position: number, siblings: number, depth: number): void => {
    if (depth > 5) return;
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, holder, i, v.length, depth + 1));
      return;
    }
    if (!isObject(v)) return;
    out.push({ fields: v, tool, holder, position, siblings, age });
    for (const [k, sub] of Object.entries(v)) if (typeof sub === "object" && sub !== null) walk(sub, k, 0, 1, depth + 1);
  };
  walk(body, "", 0, 1, 0);
  return out;
}

function observations(history: History): ObsRecord[] {
  const out: ObsRecord[] = [];
  let age = 0;
  const ordered = [...history.requests].reverse();
  for (const req of ordered) {
    for (const call of [...req.calls].reverse()) {
      if (!succeeded(call) || call.result === undefined) continue;
      out.push(...recordsOf(call.result.body, call.name, age));
      age++;
    }
    age += 100;
  }
  return out;
}

const ORDINALS: Array<[RegExp, (n: number) => number]> = [
  [/\b(first|1st|top)\b/, () => 0],
  [/\b(second|2nd)\b/, () => 1],
  [/\b(third|3rd)\b/, () => 2],
  [/\b(last|final)\b/, (n) => n - 1],
];

/** Every scalar inside a value (arguments with nested objects and lists). */
function scalarLeaves(v: unknown): unknown[] {
  if (Array.isArray(v)) return v.flatMap(scalarLeaves);
  if (isObject(v)) return Object.values(v).flatMap(scalarLeaves);
  return [v];
}

function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

/** A value for a parameter from earlier results: same key, or `id` of the resource the parameter names. */
function fromObservations(p: Param, tool: OfflineToolSpec, records: readonly ObsRecord[], userText: string, relaxed = false): { value: unknown; note: string } | undefined {
  if (records.length === 0) return undefined;
  const key = normalizeKey(p.name);
  const resource = isIdParam(p) ? idResource(p, tool.name) : [];
  type Cand = { record: ObsRecord; value: unknown; strength: number };
  let cands: Cand[] = [];
  // Generic keys (`name`, `title`) of other things are not this parameter's value.
  const generic = /^(name|title|description|type|status|label|summary|text|message|note|comment|content|kind|category|value|state|mode)$/.test(key) && !isIdParam(p);
  for (const r of records) {
    for (const [k, v] of Object.entries(r.fields)) {
      if (!isScalar(v) || generic) continue;
      if (normalizeKey(k) === key) cands.push({ record: r, value: v, strength: 3 });
    }
    const example = exampleOf(p.schema);
    if (isIdParam(p) && typeof example === "string" && typeof r.fields["id"] === "string" && !idShapeMatches(example, r.fields["id"])) continue;
    if (isIdParam(p) && isScalar(r.fields["id"]) && normalizeKey(p.name) !== "id") {
      const stems = holderStems(r.holder, r.tool);
      const related = resource.length > 0 && resource.some((w) => stems.includes(w));
      cands.push({ record: r, value: r.fields["id"], strength: related ? 2 : 1 });
    } else if (normalizeKey(p.name) === "id" && isScalar(r.fields["id"])) {
      const stems = holderStems(r.holder, r.tool);
      const related = resource.some((w) => stems.includes(w));
      cands.push({ record: r, value: r.fields["id"], strength: related ? 2.5 : 1 });
    }
  }
  // A value the parameter's pattern or format refuses is no candidate (a device id is no scene id).
  const strict = typeof p.schema["pattern"] === "string" || typeof p.schema["format"] === "string" || enumOf(p.schema) !== undefined;
  if (strict) cands = cands.filter((c) => coerce(c.value as string | number | boolean, p.schema) !== undefined);
  if (cands.length === 0) return undefined;
  const lower = userText.toLowerCase();
  let ordinal: number | undefined;
  for (const [re, f] of ORDINALS) {
    if (re.test(lower)) {
      ordinal = f(Math.max(1, cands[0]?.record.siblings ?? 1));
      break;
    }
  }
  const mention = (r: ObsRecord): number => {
    let n = 0;
    for (const v of Object.values(r.fields)) {
      if (typeof v === "string" && v.length >= 3 && lower.includes(v.toLowerCase())) n += 1 + Math.min(2, v.length / 20);
    }
    return n;
  };
  const scored = cands.map((c, i) => {
    let score = c.strength * 10 - Math.min(c.record.age, 200) * 0.5;
    if (c.record.age >= 100 && c.strength < 2) score -= 50;
    score += mention(c.record) * 4;
    if (ordinal !== undefined && c.record.position === Math.min(ordinal, c.record.siblings - 1)) score += 3;
    else if (c.record.position === 0) score += 1;
    return { c, score, i };
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  const best = scored[0];
  if (!best) return undefined;
  if (!relaxed && best.c.strength < 2 && best.c.record.age > 0 && best.score < 10) return undefined;
  const value = coerce(best.c.value as string | number | boolean, p.schema) ?? (typeof best.c.value === "string" ? best.c.value : undefined);
  if (value === undefined) return undefined;
  return { value, note: `${p.name} from the ${best.c.record.tool} result` };
}

// ---------------------------------------------------------------------------------------------------------
// Slot filling
// ---------------------------------------------------------------------------------------------------------

/** Words that point at a value of some kinds of parameter ("in Paris" -> city). */
const CUES: Array<{ test: RegExp; before: string[]; kinds: SpanKind[] }> = [
  { test: /city|location|place|town|address|destination|region|area|where|geo|country|venue/, before: ["in", "at", "near", "around", "for", "to"], kinds: ["quoted", "proper"] },
  { test: /^(base|basecurrency)$/, before: ["relative to", "against", "versus", "vs", "base", "based on", "in terms of"], kinds: ["code3"] },
  { test: /^(from|source|origin|base|sell|fromcurrency|sourcecurrency|basecurrency|sourcelang|sourcelanguage)$/, before: ["from", "\\d[\\d.,]*"], kinds: ["code3", "lang", "code2", "proper", "quoted"] },
  { test: /^(to|target|destination|quote|buy|tocurrency|targetcurrency|quotecurrency|symbols?|targetlang|targetlanguage)$/, before: ["to", "into", "in"], kinds: ["code3", "lang", "code2", "proper", "quoted"] },
  { test: /author|artist|by|creator|composer|director|owner|organizer|host/, before: ["by", "from", "of"], kinds: ["quoted", "proper"] },
  { test: /^(q|query|search|keyword|keywords|term|terms|text|phrase|topic)$/, before: ["about", "for", "called", "named", "titled", "on", "matching", "mentioning", "with"], kinds: ["quoted", "proper"] },
  { test: /^(name|title|label|subject|summary)$/, before: ["called", "named", "titled", "entitled"], kinds: ["quoted"] },
  { test: /^(start|from|since|after|begin|checkin|departure|depart|startdate|fromdate|starttime|startat|startsat)$/, before: ["from", "since", "after", "starting", "beginning", "on", "at"], kinds: ["datetime", "date"] },
  { test: /^(end|to|until|before|checkout|return|enddate|todate|endtime|endat|endsat|due|deadline)$/, before: ["to", "until", "through", "till", "before", "by", "ending", "due"], kinds: ["datetime", "date"] },
  { test: /date|day|when|time|^at$/, before: ["on", "for", "at", "of"], kinds: ["date", "datetime"] },
];

const MIN_CUES = /\b(?:over|above|more than|at least|from|minimum|min|starting at|no less than)\s*$/;
const MAX_CUES = /\b(?:under|below|less than|at most|up to|maximum|max|cheaper than|no more than|within)\s*$/;

interface FillState {
  used: Set<string>;
}

interface Source {
  facts: TextFacts;
  /** 0 is the request (or the step's clause of it), 1.. the replies. */
  index: number;
  /** Which text the offsets are in (`req`, `r1`...), so a clause and its request share used values. */
  space?: string;
  /** Where this text starts in that space. */
  offset?: number;
}

function spanKey(src: Source, span: { start: number }): string {
  return `${src.space ?? src.index}:${(src.offset ?? 0) + span.start}`;
}

/** Words that name the parameter in text: its plain words, its name, and nouns of its description. */
function anchorsOf(p: Param): string[] {
  const t = paramTraits(p);
  t.anchors ??= computeAnchors(p);
  return t.anchors;
}

function computeAnchors(p: Param): string[] {
  const out = new Set<string>();
  const plain = humanize(p.name);
  if (plain !== "search words") out.add(plain);
  if (p.name.length > 2) out.add(p.name.toLowerCase());
  const words = plain.split(" ");
  if (isIdParam(p) && words.length > 1) out.add(`${words.slice(0, -1).join(" ")} number`);
  const last = words[words.length - 1];
  if (words.length > 1 && last !== undefined && last.length > 3 && !["id", "ids", "name", "type", "date", "time", "code"].includes(last) && !/^(min|max|start|end|from|to)/.test(words[0] ?? "")) out.add(last);
  const m = /(?:number|count|amount) of ([a-z]+)/i.exec(p.description);
  if (m?.[1]) out.add(m[1].toLowerCase());
  // Coordinates: "from lat" is also "from latitude".
  for (const a of [...out]) {
    if (/\blat\b/.test(a)) out.add(a.replace(/\blat\b/, "latitude"));
    if (/\b(lon|lng)\b/.test(a)) out.add(a.replace(/\b(lon|lng)\b/, "longitude"));
  }
  // Singulars too: "5 day forecast" names `days`.
  for (const a of [...out]) if (/[^s]s$/.test(a) && a.length > 3) out.add(a.slice(0, -1));
  return [...out].filter((a) => a.length >= 2).sort((a, b) => b.length - a.length);
}

/** A plain string parameter without enum, format or id meaning. */
function isFreeText(p: Param): boolean {
  return schemaType(p.schema) === "string" && !enumOf(p.schema) && typeof p.schema["format"] !== "string" && !isIdParam(p) && typeof p.schema["pattern"] !== "string";
}

/** An id right after the resource it names ("company co-brightline-analytics", "order ord-50001"). */
function idAfterResource(p: Param, tool: OfflineToolSpec, src: Source, st: FillState): { value: unknown; span: Span } | undefined {
  if (!isIdParam(p)) return undefined;
  for (const word of idResource(p, tool.name)) {
    for (const [, end] of src.facts.find(word)) {
      const rest = src.facts.text.slice(end);
      const skip = /^(?:s?\s*(?:with\s+)?(?:id|ID|number|no\.?|#|:)?\s*)/.exec(rest)?.[0].length ?? 0;
      const span = src.facts.spanAt(end + skip);
      if (!span || st.used.has(spanKey(src, span)) || (span.kind !== "id" && span.kind !== "number" && span.kind !== "quoted")) continue;
      const v = acceptsSpan(p, span);
      if (v !== undefined) return { value: v, span };
    }
  }
  return undefined;
}

function acceptsSpan(p: Param, span: Span): unknown {
  const kinds = acceptedKinds(p);
  const en = enumOf(p.schema);
  if (!en && !kinds.includes(span.kind)) return undefined;
  if (isIdParam(p) && span.kind === "id") {
    const ex = exampleOf(p.schema);
    if (typeof ex === "string" && !idShapeMatches(ex, String(span.value))) return undefined;
  }
  return coerce(span.value, p.schema);
}

/** A value right after one of the parameter's words ("city Paris", "book id bk-1001", "price 12"). */
function anchoredValue(p: Param, src: Source, st: FillState): { value: unknown; span: { start: number; end: number } } | undefined {
  const type = schemaType(p.schema);
  for (const anchor of anchorsOf(p)) {
    for (const [, end] of src.facts.find(anchor)) {
      const rest = src.facts.text.slice(end);
      const skip = FILLER.exec(rest)?.[0].length ?? 0;
      const before = src.facts.lower.slice(Math.max(0, end - anchor.length - 6), end - anchor.length);
      const pos = end + skip;
      const span = src.facts.spanAt(pos);
      if (span && !st.used.has(spanKey(src, span))) {
        // A named value of a string parameter may be all digits ("isbn 9780000000071", "zip 10115").
        const digits = span.kind === "number" && type === "string" && Number.isInteger(span.value) ? coerce(String(span.value), p.schema) : undefined;
        const v = acceptsSpan(p, span) ?? (span.kind === "quoted" || span.kind === "proper" || span.kind === "id" ? coerce(span.value, p.schema) : digits);
        if (v !== undefined) {
          // A free-text value goes on to the end of its phrase ("Living room", not "Living").
          if (isFreeText(p) && span.kind !== "quoted") {
            const longer = phraseAfter(src.facts, span.start, 4);
            if (longer && longer.start === span.start && longer.value.length > String(span.value).length) {
              const lv = coerce(longer.value, p.schema);
              if (lv !== undefined) return { value: lv, span };
            }
          }
          return { value: v, span };
        }
      }
      // "the ingredient substitutes for buttermilk": the anchor names a compound; the value follows "for".
      const compound = /^\s*([^\s,.;!?]+)\s+(?:for|of|about)\s+/i.exec(src.facts.text.slice(end));
      if (compound && /\b(the|a|an|some)\s*$/.test(before) && !STOP_WORDS.has((compound[1] ?? "").toLowerCase()) && type !== "integer" && type !== "number") {
        const at = end + compound[0].length;
        const inner = src.facts.spanAt(at);
        if (inner && !st.used.has(spanKey(src, inner))) {
          const v = acceptsSpan(p, inner);
          if (v !== undefined) return { value: v, span: inner };
        }
        const words = phraseAfter(src.facts, at, 4);
        if (words && !st.used.has(spanKey(src, words)) && isFreeText(p)) {
          const v = coerce(words.value, p.schema);
          if (v !== undefined) return { value: v, span: words };
        }
        continue;
      }
      // "the ingredient substitutes": after "the <anchor>" a bare word is the head noun, unless "is"/":" says otherwise.
      const separated = skip > 0 && /[:=]|\b(is|are|was|be|named|called|titled|to|as|equal)\b/i.test(rest.slice(0, skip));
      const bareAllowed = separated || !/\b(the|a|an|some|this|that|my|your)\s*$/.test(before) || enumOf(p.schema) !== undefined;
      if ((type === "string" || type === undefined || enumOf(p.schema)) && bareAllowed) {
        const word = phraseAfter(src.facts, pos, enumOf(p.schema) ? 3 : isIdParam(p) ? 1 : 4);
        if (word && !st.used.has(spanKey(src, word))) {
          const en = enumOf(p.schema);
          if (en) {
            const words = word.value.split(/\s+/);
            for (let n = words.length; n >= 1; n--) {
              const hit = matchEnum(en, words.slice(0, n).join(" "));
              if (hit !== undefined) return { value: hit, span: word };
            }
          } else if (!/^\d/.test(word.value) || isIdParam(p)) {
            const v = coerce(word.value, p.schema);
            if (v !== undefined && acceptedKinds(p).some((k) => k === "quoted" || k === "proper" || k === "id")) return { value: v, span: word };
          }
        }
      }
    }
    // "2 copies", "5 days": a number just before the anchor.
    if (type === "integer" || type === "number") {
      for (const [start] of src.facts.find(anchor)) {
        const before = src.facts.spans.filter((s) => s.kind === "number" && s.end <= start && start - s.end <= 12 && /^[\s\w-]*$/.test(src.facts.text.slice(s.end, start)) && src.facts.text.slice(s.end, start).trim().split(/\s+/).filter(Boolean).length <= 1);
        const span = before[before.length - 1];
        if (span && !st.used.has(spanKey(src, span))) {
          const v = coerce(span.value, p.schema);
          if (v !== undefined) return { value: v, span };
        }
      }
    }
  }
  return undefined;
}

/** A value signalled by a cue word before it ("in Paris", "by Maren Sollberg", "under $25", "from USD to EUR"). */
function cuedValue(p: Param, src: Source, st: FillState): { value: unknown; span: Span } | undefined {
  const traits = paramTraits(p);
  const key = traits.key;
  const words = traits.words;
  const type = schemaType(p.schema);
  if ((type === "number" || type === "integer") && /year/.test(key)) {
    for (const span of src.facts.spans) {
      if (span.kind !== "number" || st.used.has(spanKey(src, span)) || typeof span.value !== "number" || span.value < 1800 || span.value > 2200) continue;
      const before = src.facts.lower.slice(Math.max(0, span.start - 12), span.start);
      if (!/\b(in|for|of|during|year)\s+$/.test(before)) continue;
      const v = coerce(span.value, p.schema);
      if (v !== undefined) return { value: v, span };
    }
    return undefined;
  }
  if (type === "number" || type === "integer") {
    const isMin = words[0] === "min" || words[0] === "minimum" || /^(from|lowest)/.test(key);
    const isMax = words[0] === "max" || words[0] === "maximum" || /^(to|highest)/.test(key);
    if (!isMin && !isMax) return undefined;
    for (const span of src.facts.spans) {
      if (span.kind !== "number" || st.used.has(spanKey(src, span))) continue;
      const before = src.facts.lower.slice(Math.max(0, span.start - 20), span.start);
      if ((isMin && MIN_CUES.test(before)) || (isMax && MAX_CUES.test(before))) {
        const v = coerce(span.value, p.schema);
        if (v !== undefined) return { value: v, span };
      }
      if (/\bbetween\s*$/.test(before) || /\bfrom\s*$/.test(before)) {
        const next = src.facts.spans.find((s) => s.start > span.end && s.kind === "number" && /^\s*(?:and|to|-)\s*$/.test(src.facts.text.slice(span.end, s.start)));
        if (next) {
          const pick = isMin ? span : next;
          if (st.used.has(spanKey(src, pick))) continue;
          const v = coerce(pick.value, p.schema);
          if (v !== undefined) return { value: v, span: pick };
        }
      }
    }
    return undefined;
  }
  // "with USD as the base": the value comes before its name.
  if (/^(base|basecurrency)$/.test(key)) {
    for (const span of src.facts.spans) {
      if (span.kind !== "code3" || st.used.has(spanKey(src, span))) continue;
      if (!/^\s+as (?:the |a )?base\b/i.test(src.facts.text.slice(span.end))) continue;
      const v = coerce(span.value, p.schema);
      if (v !== undefined) return { value: v, span };
    }
  }
  for (const cue of traits.cues) {
    for (const span of src.facts.spans) {
      if (!cue.kinds.includes(span.kind) || st.used.has(spanKey(src, span))) continue;
      const before = src.facts.lower.slice(Math.max(0, span.start - 12), span.start);
      if (!cue.before.test(before)) continue;
      const v = coerce(span.value, p.schema);
      if (v !== undefined) return { value: v, span };
    }
  }
  return undefined;
}

/** Free-text parameters and the words that introduce their value ("remind me to call the bank"). */
const PHRASE_CUES: Array<{ test: RegExp; cues: string[]; maxWords: number }> = [
  {
    test: /message|text|note|content|reminder|task|comment|body|description|memo/,
    cues: ["remind me to", "reminder to", "remind me that", "remind me about", "reminder about", "reminder for", "saying", "that says", "to say", "with the message", "with the text", "note that", "note saying"],
    maxWords: 8,
  },
  { test: /^(name|title|label|subject|summary|headline)$/, cues: ["called", "named", "titled", "entitled"], maxWords: 6 },
  { test: /^(q|query|search|keywords?|terms?|phrase|topic)$/, cues: ["about", "mentioning", "matching", "containing", "with the words", "titled", "called"], maxWords: 5 },
];
/** Cues that introduce a search text only when it is quoted (`find recipes for "curry"`). */
const QUOTED_QUERY_CUES = ["for", "on", "search", "find", "look up"];

/** The axis and prefix of a coordinate parameter (`fromLat` -> lat, from). */
const AXES = new Memo<string, { axis: "lat" | "lon"; prefix: string } | null>(1024);

function coordinateAxis(name: string): { axis: "lat" | "lon"; prefix: string } | undefined {
  return AXES.getOrCompute(name, (n) => computeAxis(n) ?? null) ?? undefined;
}

function computeAxis(name: string): { axis: "lat" | "lon"; prefix: string } | undefined {
  const words = lowerTokens(name);
  const last = words[words.length - 1] ?? "";
  const axis = /^(lat|latitude)$/.test(last) ? "lat" : /^(lon|lng|long|longitude)$/.test(last) ? "lon" : undefined;
  return axis ? { axis, prefix: words.slice(0, -1).join(" ") } : undefined;
}

/** A coordinate from a pair in the text ("from 48.85, 2.35 to 51.5, -0.12", "at 37.79, -122.39"). */
function coordinateValue(p: Param, src: Source, st: FillState): { value: unknown; span: Span } | undefined {
  const c = coordinateAxis(p.name);
  if (!c) return undefined;
  const numbers = src.facts.spans.filter((x) => x.kind === "number");
  const cue =
    /^(from|origin|start|source|begin)$/.test(c.prefix) ? /\b(from|origin|starting at|start(?:ing)? point)\s*$/ :
    /^(to|destination|end|target|dest)$/.test(c.prefix) ? /\b(to|destination|end(?:ing)? point)\s*$/ :
    c.prefix === "" ? /\b(at|near|around|coordinates?|location|point|of)\s*$|^$/ : undefined;
  if (!cue) return undefined;
  for (let i = 0; i + 1 < numbers.length; i++) {
    const a = numbers[i] as Span;
    const b = numbers[i + 1] as Span;
    if (!/^\s*[,/;]?\s*$/.test(src.facts.text.slice(a.end, b.start))) continue;
    const before = src.facts.lower.slice(Math.max(0, a.start - 24), a.start);
    if (!cue.test(before) && !(c.prefix === "" && i === 0)) continue;
    const pick = c.axis === "lat" ? a : b;
    if (st.used.has(spanKey(src, pick))) continue;
    const v = coerce(pick.value, p.schema);
    if (v !== undefined) return { value: v, span: pick };
  }
  return undefined;
}

/** A list value goes on over "X, Y and Z" of the same kind ("for USD and GBP"). */
function extendList(p: Param, src: Source, st: FillState, first: Span, value: unknown): unknown {
  if (schemaType(p.schema) !== "array" || !Array.isArray(value)) return value;
  const items = isObject(p.schema["items"]) ? p.schema["items"] : {};
  const out = [...value];
  let last = first;
  for (const next of src.facts.spans) {
    if (next.start <= last.start) continue;
    if (next.kind !== first.kind || st.used.has(spanKey(src, next))) break;
    if (!/^\s*(?:,|and|or|&|\/)?\s*(?:and|or)?\s*$/i.test(src.facts.text.slice(last.end, next.start))) break;
    const v = coerce(next.value, items);
    if (v === undefined) break;
    out.push(v);
    st.used.add(spanKey(src, next));
    last = next;
  }
  return out;
}

/** A free-text value introduced by a cue phrase. */
function phraseValue(p: Param, src: Source, st: FillState): { value: unknown; span: { start: number } } | undefined {
  if (schemaType(p.schema) !== "string" || enumOf(p.schema) || typeof p.schema["format"] === "string") return undefined;
  const key = p.name.toLowerCase();
  if (/^(q|query|search|keywords?|terms?|phrase|topic|text)$/.test(key)) {
    for (const cue of QUOTED_QUERY_CUES) {
      for (const [, end] of src.facts.find(cue)) {
        const span = src.facts.spanAt(end + 1);
        if (span && span.kind === "quoted" && !st.used.has(spanKey(src, span))) {
          const v = coerce(span.value, p.schema);
          if (v !== undefined) return { value: v, span };
        }
      }
    }
  }
  for (const rule of PHRASE_CUES) {
    if (!rule.test.test(key)) continue;
    for (const cue of rule.cues) {
      for (const [, end] of src.facts.find(cue)) {
        const span = src.facts.spanAt(end + 1);
        if (span && span.kind === "quoted" && !st.used.has(spanKey(src, span))) {
          const v = coerce(span.value, p.schema);
          if (v !== undefined) return { value: v, span };
        }
        const words = phraseAfter(src.facts, end, rule.maxWords);
        if (!words || st.used.has(spanKey(src, words))) continue;
        const v = coerce(words.value, p.schema);
        if (v !== undefined) return { value: v, span: words };
      }
    }
  }
  return undefined;
}

/** Any enum value of the parameter mentioned in the text (longest first). */
function enumValue(p: Param, src: Source): unknown {
  const en = enumOf(p.schema) ?? (schemaType(p.schema) === "array" && isObject(p.schema["items"]) ? enumOf(effectiveSchema(p.schema["items"])) : undefined);
  if (!en) return undefined;
  const hits: Array<{ v: unknown; at: number; len: number }> = [];
  for (const v of en) {
    if (typeof v !== "string" || v.length < 2) continue;
    const variants = new Set([v, v.replace(/[_-]+/g, " ")]);
    for (const variant of variants) {
      const found = src.facts.find(variant);
      const first = found[0];
      if (first) hits.push({ v, at: first[0], len: variant.length });
    }
  }
  if (hits.length === 0) return undefined;
  hits.sort((a, b) => b.len - a.len || a.at - b.at);
  if (schemaType(p.schema) === "array") {
    const vals: unknown[] = [];
    for (const h of [...hits].sort((a, b) => a.at - b.at)) if (!vals.includes(h.v)) vals.push(h.v);
    return vals;
  }
  return hits[0]?.v;
}

/** A boolean named by the text ("in stock" -> inStock true, "not in stock" -> false). */
function booleanValue(p: Param, src: Source): boolean | undefined {
  if (schemaType(p.schema) !== "boolean") return undefined;
  const plain = humanize(p.name).replace(/^(is|has|only|include|show) /, "");
  if (plain.length < 3) return undefined;
  const hits = src.facts.find(plain);
  const first = hits[0];
  if (!first) return undefined;
  const before = src.facts.lower.slice(Math.max(0, first[0] - 12), first[0]);
  return !/\b(not|no|without|exclude|excluding|don't|dont)\s+(?:\w+\s+)?$/.test(before);
}

/** The first unused span of an accepted kind (typed extraction: an e-mail for an e-mail parameter...). */
function typedValue(p: Param, src: Source, st: FillState, kinds: readonly SpanKind[]): { value: unknown; span: Span } | undefined {
  for (const kind of kinds) {
    for (const span of src.facts.spans) {
      if (span.kind !== kind || st.used.has(spanKey(src, span))) continue;
      // One item of a list ("for GBP, JPY and CHF") is no unnamed value of an optional single-valued parameter.
      if (!p.required && schemaType(p.schema) !== "array" && inList(src.facts, span)) continue;
      const v = acceptsSpan(p, span);
      // An unnamed number must at least fit the parameter's range.
      if (typeof v === "number" && ((typeof p.schema["minimum"] === "number" && v < p.schema["minimum"]) || (typeof p.schema["maximum"] === "number" && v > p.schema["maximum"]))) continue;
      if (v !== undefined) return { value: v, span };
    }
  }
  return undefined;
}

/** Whether a span is an item of a list of values of its kind ("GBP, JPY and CHF"). */
function inList(facts: TextFacts, span: Span): boolean {
  const joined = (a: Span, b: Span): boolean => /^\s*(?:,|and|or|&)\s*(?:and|or)?\s*$/i.test(facts.text.slice(a.end, b.start));
  return facts.spans.some((o) => o !== span && o.kind === span.kind && ((o.start >= span.end && joined(span, o)) || (o.end <= span.start && joined(o, span))));
}

/** A reply cleaned of its framing ("Sure, it's Paris." -> "Paris"). */
function cleanReply(text: string): string {
  let t = text.trim();
  for (let i = 0; i < 3; i++) {
    const before = t;
    t = t.replace(/^(?:sure|ok(?:ay)?|yes|yeah|yep|of course|certainly|right|well|oh|hmm|no problem|sorry(?: about that)?|oops|apologies|my bad)\b[,!.:]?\s*/i, "");
    t = t.replace(/^(?:let'?s go with|go with|let'?s use|we can use)\s+/i, "");
    t = t.replace(/^[A-Za-z][\w ]{0,30}:\s+(?=\S)/, "");
    t = t.replace(/^(?:it'?s|it is|that'?s|that is|this is|use|please use|let'?s (?:say|use)|make it|call it|i'?d like|i want|i need|go with|try)\s+/i, "");
    t = t.replace(/^(?:the|my|our)\s+(?:[\w-]+\s+){0,3}?(?:is|are|should be|would be|will be)\s+/i, "");
    if (t === before) break;
  }
  t = t.replace(/[.!\s]+$/, "").trim();
  t = t.replace(/^["“'](.*)["”']$/, "$1").trim();
  return t;
}

interface FillOutcome {
  args: Json;
  /** Required parameters still without a value. */
  missing: Param[];
  /** Where values came from, for the thought. */
  notes: string[];
  /** How many values came from the user's words. */
  fromText: number;
  /** The text values used (`source:start`). */
  used: ReadonlySet<string>;
}

interface FillInput {
  tool: OfflineToolSpec;
  request: RequestView;
  /** All user text of the request (request + replies). */
  userText: string;
  records: readonly ObsRecord[];
  /** Fill optional parameters too (only from strong evidence). */
  optional: boolean;
  /** The part of the request this step serves (its values come first). */
  clause?: string;
}

/** The stages of slot filling, run across all parameters in turn so strong evidence is taken first. */
type FillStage = "named" | "typed" | "observed" | "guessed";
const FILL_STAGES: readonly FillStage[] = ["named", "typed", "observed", "guessed"];

const FILLS = new Memo<string, Map<string, FillOutcome>>(256);

/** Fills a tool's arguments from the dialogue and earlier observations (remembered when no observation is involved). */
function fillArguments(input: FillInput): FillOutcome {
  if (input.records.length > 0) return computeFill(input);
  // Keyed by the request's text first (a string seen again and again), then by the rest.
  let byRequest = FILLS.get(input.request.text);
  if (!byRequest) {
    byRequest = new Map();
    FILLS.set(input.request.text, byRequest);
  }
  let key = `${specId(input.tool)}\u0002${input.optional ? "o" : "r"}\u0002${input.clause === undefined ? "\u0003" : input.clause}`;
  for (const r of input.request.replies) key += `\u0002${r.question}\u0002${r.text}`;
  let out = byRequest.get(key);
  if (!out) {
    out = computeFill(input);
    byRequest.set(key, out);
  }
  return out;
}

function computeFill(input: FillInput): FillOutcome {
  const st: FillState = { used: new Set() };
  const replies: Source[] = input.request.replies.map((r, i) => ({ facts: r.facts, index: i + 1, space: `r${i + 1}`, offset: 0 }));
  // The step's own clause first; the whole request only for required values the clause lacks.
  const focus = input.clause !== undefined && input.clause !== input.request.text ? factsOf(input.clause) : input.request.facts;
  const at = input.request.text.indexOf(input.clause ?? "");
  const clauseSource: Source = focus === input.request.facts ? { facts: focus, index: 0, space: "req", offset: 0 } : { facts: focus, index: 0, space: at >= 0 ? "req" : "clause", offset: Math.max(0, at) };
  const sources: Source[] = [clauseSource, ...replies];
  const wider: Source[] = focus === input.request.facts ? sources : [...sources, { facts: input.request.facts, index: replies.length + 1, space: "req", offset: 0 }];
  const notes: string[] = [];
  let fromText = 0;
  // Leaf parameters (object properties flattened), each with where its value goes.
  interface Leaf {
    p: Param;
    value?: unknown;
  }
  const leaves: Leaf[] = [];
  const containers: Array<{ p: Param; array: boolean; depth: number }> = [];
  const collect = (params: Param[], depth: number, parentRequired: boolean): void => {
    for (const p of params) {
      const q = p.required && !parentRequired ? optionalCopy(p) : p;
      const type = schemaType(p.schema);
      if (type === "object" && depth < 2) {
        containers.push({ p: q, array: false, depth });
        collect(paramsOf(p.schema, p.path), depth + 1, q.required);
        continue;
      }
      if (type === "array" && isObject(p.schema["items"]) && schemaType(effectiveSchema(p.schema["items"])) === "object" && depth < 2) {
        if (!q.required) continue;
        containers.push({ p: q, array: true, depth });
        collect(paramsOf(effectiveSchema(p.schema["items"]), p.path), depth + 1, true);
        continue;
      }
      if (!q.required && !input.optional) continue;
      // Headers and cookies are plumbing (a language, a request id): never filled from the user's free words.
      const where = paramLocation(q);
      if (!q.required && (where === "header" || where === "cookie")) continue;
      leaves.push({ p: q });
    }
  };
  collect(paramsOf(input.tool.parameters), 0, true);
  // Specific kinds first, so generic strings do not take an e-mail or a date.
  const order = leaves.map((l, i) => ({ l, i })).sort((a, b) => specificity(b.l.p) - specificity(a.l.p) || a.i - b.i).map((x) => x.l);
  for (const stage of FILL_STAGES) {
    for (const leaf of order) {
      if (leaf.value !== undefined) continue;
      if (!leaf.p.required && (stage === "guessed" || (stage === "observed" && !isIdParam(leaf.p)))) continue;
      // Optional values only when the dialogue clearly gives them: no unnamed codes or ids, no id of an
      // earlier result the request does not point at ("create a reminder" takes no event id of a listing).
      if (!leaf.p.required && stage === "typed" && !["email", "url", "datetime", "date", "time", "code3", "code2", "lang"].includes(acceptedKinds(leaf.p)[0] ?? "")) continue;
      if (!leaf.p.required && stage === "observed" && !mentionsResource(leaf.p, input)) continue;
      const where = paramLocation(leaf.p);
      if (where === "header" && stage !== "named") continue;
      // Ids in other parts of the request belong to other steps: only named ones are taken from there.
      const pool = leaf.p.required && (stage === "named" || !isIdParam(leaf.p)) ? wider : sources;
      const got = valueFor(leaf.p, pool, st, input, stage);
      if (got === undefined) continue;
      // A path segment with spaces is a phrase that ran on ("buttermilk where the diet"), unless it was quoted or replied.
      if (where === "path" && typeof got.value === "string" && /\s/.test(got.value) && got.quoted !== true && !/reply/.test(got.note)) continue;
      leaf.value = got.value;
      notes.push(got.note);
      if (got.fromText) fromText++;
    }
  }
  // Assemble nested values; a container counts when all its required leaves are there.
  const leafAt = new Map<string, Leaf>();
  for (const l of leaves) if (!leafAt.has(paramTraits(l.p).pathKey)) leafAt.set(paramTraits(l.p).pathKey, l);
  const containerAt = new Map<string, (typeof containers)[number]>();
  for (const c of containers) if (!containerAt.has(paramTraits(c.p).pathKey)) containerAt.set(paramTraits(c.p).pathKey, c);
  const valueAt = (p: Param): unknown => leafAt.get(paramTraits(p).pathKey)?.value;
  const build = (params: Param[], depth: number): { args: Json; missing: Param[] } => {
    const args: Json = {};
    const missing: Param[] = [];
    for (const p of params) {
      const container = containerAt.get(paramTraits(p).pathKey);
      if (container) {
        const schema = container.array ? effectiveSchema(p.schema["items"] as Json) : p.schema;
        const sub = build(paramsOf(schema, p.path), depth + 1);
        const required = container.p.required;
        if (Object.keys(sub.args).length > 0 && sub.missing.length === 0) args[p.name] = container.array ? [sub.args] : sub.args;
        else if (required) missing.push(...(sub.missing.length > 0 ? sub.missing : [container.p]));
        continue;
      }
      const leaf = leafAt.get(paramTraits(p).pathKey);
      if (!leaf) continue;
      const v = valueAt(p);
      if (v !== undefined) args[p.name] = v;
      else if (leaf.p.required) missing.push(leaf.p);
    }
    return { args, missing };
  };
  const { args, missing } = build(paramsOf(input.tool.parameters), 0);
  return { args, missing, notes, fromText, used: st.used };
}

const OPTIONAL_COPIES = new WeakMap<Param, Param>();

/** A required parameter under an optional parent: the same parameter, not required (one copy per parameter). */
function optionalCopy(p: Param): Param {
  let q = OPTIONAL_COPIES.get(p);
  if (!q) {
    q = { ...p, required: false };
    OPTIONAL_COPIES.set(p, q);
  }
  return q;
}

function specificity(p: Param): number {
  const t = paramTraits(p);
  t.specificity ??= computeSpecificity(p);
  return t.specificity;
}

function computeSpecificity(p: Param): number {
  const kinds = acceptedKinds(p);
  let s = 0;
  if (enumOf(p.schema)) s += 6;
  if (kinds[0] === "email" || kinds[0] === "url" || kinds[0] === "datetime" || kinds[0] === "date" || kinds[0] === "time") s += 5;
  if (isIdParam(p)) s += 4;
  if (kinds[0] === "code3" || kinds[0] === "code2" || kinds[0] === "lang") s += 3;
  if (kinds[0] === "number") s += 2;
  if (p.required) s += 1;
  if (p.path.length > 1) s -= 1;
  return s;
}

const REFERS_TO_RESULT = /\b(first|top|last|second|third)\b.*\b(one|result|match|item|entry|offer|option)|\b(previous|earlier|last)\s+(step|result|call|answer|search)|\bone you (just )?(got|found)\b|\bfrom the results?\b/i;
const STRONG_KINDS = new Set<SpanKind>(["email", "url", "date", "datetime", "time", "code3", "code2", "lang", "id"]);

function valueFor(p: Param, sources: Source[], st: FillState, input: FillInput, stage: FillStage): { value: unknown; note: string; fromText: boolean; quoted?: boolean } | undefined {
  const take = (src: Source, span: { start: number }, value: unknown, how: string): { value: unknown; note: string; fromText: boolean; quoted?: boolean } => {
    st.used.add(spanKey(src, span));
    const full = "kind" in span ? extendList(p, src, st, span as Span, value) : value;
    return { value: full, note: `${p.path.join(".")} ${how}`, fromText: true, ...("kind" in span && (span as Span).kind === "quoted" ? { quoted: true } : {}) };
  };
  const kinds = acceptedKinds(p);
  if (stage === "named") {
    const phrase = p.phrase.toLowerCase();
    const answering =
      input.request.replies.length === 0
        ? []
        : sources.filter((src) => src.index >= 1 && src.index <= input.request.replies.length && input.request.replies[src.index - 1]?.question.toLowerCase().includes(phrase));
    // 1. Replies to a question that asked for this value.
    for (const src of [...answering].reverse()) {
      // "Just take the first result": the value is in an earlier observation.
      if (REFERS_TO_RESULT.test(src.facts.text)) {
        const fromObs = fromObservations(p, input.tool, input.records, `${src.facts.text}\n${input.userText}`, true);
        if (fromObs) return { value: fromObs.value, note: `${fromObs.note} (as the user said)`, fromText: false };
      }
      const a = anchoredValue(p, src, st);
      if (a) return take(src, a.span, a.value, "from the user's reply");
      const e = enumValue(p, src);
      if (e !== undefined) return { value: e, note: `${p.path.join(".")} from the user's reply`, fromText: true };
      const b = booleanValue(p, src);
      if (b !== undefined) return { value: b, note: `${p.path.join(".")} from the user's reply`, fromText: true };
      const question = (input.request.replies[src.index - 1]?.question ?? "").toLowerCase();
      const asked = leafParams(input.tool.parameters).filter((x) => question.includes(x.phrase.toLowerCase())).length;
      if (asked <= 1) {
        const t = typedValue(p, src, st, kinds);
        if (t) return take(src, t.span, t.value, "from the user's reply");
        const cleaned = cleanReply(src.facts.text);
        if (cleaned !== "" && cleaned.split(/\s+/).length <= 12) {
          const v = coerce(cleaned, p.schema) ?? (schemaType(p.schema) === "array" ? coerce(cleaned, { type: "array", items: { type: "string" } }) : undefined);
          if (v !== undefined) {
            st.used.add(spanKey(src, { start: 0 }));
            return { value: v, note: `${p.path.join(".")} = the user's reply`, fromText: true };
          }
        }
      }
    }
    // 2. The user's words: named values, resource ids, cue words, enums, booleans.
    for (const src of sources) {
      const a = anchoredValue(p, src, st);
      if (a) return take(src, a.span, a.value, "named in the request");
    }
    for (const src of sources) {
      const r = idAfterResource(p, input.tool, src, st);
      if (r) return take(src, r.span, r.value, "after the name of its resource");
    }
    for (const src of sources) {
      const c = coordinateValue(p, src, st);
      if (c) return take(src, c.span, c.value, "from a coordinate pair");
    }
    for (const src of sources) {
      const c = cuedValue(p, src, st);
      if (c) return take(src, c.span, c.value, "from a cue word in the request");
    }
    for (const src of sources) {
      const f = phraseValue(p, src, st);
      if (f) return take(src, f.span, f.value, "from the words after a cue");
    }
    for (const src of sources) {
      const e = enumValue(p, src);
      // "translate text" names the operation, not the optional `format: text`.
      if (e !== undefined && (p.required || !nameWords(input.tool).has(normalizeWords(String(e))))) return { value: e, note: `${p.path.join(".")} = an allowed value mentioned`, fromText: true };
      const b = booleanValue(p, src);
      if (b !== undefined) return { value: b, note: `${p.path.join(".")} from the request's words`, fromText: true };
    }
    // Several values asked at once: the answer's typed values, in the order asked.
    for (const src of [...answering].reverse()) {
      const t = typedValue(p, src, st, kinds);
      if (t) return take(src, t.span, t.value, "from the user's reply");
    }
    return undefined;
  }
  if (stage === "typed") {
    // Typed values count as evidence only for parameters whose first choice is that kind (an e-mail parameter).
    const first = kinds[0];
    const strongKinds = first !== undefined && STRONG_KINDS.has(first) && (first !== "id" || isIdParam(p)) ? kinds.filter((k) => STRONG_KINDS.has(k)) : [];
    for (const src of sources) {
      const t = typedValue(p, src, st, strongKinds);
      if (t) return take(src, t.span, t.value, `= the ${t.span.kind} in the request`);
    }
    return undefined;
  }
  if (stage === "observed") {
    const fromObs = fromObservations(p, input.tool, input.records, input.userText);
    return fromObs ? { value: fromObs.value, note: fromObs.note, fromText: false } : undefined;
  }
  // Weaker guesses for required values: the only number, a quoted string, a proper name.
  for (const src of sources) {
    const t = typedValue(p, src, st, kinds);
    if (t) return take(src, t.span, t.value, `= the ${t.span.kind} in the request`);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Planning: which tools the request needs, in order
// ---------------------------------------------------------------------------------------------------------

const CLAUSE_VERBS =
  "find|search|look|list|show|get|give|tell|fetch|pull|retrieve|display|sign|log|create|add|make|book|place|order|register|schedule|set|update|change|modify|edit|rename|" +
  "delete|remove|cancel|withdraw|check|convert|send|translate|compute|calculate|buy|reserve|post|publish|save|mark|move|play|pause|turn|read|open|close|" +
  "what|which|how|when|where|who|is|are|do|does|can|could|let|also|see|view|subscribe|follow|rate|review|replace|put|store|upload|download|start|stop|" +
  "i'd|i\\s+would|i\\s+want|i\\s+need|please";

/** The verbs of a catalogue: the first word of each tool name (`refresh`, `activate`, `apply`). */
function catalogVerbs(tools: readonly OfflineToolSpec[]): string[] {
  const out = new Set<string>();
  for (const t of tools) {
    const first = (tokenize(t.name)[0] ?? "").toLowerCase();
    if (first.length >= 3 && /^[a-z]+$/.test(first) && !STOP_WORDS.has(first)) out.add(first);
  }
  return [...out].sort();
}

/** The three splitting expressions for a list of extra verbs (compiled once per list). */
const SPLITTERS = new Memo<string, readonly [RegExp, RegExp, RegExp]>(64);

const BASE_VERBS = new Set(CLAUSE_VERBS.split("|"));

/**
 * The extra verbs that change the splitting expressions: the ones not already among the clause verbs, each
 * once, sorted (an alternation matches the same with or without repeats, in any order), joined by `|`.
 */
function extraVerbsKey(extraVerbs: readonly string[]): string {
  if (extraVerbs.length === 0) return "";
  return [...new Set(extraVerbs.map(escapeRegExp))].filter((v) => !BASE_VERBS.has(v)).sort().join("|");
}

function splitters(verbsKey: string): readonly [RegExp, RegExp, RegExp] {
  return SPLITTERS.getOrCompute(verbsKey, () => {
    const verbs = verbsKey !== "" ? `${CLAUSE_VERBS}|${verbsKey}` : CLAUSE_VERBS;
    return [
      new RegExp(`\\s*(?:,\\s*)?\\band\\s+(?=(?:${verbs})\\b)`, "gi"),
      new RegExp(`,\\s+(?=(?:${verbs})\\s+(?:the|a|an|my|it|its|them|all|some|me|for|up|at|through|out)\\b)`, "gi"),
      new RegExp(`([.!?;])\\s+(?=(?:${verbs})\\b)`, "gi"),
    ];
  });
}

const CLAUSES = new Memo<string, readonly string[]>(512);

/** Splits a request into the parts that each ask for one operation ("find X, then show Y"); shared: do not change it. */
function splitClauses(text: string, extraVerbs: readonly string[] = []): readonly string[] {
  const verbsKey = extraVerbsKey(extraVerbs);
  return CLAUSES.getOrCompute(`${verbsKey}\u0000${text}`, () => computeClauses(text, verbsKey));
}

function computeClauses(text: string, verbsKey: string): string[] {
  // Quoted text is never split ("Find and Replace").
  const quotes: string[] = [];
  const masked = text.replace(/"[^"]*"|“[^”]*”/g, (q) => {
    quotes.push(q);
    return `\u0003${quotes.length - 1}\u0003`;
  });
  const [andVerb, commaVerb, stopVerb] = splitters(verbsKey);
  const marked = masked
    .replace(/\s*(?:,\s*)?\b(?:and\s+)?then\b\s*/gi, " \u0001 ")
    .replace(/\s*\b(?:after that|afterwards|and also|once (?:that is|that's|it is|it's) done|when (?:that is|that's) done|finally)\b[,]?\s*/gi, " \u0001 ")
    .replace(andVerb, " \u0001 ")
    .replace(commaVerb, " \u0001 ")
    .replace(stopVerb, "$1 \u0001 ")
    .replace(/([.!?;])\s+(?=[A-Z])/g, "$1 \u0002 ");
  const parts = marked
    .split("\u0001")
    .map((p) => p.replace(/\u0002/g, " ").replace(/\u0003(\d+)\u0003/g, (_m, i: string) => quotes[Number(i)] ?? "").trim())
    .filter((p) => p !== "");
  return parts.length > 0 ? parts : [text];
}

interface Ranked {
  tool: number;
  score: number;
  bm25: number;
}

const LISTER = /^(list|search|find|query|browse|lookup|filter|get(?:all|many)?[A-Z_]\w*s$)|(?:^|_)(search|list|find)(?:_|$)/;

/** What the planning reads of a tool's name and description, computed once per tool object. */
interface ToolTraits {
  /** The lowercase words of the name. */
  nameWords: readonly string[];
  /** Their stems. */
  nameStems: readonly string[];
  lister: boolean;
  searcher: boolean;
  verbGroup: string | undefined;
  verbGroups: ReadonlySet<string>;
}

const TOOL_TRAITS = new WeakMap<OfflineToolSpec, ToolTraits & { name: string; description: string }>();

function toolTraits(t: OfflineToolSpec): ToolTraits {
  const hit = TOOL_TRAITS.get(t);
  if (hit && hit.name === t.name && hit.description === t.description) return hit;
  const nameWords = lowerTokens(t.name);
  const traits = {
    name: t.name,
    description: t.description,
    nameWords,
    nameStems: nameWords.map(stem),
    lister: isLister(t),
    searcher: isToolSearcher(t),
    verbGroup: verbGroupOf(t),
    verbGroups: verbGroupsOf(t),
  };
  TOOL_TRAITS.set(t, traits);
  return traits;
}

function isLister(t: OfflineToolSpec): boolean {
  const words = lowerTokens(t.name);
  if (["list", "search", "find", "query", "browse", "lookup", "filter", "all"].includes(words[0] ?? "")) return true;
  if (words.some((w) => w === "search" || w === "list")) return true;
  return LISTER.test(t.name) || /\b(search|list|lists|find|finds|searches)\b/i.test(t.description.split(/[.;]/)[0] ?? "");
}

/** The operation verb group of a tool, from the first word of its name (or of its description). */
/** Every operation verb group a tool shows: its name's verb and the first verbs of its description's sentences. */
function verbGroupsOf(t: OfflineToolSpec): Set<string> {
  const out = new Set<string>();
  const add = (word: string): void => {
    for (const g of SYNONYM.get(stem(word)) ?? []) if (g in VERB_GROUPS) out.add(g);
  };
  add(tokenize(t.name)[0] ?? "");
  for (const sentence of rewritePhrasal(t.description).split(/(?<=[.;])\s+/).slice(0, 2)) add(tokenize(sentence)[0] ?? "");
  return out;
}

function verbGroupOf(t: OfflineToolSpec): string | undefined {
  const first = tokenize(t.name)[0] ?? "";
  const groups = (SYNONYM.get(stem(first)) ?? []).filter((g) => g in VERB_GROUPS);
  if (groups.length > 0) return groups[0];
  const word = tokenize(t.description)[0] ?? "";
  return (SYNONYM.get(stem(word)) ?? []).find((g) => g in VERB_GROUPS);
}

function isToolSearcher(t: OfflineToolSpec): boolean {
  return /tool[_-]?search|search[_-]?tools?|tool[_-]?retriev|find[_-]?tools?/i.test(t.name);
}

const LEFTOVER_KINDS = new Set<SpanKind>(["date", "datetime", "email", "url", "id", "quoted", "number", "time"]);

/** "Book a table" uses book as a verb: the query also says reserve. */
function verbSense(text: string): string {
  return text.replace(/(^|[.!?]\s+|\b(?:to|please|you|and|then|also|me)\s+)(book)\b(?!s)/gi, "$1$2 reserve");
}

/** Ranks tools for a clause: BM25 over names, descriptions and parameters, plus exact name words and fillability. */
const RANKINGS = new Memo<string, Ranked[]>(512);

/** {@link computeRanking}, remembered: a request's clauses are ranked again on every turn of its dialogue. */
function rankTools(index: ToolIndex, tools: readonly OfflineToolSpec[], clause: string, context: string, req: RequestView): Ranked[] {
  const key = `${index.key}\u0002${clause}\u0002${context}\u0002${req.replies.map((r) => r.text).join("\u0003")}`;
  let ranked = RANKINGS.get(key);
  if (!ranked) {
    ranked = computeRanking(index, tools, clause, context, req);
    RANKINGS.set(key, ranked);
  }
  return ranked.map((r) => ({ ...r }));
}

function computeRanking(index: ToolIndex, tools: readonly OfflineToolSpec[], clause: string, context: string, req: RequestView): Ranked[] {
  // Values are not intent: quoted text, e-mails, dates, ids and numbers leave the query.
  const clauseFacts = factsOf(clause);
  let query = clause;
  for (const span of [...clauseFacts.spans].reverse()) {
    if (LEFTOVER_KINDS.has(span.kind)) query = query.slice(0, span.start) + " ".repeat(span.end - span.start) + query.slice(span.end);
  }
  // A nested value in parentheses ("(device ID dev-lock-01, set (on yes, brightness 60))") lists details, not the intent.
  query = withoutNestedValues(query);
  // "Show me devices": a plural resource that a list tool is named after asks for the list.
  const plurals = pluralResources(clause, index.nameStems());
  if (plurals.size > 0 && !clauseFacts.spans.some((x) => x.kind === "id") && tools.some((t) => toolTraits(t).lister && toolTraits(t).nameStems.some((w) => plurals.has(w)))) query += " list";
  const main = index.scores(verbSense(query));
  const ctx = context.trim() === "" ? EMPTY_SCORES : index.scores(context);
  const replies = req.replies.length > 0 ? index.scores(req.replies.map((r) => r.text).join(" ")) : EMPTY_SCORES;
  const ids = new Set([...main.keys(), ...ctx.keys()]);
  // Each source of words is normalised on its own: the clause leads, earlier clauses and replies help.
  const maxOf = (m: ReadonlyMap<number, number>): number => Math.max(0, ...m.values());
  const [maxMain, maxCtx, maxReplies] = [maxOf(main), maxOf(ctx), maxOf(replies)];
  const combined = (id: number): number =>
    (maxMain > 0 ? (main.get(id) ?? 0) / maxMain : 0) + (maxCtx > 0 ? (0.3 * (ctx.get(id) ?? 0)) / maxCtx : 0) + (maxReplies > 0 ? (0.2 * (replies.get(id) ?? 0)) / maxReplies : 0);
  let max = 0;
  for (const id of ids) max = Math.max(max, combined(id));
  if (max <= 0) return [];
  const clauseWords = new Set(tokenize(clause).map((w) => w.toLowerCase()));
  const clauseStems = new Set(contentStems(clause.replace(/"[^"]*"|“[^”]*”/g, " ")));
  const head = headNounOf(clause);
  const queryStems = new Set(contentStems(rewritePhrasal(query)).filter((w) => !SYNONYM.has(w)));
  const clauseGroups = new Set(tokenize(rewritePhrasal(verbSense(withoutNestedValues(clause)))).flatMap((w) => (w.length > 4 && /ed$/i.test(w) ? [] : (SYNONYM.get(stem(w)) ?? []))));
  const out: Ranked[] = [];
  for (const id of ids) {
    const tool = tools[id];
    if (!tool) continue;
    const bm25 = combined(id);
    let score = bm25 / max;
    const traits = toolTraits(tool);
    const exact = traits.nameWords.filter((w) => w.length > 2 && clauseWords.has(w)).length;
    score += Math.min(2, exact) * 0.12;
    // The resource a tool is named after ("glossary" of getGlossary) says more than a verb ("look up"), and the
    // thing the request's verb acts on ("set up a scene") most.
    const nouns = traits.nameStems.filter((w) => w.length > 2 && !(SYNONYM.get(w) ?? []).some((g) => g in VERB_GROUPS) && clauseStems.has(w)).length;
    score += Math.min(2, nouns) * 0.2;
    if (head !== undefined && traits.nameStems.includes(head)) score += 0.2;
    // Tools that change things are chosen only when the words ask for a change.
    const group = traits.verbGroup;
    if ((group === "xcreate" || group === "xupdate" || group === "xdelete") && !clauseGroups.has(group)) score -= 0.3;
    // ...and when the words ask for a change, tools of another kind step back.
    const asksChange = ["xcreate", "xupdate", "xdelete"].some((g) => clauseGroups.has(g));
    if (asksChange && (group === undefined || !clauseGroups.has(group))) score -= 0.2;
    // Words that only one or two tools know ("daily") point at them.
    if (tools.length >= 4) {
      let distinct = 0;
      for (const w of queryStems) {
        const holders = index.stemHolders(w);
        if (holders > 0 && holders <= 2 && index.stems[id]?.has(w)) distinct++;
      }
      score += 0.2 * Math.min(2, distinct);
    }
    // A read that says how it reads ("search", "show") prefers tools that read that way.
    for (const g of traits.verbGroups) {
      if ((g === "xsearch" || g === "xget") && clauseGroups.has(g)) {
        score += 0.1;
        break;
      }
    }
    out.push({ tool: id, score, bm25 });
  }
  out.sort((a, b) => b.score - a.score || a.tool - b.tool);
  // Re-rank the leaders by how well the dialogue fills them.
  const top = out.slice(0, 5);
  const fills = new Map<Ranked, FillOutcome>();
  const clauseKey = (x: Span): string => spanKey({ facts: clauseFacts, index: 0, space: "req", offset: 0 }, x);
  for (const r of top) {
    const tool = tools[r.tool];
    if (!tool) continue;
    const facts = clauseFacts;
    const fill = fillArguments({ tool, request: { ...req, text: clause, facts, replies: [] }, userText: clause, records: [], optional: true });
    fills.set(r, fill);
    // An id the user gave that this tool takes as an id ("the glossary 8c1f...") points at it.
    const idValues = new Set(leafParams(tool.parameters).filter(isIdParam).map((q) => fill.args[q.name]).filter((v) => v !== undefined).map(String));
    if (facts.spans.some((x) => x.kind === "id" && fill.used.has(clauseKey(x)) && idValues.has(String(x.value)))) r.score += 0.15;
    // Values the user gave that this tool has no place for count against it (typed values most).
    let leftover = 0;
    for (const x of facts.spans) {
      if (!LEFTOVER_KINDS.has(x.kind) || fill.used.has(spanKey({ facts, index: 0, space: "req", offset: 0 }, x))) continue;
      leftover += x.kind === "quoted" || x.kind === "number" ? 0.03 : 0.1;
    }
    r.score -= Math.min(0.2, leftover);
    // Tools that take the user's values score; tools that would need more than was said lose a little.
    r.score += 0.1 * Math.min(3, fill.fromText) - 0.05 * Math.min(3, fill.missing.length);
    if (toolTraits(tool).searcher) r.score -= 0.3;
    // "Show me devices": a plural resource asks for a list, not for one item by an id nobody gave.
    const traits = toolTraits(tool);
    if (plurals.size > 0 && traits.nameStems.some((w) => plurals.has(w))) {
      if (traits.lister) r.score += 0.15;
      // "Look for places": a search, not a read of one place by an id nobody gave.
      else if (fill.missing.some(isIdParam)) r.score -= clauseGroups.has("xsearch") ? 0.3 : 0.1;
    }
  }
  // A tool that needs an id nobody gave, while another takes the values the user did give ("the place nearest
  // to 43.65, -79.38" is a reverse geocoding, not a get by place id), steps back.
  const takes = [...fills.entries()].some(([, f]) => f.fromText >= 2 && f.missing.length === 0);
  if (takes && !REFERS_BACK.test(clause)) {
    for (const [r, f] of fills) if (f.fromText === 0 && f.missing.some(isIdParam)) r.score -= 0.35;
  }
  out.sort((a, b) => b.score - a.score || a.tool - b.tool);
  return out;
}

/** A text without parenthesised groups that hold other groups or several values ("(device ID x, set (on yes))"). */
function withoutNestedValues(text: string): string {
  let out = text;
  for (let i = 0; i < 3; i++) {
    const next = out.replace(/\(([^()]*)\)/g, (m: string, inner: string) => (/[,()]/.test(inner) || /\u0000/.test(inner) ? " \u0000 " : m));
    if (next === out) break;
    out = next;
  }
  return out.replace(/\u0000/g, " ");
}

/** The stem of the thing the first verb of a clause acts on ("set up a scene ..." -> `scen`), if any. */
function headNounOf(clause: string): string | undefined {
  const words = tokenize(rewritePhrasal(clause.replace(/"[^"]*"|“[^”]*”/g, " "))).map((w) => w.toLowerCase());
  const at = words.findIndex((w) => (SYNONYM.get(stem(w)) ?? []).some((g) => g in VERB_GROUPS));
  if (at < 0) return undefined;
  for (const w of words.slice(at + 1, at + 5)) {
    if (/^(a|an|the|my|your|new|me|some|all|of|for|up)$/.test(w)) continue;
    if ((SYNONYM.get(stem(w)) ?? []).some((g) => g in VERB_GROUPS) || STOP_WORDS.has(w)) return undefined;
    return stem(w);
  }
  return undefined;
}

/** The resources a clause names in the plural ("devices", "upcoming events"), as name stems of the tools. */
function pluralResources(clause: string, nameStems: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  // Quoted text is a value, not the resource asked for.
  for (const w of tokenize(clause.replace(/"[^"]*"|“[^”]*”/g, " "))) {
    const lower = w.toLowerCase();
    if (lower.length < 4 || !/[^s]s$/.test(lower) || STOP_WORDS.has(lower)) continue;
    const st = stem(lower);
    if (nameStems.has(st) && !(SYNONYM.get(st) ?? []).some((g) => g in VERB_GROUPS)) out.add(st);
  }
  return out;
}

/** The tools ranked for a request text, best first (what the offline model would choose from; for tests and tuning). */
export function rankToolsFor(text: string, tools: readonly OfflineToolSpec[]): Array<{ name: string; score: number }> {
  const facts = factsOf(text);
  const req: RequestView = { text, facts, replies: [], questions: [], calls: [] };
  return rankTools(toolIndex(tools), tools, text, "", req).map((r) => ({ name: tools[r.tool]?.name ?? "", score: Number(r.score.toFixed(3)) }));
}

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

const LABEL_KEYS = ["name", "title", "label", "summary", "subject", "displayName", "fullName", "headline", "city", "code", "symbol"];
const LIST_KEYS = ["items", "results", "data", "records", "entries", "list", "hits", "matches", "rows", "values"];

function scalarText(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (v === null) return "none";
  if (Array.isArray(v) && v.every(isScalar)) return v.map((x) => String(x)).join(", ");
  return "";
}

function itemLabel(item: unknown): string {
  if (!isObject(item)) return scalarText(item);
  const label = LABEL_KEYS.map((k) => item[k]).find((v) => typeof v === "string" && v !== "");
  const id = item["id"] ?? Object.entries(item).find(([k, v]) => /id$/i.test(k) && isScalar(v))?.[1];
  const extras: string[] = [];
  if (id !== undefined && isScalar(id)) extras.push(`id ${String(id)}`);
  for (const [k, v] of Object.entries(item)) {
    if (extras.length >= 3) break;
    if (k === "id" || LABEL_KEYS.includes(k) || !isScalar(v) || (typeof v === "string" && (v.length > 40 || /^https?:/.test(v)))) continue;
    extras.push(`${humanize(k)} ${scalarText(v)}`);
  }
  const head = typeof label === "string" ? label : extras.shift() ?? "";
  return extras.length > 0 ? `${head} (${extras.join(", ")})` : head;
}

function objectFacts(obj: Json, max: number, prefix = ""): string[] {
  const out: string[] = [];
  const keys = Object.keys(obj).sort((a, b) => rankKey(a) - rankKey(b));
  for (const k of keys) {
    if (out.length >= max) break;
    const v = obj[k];
    if (isScalar(v) || v === null || (Array.isArray(v) && v.length > 0 && v.length <= 5 && v.every(isScalar))) {
      const text = scalarText(v);
      if (text === "" || (typeof v === "string" && v.length > 160)) continue;
      out.push(`${prefix}${humanize(k)}: ${text}`);
    } else if (isObject(v) && prefix === "") {
      out.push(...objectFacts(v, Math.min(3, max - out.length), `${humanize(k)} `));
    }
  }
  return out;
}

function rankKey(k: string): number {
  if (k === "id") return 0;
  if (LABEL_KEYS.includes(k)) return 1;
  if (/status|state|total|count|price|amount|temperature|rate|result|value|date|time/i.test(k)) return 2;
  return 3;
}

/** A short text of the key facts of a result body, only with values found in it. */
export function summarizeBody(body: unknown): string {
  if (body === null || body === undefined || body === "") return "it succeeded with no content";
  if (isScalar(body)) return `the result is ${scalarText(body)}`;
  let list: unknown[] | undefined;
  let listKey = "";
  let rest: Json = {};
  if (Array.isArray(body)) list = body;
  else if (isObject(body)) {
    const arrays = Object.entries(body).filter(([, v]) => Array.isArray(v) && v.some((x) => isObject(x)));
    const pick = arrays.find(([k]) => LIST_KEYS.includes(k)) ?? (arrays.length === 1 ? arrays[0] : undefined);
    if (pick) {
      listKey = pick[0];
      list = pick[1] as unknown[];
      rest = Object.fromEntries(Object.entries(body).filter(([k]) => k !== listKey));
    }
  }
  if (list) {
    const counts = objectFacts(rest, 3);
    if (list.length === 0) return `no ${listKey !== "" ? humanize(listKey) : "results"} were found${counts.length > 0 ? ` (${counts.join("; ")})` : ""}`;
    const shown = list.slice(0, 3).map(itemLabel).filter((s) => s !== "");
    const more = list.length > 3 ? "; and more" : "";
    return `${counts.length > 0 ? `${counts.join("; ")}. ` : ""}${shown.join("; ")}${more}`;
  }
  if (isObject(body)) {
    const facts = objectFacts(body, 8);
    return facts.length > 0 ? facts.join("; ") : "it succeeded";
  }
  return "it succeeded";
}

/** A failed call in words: what could not be done, the status, and the service's own words. */
function explainError(call: Call): string {
  return describeFailure({ name: call.name, status: call.result?.status ?? 0, body: call.result?.body });
}

const SEARCHER_NAME = /tool[_-]?search|search[_-]?tools?|tool[_-]?retriev|find[_-]?tools?/i;

/** A call as the answer reads it. */
function answerCall(c: Call): AnswerCall {
  return { name: c.name, args: typeof c.args === "string" ? {} : c.args, status: c.result?.status ?? 0, body: c.result?.body };
}

/** The final answer: the successful calls of the request (not the catalogue searches) in sentences. */
function finalAnswer(request: RequestView): string {
  const ok = request.calls.filter((c) => succeeded(c) && !SEARCHER_NAME.test(c.name));
  return composeAnswer([request.text, ...request.replies.map((r) => r.text)].join("\n"), ok.map(answerCall));
}

// ---------------------------------------------------------------------------------------------------------
// Validation-error repair
// ---------------------------------------------------------------------------------------------------------

function similarity(a: string, b: string): number {
  const x = normalizeWords(a);
  const y = normalizeWords(b);
  if (x === y) return 1;
  if (x.includes(y) || y.includes(x)) return 0.8;
  const dist = levenshtein(x, y);
  return 1 - dist / Math.max(x.length, y.length, 1);
}

function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j] ?? 0;
      prev[j] = Math.min((prev[j] ?? 0) + 1, (prev[j - 1] ?? 0) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length] ?? 0;
}

/** Arguments fixed after validation errors (type, enum, bounds, format, unknown names), or undefined. */
function repairArguments(tool: OfflineToolSpec, args: Json, body: unknown): { args: Json; notes: string[] } | undefined {
  if (!isObject(body) || !Array.isArray(body["validation"])) return undefined;
  const params = paramsOf(tool.parameters);
  const fixed: Json = structuredClone(args);
  const notes: string[] = [];
  for (const issue of body["validation"]) {
    if (!isObject(issue) || !Array.isArray(issue["location"])) continue;
    const loc = issue["location"].filter((s): s is string => typeof s === "string");
    const code = typeof issue["code"] === "string" ? issue["code"] : "";
    const name = loc.find((seg, i) => i > 0 && params.some((p) => p.name === seg)) ?? loc[loc.length - 1];
    if (name === undefined) continue;
    const p = params.find((x) => x.name === name);
    if (code === "additionalProperties" || code === "unknown-argument" || (!p && name in fixed)) {
      if (name in fixed) {
        delete fixed[name];
        notes.push(`dropped ${name}`);
      }
      continue;
    }
    if (!p) continue;
    const current = fixed[p.name];
    if (current === undefined) continue;
    const s = p.schema;
    const en = enumOf(s);
    if (code === "enum" && en) {
      const best = en
        .map((v, i) => ({ v, i, sim: similarity(String(v), String(current)) }))
        .sort((a, b) => b.sim - a.sim || a.i - b.i)[0];
      if (best && best.sim >= 0.5) {
        fixed[p.name] = best.v;
        notes.push(`${p.name} -> ${String(best.v)}`);
      } else if (!p.required) {
        delete fixed[p.name];
        notes.push(`dropped ${p.name}`);
      }
    } else if (code === "type") {
      const v = isScalar(current) ? coerce(current, s) : undefined;
      if (v !== undefined) {
        fixed[p.name] = v;
        notes.push(`${p.name} as ${schemaType(s) ?? "its type"}`);
      } else if (!p.required) delete fixed[p.name];
    } else if ((code === "minimum" || code === "exclusiveMinimum") && typeof s["minimum"] === "number") {
      fixed[p.name] = s["minimum"];
      notes.push(`${p.name} raised to ${String(s["minimum"])}`);
    } else if ((code === "maximum" || code === "exclusiveMaximum") && typeof s["maximum"] === "number") {
      fixed[p.name] = s["maximum"];
      notes.push(`${p.name} lowered to ${String(s["maximum"])}`);
    } else if (code === "maxLength" && typeof s["maxLength"] === "number" && typeof current === "string") {
      fixed[p.name] = current.slice(0, s["maxLength"]);
      notes.push(`${p.name} shortened`);
    } else if (code === "format" || code === "pattern") {
      const v = isScalar(current) ? coerce(String(current), s) : undefined;
      if (v !== undefined && v !== current) {
        fixed[p.name] = v;
        notes.push(`${p.name} reformatted`);
      } else if (!p.required) {
        delete fixed[p.name];
        notes.push(`dropped ${p.name}`);
      }
    } else if (!p.required && code !== "required") {
      delete fixed[p.name];
      notes.push(`dropped ${p.name}`);
    }
  }
  if (stableStringify(fixed) === stableStringify(args)) return undefined;
  return { args: fixed, notes };
}

// ---------------------------------------------------------------------------------------------------------
// The decision
// ---------------------------------------------------------------------------------------------------------

/** What a tool does, as the rest of "I cannot ...": "get a book", "get the price history". */
function goalOf(tool: OfflineToolSpec): string {
  const purpose = purposeOf(tool);
  if (purpose.startsWith("To ")) return purpose.slice(3);
  if (purpose.startsWith("For ")) return `get ${purpose.slice(4)}`;
  return "do that";
}

function listPhrases(params: readonly Param[]): string {
  const names = params.map((p) => `the ${p.phrase}`);
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** "To get a book" / "For the price history": the tool's purpose, from the first sentence of its description. */
function purposeOf(tool: OfflineToolSpec): string {
  const first = (tool.description.split(/(?<=[.;?])\s|\n/)[0] ?? "").replace(/[.;]\s*$/, "").trim();
  if (first === "" || first.length > 80) return "To do that";
  // "Is the market open?" -> "To find out whether the market is open".
  const question = /^(is|are|does|do|can|has|have|was|were)\s+((?:(?:the|a|an|my|this|your)\s+)?\S+)\s+(.+?)\??$/i.exec(first);
  if (question && /\?$/.test(first)) return `To find out whether ${(question[2] ?? "").toLowerCase()} ${(question[1] ?? "").toLowerCase()} ${question[3] ?? ""}`.replace(/\s+/g, " ").trim();
  const lower = first.charAt(0).toLowerCase() + first.slice(1);
  const verb = tokenize(first)[0] ?? "";
  const second = (tokenize(first)[1] ?? "").toLowerCase();
  const isVerb =
    (SYNONYM.get(stem(verb)) ?? []).some((g) => g in VERB_GROUPS) ||
    /^(convert|translate|detect|activate|send|check|calculate|compute|book|cancel|play|pause|turn|set|subscribe|rate|follow|track|estimate|geocode|apply)$/i.test(verb) ||
    /^(a|an|the|to|for|my|one|all|your|its|their|some|new|up|out|off|on)$/.test(second);
  return isVerb ? `To ${lower}` : `For the ${lower.replace(/^(the|a|an) /, "")}`;
}

function isEmptyResult(body: unknown): boolean {
  if (Array.isArray(body)) return body.length === 0;
  if (!isObject(body)) return false;
  const arrays = Object.entries(body).filter(([, v]) => Array.isArray(v));
  return arrays.length > 0 && arrays.every(([, v]) => (v as unknown[]).length === 0);
}

interface Step {
  tool: OfflineToolSpec;
  clause: string;
  /** Inserted to find an id the next step needs. */
  implicit: boolean;
  /** Arguments decided when the step was planned (implicit searches, tool searches). */
  args?: Json;
  /** A ToolSearcher call for the clause. */
  search?: boolean;
}

/** Whether a later clause asks for something (not "Can you take care of it?" or "Thanks!"). */
function asksSomething(clause: string): boolean {
  const stems = contentStems(clause).filter((w) => !COURTESY_STEMS.has(w));
  return stems.length > 0;
}

/** Stems of words that make a clause a courtesy ("Can you take care of it?", "Thanks!", "Quick task:"). */
const COURTESY_STEMS = new Set(["take", "care", "handle", "it", "that", "this", "thank", "thanks", "great", "perfect", "please", "now", "quick", "task", "mind", "possible", "chance", "trying", "looking", "hoping", "next", "more", "finally", "lastly"].map((w) => stem(w)));

/** Words that point at an earlier result ("the top result", "the new one"): they say nothing about the tool. */
const REFERENCE_WORDS = new Set(["first", "top", "second", "third", "last", "result", "results", "match", "matches", "new", "saved", "again", "previous", "earlier", "one", "ones", "check", "was", "trying", "looking", "hoping", "chance", "possible", "mind", "quick", "task", "take", "care"]);

/** Value kinds that say nothing about which tool is needed: they leave a ToolSearcher's keywords. */
const VALUE_KINDS = new Set<SpanKind>([...LEFTOVER_KINDS, "code3", "code2", "lang", "proper"]);

/** The words a ToolSearcher gets for a clause: its content words without the values in it, plus the nouns of earlier clauses. */
function searchKeywords(clause: string, nouns: readonly string[]): string {
  const facts = factsOf(clause);
  let text = clause;
  for (const span of [...facts.spans].reverse()) if (VALUE_KINDS.has(span.kind)) text = text.slice(0, span.start) + " " + text.slice(span.end);
  const words: string[] = [];
  for (const w of [...tokenize(text), ...nouns]) {
    const lower = w.toLowerCase();
    if (STOP_WORDS.has(lower) || REFERENCE_WORDS.has(lower) || lower.length < 3 || /^\d/.test(lower) || words.includes(lower)) continue;
    words.push(lower);
  }
  return words.slice(0, 8).join(" ");
}

function searcherArguments(searcher: OfflineToolSpec, keywords: string): Json {
  const params = paramsOf(searcher.parameters);
  const p = params.find((x) => x.required && schemaType(x.schema) !== "object") ?? params[0];
  return p ? { [p.name]: schemaType(p.schema) === "array" ? keywords.split(" ") : keywords } : {};
}

const REFERS_BACK = /\b(first|top|second|third|last)\b|\bits\b|\bit\b|\bthem\b|\bthe (?:new|saved)\b|\bagain\b|\bthere\b/i;

/**
 * "Open the first match", "delete it": a clause that points at an earlier result without naming its resource
 * wants a tool that takes the id of what the earlier steps found (`getBook` after `listBooks`): such tools
 * move up (the ranking is changed in place).
 */
function preferLinkedTools(ranked: Ranked[], pool: readonly OfflineToolSpec[], clause: string, earlier: readonly OfflineToolSpec[], index: ToolIndex, resultKeys: ReadonlySet<string> = new Set()): void {
  if ((earlier.length === 0 && resultKeys.size === 0) || !REFERS_BACK.test(clause)) return;
  const names = index.nameStems();
  const own = contentStems(clause).filter((w) => !REFERENCE_WORDS.has(w) && !(SYNONYM.get(w) ?? []).some((g) => g in VERB_GROUPS) && names.has(w));
  if (own.length > 0) return;
  const earlierStems = new Set(earlier.flatMap((t) => toolTraits(t).nameStems));
  let changed = false;
  for (const r of ranked.slice(0, 4)) {
    const tool = pool[r.tool];
    if (!tool || earlier.includes(tool)) continue;
    const linked = leafParams(tool.parameters).some((p) => p.required && isIdParam(p) && (idResource(p, tool.name).some((w) => earlierStems.has(w)) || (normalizeKey(p.name) !== "id" && resultKeys.has(normalizeKey(p.name)))));
    if (linked) {
      r.score += 0.3;
      changed = true;
    }
  }
  if (changed) ranked.sort((a, b) => b.score - a.score || a.tool - b.tool);
}

/** The names of the tools one ToolSearcher call found. */
function foundToolNames(call: Call): string[] {
  if (!succeeded(call)) return [];
  const out: string[] = [];
  for (const r of recordsOf(call.result?.body, call.name, 0)) {
    const name = r.fields["name"] ?? r.fields["api_name"] ?? r.fields["tool"];
    if (typeof name === "string" && !out.includes(name)) out.push(name);
  }
  return out;
}

/** Tools a ToolSearcher result describes (`[{name, description, parameters}]` anywhere in the body). */
function discoveredTools(history: History, bound: readonly OfflineToolSpec[]): OfflineToolSpec[] {
  const known = new Set(bound.map((t) => t.name));
  const out: OfflineToolSpec[] = [];
  for (const req of history.requests) {
    for (const call of req.calls) {
      if (!succeeded(call) || !/tool/i.test(call.name)) continue;
      for (const r of recordsOf(call.result?.body, call.name, 0)) {
        const name = r.fields["name"] ?? r.fields["api_name"] ?? r.fields["tool"];
        if (typeof name !== "string" || known.has(name)) continue;
        const params = r.fields["parameters"] ?? r.fields["input_parameters"] ?? r.fields["input"];
        if (!isObject(params)) continue;
        known.add(name);
        const description = typeof r.fields["description"] === "string" ? r.fields["description"] : "";
        const schema = isObject(params["properties"]) ? params : { type: "object", properties: params };
        out.push({ name, description, parameters: schema });
      }
    }
  }
  return out;
}

/** Decides the next turn from the messages and the tools; pure and deterministic. */
export function decideOffline(messages: readonly ChatMessageLike[], boundTools: readonly OfflineToolSpec[], maxCallsPerRequest = 6): OfflineDecision {
  const history = readHistory(messages);
  const req = history.current;
  const nextId = (): string => `call_${history.totalCalls + 1}`;
  const final = (text: string, thought: string): OfflineDecision => ({ intent: "final", text: text.replace(/\?\s*$/, "."), thought, calls: [] });
  const giveUp = (reason: string, thought: string): OfflineDecision => ({ intent: "give-up", text: `${GIVE_UP_PREFIX} ${reason}`, thought, calls: [] });
  const ask = (text: string, thought: string, asks?: string[]): OfflineDecision => ({ intent: "question", text, thought, calls: [], ...(asks ? { asks } : {}) });
  const call = (tool: OfflineToolSpec, args: Json, thought: string): OfflineDecision => ({
    intent: "call",
    text: "",
    thought,
    calls: [{ id: nextId(), name: tool.name, args: structuredClone(args) }],
  });

  if (!req || req.text.trim() === "") return giveUp("there is no request to act on.", "No user message yet.");
  const tools = [...boundTools, ...discoveredTools(history, boundTools)];
  if (tools.length === 0) return giveUp("I have no tools for this request.", "No tools are bound.");
  const userText = [req.text, ...req.replies.map((r) => r.text)].join("\n");
  const records = observations(history);

  // React to a failed call first: repair once, else explain.
  const lastCall = req.calls[req.calls.length - 1];
  if (history.last === "tool" && lastCall && failed(lastCall)) {
    const tool = tools.find((t) => t.name === lastCall.name);
    const failures = req.calls.filter((c) => c.name === lastCall.name && failed(c));
    if (tool && failures.length < 2 && typeof lastCall.args !== "string") {
      const repaired = repairArguments(tool, lastCall.args, lastCall.result?.body);
      if (repaired && !failures.some((f) => stableStringify(f.args) === stableStringify(repaired.args))) {
        return call(tool, repaired.args, `${lastCall.name} rejected the arguments (status ${lastCall.result?.status ?? "?"}); retrying with ${repaired.notes.join(", ")}.`);
      }
    }
    return final(explainError(lastCall), `${lastCall.name} failed and cannot be repaired; explaining the error.`);
  }

  if (req.calls.length >= maxCallsPerRequest) {
    return final(finalAnswer(req), `Reached ${maxCallsPerRequest} calls for this request; answering with what I have.`);
  }

  // Plan: one tool per clause, in order. With a tool searcher (API-Bank's retrieve and plan levels), each
  // clause is first looked up in the catalogue, then matched against what the search found.
  const searcher = tools.find((t) => toolTraits(t).searcher);
  const candidates = tools.filter((t) => !toolTraits(t).searcher);
  const index = toolIndex(candidates);
  const clauses = splitClauses(req.text, index.catalogVerbs());
  const nameStems = index.nameStems();
  const steps: Step[] = [];
  const rankNotes: string[] = [];
  // The field names of this request's results so far (`placeId` of a geocoding result): what a later step can take.
  const resultKeys = new Set(records.filter((r) => r.age < 100).flatMap((r) => Object.keys(r.fields).map(normalizeKey)));
  for (const [i, clause] of clauses.entries()) {
    // "Thanks!", "Can you take care of it?": courtesy, not a request of its own.
    if ((i > 0 || clauses.length > 1) && !asksSomething(clause)) continue;
    // Earlier clauses lend the resources they name ("books", "glossary"), not their verbs or values.
    const nouns = i > 0 ? tokenize(clauses.slice(0, i).join(" ")).filter((w) => nameStems.has(stem(w.toLowerCase())) && !(SYNONYM.get(stem(w)) ?? []).some((g) => g in VERB_GROUPS)) : [];
    // With a tool searcher, a clause is matched against the tools its own search found (API-Bank: retrieve, then call).
    let pool = candidates;
    let poolIndex = index;
    if (searcher) {
      const keywords = searchKeywords(clause, nouns) || searchKeywords(clause, []) || nouns.join(" ").toLowerCase();
      if (keywords.trim() === "") continue;
      const args = searcherArguments(searcher, keywords);
      const searchCall = req.calls.find((c) => c.name === searcher.name && stableStringify(c.args) === stableStringify(args));
      if (!searchCall) {
        steps.push({ tool: searcher, clause, implicit: false, args, search: true });
        break;
      }
      const found = new Set(foundToolNames(searchCall));
      const own = candidates.filter((t) => found.has(t.name));
      if (own.length > 0) {
        pool = own;
        poolIndex = toolIndex(own);
      }
    }
    if (pool.length === 0) continue;
    const ranked = rankTools(poolIndex, pool, clause, nouns.join(" "), i === 0 ? req : { ...req, replies: [] });
    preferLinkedTools(ranked, pool, clause, steps.filter((x) => x.search !== true).map((x) => x.tool), poolIndex, resultKeys);
    const best = ranked[0];
    if (!best || best.bm25 <= 0) continue;
    let pick = best;
    // A later clause that lands on a planned tool usually means the next best one ("the details of the top article").
    if (steps.some((x) => x.tool.name === pool[best.tool]?.name)) {
      const runner = ranked.find((r) => r !== best && !steps.some((x) => x.tool.name === pool[r.tool]?.name));
      if (!runner || runner.score < 0.75 * best.score) continue;
      pick = runner;
    }
    const tool = pool[pick.tool];
    if (!tool) continue;
    steps.push({ tool, clause, implicit: false });
    const runner = ranked[1];
    rankNotes.push(`"${clause.slice(0, 60)}" -> ${tool.name} (${pick.score.toFixed(2)}${runner ? `, next ${pool[runner.tool]?.name ?? "?"} ${runner.score.toFixed(2)}` : ""})`);
  }

  if (steps.length === 0) {
    if (req.calls.some(succeeded)) return final(finalAnswer(req), "Nothing more to do; answering from the observations.");
    if (contentStems(req.text).length === 0) return final("You are welcome. Let me know if you need anything else.", "No request in the message.");
    if (req.questions.length === 0) {
      return ask("I am not sure which of my tools fits. Could you tell me a bit more about what you would like me to do?", "No tool matches the request's words.");
    }
    return giveUp("none of my tools can do what was asked.", "No tool matches the request, even after asking.");
  }

  // Implicit chains: a step that needs an id nobody gave is preceded by a search that can find it.
  const expanded: Step[] = [];
  for (const step of steps) {
    if (step.search === true) {
      expanded.push(step);
      continue;
    }
    const fill = fillArguments({ tool: step.tool, request: req, userText, records, optional: true, clause: step.clause });
    const missingIds = fill.missing.filter(isIdParam);
    if (missingIds.length > 0 && !toolTraits(step.tool).lister) {
      const resource = idResource(missingIds[0] as Param, step.tool.name);
      // Values the step itself uses are not search terms ("replace a book ... genre mystery").
      const stepValues = new Set(scalarLeaves(fill.args).map((v) => stableStringify(v)));
      const lister = tools
        .filter((t) => t.name !== step.tool.name && toolTraits(t).lister && !toolTraits(t).searcher && !steps.some((x) => x.tool.name === t.name && x !== step))
        .map((t) => {
          const words = toolTraits(t).nameStems;
          const related = resource.filter((r) => words.includes(r)).length;
          const f = fillArguments({ tool: t, request: req, userText: step.clause, records: [], optional: true, clause: step.clause });
          let args = f.args;
          let fresh = Object.values(args).filter((v) => !stepValues.has(stableStringify(v))).length;
          if (fresh === 0) {
            // A quoted title or a proper name the step cannot use goes to the search's query parameter.
            const qp = paramsOf(t.parameters).find((p) => /^(q|query|search|keywords?|terms?|text|name|title)$/i.test(p.name) && schemaType(p.schema) === "string" && args[p.name] === undefined);
            const span = req.facts.spans.find((x) => (x.kind === "quoted" || x.kind === "proper") && !stepValues.has(stableStringify(x.value)));
            if (qp && span) {
              args = { ...args, [qp.name]: String(span.value) };
              fresh = 1;
            }
          }
          return { t, related, f, args, fresh };
        })
        .filter((x) => x.related > 0 && x.f.missing.length === 0 && x.fresh > 0)
        .sort((a, b) => b.related - a.related || b.fresh - a.fresh)[0];
      if (lister && !expanded.some((s) => s.tool.name === lister.t.name)) expanded.push({ tool: lister.t, clause: step.clause, implicit: true, args: lister.args });
    }
    expanded.push(step);
  }

  // The first step not yet done.
  const doneNames = new Set(req.calls.filter(succeeded).map((c) => c.name));
  const isDone = (step: Step): boolean =>
    step.search === true ? req.calls.some((c) => c.name === step.tool.name && stableStringify(c.args) === stableStringify(step.args)) : doneNames.has(step.tool.name);
  const next = expanded.find((x) => !isDone(x));
  const planText = expanded.map((s) => `${s.tool.name}${s.implicit ? " (to find the id)" : ""}`).join(" -> ");
  if (!next) {
    return final(finalAnswer(req), `Plan ${planText} is done; answering from the observations.`);
  }

  if (next.search === true) {
    return call(next.tool, next.args ?? {}, `Looking up tools for "${next.clause.slice(0, 80)}" with ${next.tool.name}.`);
  }
  const fill = next.args ? { args: next.args, missing: [], notes: [`search arguments from the request`], fromText: 1, used: new Set<string>() } : fillArguments({ tool: next.tool, request: req, userText, records, optional: true, clause: next.clause });
  let args = fill.args;
  const notes = [...fill.notes];
  if (fill.missing.length > 0) {
    const lastOk = [...req.calls].reverse().find(succeeded);
    if (lastOk && isEmptyResult(lastOk.result?.body) && fill.missing.some(isIdParam)) {
      return final(emptyResultAnswer(answerCall(lastOk)), `The search returned nothing; ${next.tool.name} cannot get an id.`);
    }
    const asked = (p: Param): boolean => req.questions.some((q) => q.toLowerCase().includes(p.phrase.toLowerCase()));
    const notAsked = fill.missing.filter((p) => !asked(p));
    if (notAsked.length > 0) {
      const question = `${purposeOf(next.tool)}, I need ${listPhrases(notAsked)}. Could you tell me ${notAsked.length === 1 ? "what it is" : "what they are"}?`;
      return ask(question, `${next.tool.name} fits (${rankNotes.join("; ")}), but ${notAsked.map((p) => p.path.join(".")).join(", ")} ${notAsked.length === 1 ? "is" : "are"} missing; asking the user.`, notAsked.map((p) => p.path.join(".")));
    }
    // Asked already: the API's documented default where it has one; an example is no value the user gave, so
    // without a default the assistant gives up rather than invent one.
    const defaults: string[] = [];
    for (const p of fill.missing) {
      const d = p.path.length === 1 ? p.schema["default"] : undefined;
      if (d === undefined) {
        return giveUp(`I still do not know ${listPhrases([p])}, so I cannot ${goalOf(next.tool)}.`, `${p.path.join(".")} is still missing after asking; not guessing it.`);
      }
      args = { ...args, [p.name]: d };
      defaults.push(`${p.name} = its documented default`);
    }
    notes.push(...defaults);
  }
  const previousFailure = req.calls.find((c) => c.name === next.tool.name && failed(c) && stableStringify(c.args) === stableStringify(args));
  if (previousFailure) {
    return final(explainError(previousFailure), `${next.tool.name} already failed with the same arguments.`);
  }
  const thought = [
    `Request plan: ${planText}.`,
    rankNotes.length > 0 ? `Matches: ${rankNotes.join("; ")}.` : "",
    `Calling ${next.tool.name}${next.implicit ? " first, to find the id the next step needs" : ""}.`,
    notes.length > 0 ? `Arguments: ${notes.join("; ")}.` : "No arguments needed.",
  ]
    .filter((s) => s !== "")
    .join(" ");
  return call(next.tool, args, thought);
}
