import { CLAUSE_JOINERS, CLAUSE_OBJECT_STARTS, CLAUSE_VERBS } from "./lexicon/verbs.js";

/*
 * Clauses: a request split into the parts that each ask for one operation ("find X, then show Y"). A new clause
 * starts at "then" and its kin, at "and" before a verb, at a comma before a verb and its object, and at a full
 * stop before a verb. Quoted text is never split ("Find and Replace").
 */

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function alternation(words: readonly string[]): string {
  return words.map((w) => escapeRegExp(w).replace(/ +/g, "\\s+")).join("|");
}

const THEN = /\s*(?:,\s*)?\b(?:and\s+)?then\b\s*/gi;
const JOINERS = new RegExp(`\\s*(?:,\\s*)?(?:\\band\\s+)?\\b(?:${alternation(CLAUSE_JOINERS)})\\b[,]?\\s*`, "gi");
const SENTENCE = /([.!?;])\s+(?=[A-Z])/g;
const QUOTED = /"[^"]*"|“[^”]*”/g;

/** Splits requests into clauses; `extraVerbs` (a catalogue's own verbs: `refresh`, `activate`) also start clauses. */
export class ClauseSplitter {
  private readonly andVerb: RegExp;
  private readonly commaVerb: RegExp;
  private readonly stopVerb: RegExp;

  constructor(extraVerbs: readonly string[] = []) {
    const base = new Set(CLAUSE_VERBS);
    const extra = [...new Set(extraVerbs)].filter((v) => !base.has(v)).sort();
    const verbs = alternation([...CLAUSE_VERBS, ...extra]);
    this.andVerb = new RegExp(`\\s*(?:,\\s*)?\\band\\s+(?=(?:${verbs})\\b)`, "gi");
    this.commaVerb = new RegExp(`,\\s+(?=(?:${verbs})\\s+(?:${alternation(CLAUSE_OBJECT_STARTS)})\\b)`, "gi");
    this.stopVerb = new RegExp(`([.!?;])\\s+(?=(?:${verbs})\\b)`, "gi");
  }

  /** The clauses of a text, in order (the whole text when it has one). */
  split(text: string): string[] {
    const quotes: string[] = [];
    const masked = text.replace(QUOTED, (q) => {
      quotes.push(q);
      return `\u0003${quotes.length - 1}\u0003`;
    });
    const marked = masked
      .replace(THEN, " \u0001 ")
      .replace(JOINERS, " \u0001 ")
      .replace(this.andVerb, " \u0001 ")
      .replace(this.commaVerb, " \u0001 ")
      .replace(this.stopVerb, "$1 \u0001 ")
      .replace(SENTENCE, "$1 \u0002 ");
    const parts = marked
      .split("\u0001")
      .map((p) => p.replace(/\u0002/g, " ").replace(/\u0003(\d+)\u0003/g, (_m, i: string) => quotes[Number(i)] ?? "").trim())
      .filter((p) => p !== "");
    return parts.length > 0 ? parts : [text];
  }
}

/** The clauses of a request (see {@link ClauseSplitter}); for one text, without a splitter kept around. */
export function splitClauses(text: string, extraVerbs: readonly string[] = []): string[] {
  return new ClauseSplitter(extraVerbs).split(text);
}
