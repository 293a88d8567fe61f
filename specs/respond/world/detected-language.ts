import { detectLanguage } from "../../synthesize/world/language-detect.js";
import { translatePhrase } from "../../synthesize/world/world-phrases.js";
import { isObject, pointerSegment, type Json } from "../../json-object.js";

/**
 * A detected language is the language of the text sent: a detection answers, text by text, what each text is
 * written in (`"Dov'è il museo?"` -> `it`), and a translation's detected source is its text's language. A
 * translation of a sentence the phrasebook holds is that sentence in the target language.
 */

/** Writes a value where it is (the caller records it so that it can be undone). */
export type LanguageWrite = (holder: Json, key: string, pointer: string, value: unknown) => void;

const DETECTED = /^detected_?(source_?)?lang(uage)?(_?code)?$/i;
const LANGUAGE = /^(lang|language|language_?code|lang_?code|detected_?(source_?)?lang(uage)?(_?code)?)$/i;

/** The texts a call sends: `texts`, else `text`, `q`, `content` or `input` (a string or a list of them). */
function textsOf(args: Json): string[] {
  for (const k of ["texts", "text", "q", "content", "input", "sentences"]) {
    const v = args[k];
    if (typeof v === "string" && v.trim() !== "") return [v];
    if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string")) return v as string[];
  }
  return [];
}

function sameForm(current: unknown, code: string): string {
  return typeof current === "string" && /^[A-Z]{2}$/.test(current) ? code.toUpperCase() : code;
}

/** Whether a call sends texts whose language (or translation) its answer names: a detection's or a translation's. */
export function sendsTexts(toolName: string, args: Json): boolean {
  return /detect|identif|recogni|translat|language/i.test(toolName) && textsOf(args).length > 0;
}

/**
 * Sets the languages an answer detects to the languages of the call's texts, where the texts say (a tool that
 * `detects` has its `language` fields set; any other only its `detected...` ones).
 */
export function agreeDetectedLanguage(toolName: string, args: Json, body: unknown, write: LanguageWrite): void {
  const texts = textsOf(args);
  if (texts.length === 0) return;
  const detects = /detect|identif|recogni/i.test(toolName);
  const keyOf = (o: Json): string | undefined => Object.keys(o).find((k) => (detects ? LANGUAGE : DETECTED).test(k) && (typeof o[k] === "string" || (o[k] === null && DETECTED.test(k))));
  const target = [args["target"], args["targetLanguage"], args["target_lang"], args["to"]].find((x): x is string => typeof x === "string");
  const fix = (o: Json, pointer: string, text: string | undefined): void => {
    const at = (k: string): string => `${pointer}/${pointerSegment(k)}`;
    const phrase = text !== undefined && target !== undefined ? translatePhrase(text, target) : undefined;
    // The translated text itself, where the phrasebook has it.
    const textKey = Object.keys(o).find((k) => /^(text|translated_?text|translation)$/i.test(k) && typeof o[k] === "string");
    if (!detects && phrase?.text !== undefined && textKey !== undefined && o[textKey] !== phrase.text) write(o, textKey, at(textKey), phrase.text);
    const key = keyOf(o);
    const code = phrase?.source ?? (text !== undefined ? detectLanguage(text) : undefined);
    if (key === undefined || code === undefined || (typeof o[key] === "string" && (o[key] as string).slice(0, 2).toLowerCase() === code)) return;
    write(o, key, at(key), sameForm(o[key], code));
  };
  const visit = (v: unknown, pointer: string, depth: number): void => {
    if (depth > 4) return;
    if (Array.isArray(v)) {
      const records = v.filter(isObject);
      // One answer per text, in order; or candidates for one text (the first is the best).
      if (records.length === v.length && records.length > 0 && records.some((r) => keyOf(r) !== undefined || (target !== undefined && Object.keys(r).some((k) => /^(text|translated_?text|translation)$/i.test(k))))) {
        if (records.length === texts.length) records.forEach((r, i) => fix(r, `${pointer}/${i}`, texts[i]));
        else if (texts.length === 1 && records[0]) fix(records[0], `${pointer}/0`, texts[0]);
        return;
      }
      v.forEach((x, i) => visit(x, `${pointer}/${i}`, depth + 1));
      return;
    }
    if (!isObject(v)) return;
    if (keyOf(v) !== undefined && texts.length === 1) fix(v, pointer, texts[0]);
    for (const [k, x] of Object.entries(v)) {
      const at = `${pointer}/${pointerSegment(k)}`;
      // One answer per text: a list of translations or detections as long as the texts sent.
      // (`translations` and `detections` even for one text: two detections of one text read as two texts.)
      if (Array.isArray(x) && (texts.length > 1 || /^(translations|detections)$/i.test(k)) && x.length > 0 && x.length !== texts.length && /^(translations|detections|results|data)$/i.test(k) && x.every(isObject)) {
        const items = texts.map((_, i) => structuredClone(x[Math.min(i, x.length - 1)]));
        write(v, k, at, items);
        visit(items, at, depth + 1);
        continue;
      }
      if (typeof x === "object" && x !== null) visit(x, at, depth + 1);
      // Characters billed are the characters sent.
      else if (typeof x === "number" && /^characters(_?billed|_?count)?$|^billed_?characters$/i.test(k)) {
        const sent = texts.reduce((n, t) => n + [...t].length, 0);
        if (x !== sent) write(v, k, at, sent);
      }
    }
  };
  visit(body, "", 0);
}
