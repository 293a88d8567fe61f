import { identifierWords, isIdName, singular } from "../../specs/words.js";

/*
 * Word lists of the lexicon turned into expressions anchored to whole words, and rules that match parameter names
 * by their words (never by a substring: `sortBy` is no `by`, `authorization` no `author`, `timezone` no `time`).
 */

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One entry of a word list as a pattern: spaces match any whitespace; entries may be patterns already (`\d[\d.,]*`). */
function entryPattern(entry: string, raw: boolean): string {
  const body = raw ? entry : escapeRegExp(entry);
  return body.replace(/ +/g, "\\s+");
}

function alternation(words: readonly string[], raw = false): string {
  return [...words].sort((a, b) => b.length - a.length).map((w) => entryPattern(w, raw)).join("|");
}

/**
 * The words or phrases as the body of an alternation (escaped, longest first, spaces as `\\s+`), for patterns that
 * put words of the lexicon in a larger shape (`^(?:use|call)\\s+(?:the\\s+)?`).
 */
export function wordsPattern(words: readonly string[]): string {
  return alternation(words);
}

/** Any of the words or phrases, as whole words (`\b(?:look up|find)\b`, case-insensitive). */
export function anyWord(words: readonly string[], flags = "i"): RegExp {
  return new RegExp(`\\b(?:${alternation(words)})\\b`, flags);
}

/** One of the words (or patterns) just before the end of a text, then spaces and an optional "the" (`... in the `). */
export function wordBeforeEnd(words: readonly string[], options: { raw?: boolean; article?: boolean } = {}): RegExp {
  const article = options.article === false ? "" : "(?:the\\s+)?";
  return new RegExp(`\\b(?:${alternation(words, options.raw)})\\s+${article}$`);
}

/** One of the words or phrases at the very end of a text, after a word boundary (`... at least`). */
export function wordAtEnd(words: readonly string[]): RegExp {
  return new RegExp(`\\b(?:${alternation(words)})\\s*$`);
}

/** A text that starts with one of the words or phrases, then a word boundary (`^(?:the|my)\b`); `raw` entries are patterns. */
export function wordAtStart(words: readonly string[], flags = "i", raw = false): RegExp {
  return new RegExp(`^(?:${alternation(words, raw)})\\b`, flags);
}

/** A text that starts with one of the words or phrases, then a space (`^(?:a|an)\s`: "an apple", not "another"). */
export function wordThenSpace(words: readonly string[], flags = "i"): RegExp {
  return new RegExp(`^(?:${alternation(words)})\\s`, flags);
}

/**
 * Any of the stems anywhere in a text, not anchored (`currenc` meets "currency" and "currencies"): for stems of
 * words that match their inflections; whole words take {@link anyWord}.
 */
export function anyStem(stems: readonly string[], flags = ""): RegExp {
  return new RegExp(alternation(stems), flags);
}

/** A text that starts with one of the stems (`partial` meets "partially"). */
export function stemAtStart(stems: readonly string[], flags = ""): RegExp {
  return new RegExp(`^(?:${alternation(stems)})`, flags);
}

/** A text that ends with one of the endings (`-tion`, `lookup`). */
export function endsWithAny(endings: readonly string[], flags = "i"): RegExp {
  return new RegExp(`(?:${alternation(endings)})$`, flags);
}

/** The whole text is one of the words (`^(?:name|title)$`, case-insensitive unless `flags` says otherwise). */
export function wholeWord(words: readonly string[], flags = "i"): RegExp {
  return new RegExp(`^(?:${alternation(words)})$`, flags);
}

/**
 * Which parameter names a rule is about, by whole words (never substrings): `names` (the whole name without
 * separators, `basecurrency`, or any one of its words, singular: `baseCurrency`, `daysAhead`), `only` (the whole
 * name alone: `by` is no `sortBy`), `head` (its last word: `reminderText` -> `text`); `notIds`: never a name of an
 * identifier (`authorId` takes no author's name).
 */
export interface NameRule {
  names?: readonly string[];
  only?: readonly string[];
  head?: readonly string[];
  notIds?: boolean;
}

/** The words of a name as rules read them (computed once per name by callers that repeat). */
export interface NameWords {
  /** Lower case, without separators (`base_currency` -> `basecurrency`). */
  key: string;
  /** The words, lower case, and their singulars (`daysAhead` -> `days`, `day`, `ahead`). */
  words: readonly string[];
  /** The last word, singular. */
  head: string;
  /** Whether the name names an identifier (its last word is `id`...). */
  isId: boolean;
}

/** The words of a parameter name for {@link nameMatches}. */
export function nameWords(name: string): NameWords {
  const raw = identifierWords(name);
  const words = [...new Set(raw.flatMap((w) => [w, singular(w)]))];
  const head = singular(raw[raw.length - 1] ?? "");
  return { key: name.toLowerCase().replace(/[^a-z0-9]/g, ""), words, head, isId: isIdName(name) };
}

/** Whether a name matches a rule (see {@link NameRule}). */
export function nameMatches(rule: NameRule, name: NameWords): boolean {
  if (rule.notIds === true && name.isId) return false;
  if (rule.only?.includes(name.key)) return true;
  if (rule.names && (rule.names.includes(name.key) || name.words.some((w) => rule.names?.includes(w)))) return true;
  if (rule.head?.includes(name.head)) return true;
  return false;
}
