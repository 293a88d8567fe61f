import type { Json } from "../../../specs/json-object.js";
import { RESULT_REFERENCES } from "../../language/lexicon/function-words.js";
import { phraseAfter, type Span, type SpanKind } from "../../language/text-facts.js";
import { anyWord } from "../../language/word-patterns.js";
import { coerce, normalizeWords } from "./coerce-value.js";
import type { RequestView } from "./dialogue-history.js";
import { fromObservations, type ObsRecord } from "./observations.js";
import type { OfflineToolbox } from "./offline-types.js";
import { acceptedKinds, isFreeText, isIdParam, paramTraits, specificity } from "./param-traits.js";
import {
  anchoredValue,
  booleanValue,
  cleanReply,
  coordinateValue,
  cuedValue,
  enumValue,
  extendList,
  idAfterResource,
  phraseValue,
  spanKey,
  typedValue,
  type FillState,
  type Source,
} from "./slot-values.js";
import { effectiveSchema, humanize, leafParams, objectItems, optionalCopy, paramLocation, paramsOf, schemaType } from "./tool-params.js";
import type { OfflineToolSpec, Param } from "./offline-types.js";
import { toolTraits } from "./tool-traits.js";
import { isSecretName } from "../../../specs/redact-secrets.js";
import type { FillOutcome } from "./offline-types.js";
import { isPlausible, valueKindOf } from "../../../specs/value-kinds.js";

export type { FillOutcome };

/*
 * Slot filling: a tool's arguments from the dialogue and earlier observations, in stages across all parameters
 * so strong evidence is taken first: values named or cued in the step's clause and in replies, then typed values
 * (e-mails, dates, codes, ids), then earlier observations, then weaker guesses for required values.
 */


/** What a fill reads. */
export interface FillInput {
  tool: OfflineToolSpec;
  request: RequestView;
  /** All user text of the request (request + replies). */
  userText: string;
  records: readonly ObsRecord[];
  /** Fill optional parameters too (only from strong evidence). */
  optional: boolean;
  /** The part of the request this step serves (its values come first). */
  clause?: string;
  /** A fill of one parenthesized item of this list argument only (no groups looked for inside it). */
  group?: string;
  /** The clauses of the request's other steps: what they say is theirs, never a guess of this step's. */
  others?: readonly string[];
}

/** The stages of slot filling, run across all parameters in turn so strong evidence is taken first. */
type FillStage = "named" | "typed" | "observed" | "guessed";
const FILL_STAGES: readonly FillStage[] = ["named", "typed", "observed", "guessed"];

/** Kinds of value that are evidence on their own (an e-mail for an e-mail parameter). */
const STRONG_KINDS = new Set<SpanKind>(["email", "url", "date", "datetime", "time", "code3", "code2", "lang", "id"]);
/** Kinds an optional parameter takes unnamed. */
const OPTIONAL_TYPED_KINDS = new Set<SpanKind>(["email", "url", "datetime", "date", "time", "code3", "code2", "lang"]);

const R = RESULT_REFERENCES;
const REFERS_TO_RESULT = new RegExp(
  `\\b(?:${R.ordinals.join("|")})\\b.*\\b(?:${R.nouns.join("|")})|\\b(?:${R.before.join("|")})\\s+(?:${R.after.join("|")})|${anyWord(R.phrases).source}`,
  "i",
);

/** Fills a tool's arguments from the dialogue and earlier observations (remembered by the toolbox when no observation is involved). */
export function fillArguments(box: OfflineToolbox, input: FillInput): FillOutcome {
  if (input.records.length > 0) return computeFill(box, input);
  // Keyed by the request's text first (a string seen again and again), then by the rest.
  let byRequest = box.fills.get(input.request.text);
  if (!byRequest) {
    byRequest = new Map();
    box.fills.set(input.request.text, byRequest);
  }
  let key = `${box.toolId(input.tool)}\u0002${input.optional ? "o" : "r"}\u0002${input.clause === undefined ? "\u0003" : input.clause}`;
  for (const other of input.others ?? []) key += `\u0005${other}`;
  for (const r of input.request.replies) key += `\u0002${r.question}\u0002${r.text}`;
  // What earlier calls took from the replies is not this call's (see `answeredAnother`).
  if (input.request.replies.length > 0) for (const c of input.request.calls) key += `\u0004${typeof c.args === "string" ? c.args : JSON.stringify(c.args)}`;
  let out = byRequest.get(key);
  if (!out) {
    out = computeFill(box, input);
    byRequest.set(key, out);
  }
  return out;
}

