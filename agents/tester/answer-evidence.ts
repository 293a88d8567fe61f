import type { EpisodeTranscript } from "../roles/roles.js";
import { writtenDates } from "../language/dates-in-text.js";
import { isObject } from "../../specs/json-object.js";

/*
 * The evidence the rule tester checks answers and arguments against: what the assistant could know (the
 * observations, the user's messages and the names of the tools it called) as a haystack of words, numbers, dates
 * and times, and the value-like tokens of an answer, each either grounded in that haystack or not.
 */

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const WEEKDAYS = new Set(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue", "wed", "thu", "fri", "sat", "sun"]);
const MONTH_WORDS = new Set(["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december", ...MONTHS, "sept"]);
/** Capitalized words the assistant may write without a source: pronouns, courtesy words, common acronyms. */
const FREE_WORDS = new Set([
  "i", "i'm", "i've", "i'll", "i'd", "ok", "okay", "api", "apis", "id", "ids", "url", "urls", "http", "https", "json", "utc", "gmt",
  "am", "pm", "n/a", "faq", "ps", "mr", "mrs", "ms", "dr",
]);

export const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, " ").trim();

/** What the assistant could know: observations (statuses and bodies), user messages and the names of the tools it called. */
export interface Haystack {
  /** Lower-cased, whitespace-collapsed text of every source, one source per line. */
  text: string;
  words: Set<string>;
  numbers: number[];
  dates: Set<string>;
  /** Times as minutes since midnight. */
  times: Set<number>;
}

const ISO_DATE_G = /\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g;
const TIME_G = /\b(\d{1,2}):(\d{2})(?::\d{2})?(?:\s*([ap]\.?m\.?))?(?![\w:])/gi;
const NUMBER_G = /(?<![\w.,])[-−]?\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?%)?(?![\w])/g;
const WORD_G = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

function minutesOf(h: string, m: string, ampm: string | undefined): number {
  let hour = Number(h);
  const suffix = ampm?.toLowerCase().replace(/\./g, "");
  if (suffix === "pm" && hour < 12) hour += 12;
  if (suffix === "am" && hour === 12) hour = 0;
  return hour * 60 + Number(m);
}

function parseNumber(token: string): { value: number; decimals: number; percent: boolean } | undefined {
  const percent = token.includes("%");
  const clean = token.replace(/[$%\s,]/g, "").replace("−", "-");
  const value = Number(clean);
  if (!Number.isFinite(value)) return undefined;
  const dot = clean.indexOf(".");
  return { value, decimals: dot < 0 ? 0 : clean.length - dot - 1, percent };
}

function collectDates(s: string, into: Set<string>): void {
  for (const m of s.matchAll(ISO_DATE_G)) into.add(`${m[1]}-${m[2]}-${m[3]}`);
  // Dates written in words ("March 3, 2025", "3rd of May 2025"): chrono-node, as everywhere.
  for (const d of writtenDates(s)) into.add(d.value.slice(0, 10));
}

function humanizeKey(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_\-.]+/g, " ");
}

