import { isObject } from "../../../specs/json-object.js";
import { BOOLEAN_PREFIXES, COORDINATE_ENDS } from "../../language/lexicon/names.js";
import { NEGATIONS, REPLY_LEADS, REPLY_OPENERS, STOP_WORDS } from "../../language/lexicon/function-words.js";
import {
  COMPOUND_LINKS,
  DETERMINERS,
  ID_LEADS,
  MAX_CUES,
  MIN_CUES,
  PHRASE_CUES,
  QUOTED_QUERY_CUES,
  SEARCH_TEXT_NAMES,
  VALUE_FILLERS,
  VALUE_SEPARATORS,
  YEAR_CUES,
} from "../../language/lexicon/value-cues.js";
import { phraseAfter, type Span, type SpanKind, type TextFacts } from "../../language/text-facts.js";
import { nameMatches, wordAtEnd, wordBeforeEnd } from "../../language/word-patterns.js";
import { coerce, idShapeMatches, matchEnum } from "./coerce-value.js";
import { findCity } from "../../../specs/synthesize/world/world-data.js";
import { usState } from "../../../specs/synthesize/world/us-states.js";
import type { OfflineToolbox } from "./offline-types.js";
import { coordinateOf } from "../../language/value-phrase.js";
import { AMBIGUOUS_CODES } from "../../language/lexicon/codes.js";
import { acceptedKinds, anchorsOf, idResource, isFreeText, isIdParam, normalizeKey, paramTraits } from "./param-traits.js";
import { effectiveSchema, enumOf, exampleOf, humanize, schemaType } from "./tool-params.js";
import type { OfflineToolSpec, Param } from "./offline-types.js";

/*
 * Where a parameter's value is in a text: right after one of its names ("city Paris"), after the resource an id
 * names ("order ord-1"), after a cue word ("in Paris", "under $25"), in a coordinate pair, after a phrase cue
 * ("remind me to ..."), as an enum value or a boolean named in the text, or as the only value of its kind.
 */

/** The text values used so far (by `spanKey`), so no value fills two parameters. */
export interface FillState {
  used: Set<string>;
}

/** A text values are taken from. */
export interface Source {
  facts: TextFacts;
  /** 0 is the request (or the step's clause of it), 1.. the replies. */
  index: number;
  /** Which text the offsets are in (`req`, `r1`...), so a clause and its request share used values. */
  space?: string;
  /** Where this text starts in that space. */
  offset?: number;
}

/** A value found in a text and where it was. */
export interface Found {
  value: unknown;
  span: { start: number; end?: number; kind?: SpanKind };
}

/** The identity of a used value: its text and position. */
export function spanKey(src: Source, span: { start: number }): string {
  return `${src.space ?? src.index}:${(src.offset ?? 0) + span.start}`;
}

function fillerPattern(words: readonly string[]): RegExp {
  const alt = [...words].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  return new RegExp(`^(?:\\s|[:=,]|\\b(?:${alt})(?![\\w])|#)*`, "i");
}

const FILLER = fillerPattern(VALUE_FILLERS);
const ID_LEAD = new RegExp(`^(?:s?\\s*(?:with\\s+)?(?:${ID_LEADS.filter((w) => w !== "with").sort((a, b) => b.length - a.length).map((w) => w.replace(/[.#]/g, "\\$&")).join("|")})?\\s*)`, "i");
const SEPARATED = new RegExp(`[:=]|\\b(?:${VALUE_SEPARATORS.join("|")})\\b`, "i");
const DETERMINER_BEFORE = wordAtEnd(DETERMINERS);
const COMPOUND = new RegExp(`^\\s*([^\\s,.;!?]+)\\s+(?:${COMPOUND_LINKS.join("|")})\\s+`, "i");
const MIN_BEFORE = wordAtEnd(MIN_CUES);
const MAX_BEFORE = wordAtEnd(MAX_CUES);
const YEAR_BEFORE = wordBeforeEnd(YEAR_CUES, { article: false });
const NEGATED = new RegExp(`\\b(?:${NEGATIONS.join("|")})\\s+(?:\\w+\\s+)?$`);

