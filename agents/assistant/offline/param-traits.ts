import type { Json } from "../../../specs/json-object.js";
import { identifierWords, isIdName, singular } from "../../../specs/words.js";
import { STOP_WORDS } from "../../language/lexicon/function-words.js";
import {
  COORDINATE_WORDS,
  COUNTRY_DESCRIPTIONS,
  COUNTRY_NAMES,
  CREDENTIAL_WORDS,
  CURRENCY_WORDS,
  FREE_TEXT_NAMES,
  ID_LIKE_WORDS,
  KEY_ALIASES,
  KIND_NAME_WORDS,
  LANGUAGE_DESCRIPTIONS,
  LANGUAGE_END_NAMES,
  LANGUAGE_NAMES,
  RANGE_STARTS,
  WEAK_HEADS,
} from "../../language/lexicon/names.js";
import { VALUE_CUES } from "../../language/lexicon/value-cues.js";
import type { SpanKind } from "../../language/text-facts.js";
import { anyWord, nameMatches, nameWords, wordBeforeEnd, wordsPattern } from "../../language/word-patterns.js";
import { testPattern } from "./coerce-value.js";
import type { OfflineToolbox } from "./offline-types.js";
import { enumOf, schemaType } from "./tool-params.js";
import type { Param } from "./offline-types.js";
import type { CueRule, ParamTraits } from "./offline-types.js";
import { COUNT_WORDS } from "../../language/lexicon/verbs.js";

export type { CueRule, ParamTraits };

/*
 * What slot filling reads of a parameter, computed once per parameter object and toolbox: its words, whether it
 * is an id and of what, the cue words that point at its value, the kinds of text value it takes, the words that
 * name it in text, and how specific it is (specific parameters take their values first).
 */



/** The cue rules of the lexicon with their words-before expressions compiled once. */
const CUE_RULES = VALUE_CUES.map((cue) => ({ names: cue.names, kinds: cue.kinds, before: wordBeforeEnd(cue.before, { raw: cue.raw === true }) }));

/** A name without separators, lower case, with aliases resolved (`lat` -> `latitude`, `zip_code` -> `postalcode`). */
export function normalizeKey(box: OfflineToolbox, s: string): string {
  return box.normalizedKeys.getOrCompute(s, (x) => {
    const k = x.toLowerCase().replace(/[^a-z0-9]/g, "");
    return KEY_ALIASES[k] ?? k;
  });
}

const CREDENTIALS = new Set(CREDENTIAL_WORDS);
const ID_LIKE = new Set(ID_LIKE_WORDS);
const IDENTIFIER = anyWord(["identifier"]);

/** Whether a parameter takes an identifier: its name says so (`bookId`, `orderUUID`, `issueKey`) or its description does. */
function computeIsId(p: Param): boolean {
  const type = schemaType(p.schema);
  if (type === "object" || type === "array" || type === "boolean") return false;
  if (isIdName(p.name)) return true;
  const words = identifierWords(p.name);
  const last = words[words.length - 1] ?? "";
  if (words.length >= 2 && ID_LIKE.has(last) && !CREDENTIALS.has(words[words.length - 2] ?? "")) return true;
  return IDENTIFIER.test(p.description);
}

/** What slot filling reads of a parameter (remembered per parameter object by the toolbox). */
export function paramTraits(box: OfflineToolbox, p: Param): ParamTraits {
  let t = box.paramTraits.get(p);
  if (!t) {
    const words = box.lowerTokens(p.name);
    const named = nameWords(p.name);
    const resource = words.filter((w) => w !== "id" && w !== "ids" && w !== "uuid" && w !== "key");
    t = {
      words,
      key: normalizeKey(box, p.name),
      pathKey: p.path.join("\u0000"),
      isId: computeIsId(p),
      idResource: resource.map((w) => box.stem(w)),
      named,
      cues: CUE_RULES.filter((cue) => nameMatches(cue.names, named)).map((cue) => ({ kinds: cue.kinds, before: cue.before })),
    };
    box.paramTraits.set(p, t);
  }
  return t;
}

