import { writtenIn } from "../../synthesize/world/language-detect.js";
import { isObject, pointerSegment, type Json } from "../../json-object.js";
import type { LanguageWrite } from "./detected-language.js";

/**
 * Texts an answer gives in the call's target language are in it: the translations and examples of a list whose
 * text is in another language (a Spanish example for a Japanese dictionary entry) are left out, as the world
 * knows no better text for them.
 */

export const TARGET_ARGS: readonly string[] = ["target", "targetLanguage", "target_language", "targetLang", "target_lang", "to", "tl"];
/** Lists of translated texts, and the field of an item that holds its text in the target language. */
const LISTS: Readonly<Record<string, readonly string[]>> = {
  translations: ["text", "translatedText", "translated_text", "translation"],
  translation: ["text", "translatedText"],
  examples: ["target", "translation", "translatedText"],
};

/** The language a call translates into (`target: ja`, `to: pt-BR`), when it names one. */
export function targetLanguageOf(args: Json): string | undefined {
  for (const k of TARGET_ARGS) {
    const v = args[k];
    if (typeof v === "string" && /^[a-z]{2,3}([-_][A-Za-z]{2,4})?$/i.test(v)) return v;
  }
  return undefined;
}

/** The word or text an answer is about (`word`, `term`, `text`...), if it names one at its top. */
export function lookedUp(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const key = ["word", "term", "text", "query", "q", "lemma", "headword"].find((k) => typeof body[k] === "string");
  return key === undefined ? undefined : (body[key] as string);
}

/**
 * Leaves out of an answer's translation lists the items whose text is not in `target` (each list written
 * once); all of them when the answer is about another word than the one its texts were written for
 * (`otherWord`: a binding renamed the example's `bank` to `avocat`, whose translations the world does not know).
 */
export function keepTargetLanguage(target: string, body: unknown, write: LanguageWrite, otherWord = false, at = "", depth = 0): void {
  if (depth > 8) return;
  if (Array.isArray(body)) {
    body.forEach((item, i) => keepTargetLanguage(target, item, write, otherWord, `${at}/${i}`, depth + 1));
    return;
  }
  if (!isObject(body)) return;
  for (const [key, value] of Object.entries(body)) {
    const pointer = `${at}/${pointerSegment(key)}`;
    const fields = LISTS[key];
    if (fields !== undefined && Array.isArray(value)) {
      const kept = otherWord ? [] : value.filter((item) => {
        if (!isObject(item)) return typeof item !== "string" || writtenIn(item, target) !== false;
        const field = fields.find((f) => typeof item[f] === "string");
        return field === undefined || writtenIn(item[field] as string, target) !== false;
      });
      if (kept.length < value.length) write(body, key, pointer, kept);
    }
    if (typeof body[key] === "object" && body[key] !== null) keepTargetLanguage(target, body[key], write, otherWord, pointer, depth + 1);
  }
}
