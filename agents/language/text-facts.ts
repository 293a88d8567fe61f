import { Memo } from "../roles/memo.js";
import { writtenDates } from "./dates-in-text.js";
import { LANGUAGE_CODES } from "./lexicon/codes.js";
import { NAME_JOINERS, PHRASE_BREAKS, SENTENCE_STARTERS, STOP_WORDS } from "./lexicon/function-words.js";
import { OPERATION_VERBS } from "./lexicon/verbs.js";

/*
 * Values in text: everything in a request or a reply that can be the value of an argument (quoted strings,
 * links, e-mails, dates and times, ids, numbers, codes, proper names), each with where it is.
 */

/** What kind of value a span of text is. */
export type SpanKind = "quoted" | "url" | "email" | "datetime" | "date" | "time" | "id" | "number" | "code3" | "code2" | "lang" | "proper";

/** One value found in a text. */
export interface Span {
  kind: SpanKind;
  start: number;
  end: number;
  /** The value as found (a number for numbers, ISO text for dates). */
  value: string | number;
}

/** Words that start sentences and are not names. */
const NOT_PROPER: ReadonlySet<string> = new Set([...STOP_WORDS, ...Object.values(OPERATION_VERBS).flat(), ...SENTENCE_STARTERS]);

const JOINERS = NAME_JOINERS.join("|");
const PROPER_RUN = new RegExp(`(?<![\\p{L}\\p{N}_-])[A-Z][\\p{L}'’-]*(?:\\s+(?:(?:${JOINERS})\\s+)?[A-Z][\\p{L}'’-]*)*`, "gu");
const TRAILING_JOINER = new RegExp(`\\s+(?:${JOINERS})$`, "i");

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Everything value-like in a text: quoted strings, e-mails, dates, numbers, ids, codes and proper names. */
export class TextFacts {
  readonly lower: string;
  readonly spans: Span[] = [];
  private readonly found = new Map<string, Array<[number, number]>>();