/** Whether the step's words name the resource an id parameter points at ("... for the event" for `eventId`). */
function mentionsResource(box: OfflineToolbox, p: Param, input: FillInput): boolean {
  const text = (input.clause ?? input.request.text).toLowerCase();
  const resource = paramTraits(box, p).idResource;
  if (resource.length === 0) return true;
  const stems = new Set(box.lowerTokens(text).map((w) => box.stem(w)));
  // The tool's own resource ("get the book" for `bookId`) is no mention of something else.
  const own = new Set(toolTraits(box, input.tool).nameStems);
  return resource.some((w) => stems.has(w) && !own.has(w));
}

function computeFill(box: OfflineToolbox, input: FillInput): FillOutcome {
  const st: FillState = { used: new Set() };
  const replies: Source[] = input.request.replies.map((r, i) => ({ facts: r.facts, index: i + 1, space: `r${i + 1}`, offset: 0 }));
  // The step's own clause first; the whole request only for required values the clause lacks.
  const focus = input.clause !== undefined && input.clause !== input.request.text ? box.factsOf(input.clause) : input.request.facts;
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
      const q = p.required && !parentRequired ? optionalCopy(box, p) : p;
      const type = schemaType(p.schema);
      if (type === "object" && depth < 2) {
        containers.push({ p: q, array: false, depth });
        collect(paramsOf(box, p.schema, p.path), depth + 1, q.required);
        continue;
      }
      const items = type === "array" ? objectItems(box, p.schema) : undefined;
      if (items && depth < 2) {
        if (!q.required) continue;
        containers.push({ p: q, array: true, depth });
        collect(paramsOf(box, items, p.path), depth + 1, true);
        continue;
      }
      if (!q.required && !input.optional) continue;
      // Headers and cookies are plumbing (a language, a request id): never filled from the user's free words.
      const where = paramLocation(q);
      if (!q.required && (where === "header" || where === "cookie")) continue;
      leaves.push({ p: q });
    }
  };
  collect(paramsOf(box, input.tool.parameters).filter((p) => input.group === undefined || p.name === input.group), 0, true);
  // Specific kinds first, so generic strings do not take an e-mail or a date.
  const order = leaves
    .map((l, i) => ({ l, i }))
    .sort((a, b) => specificity(box, b.l.p) - specificity(box, a.l.p) || a.i - b.i)
    .map((x) => x.l);
  // What the request's other steps say is theirs: a guess never takes it (a quoted text said for the next step is no
  // key of this one); a sentence no step serves ("a trip to Paris ... the weather there") is anyone's.
  const theirs: string[] = [];
  for (const other of input.others ?? []) {
    const from = other === input.clause ? -1 : input.request.text.indexOf(other);
    if (from >= 0) for (const span of input.request.facts.spans) if (span.start >= from && span.start < from + other.length) theirs.push(`req:${span.start}`);
  }
  for (const stage of FILL_STAGES) {
    const blocked = stage === "guessed" ? theirs.filter((k) => !st.used.has(k)) : [];
    for (const k of blocked) st.used.add(k);
    for (const leaf of order) {
      if (leaf.value !== undefined) continue;
      const isId = isIdParam(box, leaf.p);
      if (!leaf.p.required && (stage === "guessed" || (stage === "observed" && !isId))) continue;
      // Optional values only when the dialogue clearly gives them: no unnamed codes or ids, no id of an
      // earlier result the request does not point at ("create a reminder" takes no event id of a listing).
      if (!leaf.p.required && stage === "typed" && !OPTIONAL_TYPED_KINDS.has(acceptedKinds(box, leaf.p)[0] ?? "quoted")) continue;
      if (!leaf.p.required && stage === "observed" && !mentionsResource(box, leaf.p, input)) continue;
      const where = paramLocation(leaf.p);
      if (where === "header" && stage !== "named") continue;
      // A credential is what the user says it is or what an earlier answer gave (a login's token), never a guess
      // from some other value of theirs (an api secret, a country code).
      if ((stage === "typed" || stage === "guessed") && isSecretName(leaf.p.name)) continue;
      // Ids in other parts of the request belong to other steps: only named ones are taken from there.
      const pool = leaf.p.required && (stage === "named" || !isId) ? wider : sources;
      const got = valueFor(box, leaf.p, pool, st, input, stage);
      if (got === undefined) continue;
      // A path segment with spaces is a phrase that ran on ("buttermilk where the diet"), unless it was quoted or replied.
      if (where === "path" && typeof got.value === "string" && /\s/.test(got.value) && got.quoted !== true && !/reply/.test(got.note)) continue;
      leaf.value = got.value;
      notes.push(got.note);
      if (got.fromText) fromText++;
    }
    for (const k of blocked) st.used.delete(k);
  }
  // Assemble nested values; a container counts when all its required leaves are there.
  const leafAt = new Map<string, Leaf>();
  for (const l of leaves) if (!leafAt.has(paramTraits(box, l.p).pathKey)) leafAt.set(paramTraits(box, l.p).pathKey, l);
  const containerAt = new Map<string, (typeof containers)[number]>();
  for (const c of containers) if (!containerAt.has(paramTraits(box, c.p).pathKey)) containerAt.set(paramTraits(box, c.p).pathKey, c);
  const build = (params: Param[], depth: number): { args: Json; missing: Param[] } => {
    const args: Json = {};
    const missing: Param[] = [];
    for (const p of params) {
      const container = containerAt.get(paramTraits(box, p).pathKey);
      if (container) {
        const schema = container.array ? effectiveSchema(box, p.schema["items"] as Json) : p.schema;
        const sub = build(paramsOf(box, schema, p.path), depth + 1);
        if (Object.keys(sub.args).length > 0 && sub.missing.length === 0) args[p.name] = container.array ? [sub.args] : sub.args;
        else if (container.p.required) missing.push(...(sub.missing.length > 0 ? sub.missing : [container.p]));
        continue;
      }
      const leaf = leafAt.get(paramTraits(box, p).pathKey);
      if (!leaf) continue;
      if (leaf.value !== undefined) args[p.name] = leaf.value;
      else if (leaf.p.required) missing.push(leaf.p);
    }
    return { args, missing };
  };
  const built = build(paramsOf(box, input.tool.parameters), 0);
  const args = built.args;
  let missing = built.missing;
  // An object described in parentheses after its name ("origin (lat 1.5, lng 2.5, address Rua Augusta 24)"): its
  // fields are filled from its own words, and another object filled only from those words was never asked for.
  if (input.group === undefined) {
    const text = input.clause ?? input.request.text;
    const claimed: string[] = [];
    const named = new Set<string>();
    for (const c of containers) {
      if (c.array || c.depth !== 0) continue;
      const group = namedGroup(text, c.p.phrase);
      if (group === undefined) continue;
      named.add(c.p.name);
      const value = computeFill(box, { ...input, clause: group, group: c.p.name }).args[c.p.name];
      if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
      args[c.p.name] = value;
      missing = missing.filter((m) => m.path[0] !== c.p.name);
      claimed.push(group);
    }
    for (const c of containers) {
      const value = args[c.p.name];
      if (claimed.length === 0 || c.depth !== 0 || named.has(c.p.name) || value === null || typeof value !== "object" || Array.isArray(value)) continue;
      const own = Object.values(value as Json);
      if (own.length > 0 && own.every((v) => (typeof v === "string" || typeof v === "number") && claimed.some((g) => g.includes(String(v))))) {
        delete args[c.p.name];
        if (c.p.required) missing.push(c.p);
      }
    }
  }
  // A list whose items are described in parentheses ("entries (source a, target b) and (source c, target d)"):
  // one item per group, each filled from its own words.
  if (input.group === undefined) {
    for (const c of containers) {
      if (!c.array || c.depth !== 0) continue;
      const items = groupItems(box, input, c.p.name);
      if (items === undefined) continue;
      args[c.p.name] = items;
      missing = missing.filter((m) => m.path[0] !== c.p.name);
    }
  }
  return { args, missing, notes, fromText, used: st.used };
}

