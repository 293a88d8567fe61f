import type { Json } from "../../json-object.js";
import { snakeName } from "../../snake-name.js";
import { COUNTRIES, countryCode, findCountry, isLanguage } from "./world-data.js";
import { pinnedValue, set, type Ctx } from "./coherence-context.js";

/**
 * A record of a country and a language (a news source, a station, a market) speaks a language of its country: a
 * source a call asked for in Hebrew is an Israeli one, not a British daily with `language: he`. The side the call
 * asked for stays; the other follows it (a country asked gets its main language, a language asked a country of it).
 * Countries of several languages (Canada, Switzerland, Belgium, India...) keep any of theirs.
 */

/** Languages of countries that have more than their main one. */
const MORE_LANGUAGES: Readonly<Record<string, readonly string[]>> = {
  CA: ["fr"], CH: ["fr", "it", "rm"], BE: ["fr", "de"], IN: ["en", "bn", "te", "ta", "mr"], LU: ["fr", "de"], SG: ["zh", "ms", "ta"],
  ZA: ["af", "zu", "xh"], IE: ["ga"], FI: ["sv"], ES: ["ca", "eu", "gl"], US: ["es"], NZ: ["mi"], PH: ["tl"], KE: ["sw"], NG: ["ha", "yo", "ig"],
  IL: ["ar", "en"], MA: ["fr"], DZ: ["fr"], TN: ["fr"], LB: ["fr"], PK: ["en"], MY: ["en"], HK: ["en"], GB: ["cy"],
};

/** The languages (ISO 639-1) of a country by its alpha-2 code. */
export function languagesOf(alpha2: string): readonly string[] {
  const main = findCountry(alpha2)?.language;
  return [...(main !== undefined ? [main] : []), ...(MORE_LANGUAGES[alpha2] ?? [])];
}

/** The most populous country whose main language is this one (undefined for one no country of the table speaks first). */
export function countryOfLanguage(language: string): string | undefined {
  let best: { alpha2: string; population: number } | undefined;
  for (const c of COUNTRIES) if (c.language === language && (best === undefined || c.population > best.population)) best = { alpha2: c.alpha2, population: c.population };
  return best?.alpha2;
}

/** A record's keys of its language and its country, when it has both. */
export function countryLanguageKeys(keys: readonly string[]): { language: string; country: string } | undefined {
  const bySnake = new Map(keys.map((k) => [snakeName(k), k]));
  const language = bySnake.get("language") ?? bySnake.get("lang") ?? bySnake.get("language_code");
  const country = bySnake.get("country") ?? bySnake.get("country_code");
  return language !== undefined && country !== undefined ? { language, country } : undefined;
}

/** Whether a record's language is one of its country's (undefined when either is not one the world knows). */
export function speaksCountryLanguage(o: Json, keys: { language: string; country: string }): boolean | undefined {
  const l = o[keys.language];
  const c = o[keys.country];
  if (typeof l !== "string" || typeof c !== "string" || !/^[a-z]{2}([-_][A-Za-z]{2})?$/i.test(l) || !isLanguage(l)) return undefined;
  const code = countryCode(c);
  if (code === undefined || findCountry(code) === undefined) return undefined;
  return languagesOf(code).includes(l.slice(0, 2).toLowerCase());
}

/** Makes a record's language and country agree, the side the call asked for staying (see above). */
export function cohereCountryLanguage(ctx: Ctx, o: Json, at: string, keys: { language: string; country: string }): void {
  if (speaksCountryLanguage(o, keys) !== false) return;
  const l = (o[keys.language] as string).slice(0, 2).toLowerCase();
  const c = o[keys.country] as string;
  const languageAsked = pinnedValue(ctx, o, keys.language, at) !== undefined;
  const countryAsked = pinnedValue(ctx, o, keys.country, at) !== undefined;
  if (languageAsked && countryAsked) return;
  // A record as the spec's examples show it (an English outlet of Qatar) is changed only where the call asked.
  if (ctx.pinnedOnly && !languageAsked && !countryAsked) return;
  if (!languageAsked) {
    // The country stays (asked, or drawn with the rest of the record): its main language.
    const main = findCountry(countryCode(c) ?? "")?.language;
    if (main !== undefined) set(ctx, o, keys.language, main, at);
    return;
  }
  const country = countryOfLanguage(l);
  const row = country !== undefined ? findCountry(country) : undefined;
  if (row === undefined) return;
  // Written as the record writes countries: a code of its length, or a name.
  set(ctx, o, keys.country, /^[A-Z]{2}$/.test(c) ? row.alpha2 : /^[A-Z]{3}$/.test(c) ? row.alpha3 : row.name, at);
}