export function buildHaystack(episode: EpisodeTranscript): Haystack {
  const parts: string[] = [];
  const numbers: number[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 40) return;
    if (typeof v === "string") {
      const t = v.trim();
      if ((t.startsWith("{") || t.startsWith("[")) && t.length < 1_000_000) {
        try {
          walk(JSON.parse(t), depth + 1);
        } catch {
          // not JSON: plain text
        }
      }
      parts.push(v);
    } else if (typeof v === "number") {
      numbers.push(v);
      parts.push(String(v));
    } else if (typeof v === "boolean") {
      parts.push(String(v));
    } else if (Array.isArray(v)) {
      numbers.push(v.length);
      for (const x of v) walk(x, depth + 1);
    } else if (isObject(v)) {
      for (const [k, x] of Object.entries(v)) {
        parts.push(k, humanizeKey(k));
        walk(x, depth + 1);
      }
    }
  };
  for (const rec of episode.calls) {
    walk(rec.result.body, 0);
    numbers.push(rec.result.status);
    parts.push(String(rec.result.status), rec.call.name, humanizeKey(rec.call.name));
  }
  for (const m of episode.dialogue) {
    if (m.role === "user") parts.push(m.content);
    else if (m.role === "tool") {
      if (!episode.calls.some((c) => c.call.id === m.toolCallId)) walk(m.result?.body ?? m.content, 0);
    }
  }
  const raw = parts.join("\n");
  const dates = new Set<string>();
  collectDates(raw, dates);
  const times = new Set<number>();
  for (const m of raw.matchAll(TIME_G)) times.add(minutesOf(m[1] ?? "0", m[2] ?? "0", m[3]));
  for (const token of raw.match(NUMBER_G) ?? []) {
    const n = parseNumber(token);
    if (n) numbers.push(n.value);
  }
  // Numbers inside dates and ids (`2024-05-01`, `bk-42`) count as well.
  for (const digits of raw.match(/\d+(?:\.\d+)?/g) ?? []) numbers.push(Number(digits));
  const text = raw.split("\n").map(norm).join("\n");
  const words = new Set<string>();
  for (const word of text.match(WORD_G) ?? []) words.add(word.replace(/['’]s$/, ""));
  return { text, words, numbers, dates, times };
}

/** True when `needle` occurs in `hay` not glued to letters or digits on either side. */
export function containsBounded(hay: string, needle: string): boolean {
  if (needle === "") return true;
  let from = 0;
  for (;;) {
    const i = hay.indexOf(needle, from);
    if (i < 0) return false;
    const before = hay[i - 1];
    const after = hay[i + needle.length];
    const glued = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);
    if (!glued(before) && !glued(after)) return true;
    from = i + 1;
  }
}

export function numberGrounded(token: string, hay: Haystack): boolean {
  const n = parseNumber(token);
  if (!n) return true;
  // A written number may round the observed one: "21.5" stands for 21.48, "45%" for 0.45.
  const tolerance = 0.5 * 10 ** -n.decimals + 1e-9;
  const near = (target: number, tol: number): boolean => hay.numbers.some((x) => Math.abs(Math.abs(x) - Math.abs(target)) <= tol);
  return near(n.value, tolerance) || (n.percent && near(n.value / 100, tolerance / 100));
}

/** One value of a final answer that must be grounded. */
export interface AnswerToken {
  kind: "url" | "email" | "quoted string" | "date" | "time" | "id" | "number" | "name";
  text: string;
}

/**
 * The values of a final answer the tester checks: URLs, emails, quoted strings, dates, times, ids (words
 * with letters and digits), numbers (not list markers, 0 or 1) and capitalized words of two letters or more
 * that do not start a sentence (months, weekdays, pronouns and common acronyms excepted).
 */
/** A sentence-internal abbreviation or initial just before a word ("Dr. Lee", "J. Smith"). */
const ABBREVIATION_END = /(?:^|[^\p{L}])(?:\p{Lu}|Mr|Mrs|Ms|Dr|St|Jr|Sr|Prof|Mt)\.$/u;

export function answerTokens(answer: string): AnswerToken[] {
  const tokens: AnswerToken[] = [];
  let rest = answer;
  const take = (kind: AnswerToken["kind"], re: RegExp, pick: (m: string[]) => string | AnswerToken | undefined = (m) => m[0]): void => {
    rest = rest.replace(re, (...args: unknown[]) => {
      const match = args[0] as string;
      const picked = pick(args.slice(0, -2) as string[]);
      if (typeof picked === "string" && picked !== "") tokens.push({ kind, text: picked });
      else if (typeof picked === "object") tokens.push(picked);
      return " ".repeat(match.length);
    });
  };
  take("url", /\bhttps?:\/\/[^\s<>"'`)\]]+/g, (m) => (m[0] ?? "").replace(/[.,;:!?]+$/, ""));
  take("email", /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g);
  take("quoted string", /"([^"\n]{1,200})"|“([^”\n]{1,200})”|‘([^’\n]{1,200})’/g, (m) => (m[1] ?? m[2] ?? m[3] ?? "").trim());
  take("date", ISO_DATE_G, (m) => `${m[1]}-${m[2]}-${m[3]}`);
  // Dates written in words: chrono-node (`writtenDates`), the same reader as the offline assistant's.
  for (const d of writtenDates(rest).reverse()) {
    tokens.push({ kind: "date", text: d.value.slice(0, 10) });
    rest = rest.slice(0, d.start) + " ".repeat(d.end - d.start) + rest.slice(d.end);
  }
  take("time", TIME_G);
  take("id", /(?<![\w.-])(?=[\w-]*[A-Za-z])(?=[\w-]*\d)[A-Za-z0-9][\w-]*(?![\w])/g, (m) => {
    const text = m[0] ?? "";
    // A number with a unit or an ordinal (`5km`, `3rd`, `10am`) is a number.
    const unit = /^(\d+(?:\.\d+)?)(?:st|nd|rd|th|[a-z]{1,3}|[A-Z]{1,2})$/.exec(text);
    if (unit) {
      const n = parseNumber(unit[1] ?? "");
      return n && !(n.decimals === 0 && (n.value === 0 || n.value === 1)) ? { kind: "number", text: unit[1] ?? "" } : undefined;
    }
    return text;
  });
  // List markers ("1. ", "2) ") at line starts are layout, not values.
  rest = rest.replace(/(^|\n)([ \t]*\d{1,3}[.)])(?=\s)/g, (_m, nl: string, marker: string) => nl + " ".repeat(marker.length));
  take("number", NUMBER_G, (m) => {
    const n = parseNumber(m[0] ?? "");
    return n && !(n.decimals === 0 && !n.percent && (n.value === 0 || n.value === 1)) ? (m[0] ?? "").trim() : undefined;
  });
  // Capitalized words that do not open a sentence or a line.
  for (const m of rest.matchAll(/[\p{Lu}][\p{L}'’-]*/gu)) {
    const i = m.index ?? 0;
    // The text before the word, without trailing blanks: only its end matters (an abbreviation is at most
    // 6 characters long, so its last 8 decide; reading the whole prefix made long answers quadratic).
    let end = i;
    while (end > 0 && (rest[end - 1] === " " || rest[end - 1] === "\t")) end--;
    const last = end > 0 ? rest[end - 1] : undefined;
    const abbreviation = ABBREVIATION_END.test(rest.slice(Math.max(0, end - 8), end));
    if (end === 0 || last === undefined || (/[.!?:;\n•*\-–—(>]/.test(last) && !abbreviation)) continue;
    if (i > 0 && /[\p{L}\p{N}°]/u.test(rest[i - 1] ?? "")) continue;
    const word = m[0].replace(/['’]s$/, "").replace(/[-'’]+$/, "");
    const lower = word.toLowerCase();
    if (word.length < 2) continue; // initials and single letters
    if (FREE_WORDS.has(lower) || MONTH_WORDS.has(lower) || WEEKDAYS.has(lower)) continue;
    tokens.push({ kind: "name", text: word });
  }
  return tokens;
}

export function tokenGrounded(token: AnswerToken, hay: Haystack): boolean {
  switch (token.kind) {
    case "url":
    case "email":
      return hay.text.includes(token.text.toLowerCase()) || hay.text.includes(token.text.toLowerCase().replace(/\/$/, ""));
    case "quoted string":
      return hay.text.includes(norm(token.text).replace(/[.,;:!?]+$/, ""));
    case "date":
      return hay.dates.has(token.text);
    case "time": {
      const m = /(\d{1,2}):(\d{2})(?::\d{2})?(?:\s*([ap]\.?m\.?))?/i.exec(token.text);
      return m ? hay.times.has(minutesOf(m[1] ?? "0", m[2] ?? "0", m[3])) : true;
    }
    case "id":
      return containsBounded(hay.text, token.text.toLowerCase());
    case "number":
      return numberGrounded(token.text, hay);
    case "name":
      return token.text
        .toLowerCase()
        .split(/[-'’]+/)
        .filter((w) => w !== "")
        .every((w) => hay.words.has(w) || containsBounded(hay.text, w));
  }
}