/** The parenthesized group right after a name in a text ("origin (lat 1, lng 2)" -> "lat 1, lng 2"), if there is one. */
function namedGroup(text: string, phrase: string): string | undefined {
  const words = phrase.trim().split(/\s+/).filter((w) => w !== "").map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (words.length === 0) return undefined;
  const m = new RegExp(`\\b${words.join("[\\s_-]+")}\\s*:?\\s*\\(`, "i").exec(text);
  if (!m) return undefined;
  const start = m.index + m[0].length;
  let depth = 1;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return text.slice(start, i);
  }
  return undefined;
}

/** Most items a list argument is filled with from parenthesized groups. */
const MAX_GROUPS = 20;

/** The top-level parenthesized groups of a text ("(a, b) and (c (d))" -> "a, b", "c (d)"). */
function parenthesized(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "(") {
      if (depth === 0) start = i + 1;
      depth++;
    } else if (ch === ")" && depth > 0) {
      depth--;
      if (depth === 0 && start >= 0) out.push(text.slice(start, i));
    }
  }
  return out;
}

/**
 * The items of a list argument when the step's words describe them each in its own parentheses: each group filled
 * on its own (its values found in its words), or undefined when a group is not such an item.
 */
function groupItems(box: OfflineToolbox, input: FillInput, name: string): Json[] | undefined {
  const groups = parenthesized(input.clause ?? input.request.text).filter((g) => g.includes(","));
  // Each group is a fill of its own: a text of very many groups is not a list of items anyone dictates.
  if (groups.length === 0 || groups.length > MAX_GROUPS) return undefined;
  const items: Json[] = [];
  for (const g of groups) {
    const value = computeFill(box, { ...input, clause: g, group: name }).args[name];
    const item = Array.isArray(value) ? value[0] : undefined;
    if (item === null || typeof item !== "object" || Array.isArray(item)) return undefined;
    // Its own values: at least one of them is written in the group.
    if (!Object.values(item as Json).some((v) => (typeof v === "string" || typeof v === "number") && g.includes(String(v)))) return undefined;
    items.push(item as Json);
  }
  return new Set(items.map((i) => JSON.stringify(i))).size === items.length ? items : undefined;
}

