import { pointerSegment, isObject, type Json } from "../../json-object.js";
import { snakeName } from "../../snake-name.js";
import { isLanguage } from "./world-data.js";
import { primaryLanguage, termLanguages, termOf } from "./world-terms.js";
import { pinnedValue, set, type Ctx } from "./coherence-context.js";

/**
 * A record between two languages (a glossary: `source: en`, `target: de`, entries `{source: ticket, target:
 * Vorgang}`) says the languages its entries are in. Entries the world's terms know are written in the languages a
 * call asked for; unasked, the languages are those the entries are in (a synthesized glossary of `ticket -> Vorgang`
 * is from English into German, not from Portuguese into Portuguese).
 */

/** Key pairs (snake case) of a record's two languages. */
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["source", "target"],
  ["source_language", "target_language"],
  ["source_lang", "target_lang"],
  ["source_language_code", "target_language_code"],
  ["from_language", "to_language"],
];

/** A record's keys of its two languages, when it has a pair of them. */
export function languagePairKeys(keys: readonly string[]): { source: string; target: string } | undefined {
  const bySnake = new Map(keys.map((k) => [snakeName(k), k]));
  for (const [s, t] of PAIRS) {
    const source = bySnake.get(s);
    const target = bySnake.get(t);
    if (source !== undefined && target !== undefined) return { source, target };
  }
  return undefined;
}

/** The entries of a record between two languages: its first list of `{source, target}` texts, with its key. */
export function pairEntries(o: Json): { key: string; items: Json[] } | undefined {
  for (const [key, v] of Object.entries(o)) {
    if (!Array.isArray(v)) continue;
    const items = v.filter((x): x is Json => isObject(x) && typeof x["source"] === "string" && typeof x["target"] === "string");
    if (items.length > 0 && items.length === v.length) return { key, items };
  }
  return undefined;
}

/** The languages every one of these words is a term of. */
function commonLanguages(words: readonly string[]): string[] {
  let common: string[] | undefined;
  for (const w of words) {
    const langs = termLanguages(w);
    common = common === undefined ? langs : common.filter((l) => langs.includes(l));
  }
  return common ?? [];
}

/** A language code written as another is (`DE` beside `EN`, `de`). */
function codeLike(current: string, language: string): string {
  if (primaryLanguage(current) === language) return current;
  return current === current.toUpperCase() ? language.toUpperCase() : language;
}

/** Makes a record's two languages and its entries agree (see above). */
export function cohereLanguagePair(ctx: Ctx, o: Json, at: string, keys: { source: string; target: string }): void {
  const s = o[keys.source];
  const t = o[keys.target];
  if (typeof s !== "string" || typeof t !== "string" || !isLanguage(s) || !isLanguage(t)) return;
  const entries = pairEntries(o);
  if (entries === undefined) return;
  const asked = pinnedValue(ctx, o, keys.source, at) !== undefined || pinnedValue(ctx, o, keys.target, at) !== undefined;
  if (asked) {
    // The entries are in the languages asked, where the world knows their term in them.
    const source = primaryLanguage(s);
    const target = primaryLanguage(t);
    entries.items.forEach((e, i) => {
      const term = termOf(e["source"] as string) ?? termOf(e["target"] as string);
      if (term === undefined) return;
      const itemAt = `${at}/${pointerSegment(entries.key)}/${i}`;
      if (term[source] !== undefined) set(ctx, e, "source", term[source], itemAt);
      if (term[target] !== undefined) set(ctx, e, "target", term[target], itemAt);
    });
    return;
  }
  const from = commonLanguages(entries.items.map((e) => e["source"] as string));
  const into = commonLanguages(entries.items.map((e) => e["target"] as string));
  const a = from.includes(primaryLanguage(s)) ? primaryLanguage(s) : from[0];
  const b = into.includes(primaryLanguage(t)) && primaryLanguage(t) !== a ? primaryLanguage(t) : (into.find((l) => l !== a) ?? into[0]);
  if (a !== undefined) set(ctx, o, keys.source, codeLike(s, a), at);
  if (b !== undefined) set(ctx, o, keys.target, codeLike(t, b), at);
}