/** Whether a parameter takes an identifier. */
export function isIdParam(box: OfflineToolbox, p: Param): boolean {
  return paramTraits(box, p).isId;
}

/** The resource an id names: `bookId` -> `book`; a bare `id` borrows the tool's resource words. */
export function idResource(box: OfflineToolbox, p: Param, toolName: string): readonly string[] {
  const t = paramTraits(box, p);
  if (t.idResource.length > 0) return t.idResource;
  return box.toolResources.getOrCompute(toolName, (name) =>
    box
      .lowerTokens(name)
      .filter((w) => !STOP_WORDS.has(w) && !box.isVerbOrConcept(box.stem(w)) && w !== "by" && w !== "id")
      .map((w) => box.stem(w)),
  );
}

/** The kinds of text value a parameter accepts, best first. */
export function acceptedKinds(box: OfflineToolbox, p: Param): SpanKind[] {
  const t = paramTraits(box, p);
  t.kinds ??= computeKinds(box, p);
  return t.kinds;
}

const CURRENCY = anyWord(CURRENCY_WORDS);
const LANGUAGE_DESCRIPTION = anyWord(LANGUAGE_DESCRIPTIONS);
const COUNTRY_DESCRIPTION = anyWord(COUNTRY_DESCRIPTIONS);
const LANGUAGE_WORD = anyWord(["language"]);

function hasWord(words: readonly string[], list: readonly string[]): boolean {
  return words.some((w) => list.includes(w));
}

function computeKinds(box: OfflineToolbox, p: Param): SpanKind[] {
  const s = p.schema;
  const type = schemaType(s);
  const format = typeof s["format"] === "string" ? s["format"] : "";
  const words = identifierWords(p.name).map((w) => singular(w));
  const flat = normalizeKey(box, p.name);
  if (type === "integer" || type === "number" || isNumericText(p)) return ["number"];
  if (format === "date") return ["date", "datetime"];
  if (format === "date-time") return ["datetime", "date"];
  if (format === "email" || hasWord(words, KIND_NAME_WORDS.email) || /e-mail/i.test(p.name)) return ["email", "quoted"];
  if (format === "uri" || format === "url" || hasWord(words, KIND_NAME_WORDS.url)) return ["url", "quoted"];
  if (format === "time" || hasWord(words, KIND_NAME_WORDS.time)) return ["time", "quoted"];
  if (hasWord(words, KIND_NAME_WORDS.date)) return ["date", "datetime", "quoted"];
  if (isIdParam(box, p)) return ["id", "quoted", "number", "code3"];
  if (CURRENCY.test(`${words.join(" ")} ${p.description}`) || testPatternOnly(box, s, "USD")) return ["code3", "quoted"];
  const isLanguage = LANGUAGE_NAMES.includes(flat) || LANGUAGE_DESCRIPTION.test(p.description) || (LANGUAGE_END_NAMES.includes(flat) && LANGUAGE_WORD.test(p.description));
  if (isLanguage) return ["lang", "code2", "quoted"];
  if (COUNTRY_NAMES.includes(flat) || COUNTRY_DESCRIPTION.test(p.description) || testPatternOnly(box, s, "US")) return ["code2", "quoted", "proper"];
  if (FREE_TEXT_NAMES.includes(p.name.replace(/[_-]/g, "").toLowerCase())) return ["quoted", "proper"];
  return ["quoted", "proper", "id", "code3", "code2", "email"];
}

/** Whether a schema's pattern takes a sample (`USD`) but not other text: a pattern that asks for codes of that shape. */
function testPatternOnly(box: OfflineToolbox, s: Json, sample: string): boolean {
  return typeof s["pattern"] === "string" && testPattern(box, s["pattern"], sample) && !testPattern(box, s["pattern"], sample.toLowerCase() + "zz9");
}

const COUNT_OF = new RegExp(`(?:${wordsPattern(COUNT_WORDS)}) of ([a-z]+)`, "i");
const LAT = anyWord(COORDINATE_WORDS.lat.filter((w) => w !== "latitude"));
const LON = anyWord(COORDINATE_WORDS.lon.filter((w) => w !== "longitude"));