/** The value of a span for a parameter, if the parameter takes that kind of value. */
export function acceptsSpan(box: OfflineToolbox, p: Param, span: Span): unknown {
  const kinds = acceptedKinds(box, p);
  const en = enumOf(p.schema);
  if (!en && !kinds.includes(span.kind)) return undefined;
  if (isIdParam(box, p) && span.kind === "id") {
    const ex = exampleOf(p.schema);
    if (typeof ex === "string" && !idShapeMatches(ex, String(span.value))) return undefined;
  }
  return coerce(box, span.value, p.schema);
}

/** An id right after the resource it names ("company co-brightline-analytics", "order ord-50001"). */
export function idAfterResource(box: OfflineToolbox, p: Param, tool: OfflineToolSpec, src: Source, st: FillState): { value: unknown; span: Span } | undefined {
  if (!isIdParam(box, p)) return undefined;
  for (const word of idResource(box, p, tool.name)) {
    for (const [, end] of src.facts.find(word)) {
      const rest = src.facts.text.slice(end);
      const skip = ID_LEAD.exec(rest)?.[0].length ?? 0;
      const span = src.facts.spanAt(end + skip);
      if (!span || st.used.has(spanKey(src, span)) || (span.kind !== "id" && span.kind !== "number" && span.kind !== "quoted")) continue;
      const v = acceptsSpan(box, p, span);
      if (v !== undefined) return { value: v, span };
    }
  }
  return undefined;
}