type Got = { value: unknown; note: string; fromText: boolean; quoted?: boolean };

const NAMES = new WeakMap<object, ReadonlySet<string>>();

/** The names of a tool's parameters, in words (remembered per tool). */
function namesOf(box: OfflineToolbox, tool: OfflineToolSpec): ReadonlySet<string> {
  let names = NAMES.get(tool.parameters);
  if (names === undefined) NAMES.set(tool.parameters, (names = new Set(leafParams(box, tool.parameters).map((x) => humanize(x.name)))));
  return names;
}

function valueFor(box: OfflineToolbox, p: Param, given: Source[], st: FillState, input: FillInput, stage: FillStage): Got | undefined {
  // A reply that went into another argument of an earlier call is that argument's, not this one's.
  const sources = input.request.calls.length === 0 ? given : given.filter((src) => src.index < 1 || src.index > input.request.replies.length || !answeredAnother(input.request, cleanReply(src.facts.text), p.name));
  const take = (src: Source, span: { start: number }, value: unknown, how: string): Got => {
    st.used.add(spanKey(src, span));
    const full = "kind" in span ? extendList(box, p, src, st, span as Span, value) : value;
    return { value: full, note: `${p.path.join(".")} ${how}`, fromText: true, ...("kind" in span && (span as Span).kind === "quoted" ? { quoted: true } : {}) };
  };
  const kinds = acceptedKinds(box, p);
  // The parameters' own names, in words (an anchor that is another's name is that one's).
  const others = namesOf(box, input.tool);
  // A value for a name that says what it holds must be one (a country code is no airport's name).
  const meaning = valueKindOf(p.name);
  // A code of three letters (a currency's) is no word of the tool's own description ("from one currency to another").
  const code = kinds[0] === "code3" && /currenc/i.test(`${p.name} ${p.description}`);
  const isCode = (v: unknown): boolean => typeof v === "string" && /^[A-Za-z]{3}$/.test(v);
  const fits = (v: unknown): boolean => (meaning === undefined || isPlausible(meaning, v, p.name) !== false) && (!code || (Array.isArray(v) ? v.every(isCode) : isCode(v)));
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
        const fromObs = fromObservations(box, p, input.tool, input.records, `${src.facts.text}\n${input.userText}`, true);
        if (fromObs) return { value: fromObs.value, note: `${fromObs.note} (as the user said)`, fromText: false };
        // The words point at a result; they are not the value ("the top result" is no country code).
        continue;
      }
      const a = anchoredValue(box, p, src, st, others);
      if (a && fits(a.value)) return take(src, a.span, a.value, "from the user's reply");
      const e = enumValue(box, p, src);
      if (e !== undefined) return { value: e, note: `${p.path.join(".")} from the user's reply`, fromText: true };
      const b = booleanValue(p, src);
      if (b !== undefined) return { value: b, note: `${p.path.join(".")} from the user's reply`, fromText: true };
      const question = (input.request.replies[src.index - 1]?.question ?? "").toLowerCase();
      const asked = leafParams(box, input.tool.parameters).filter((x) => question.includes(x.phrase.toLowerCase())).length;
      if (asked <= 1) {
        const t = typedValue(box, p, src, st, kinds);
        if (t && fits(t.value)) return take(src, t.span, t.value, "from the user's reply");
        const cleaned = cleanReply(src.facts.text);
        if (cleaned !== "" && cleaned.split(/\s+/).length <= 12) {
          const v = coerce(box, cleaned, p.schema) ?? (schemaType(p.schema) === "array" ? coerce(box, cleaned, { type: "array", items: { type: "string" } }) : undefined);
          if (v !== undefined) {
            st.used.add(spanKey(src, { start: 0 }));
            return { value: v, note: `${p.path.join(".")} = the user's reply`, fromText: true };
          }
        }
      }
    }
    // 2. The user's words: named values, resource ids, cue words, enums, booleans.
    for (const src of sources) {
      const a = anchoredValue(box, p, src, st, others);
      if (a && fits(a.value)) return take(src, a.span, a.value, "named in the request");
    }
    for (const src of sources) {
      const r = idAfterResource(box, p, input.tool, src, st);
      if (r && fits(r.value)) return take(src, r.span, r.value, "after the name of its resource");
    }
    for (const src of sources) {
      const c = coordinateValue(box, p, src, st);
      if (c && fits(c.value)) return take(src, c.span, c.value, "from a coordinate pair");
    }
    for (const src of sources) {
      const c = cuedValue(box, p, src, st);
      if (c && fits(c.value)) return take(src, c.span, c.value, "from a cue word in the request");
    }
    for (const src of sources) {
      const f = phraseValue(box, p, src, st);
      if (f && fits(f.value)) return take(src, f.span, f.value, "from the words after a cue");
    }
    for (const src of sources) {
      const e = enumValue(box, p, src);
      // "translate text" names the operation, not the optional `format: text`.
      if (e !== undefined && (p.required || !toolTraits(box, input.tool).nameWords.includes(normalizeWords(String(e))))) return { value: e, note: `${p.path.join(".")} = an allowed value mentioned`, fromText: true };
      const b = booleanValue(p, src);
      if (b !== undefined) return { value: b, note: `${p.path.join(".")} from the request's words`, fromText: true };
    }
    // Several values asked at once: the answer's typed values, in the order asked.
    for (const src of [...answering].reverse()) {
      const t = typedValue(box, p, src, st, kinds);
      if (t && fits(t.value)) return take(src, t.span, t.value, "from the user's reply");
    }
    return undefined;
  }
  if (stage === "typed") {
    // Typed values count as evidence only for parameters whose first choice is that kind (an e-mail parameter).
    const first = kinds[0];
    const strongKinds = first !== undefined && STRONG_KINDS.has(first) && (first !== "id" || isIdParam(box, p)) ? kinds.filter((k) => STRONG_KINDS.has(k)) : [];
    for (const src of sources) {
      const t = typedValue(box, p, src, st, strongKinds);
      if (t && fits(t.value)) return take(src, t.span, t.value, `= the ${t.span.kind} in the request`);
    }
    return undefined;
  }
  if (stage === "observed") {
    const fromObs = fromObservations(box, p, input.tool, input.records, input.userText);
    return fromObs ? { value: fromObs.value, note: fromObs.note, fromText: false } : undefined;
  }
  // Weaker guesses for required values: the only number, a quoted string, a proper name.
  for (const src of sources) {
    const t = typedValue(box, p, src, st, kinds);
    if (!t || !fits(t.value)) continue;
    // A free text given after a colon goes on to the end of its phrase ("details: Optimized local challenge", not "Optimized").
    if (t.span.kind === "proper" && isFreeText(box, p) && /:\s*$/.test(src.facts.text.slice(0, t.span.start))) {
      const longer = phraseAfter(src.facts, t.span.start, 8);
      const value = longer && longer.start === t.span.start && longer.value.length > String(t.value).length ? coerce(box, longer.value, p.schema) : undefined;
      if (value !== undefined) return take(src, t.span, value, "= the phrase in the request");
    }
    return take(src, t.span, t.value, `= the ${t.span.kind} in the request`);
  }
  return undefined;
}

/**
 * Whether a reply's value already went into another argument of an earlier call of the request ("toyota" asked for
 * a search's `q` is no ticker `symbol` of the next call, which takes the search's result).
 */
function answeredAnother(request: RequestView, value: string, name: string): boolean {
  const folded = value.toLowerCase().replace(/^["'“‘\s]+|["'”’.!\s]+$/g, "");
  if (folded === "") return false;
  return request.calls.some(
    (c) => typeof c.args === "object" && Object.entries(c.args).some(([k, v]) => k !== name && typeof v === "string" && v.toLowerCase() === folded),
  );
}