/** Words that name the parameter in text: its plain words, its name, and nouns of its description. */
export function anchorsOf(box: OfflineToolbox, p: Param): string[] {
  const t = paramTraits(box, p);
  t.anchors ??= computeAnchors(box, p);
  return t.anchors;
}

function computeAnchors(box: OfflineToolbox, p: Param): string[] {
  const out = new Set<string>();
  const words = identifierWords(p.name);
  const plain = /^q$/i.test(p.name) ? "search words" : words.join(" ") || p.name.toLowerCase();
  if (plain !== "search words") out.add(plain);
  if (p.name.length > 2) out.add(p.name.toLowerCase());
  if (isIdParam(box, p) && words.length > 1) out.add(`${words.slice(0, -1).join(" ")} number`);
  const last = words[words.length - 1];
  if (words.length > 1 && last !== undefined && last.length > 3 && !WEAK_HEADS.includes(last) && !RANGE_STARTS.includes(words[0] ?? "") && !/^(min|max)/.test(words[0] ?? "")) out.add(last);
  const m = COUNT_OF.exec(p.description);
  if (m?.[1]) out.add(m[1].toLowerCase());
  // Coordinates: "from lat" is also "from latitude".
  for (const a of [...out]) {
    if (LAT.test(a)) out.add(a.replace(LAT, "latitude"));
    if (LON.test(a)) out.add(a.replace(LON, "longitude"));
  }
  // Singulars too: "5 day forecast" names `days`.
  for (const a of [...out]) {
    const parts = a.split(" ");
    const tail = parts[parts.length - 1] ?? "";
    const one = singular(tail);
    if (one !== tail && a.length > 3) out.add([...parts.slice(0, -1), one].join(" "));
  }
  return [...out].filter((a) => a.length >= 2).sort((a, b) => b.length - a.length);
}

/** A plain string parameter without enum, format or id meaning. */
export function isFreeText(box: OfflineToolbox, p: Param): boolean {
  return schemaType(p.schema) === "string" && !enumOf(p.schema) && typeof p.schema["format"] !== "string" && !isIdParam(box, p) && typeof p.schema["pattern"] !== "string" && !isNumericText(p);
}

/** A number sent as text: a string parameter whose examples are all numbers (`amount: "500"`, in cents). */
export function isNumericText(p: Param): boolean {
  const s = p.schema;
  if (schemaType(s) !== "string") return false;
  const examples = [...(Array.isArray(s["examples"]) ? s["examples"] : []), ...(s["example"] !== undefined ? [s["example"]] : [])];
  return examples.length > 0 && examples.every((e) => typeof e === "number" || (typeof e === "string" && /^-?\d+(\.\d+)?$/.test(e)));
}

/** How specific a parameter is: enums, typed values and ids take their values before generic strings. */
export function specificity(box: OfflineToolbox, p: Param): number {
  const t = paramTraits(box, p);
  t.specificity ??= computeSpecificity(box, p);
  return t.specificity;
}

/** How specific a parameter is, by what it takes (one record: every weight of the order in which parameters take values). */
export const SPECIFICITY_WEIGHTS = {
  enum: 6,
  typedValue: 5,
  id: 4,
  code: 3,
  number: 2,
  required: 1,
  nested: -1,
} as const;

function computeSpecificity(box: OfflineToolbox, p: Param): number {
  const W = SPECIFICITY_WEIGHTS;
  const kinds = acceptedKinds(box, p);
  let s = 0;
  if (enumOf(p.schema)) s += W.enum;
  if (kinds[0] === "email" || kinds[0] === "url" || kinds[0] === "datetime" || kinds[0] === "date" || kinds[0] === "time") s += W.typedValue;
  if (isIdParam(box, p)) s += W.id;
  if (kinds[0] === "code3" || kinds[0] === "code2" || kinds[0] === "lang") s += W.code;
  if (kinds[0] === "number") s += W.number;
  if (p.required) s += W.required;
  if (p.path.length > 1) s += W.nested;
  return s;
}
