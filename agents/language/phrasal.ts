import { isPhrasalVerb, verbForms } from "./inflect.js";
import { COURTESY_PHRASES } from "./lexicon/function-words.js";
import { IDIOMS, PHRASAL_VERBS, SENSE_DETERMINERS, VERB_SENSES } from "./lexicon/verbs.js";

/*
 * Verbs of more than one word, read as the operation they name before a text is indexed or searched: "look up"
 * is a read, "set up" a create, "sign me in" a login; "place an order" creates one and "book a table" reserves
 * it. Other phrasal verbs that `compromise` knows lose their particle ("go ahead" -> "go"), and courtesies that
 * ask for nothing ("go ahead", "take care of it") can be taken out of a text.
 */

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function alternation(words: readonly string[]): string {
  return [...words].sort((a, b) => b.length - a.length).map((w) => escapeRegExp(w).replace(/ +/g, "\\s+")).join("|");
}

/** The present forms of a verb a request uses ("look", "looks", "looking"): past forms describe, they do not ask. */
function presentForms(verb: string): string[] {
  const f = verbForms(verb);
  return [...new Set([verb, f.present, f.gerund])];
}

const PHRASAL_RULES: ReadonlyArray<[RegExp, string]> = [
  ...Object.entries(IDIOMS).map(([phrase, means]): [RegExp, string] => [new RegExp(`\\b${escapeRegExp(phrase).replace(/'/g, "['’]").replace(/ +/g, "\\s+")}\\b`, "gi"), means]),
  ...PHRASAL_VERBS.map((p): [RegExp, string] => {
    const object = p.object === true ? "(?:me\\s+)?" : "";
    const particles = alternation(p.particles);
    return [new RegExp(`\\b(?:${alternation(presentForms(p.verb))})\\s+${object}(${particles})\\b`, "gi"), p.keepParticle === true ? `${p.means} $1` : p.means];
  }),
  ...VERB_SENSES.filter((s) => s.where !== "imperative").map((s): [RegExp, string] => {
    if (s.where === "before-determiner") return [new RegExp(`\\b(?:${alternation(presentForms(s.word))})\\s+(${alternation(SENSE_DETERMINERS.before)})\\b`, "gi"), `${s.means} $1`];
    return [new RegExp(`\\b(${alternation(SENSE_DETERMINERS.after)})\\s+${escapeRegExp(s.word)}\\b`, "gi"), `$1 ${s.means}`];
  }),
];

const IMPERATIVE_RULES: ReadonlyArray<[RegExp, string]> = VERB_SENSES.filter((s) => s.where === "imperative").map((s) => [
  new RegExp(`(^|[.!?]\\s+|\\b(?:${alternation(SENSE_DETERMINERS.imperative)})\\s+)(${escapeRegExp(s.word)})\\b(?!s)`, "gi"),
  `$1$2 ${s.means}`,
]);

/**
 * Particles that carry no meaning of their own once their verb is read ("go ahead", "come back", "put away"); the
 * others ("up", "in", "on") are stop words already.
 */
const LOOSE_PARTICLES = new Set(["ahead", "away", "back", "down", "forward", "along", "around", "through"]);

/** A text with its phrasal verbs read as the operations they name, and the particles of other phrasal verbs removed. */
export function rewritePhrasal(text: string): string {
  let out = text;
  for (const [re, to] of PHRASAL_RULES) out = out.replace(re, to);
  return withoutLooseParticles(out);
}

/** "Book a table": a verb at the start of a clause is read with its sense ("book reserve"). */
export function verbSense(text: string): string {
  let out = text;
  for (const [re, to] of IMPERATIVE_RULES) out = out.replace(re, to);
  return out;
}

/** The text without the particles of phrasal verbs `compromise` knows ("Go ahead and show" -> "Go and show"). */
export function withoutLooseParticles(text: string): string {
  return text.replace(/\b([A-Za-z]+)(\s+)([A-Za-z]+)\b/g, (m: string, verb: string, space: string, particle: string) => {
    const p = particle.toLowerCase();
    if (!LOOSE_PARTICLES.has(p) || !isPhrasalVerb(verb, p)) return m;
    return `${verb}${space}${" ".repeat(particle.length)}`;
  });
}

const COURTESY = new RegExp(`\\b(?:${alternation(COURTESY_PHRASES)})\\b`, "gi");

/** The text with courtesies that ask for nothing blanked out ("Go ahead and show me X" -> "      and show me X"); positions kept. */
export function withoutCourtesy(text: string): string {
  return text.replace(COURTESY, (m) => " ".repeat(m.length));
}