/** A value right after one of the parameter's words ("city Paris", "book id bk-1001", "price 12"). */
export function anchoredValue(box: OfflineToolbox, p: Param, src: Source, st: FillState, others: ReadonlySet<string> = new Set()): { value: unknown; span: { start: number; end: number } } | undefined {
  const type = schemaType(p.schema);
  const en = enumOf(p.schema);
  for (const anchor of anchorsOf(box, p)) {
    // The last word of a longer name ("doctor" of `ordering_doctor`) is another parameter's own name: that one's.
    if (others.has(anchor) && anchor !== humanize(p.name)) continue;
    // A name with a colon, an equals sign or a separating word after it ("(ip: 110.163.26.26)", "setting the topic to
    // pocket-watch") gives its value before a mention in passing ("report an abusive IP address", "the topic metadata 85lex7l7jnb7").
    const found = src.facts.find(anchor);
    const explicit = (end: number): boolean => /^\s*(?:[:=]|(?:is|to|named|called|titled)\s)/.test(src.facts.text.slice(end, end + 9));
    for (const [, end] of found.some(([, e]) => explicit(e)) ? [...found].sort((a, b) => Number(explicit(b[1])) - Number(explicit(a[1]))) : found) {
      const rest = src.facts.text.slice(end);
      const skip = FILLER.exec(rest)?.[0].length ?? 0;
      const before = src.facts.lower.slice(Math.max(0, end - anchor.length - 6), end - anchor.length);
      const pos = end + skip;
      const span = src.facts.spanAt(pos);
      if (span && !st.used.has(spanKey(src, span))) {
        // A named value of a string parameter may be all digits ("isbn 9780000000071", "zip 10115").
        const digits = span.kind === "number" && type === "string" && Number.isInteger(span.value) ? coerce(box, String(span.value), p.schema) : undefined;
        const v = acceptsSpan(box, p, span) ?? (span.kind === "quoted" || span.kind === "proper" || span.kind === "id" ? coerce(box, span.value, p.schema) : digits);
        if (v !== undefined) {
          // A free-text value goes on to the end of its phrase ("Living room", not "Living").
          if (isFreeText(box, p) && span.kind !== "quoted") {
            const longer = phraseAfter(src.facts, span.start, 4);
            if (longer && longer.start === span.start && longer.value.length > String(span.value).length) {
              const lv = coerce(box, longer.value, p.schema);
              if (lv !== undefined) return { value: lv, span };
            }
          }
          return { value: v, span };
        }
      }
      // "the ingredient substitutes for buttermilk": the anchor names a compound; the value follows "for".
      const compound = COMPOUND.exec(src.facts.text.slice(end));
      if (compound && DETERMINER_BEFORE.test(before) && !STOP_WORDS.has((compound[1] ?? "").toLowerCase()) && type !== "integer" && type !== "number") {
        const at = end + compound[0].length;
        const inner = src.facts.spanAt(at);
        if (inner && !st.used.has(spanKey(src, inner))) {
          const v = acceptsSpan(box, p, inner);
          if (v !== undefined) return { value: v, span: inner };
        }
        const words = phraseAfter(src.facts, at, 4);
        if (words && !st.used.has(spanKey(src, words)) && isFreeText(box, p)) {
          const v = coerce(box, words.value, p.schema);
          if (v !== undefined) return { value: v, span: words };
        }
        continue;
      }
      // "the ingredient substitutes": after "the <anchor>" a bare word is the head noun, unless "is"/":" says otherwise.
      const separated = skip > 0 && SEPARATED.test(rest.slice(0, skip));
      const bareAllowed = separated || !DETERMINER_BEFORE.test(before) || en !== undefined;
      if ((type === "string" || type === undefined || en) && bareAllowed) {
        const word = phraseAfter(src.facts, pos, en ? 3 : isIdParam(box, p) ? 1 : 4);
        if (word && !st.used.has(spanKey(src, word))) {
          if (en) {
            const words = word.value.split(/\s+/);
            for (let n = words.length; n >= 1; n--) {
              const hit = matchEnum(en, words.slice(0, n).join(" "));
              if (hit !== undefined) return { value: hit, span: word };
            }
          } else if (!/^\d/.test(word.value) || isIdParam(box, p) || explicit(end)) {
            const v = coerce(box, word.value, p.schema);
            if (v !== undefined && acceptedKinds(box, p).some((k) => k === "quoted" || k === "proper" || k === "id")) return { value: v, span: word };
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
          const v = coerce(box, span.value, p.schema);
          if (v !== undefined) return { value: v, span };
        }
      }
    }
  }
  return undefined;
}

/** A value signalled by a cue word before it ("in Paris", "by Maren Sollberg", "under $25", "from USD to EUR"). */
export function cuedValue(box: OfflineToolbox, p: Param, src: Source, st: FillState): { value: unknown; span: Span } | undefined {
  const traits = paramTraits(box, p);
  const key = traits.key;
  const words = traits.named.words;
  const type = schemaType(p.schema);
  if ((type === "number" || type === "integer") && words.includes("year")) {
    for (const span of src.facts.spans) {
      if (span.kind !== "number" || st.used.has(spanKey(src, span)) || typeof span.value !== "number" || span.value < 1800 || span.value > 2200) continue;
      const before = src.facts.lower.slice(Math.max(0, span.start - 12), span.start);
      if (!YEAR_BEFORE.test(before)) continue;
      const v = coerce(box, span.value, p.schema);
      if (v !== undefined) return { value: v, span };
    }
    return undefined;
  }
  if (type === "number" || type === "integer") {
    const first = traits.words[0] ?? "";
    const isMin = first === "min" || first === "minimum" || /^(from|lowest)/.test(key);
    const isMax = first === "max" || first === "maximum" || /^(to|highest)/.test(key);
    if (!isMin && !isMax) return undefined;
    for (const span of src.facts.spans) {
      if (span.kind !== "number" || st.used.has(spanKey(src, span))) continue;
      const before = src.facts.lower.slice(Math.max(0, span.start - 20), span.start);
      if ((isMin && MIN_BEFORE.test(before)) || (isMax && MAX_BEFORE.test(before))) {
        const v = coerce(box, span.value, p.schema);
        if (v !== undefined) return { value: v, span };
      }
      if (/\bbetween\s*$/.test(before) || /\bfrom\s*$/.test(before)) {
        const next = src.facts.spans.find((s) => s.start > span.end && s.kind === "number" && /^\s*(?:and|to|-)\s*$/.test(src.facts.text.slice(span.end, s.start)));
        if (next) {
          const pick = isMin ? span : next;
          if (st.used.has(spanKey(src, pick))) continue;
          const v = coerce(box, pick.value, p.schema);
          if (v !== undefined) return { value: v, span: pick };
        }
      }
    }
    return undefined;
  }
  // "with USD as the base": the value comes before its name.
  if (key === "base" || key === "basecurrency") {
    for (const span of src.facts.spans) {
      if (span.kind !== "code3" || st.used.has(spanKey(src, span))) continue;
      if (!/^\s+as (?:the |a )?base\b/i.test(src.facts.text.slice(span.end))) continue;
      const v = coerce(box, span.value, p.schema);
      if (v !== undefined) return { value: v, span };
    }
  }
  for (const cue of traits.cues) {
    for (const span of src.facts.spans) {
      if (!cue.kinds.includes(span.kind) || st.used.has(spanKey(src, span))) continue;
      const before = src.facts.lower.slice(Math.max(0, span.start - 12), span.start);
      if (!cue.before.test(before)) continue;
      const v = coerce(box, span.value, p.schema);
      if (v !== undefined) return { value: v, span };
    }
  }
  return undefined;
}

const COORDINATE_CUES = COORDINATE_ENDS.map((e) => ({ prefixes: e.prefixes, before: wordAtEnd(e.cues) }));

/** A coordinate from a pair in the text ("from 48.85, 2.35 to 51.5, -0.12", "at 37.79, -122.39"). */
export function coordinateValue(box: OfflineToolbox, p: Param, src: Source, st: FillState): { value: unknown; span: Span } | undefined {
  const c = coordinateOf(p.name);
  if (!c) return undefined;
  const cue = COORDINATE_CUES.find((e) => e.prefixes.includes(c.prefix));
  if (!cue) return undefined;
  const numbers = src.facts.spans.filter((x) => x.kind === "number");
  for (let i = 0; i + 1 < numbers.length; i++) {
    const a = numbers[i] as Span;
    const b = numbers[i + 1] as Span;
    if (!/^\s*[,/;]?\s*$/.test(src.facts.text.slice(a.end, b.start))) continue;
    const before = src.facts.lower.slice(Math.max(0, a.start - 24), a.start);
    const bare = c.prefix === "";
    if (!cue.before.test(before) && !(bare && (before === "" || i === 0))) continue;
    const pick = c.axis === "lat" ? a : b;
    if (st.used.has(spanKey(src, pick))) continue;
    const v = coerce(box, pick.value, p.schema);
    if (v !== undefined) return { value: v, span: pick };
  }
  return undefined;
}

/** A list value goes on over "X, Y and Z" of the same kind ("for USD and GBP"). */
export function extendList(box: OfflineToolbox, p: Param, src: Source, st: FillState, first: Span, value: unknown): unknown {
  if (schemaType(p.schema) !== "array" || !Array.isArray(value)) return value;
  const items = isObject(p.schema["items"]) ? p.schema["items"] : {};
  const out = [...value];
  let last = first;
  for (const next of src.facts.spans) {
    if (next.start <= last.start) continue;
    if (next.kind !== first.kind || st.used.has(spanKey(src, next))) break;
    if (!/^\s*(?:,|and|or|&|\/)?\s*(?:and|or)?\s*$/i.test(src.facts.text.slice(last.end, next.start))) break;
    const v = coerce(box, next.value, items);
    if (v === undefined) break;
    out.push(v);
    st.used.add(spanKey(src, next));
    last = next;
  }
  return out;
}

const SEARCH_TEXT = new Set(SEARCH_TEXT_NAMES);

/** A free-text value introduced by a cue phrase ("remind me to call the bank", `recipes for "curry"`). */
export function phraseValue(box: OfflineToolbox, p: Param, src: Source, st: FillState): { value: unknown; span: { start: number } } | undefined {
  if (schemaType(p.schema) !== "string" || enumOf(p.schema) || typeof p.schema["format"] === "string") return undefined;
  if (SEARCH_TEXT.has(p.name.toLowerCase())) {
    for (const cue of QUOTED_QUERY_CUES) {
      for (const [, end] of src.facts.find(cue)) {
        const span = src.facts.spanAt(end + 1);
        if (span && span.kind === "quoted" && !st.used.has(spanKey(src, span))) {
          const v = coerce(box, span.value, p.schema);
          if (v !== undefined) return { value: v, span };
        }
      }
    }
  }
  const named = paramTraits(box, p).named;
  for (const rule of PHRASE_CUES) {
    if (!nameMatches(rule.names, named)) continue;
    for (const cue of rule.cues) {
      for (const [, end] of src.facts.find(cue)) {
        const span = src.facts.spanAt(end + 1);
        if (span && span.kind === "quoted" && !st.used.has(spanKey(src, span))) {
          const v = coerce(box, span.value, p.schema);
          if (v !== undefined) return { value: v, span };
        }
        const words = phraseAfter(src.facts, end, rule.maxWords);
        if (!words || st.used.has(spanKey(src, words))) continue;
        const v = coerce(box, words.value, p.schema);
        if (v !== undefined) return { value: v, span: words };
      }
    }
  }
  return undefined;
}

/** Two-letter everyday words that are also codes. */
const AMBIGUOUS_WORDS: ReadonlySet<string> = new Set(AMBIGUOUS_CODES);

/** Any enum value of the parameter mentioned in the text (longest first; a list parameter takes all, in order). */
export function enumValue(box: OfflineToolbox, p: Param, src: Source): unknown {
  const items = schemaType(p.schema) === "array" && isObject(p.schema["items"]) ? effectiveSchema(box, p.schema["items"]) : undefined;
  const en = enumOf(p.schema) ?? (items ? enumOf(items) : undefined);
  if (!en) return undefined;
  const hits: Array<{ v: unknown; at: number; len: number }> = [];
  for (const v of en) {
    if (typeof v !== "string" || v.length < 2) continue;
    const variants = new Set([v, v.replace(/[_-]+/g, " ")]);
    // A value that is also an everyday word ("it", "no", "in") counts only quoted or named ("language: it"), not in "It's".
    const ambiguous = AMBIGUOUS_WORDS.has(v.toLowerCase());
    const named = (at: number): boolean => {
      const before = src.facts.lower.slice(Math.max(0, at - 24), at);
      return /["“'‘]\s*$/.test(before) || humanize(p.name).toLowerCase().split(" ").some((w) => w.length > 2 && before.includes(w));
    };
    for (const variant of variants) {
      const first = src.facts.find(variant).find(([at]) => !ambiguous || named(at));
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

const BOOLEAN_PREFIX = new RegExp(`^(?:${BOOLEAN_PREFIXES.join("|")}) `);

/** A boolean named by the text ("in stock" -> inStock true, "not in stock" -> false). */
export function booleanValue(p: Param, src: Source): boolean | undefined {
  if (schemaType(p.schema) !== "boolean") return undefined;
  const plain = humanize(p.name).replace(BOOLEAN_PREFIX, "");
  if (plain.length < 3) return undefined;
  const first = src.facts.find(plain)[0];
  if (!first) return undefined;
  const before = src.facts.lower.slice(Math.max(0, first[0] - 12), first[0]);
  return !NEGATED.test(before);
}

/** Whether a span is an item of a list of values of its kind ("GBP, JPY and CHF"). */
function inList(facts: TextFacts, span: Span): boolean {
  const joined = (a: Span, b: Span): boolean => /^\s*(?:,|and|or|&)\s*(?:and|or)?\s*$/i.test(facts.text.slice(a.end, b.start));
  return facts.spans.some((o) => o !== span && o.kind === span.kind && ((o.start >= span.end && joined(span, o)) || (o.end <= span.start && joined(o, span))));
}

/** The first unused span of an accepted kind (typed extraction: an e-mail for an e-mail parameter...). */
export function typedValue(box: OfflineToolbox, p: Param, src: Source, st: FillState, kinds: readonly SpanKind[]): { value: unknown; span: Span } | undefined {
  // An address's city or state, unnamed: a name the world knows as one ("in Chicago in IL"), before any other name.
  const place = addressPart(box, p);
  if (place !== undefined) {
    // A state by its code first ("New York, NY": the city is New York, the state NY).
    const spans = place === "state" ? [...src.facts.spans].sort((a, b) => Number(b.kind === "code2") - Number(a.kind === "code2")) : src.facts.spans;
    for (const span of spans) {
      if ((span.kind !== "proper" && span.kind !== "code2" && span.kind !== "quoted") || st.used.has(spanKey(src, span)) || typeof span.value !== "string") continue;
      // The name itself, or one of the names a run of them joins ("Wolf-Vandervort Causeway in Chicago": Chicago).
      const text = span.value;
      const parts = span.kind === "proper" ? [text, ...text.split(/\s+(?:in|at|on|of)\s+/).slice(1)] : [text];
      for (const part of parts) {
        if (place === "city" ? findCity(part) === undefined : usState(part) === undefined) continue;
        const at = span.start + text.lastIndexOf(part);
        const sub: Span = part === text ? span : { kind: span.kind, start: at, end: at + part.length, value: part };
        const v = st.used.has(spanKey(src, sub)) ? undefined : acceptsSpan(box, p, sub);
        if (v !== undefined) return { value: v, span: sub };
      }
    }
  }
  for (const kind of kinds) {
    for (const span of src.facts.spans) {
      if (span.kind !== kind || st.used.has(spanKey(src, span))) continue;
      // One item of a list ("for GBP, JPY and CHF") is no unnamed value of an optional single-valued parameter.
      if (!p.required && schemaType(p.schema) !== "array" && inList(src.facts, span)) continue;
      const v = acceptsSpan(box, p, span);
      // An unnamed number must at least fit the parameter's range.
      if (typeof v === "number" && ((typeof p.schema["minimum"] === "number" && v < p.schema["minimum"]) || (typeof p.schema["maximum"] === "number" && v > p.schema["maximum"]))) continue;
      if (v !== undefined) return { value: v, span };
    }
  }
  return undefined;
}

/** Whether a text parameter is the city or the state of an address (a state by its description: not an issue's `state`). */
function addressPart(box: OfflineToolbox, p: Param): "city" | "state" | undefined {
  if (schemaType(p.schema) !== "string" || enumOf(p.schema) !== undefined) return undefined;
  const key = normalizeKey(box, p.name);
  if (key === "city" || key === "cityname" || key === "town" || key === "locality") return "city";
  if ((key === "state" || key === "statecode" || key === "province") && /\b(territory|province|abbreviation|address|u\.?s\.? state)\b/i.test(p.description)) return "state";
  return undefined;
}

function leadPattern(words: readonly string[], after: string): RegExp {
  const alt = [...words].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/'/g, "'?").replace(/ +/g, "\\s+")).join("|");
  return new RegExp(`^(?:${alt})\\b${after}`, "i");
}

const OPENER = leadPattern(REPLY_OPENERS, "[,!.:]?\\s*");
const LEAD = leadPattern(REPLY_LEADS, "\\s+");
const LABEL = /^[A-Za-z][\w ]{0,30}:\s+(?=\S)/;
const THE_X_IS = /^(?:the|my|our)\s+(?:[\w-]+\s+){0,3}?(?:is|are|should be|would be|will be)\s+/i;

/** A reply cleaned of its framing ("Sure, it's Paris." -> "Paris"). */
export function cleanReply(text: string): string {
  let t = text.trim();
  for (let i = 0; i < 3; i++) {
    const before = t;
    t = t.replace(OPENER, "");
    t = t.replace(LABEL, "");
    t = t.replace(LEAD, "");
    t = t.replace(THE_X_IS, "");
    if (t === before) break;
  }
  t = t.replace(/[.!\s]+$/, "").trim();
  t = t.replace(/^["“'](.*)["”']$/, "$1").trim();
  return t;
}