  /** `patterns`: compiled phrase expressions shared between the facts of many texts (owned by the caller). */
  constructor(
    readonly text: string,
    private readonly patterns: Memo<string, RegExp> = new Memo(256),
  ) {
    this.lower = text.toLowerCase();
    const taken: Array<[number, number]> = [];
    const free = (s: number, e: number): boolean => taken.every(([a, b]) => e <= a || s >= b);
    const add = (kind: SpanKind, start: number, end: number, value: string | number): void => {
      if (!free(start, end)) return;
      taken.push([start, end]);
      this.spans.push({ kind, start, end, value });
    };
    const scan = (re: RegExp, fn: (m: RegExpExecArray) => void): void => {
      re.lastIndex = 0;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        fn(m);
        if (m[0] === "") re.lastIndex++;
      }
    };
    scan(/"([^"]+)"|“([^”]+)”|(?<=^|[\s(:,])'([^']+?)'(?=$|[\s.,;:!?)])/g, (m) => {
      const inner = m[1] ?? m[2] ?? m[3] ?? "";
      if (inner.trim() !== "") add("quoted", m.index, m.index + m[0].length, inner.trim());
    });
    scan(/https?:\/\/[^\s"'<>]+[^\s"'<>.,;:!?)]/g, (m) => add("url", m.index, m.index + m[0].length, m[0]));
    // A bare domain name ("yellow-cemetery.org", "api.example.co.uk"): letters before a top-level domain.
    scan(/(?<![\w.@/:-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,12}(?![\w@/-]|\.\w)/gi, (m) => {
      if (/[a-z]{2}/i.test(m[0].split(".")[0] ?? "")) add("url", m.index, m.index + m[0].length, m[0]);
    });
    scan(/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g, (m) => add("email", m.index, m.index + m[0].length, m[0]));
    scan(/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, (m) => add("datetime", m.index, m.index + m[0].length, m[0].replace(" ", "T")));
    scan(/\b\d{4}-\d{2}-\d{2}\b/g, (m) => add("date", m.index, m.index + m[0].length, m[0]));
    // Dates in words ("March 3, 2025", "3rd of May 2025"): chrono-node.
    for (const d of writtenDates(text)) add(d.kind, d.start, d.end, d.value);
    scan(/\b([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?\b/g, (m) => add("time", m.index, m.index + m[0].length, m[0]));
    scan(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, (m) => add("id", m.index, m.index + m[0].length, m[0]));
    // Ids made of an address keep their `,-` joins (`1702-Cherry-Orchard-Dr,-Austin,-TX-78745`).
    scan(/(?<![\w.@-])(?=[A-Za-z0-9_,-]*\d)(?=[A-Za-z0-9_,-]*[A-Za-z])[A-Za-z0-9]+(?:(?:[-_]|,-)[A-Za-z0-9]+)*(?![\w@-])/g, (m) => add("id", m.index, m.index + m[0].length, m[0]));
    scan(/(?<![\w.-])[-+]?[$€£]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w-])|(?<![\w.-])[-+]?[$€£]?\d+(?:\.\d+)?(?![\w-]|\.\d)/g, (m) => {
      const n = Number(m[0].replace(/[$€£,+]/g, ""));
      if (Number.isFinite(n)) add("number", m.index, m.index + m[0].length, n);
    });
    scan(/(?<![\w.@/-])[a-z]{2,3}[-_](?:[A-Z]{2}|[A-Z][a-z]{3}|\d{3})(?![\w/-])/g, (m) => add("lang", m.index, m.index + m[0].length, m[0]));
    scan(/(?<![\w/-])[A-Z]{3}(?![\w/-])/g, (m) => add("code3", m.index, m.index + m[0].length, m[0]));
    // "with ID bk-1002": the word ID is no code.
    scan(/(?<![\w/-])[A-Z]{2}(?![\w/-])/g, (m) => {
      if (m[0] !== "ID") add("code2", m.index, m.index + m[0].length, m[0]);
    });
    scan(/(?<![\w/-])[a-z]{2}(?![\w/'’-])/g, (m) => {
      if (LANGUAGE_CODES.has(m[0])) add("lang", m.index, m.index + m[0].length, m[0]);
    });
    // Time zones and other slash names ("Europe/London") and slugs with two hyphens ("co-brightline-analytics").
    scan(/(?<![\w/-])[A-Z][A-Za-z]+(?:\/[A-Z][A-Za-z_-]+)+(?![\w/])/g, (m) => add("proper", m.index, m.index + m[0].length, m[0]));
    scan(/(?<![\w.@/-])[a-z0-9]+(?:-[a-z0-9]+){2,}(?![\w@/-])/g, (m) => add("id", m.index, m.index + m[0].length, m[0]));
    // Proper names: runs of capitalised words (a lowercase joiner allowed between two of them).
    scan(PROPER_RUN, (m) => {
      let start = m.index;
      let words = m[0].split(/\s+/);
      const sentenceStart = /(^|[.!?]\s*|["“(]\s*)$/.test(text.slice(0, start));
      while (words.length > 0 && (/^I(?:['’](?:d|m|ll|ve))?$/.test(words[0] ?? "") || (sentenceStart && NOT_PROPER.has((words[0] ?? "").toLowerCase().replace(/[’']s$/, ""))))) {
        start += (words[0] ?? "").length;
        const rest = text.slice(start);
        start += rest.length - rest.trimStart().length;
        words = words.slice(1);
      }
      if (words.length === 0) return;
      // A lone capitalised word that starts a sentence is just a sentence start.
      if (sentenceStart && start === m.index && words.length === 1) return;
      let phrase = words.join(" ").replace(/[’']s$/, "").replace(TRAILING_JOINER, "");
      // A run that reaches a value found before ("... Causeway in Chicago in IL", IL a code): the name ends there.
      const clash = taken.filter(([a, b]) => a < start + phrase.length && b > start).reduce((min, [a]) => Math.min(min, a), Number.POSITIVE_INFINITY);
      if (clash !== Number.POSITIVE_INFINITY) phrase = text.slice(start, Math.max(start, clash)).trimEnd().replace(TRAILING_JOINER, "");
      // "with ID bk-1002": the word ID is no name either.
      if (phrase.length < 2 || /^(?:I|A|ID)$/.test(phrase)) return;
      add("proper", start, start + phrase.length, phrase);
    });
    this.spans.sort((a, b) => a.start - b.start);
  }

  /** The span starting at (or just after) a position, if any. */
  spanAt(pos: number): Span | undefined {
    return this.spans.find((s) => s.start >= pos && s.start <= pos + 1);
  }

  /** Start and end of each occurrence of a phrase as whole words (spaces, `_` and `-` alike). */
  find(phrase: string): Array<[number, number]> {
    const cached = this.found.get(phrase);
    if (cached) return cached;
    const out: Array<[number, number]> = [];
    const lowerPhrase = phrase.toLowerCase();
    if (this.lower.includes(lowerPhrase.split(/[ _-]/)[0] ?? lowerPhrase)) {
      const re = this.patterns.getOrCompute(lowerPhrase, phraseRegExp);
      re.lastIndex = 0;
      for (let m = re.exec(this.lower); m !== null; m = re.exec(this.lower)) out.push([m.index, m.index + m[0].length]);
    }
    this.found.set(phrase, out);
    return out;
  }
}

function phraseRegExp(phrase: string): RegExp {
  const flexible = escapeRegExp(phrase).replace(/\\?[ _-]+/g, "[\\s_-]*");
  return new RegExp(`(?<![a-z0-9])${flexible}(?![a-z0-9])`, "g");
}

const BREAKS: ReadonlySet<string> = new Set(PHRASE_BREAKS);

/** The words just after a position, up to a boundary (punctuation or a joining word), without stop words at either end. */
export function phraseAfter(facts: TextFacts, pos: number, maxWords: number): { start: number; end: number; value: string } | undefined {
  const rest = facts.text.slice(pos);
  // A word may hold dots and commas between its characters (`apis.guru`, `demographics.population.count`, a URL,
  // `3587736NE,6960336JD18`): only one before a space or the end ends the phrase.
  const m = /^\s*([^\s,.;!?()"“”]+(?:[.,][^\s,.;!?()"“”]+)*(?:\s+[^\s,.;!?()"“”]+(?:[.,][^\s,.;!?()"“”]+)*)*)/.exec(rest);
  if (!m || m[1] === undefined) return undefined;
  const words = m[1].split(/\s+/);
  const kept: string[] = [];
  for (const w of words) {
    if (BREAKS.has(w.toLowerCase()) && kept.length > 0) break;
    kept.push(w);
    if (kept.length >= maxWords) break;
  }
  while (kept.length > 0 && STOP_WORDS.has((kept[kept.length - 1] ?? "").toLowerCase())) kept.pop();
  while (kept.length > 0 && STOP_WORDS.has((kept[0] ?? "").toLowerCase())) kept.shift();
  if (kept.length === 0) return undefined;
  const value = kept.join(" ");
  const start = pos + rest.indexOf(kept[0] ?? "");
  return { start, end: start + value.length, value };
}
