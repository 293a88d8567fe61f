import { identifierWords, isPlural } from "../../specs/words.js";
import { lexiconTags } from "./inflect.js";
import { BOOLEAN_FIELD_PREFIXES, BOOLEAN_SETTING } from "./lexicon/fields.js";
import { articleFor } from "./words.js";

/*
 * Clauses about a field and its value that agree with both: "the author is X", "the authors are X and Y", "the
 * units are metric", and yes/no values as words that fit the field ("the email is verified", "it is a holiday",
 * "it is in stock", "it has a pool"), never "the holiday is yes". Shared by the assistant's answers and the
 * user's words.
 */

/** `is` or `are` for a field and its value: a plural head noun or a list of several values takes `are`. */
export function beFor(field: string, value?: unknown): "is" | "are" {
  if (Array.isArray(value)) return value.length > 1 ? "are" : "is";
  const words = field.trim().split(/\s+/);
  const of = words.indexOf("of");
  const head = (of > 0 ? words[of - 1] : words[words.length - 1]) ?? "";
  return isPlural(head) ? "are" : "is";
}

const PREPOSITIONS = new Set(["in", "on", "at", "out", "off", "under", "over", "for"]);
const ADJECTIVE_ENDINGS = /(?:ed|able|ible|ive|al|ic|ous|ful|less|ing)$/;

/** Words before a noun that say how much of it, not a feature (`all_day`: it is all day, not "it has all day"). */
const QUANTIFIERS = /^(all|any|some|every|each|no|full|half|whole|multi|single|double)$/;

/** Adjectives that name a feature before its noun (`explicit_content`, `free_shipping`), which the lexicon may not tag. */
const FEATURE_ADJECTIVES = /^(explicit|free|adult|public|private|premium|dark|safe|live|express|paid|sponsored|featured|instant|direct)$/;

function isAdjectiveLike(word: string): boolean {
  const tags = lexiconTags(word);
  if (tags.includes("Adjective") || tags.includes("PastTense") || tags.includes("Participle") || tags.includes("Comparable")) return true;
  if (tags.some((t) => t === "Singular" || t === "Noun" || t === "Uncountable" || t === "Plural" || t === "Infinitive")) return false;
  return ADJECTIVE_ENDINGS.test(word);
}

function isNounLike(word: string): boolean {
  const tags = lexiconTags(word);
  if (tags.some((t) => t === "Singular" || t === "Noun" || t === "Uncountable" || t === "Plural" || t === "Duration" || t === "Date")) return true;
  return tags.length === 0 && !ADJECTIVE_ENDINGS.test(word);
}

/**
 * A yes/no field as words that fit it: `emailVerified: true` -> "the email is verified", `isOpen: false` -> "it is
 * not open", `holiday: true` -> "it is a holiday", `inStock` -> "it is in stock", `hasPool` -> "it has a pool";
 * other fields as a setting that is on or off ("the marketing opt in setting is off").
 */
export function booleanClause(path: readonly string[], value: boolean): string {
  const all = identifierWords(path[path.length - 1] ?? "");
  const prefix = BOOLEAN_FIELD_PREFIXES[all[0] ?? ""];
  const rest = prefix !== undefined && all.length > 1 ? all.slice(1) : all;
  const phrase = rest.join(" ");
  const last = rest[rest.length - 1] ?? "";
  const not = value ? "" : "not ";
  if (prefix === "has") {
    // A done thing (`has_taken_a_ride`): it has taken a ride, or not.
    if (/^(been|taken|made|done|seen|given|gotten|written|chosen|ridden|driven|[a-z]+ed)$/.test(rest[0] ?? "")) return `it has ${not}${phrase}`;
    const plural = isPlural(last);
    return value ? `it has ${plural ? "" : `${articleFor(phrase)} `}${phrase}` : `it has no ${phrase}`;
  }
  if (prefix === "can") return `it ${value ? "can" : "cannot"} ${phrase}`;
  if (PREPOSITIONS.has(rest[0] ?? "") && rest.length > 1) return `it is ${not}${phrase}`;
  // An adjective before a noun names a feature (`explicit_content`, `dark_mode`): it has it or not.
  if (rest.length === 2 && prefix === undefined && !/(ed|en)$/.test(last) && !QUANTIFIERS.test(rest[0] ?? "") && (FEATURE_ADJECTIVES.test(rest[0] ?? "") || (isAdjectiveLike(rest[0] ?? "") && isNounLike(last)))) {
    return value ? `it has ${phrase}` : `it has no ${phrase}`;
  }
  if (rest.length >= 1 && isAdjectiveLike(last)) {
    const subject = rest.slice(0, -1).join(" ");
    return `${subject === "" ? "it" : `the ${subject}`} ${isPlural(rest[rest.length - 2] ?? "") && subject !== "" ? "are" : "is"} ${not}${last}`;
  }
  if (rest.length >= 1 && isNounLike(last) && !PREPOSITIONS.has(last)) {
    return isPlural(last) ? `there are ${value ? "" : "no "}${phrase}` : `it is ${not}${articleFor(phrase)} ${phrase}`;
  }
  return `the ${all.join(" ")} ${BOOLEAN_SETTING.noun} is ${value ? BOOLEAN_SETTING.on : BOOLEAN_SETTING.off}`;
}

