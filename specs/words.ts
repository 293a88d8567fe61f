import { distance } from "fastest-levenshtein";
import pluralize from "pluralize";

/*
 * The words of names, shared by every part of toolsim (specs, toolsets and agents): the words of an identifier,
 * singular and plural (`pluralize`, which knows "news", "series", "analyses", "people"), edit distance
 * (`fastest-levenshtein`) and whether a name names an identifier. Richer English (lemmas, parts of speech, dates
 * in text) is in `agents/language/`.
 */

/** The words of an identifier, lower case: `maxReadyTime` / `country_code` / `Accept-Language` -> `["max", "ready", "time"]`. */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

/** Words `pluralize` would wrongly make singular (`as` -> `a`, `its` -> `it`, `gps` -> `gp`, `data` -> `datum`). */
const NOT_PLURAL = new Set(["data", "metadata", "as", "is", "us", "its", "has", "was", "does", "yes", "this", "thus", "plus", "bus", "gas", "gps", "sms", "ios", "dns", "aws", "os"]);

/** The singular of an English noun (`recipes` -> `recipe`, `companies` -> `company`, `news` -> `news`), case kept where it can be. */
export function singular(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length < 3 || NOT_PLURAL.has(lower) || /(ss|us|is|ous)$/.test(lower)) return word;
  const out = pluralize.singular(word);
  return out === "" ? word : out;
}

/** The plural of an English noun (`reply` -> `replies`, `status` -> `statuses`, `news` -> `news`). */
export function plural(word: string): string {
  return pluralize.plural(word);
}

/** Whether a noun is plural (`recipes`, `facts`, `people`) rather than singular or uncountable (`forecast`, `news`, `status`, `data`). */
export function isPlural(word: string): boolean {
  const lower = word.toLowerCase();
  if (lower.length < 3 || NOT_PLURAL.has(lower) || /(ss|us|is|ous)$/.test(lower)) return false;
  // Uncountable nouns (`news`, `information`, `series`) take a singular verb.
  if (pluralize.isPlural(lower) && pluralize.isSingular(lower)) return false;
  return pluralize.isPlural(lower);
}

/** Edit distance (Levenshtein) between two strings, case-insensitive. */
export function editDistance(a: string, b: string): number {
  return distance(a.toLowerCase(), b.toLowerCase());
}

/** How alike two texts are, 0-1: 1 minus their edit distance over the longer length. */
export function similarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - editDistance(a, b) / longer;
}

/** The last words of identifiers that name an identifier (`bookId`, `order_id`, `uuid`, `trackIds`, `orderGUID`). */
export const ID_WORDS: ReadonlySet<string> = new Set(["id", "ids", "uuid", "uuids", "guid", "guids"]);

/** Whether an argument or field name names an identifier (`id`, `bookId`, `book_id`, `orderUUID`, `trackIds`). */
export function isIdName(name: string): boolean {
  const words = identifierWords(name);
  return ID_WORDS.has(words[words.length - 1] ?? "");
}

/** The words an id name points at (`recipeId` -> `recipe`, `order_item_id` -> `order item`), empty for a bare `id`. */
export function idNoun(name: string): string {
  const words = identifierWords(name);
  return ID_WORDS.has(words[words.length - 1] ?? "") ? words.slice(0, -1).join(" ") : "";
}
