import { editDistance as distance, identifierWords, isPlural, singular } from "../../specs/words.js";
import { gerund } from "./inflect.js";

/** Small English helpers for the offline agents' phrasing: words of identifiers, plurals, verb forms, lists. */

export { gerund, identifierWords, isPlural, singular };

/** An identifier as a readable phrase: `maxReadyTime` -> `max ready time`, `id` -> `ID`. */
export function humanize(name: string): string {
  return identifierWords(name)
    .map((w) => (w === "id" ? "ID" : w === "url" ? "URL" : w === "iso" ? "ISO" : w))
    .join(" ");
}

/** `is` or `are` for a noun phrase, by its head noun (the word before "of", "for", "in"... or the last one). */
export function beFor(nounPhrase: string): "is" | "are" {
  const words = nounPhrase.trim().split(/\s+/);
  const cut = words.findIndex((w, i) => i > 0 && /^(of|for|in|at|between|by|on|from|to|with|near|about)$/i.test(w));
  const head = (cut > 0 ? words[cut - 1] : words[words.length - 1]) ?? "";
  return isPlural(head) ? "are" : "is";
}

/** Turns the clause-leading verb of a verb phrase into its -ing form (`show me` -> `showing me`). */
export function gerundPhrase(verbPhrase: string): string {
  const [first, ...rest] = verbPhrase.split(" ");
  return [gerund(first ?? ""), ...rest].join(" ");
}

/** `a`, `b and c` / `a, b or c`. */
export function joinList(items: readonly string[], conjunction: "and" | "or" = "and"): string {
  if (items.length === 0) return "";
  if (items.length === 1) return items[0] as string;
  if (items.length === 2) return `${items[0]} ${conjunction} ${items[1]}`;
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

/** The base form of a third-person verb (`Returns` -> `return`, `Searches` -> `search`, `Applies` -> `apply`), lower case. */
export function baseForm(word: string): string {
  const w = word.toLowerCase();
  if (/ies$/.test(w)) return w.slice(0, -3) + "y";
  if (/(sses|ches|shes|xes|oes|zes)$/.test(w)) return w.slice(0, -2);
  if (/[^s]s$/.test(w)) return w.slice(0, -1);
  return w;
}

/** The text with its first letter in upper case. */
export function capitalize(text: string): string {
  return text.length === 0 ? text : (text[0] as string).toUpperCase() + text.slice(1);
}

/** The text with its first letter in lower case, unless it starts with an acronym or a proper-looking word. */
export function decapitalize(text: string): string {
  if (text.length < 2) return text.toLowerCase();
  if (/^[A-Z]{2}/.test(text) || /^I\b/.test(text)) return text;
  return (text[0] as string).toLowerCase() + text.slice(1);
}

/** `a` or `an` for the word that follows. */
export function articleFor(word: string): "a" | "an" {
  return /^[aeiou]/i.test(word) && !/^(uni|use|eu|one)/i.test(word) ? "an" : "a";
}

/** Tokens of free text for matching: lower-case words, plurals singular. */
export function tokens(text: string): string[] {
  return identifierWords(text).map((w) => (w.length > 3 ? singular(w) : w));
}

/** Edit distance (Levenshtein, `fastest-levenshtein`), capped: `cap + 1` once the distance exceeds `cap`. */
export function editDistance(a: string, b: string, cap = 3): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  return Math.min(cap + 1, distance(a, b));
}
