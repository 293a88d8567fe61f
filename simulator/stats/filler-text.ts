import { en } from "@faker-js/faker";

/**
 * Filler: a short lowercase phrase of dictionary words that says nothing ("roasted gosh", "ew ack nor",
 * "brightly our"), the trace of a generator that picked random words for a field whose meaning it did not
 * know. A reader drops an example holding one. Judged by the words alone: every word is in faker's English
 * word lists, and the phrase has an interjection or an -ly adverb, or ends on a word that cannot end a phrase
 * (a conjunction, a preposition, a pronoun).
 */

const lists = en.word ?? {};
const ALL = new Set<string>(Object.values(lists).flat() as string[]);
const INTERJECTIONS = new Set<string>((lists.interjection ?? []) as string[]);
const DANGLING = new Set<string>([...((lists.conjunction ?? []) as string[]), ...((lists.preposition ?? []) as string[]), "our", "their", "his", "her", "its", "my", "your", "the", "a", "an"]);
const ADVERBS = new Set<string>((lists.adverb ?? []) as string[]);
const CONJUNCTIONS = new Set<string>((lists.conjunction ?? []) as string[]);

/** Whether a string is a phrase a reader could judge (two to six lowercase words, nothing else). */
export function isPhrase(text: string): boolean {
  return /^[a-z]+(?: [a-z]+){1,5}$/.test(text);
}

/** Whether a phrase is filler (see above). */
export function isFiller(text: string): boolean {
  if (!isPhrase(text)) return false;
  const words = text.split(" ");
  if (!words.every((w) => ALL.has(w))) return false;
  const last = words[words.length - 1] as string;
  return words.some((w) => INTERJECTIONS.has(w) || (ADVERBS.has(w) && w.endsWith("ly"))) || DANGLING.has(last) || CONJUNCTIONS.has(words[0] as string);
}

/** The phrases of a value (strings anywhere in it), each with its field and whether it is filler. */
export function phrasesOf(value: unknown, out: Array<{ field: string; value: string; filler: boolean }> = [], field = "", depth = 0): Array<{ field: string; value: string; filler: boolean }> {
  if (depth > 12) return out;
  if (typeof value === "string") {
    if (isPhrase(value)) out.push({ field, value, filler: isFiller(value) });
  } else if (Array.isArray(value)) value.forEach((v) => phrasesOf(v, out, field, depth + 1));
  else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) phrasesOf(v, out, k, depth + 1);
  return out;
}
