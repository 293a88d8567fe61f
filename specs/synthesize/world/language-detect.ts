/**
 * What language a short text is in, from its script and its most common words: enough for a simulated
 * language detection (or a translation's detected source) to name the text's own language. Undefined when
 * the text does not say.
 */

const SCRIPTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u3040-\u30ff]/, "ja"],
  [/[\uac00-\ud7af]/, "ko"],
  [/[\u4e00-\u9fff]/, "zh"],
  [/[\u0e00-\u0e7f]/, "th"],
  [/[\u0900-\u097f]/, "hi"],
  [/[\u0590-\u05ff]/, "he"],
  [/[\u0600-\u06ff]/, "ar"],
  [/[\u0370-\u03ff]/, "el"],
  [/[іїєґ]/i, "uk"],
  [/[\u0400-\u04ff]/, "ru"],
];

const WORDS: Readonly<Record<string, readonly string[]>> = {
  en: ["the", "and", "is", "are", "you", "to", "of", "where", "please", "what", "how", "i", "my", "this", "thank", "would", "like", "can", "have", "bill", "check"],
  es: ["el", "la", "los", "las", "que", "y", "es", "dónde", "donde", "por", "favor", "gracias", "cuánto", "una", "está", "hola", "quiero", "cuenta", "necesito", "puede"],
  fr: ["le", "les", "des", "et", "est", "où", "je", "vous", "merci", "s'il", "plaît", "une", "bonjour", "l'addition", "voudrais", "c'est", "combien", "pouvez", "avez"],
  de: ["der", "die", "das", "und", "ist", "ich", "nicht", "bitte", "danke", "wo", "gern", "gerne", "ein", "eine", "hätte", "möchte", "rechnung", "sie", "wie", "viel"],
  it: ["il", "di", "che", "è", "dov'è", "grazie", "per", "favore", "sono", "ciao", "questo", "quanto", "vorrei", "conto", "costa", "gli", "della"],
  pt: ["o", "os", "não", "obrigado", "obrigada", "onde", "fica", "um", "você", "está", "olá", "quanto", "custa", "conta", "gostaria", "por", "favor", "é"],
  nl: ["het", "een", "en", "niet", "ik", "waar", "alstublieft", "dank", "bedankt", "van", "is", "de", "rekening", "graag", "hoeveel", "kost"],
  sv: ["och", "är", "jag", "inte", "var", "tack", "det", "ett", "på", "vill", "notan", "kostar"],
  da: ["og", "er", "jeg", "ikke", "hvor", "tak", "det", "et", "på", "vil", "gerne", "regningen"],
  no: ["og", "er", "jeg", "ikke", "hvor", "takk", "det", "et", "på", "vil", "gjerne", "regningen"],
  pl: ["i", "jest", "nie", "gdzie", "dziękuję", "proszę", "czy", "to", "jak", "ile", "rachunek", "poproszę"],
  tr: ["ve", "bir", "bu", "nerede", "teşekkürler", "lütfen", "ne", "kadar", "hesap", "istiyorum"],
};

const LETTERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/[ãõ]/i, "pt"],
  [/[ñ¿¡]/i, "es"],
  [/ß/i, "de"],
  [/[ąęłńśźż]/i, "pl"],
  [/[ğış]/i, "tr"],
  [/[ø]/i, "no"],
  [/[å]/i, "sv"],
];

/** The ISO 639-1 code of the language a text is written in, if its script or its words say so. */
export function detectLanguage(text: string): string | undefined {
  for (const [re, code] of SCRIPTS) if (re.test(text)) return code;
  const tokens = text.toLowerCase().replace(/[’]/g, "'").split(/[^\p{L}']+/u).filter((t) => t !== "");
  if (tokens.length === 0) return undefined;
  const scores = new Map<string, number>();
  for (const [code, words] of Object.entries(WORDS)) {
    const set = new Set(words);
    let n = 0;
    for (const t of tokens) if (set.has(t) || (t.includes("'") && set.has(t.split("'")[0] + "'"))) n++;
    if (n > 0) scores.set(code, n);
  }
  for (const [re, code] of LETTERS) if (re.test(text)) scores.set(code, (scores.get(code) ?? 0) + 1.5);
  const ranked = [...scores].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (best === undefined || (second !== undefined && second[1] === best[1])) return undefined;
  return best[0];
}

/** Languages written in a script of their own (not the Latin alphabet). */
const SCRIPT_LANGUAGES = new Set(SCRIPTS.map(([, code]) => code));

/**
 * Whether a text is written in a language (an ISO 639-1 code, or a tag: `pt-BR`): false when its words or its
 * script say another (a Spanish sentence, or a Latin-alphabet text for Japanese), undefined when it cannot tell.
 */
export function writtenIn(text: string, language: string): boolean | undefined {
  const into = language.slice(0, 2).toLowerCase();
  if (text.trim().length < 2 || /^[a-z]{2,3}([-_][A-Za-z]{2,4})?$/.test(text)) return undefined;
  const said = detectLanguage(text);
  // Japanese writes Chinese characters too.
  if (said !== undefined) return said === into || (said === "zh" && into === "ja");
  if (SCRIPT_LANGUAGES.has(into) && /\p{L}/u.test(text) && !/[^\u0000-\u024f\s\p{P}\p{N}]/u.test(text)) return false;
  return undefined;
}
