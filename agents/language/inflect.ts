import nlp from "compromise/two";
import { isPlural, plural, singular } from "../../specs/words.js";

/*
 * Word forms from `compromise` (its lexicon of about 25,000 words with their parts of speech, and its verb
 * conjugation) and `pluralize` (singular and plural, through `specs/words.ts`): lemmas for matching requests to
 * tools ("created", "creating" and "creates" meet "create"; "news" stays "news"), past tenses and -ing forms for
 * sentences, and phrasal verbs ("go ahead", "look up").
 */

export { isPlural, plural, singular };

interface CompromiseModel {
  one: { lexicon: Record<string, string | string[] | undefined> };
}

interface CompromiseMethods {
  two: {
    transform: {
      verb: {
        toInfinitive(word: string, model: CompromiseModel, tense: "PastTense" | "Gerund" | "PresentTense"): string;
        conjugate(verb: string, model: CompromiseModel): { Infinitive?: string; PastTense?: string; PresentTense?: string; Gerund?: string };
      };
    };
  };
}

const MODEL = nlp.model() as CompromiseModel;
const METHODS = nlp.methods() as CompromiseMethods;
const LEXICON = MODEL.one.lexicon;

/** The tags `compromise`'s lexicon gives a word or phrase (`news` -> Uncountable, `went` -> PastTense, `go ahead` -> PhrasalVerb). */
export function lexiconTags(word: string): readonly string[] {
  const t = LEXICON[word.toLowerCase()];
  return t === undefined ? [] : typeof t === "string" ? [t] : t;
}

function toInfinitive(word: string, tense: "PastTense" | "Gerund" | "PresentTense"): string {
  const out = METHODS.two.transform.verb.toInfinitive(word, MODEL, tense);
  return out === "" ? word : out;
}

/**
 * The dictionary form of a word, lower case: plurals singular (`elections` -> `election`), verb forms
 * infinitive (`created`, `creating` -> `create`; `went` -> `go`; `bookings` -> `book`); uncountable nouns,
 * adjectives and words it does not know stay as they are (`news`, `pending`, `morning`). Pure; callers that
 * repeat words keep their own memo.
 */
export function lemma(word: string): string {
  const w = word.toLowerCase();
  if (w.length < 3) return w;
  const tags = lexiconTags(w);
  if (tags.includes("PastTense")) return toInfinitive(w, "PastTense");
  if (tags.includes("Gerund")) return toInfinitive(w, "Gerund");
  if (tags.includes("PresentTense") && !tags.includes("Infinitive") && w.endsWith("s")) return toInfinitive(w, "PresentTense");
  if (tags.includes("Plural")) return lemmaOfSingular(singular(w));
  if (tags.length > 0) return tags.includes("Adjective") && w.length > 4 && w.endsWith("ed") ? toInfinitive(w, "PastTense") : w;
  if (w.length > 5 && w.endsWith("ing")) return toInfinitive(w, "Gerund");
  if (w.length > 4 && w.endsWith("ed")) return toInfinitive(w, "PastTense");
  if (w.endsWith("s")) return lemmaOfSingular(singular(w));
  return w;
}

/** A singular noun that is also an -ing form (`settings` -> `setting` -> `set`) meets its verb. */
function lemmaOfSingular(w: string): string {
  return lexiconTags(w).includes("Gerund") ? toInfinitive(w, "Gerund") : w;
}

/** Whether a word is a past tense or participle ("placed", "made"): it describes, it does not ask. */
export function isPastForm(word: string): boolean {
  const w = word.toLowerCase();
  if (w.length > 4 && w.endsWith("ed")) return true;
  return lexiconTags(w).includes("PastTense");
}

/** Whether `compromise` knows two words as a phrasal verb (`go ahead`, `look up`, `set up`, `sign in`). */
export function isPhrasalVerb(verb: string, particle: string): boolean {
  return lexiconTags(`${lemma(verb)} ${particle.toLowerCase()}`).includes("PhrasalVerb");
}

/** The forms of a verb: infinitive, past tense, third person, -ing form (`cancel` -> cancelled, cancels, cancelling). */
export function verbForms(verb: string): { infinitive: string; past: string; present: string; gerund: string } {
  const v = verb.toLowerCase();
  const c = METHODS.two.transform.verb.conjugate(v, MODEL);
  return { infinitive: c.Infinitive ?? v, past: c.PastTense ?? `${v}ed`, present: c.PresentTense ?? `${v}s`, gerund: c.Gerund ?? `${v}ing` };
}

/** The past tense of a verb (`withdraw` -> withdrew, `cancel` -> cancelled). */
export function pastTense(verb: string): string {
  return verbForms(verb).past;
}

/** The -ing form of a verb (`get` -> getting, `create` -> creating). */
export function gerund(verb: string): string {
  return verbForms(verb).gerund;
}
