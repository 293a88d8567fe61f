import { createRequire } from "node:module";
import type * as Chrono from "chrono-node";

/*
 * Dates written in words ("March 3, 2025", "3rd of May 2025", "Tue, 4 Feb 2025 at 19:30") found by `chrono-node`.
 * Only dates whose day, month and year are all written count: "next Friday" depends on today, which an offline,
 * deterministic reader does not know. ISO dates (`2025-03-03`) are read by `text-facts.ts` itself. chrono-node
 * is loaded on the first text that names a month (an offline run whose requests write ISO dates never loads it).
 */

/** A written date found in a text. */
export interface WrittenDate {
  start: number;
  end: number;
  /** `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS` when a time of day is written too. */
  value: string;
  kind: "date" | "datetime";
}

const MONTH = "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
/** A month name next to a number ("March 3", "3rd of May"): only then is chrono-node asked. */
const MONTH_WORD = new RegExp(`\\b${MONTH}\\.?,?\\s+\\d|\\d(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\b`, "i");

let chrono: typeof Chrono | undefined;

function parser(): typeof Chrono {
  chrono ??= createRequire(import.meta.url)("chrono-node/en") as typeof Chrono;
  return chrono;
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** A fixed reference instant: certain dates do not depend on it, and the result stays deterministic. */
const REFERENCE = new Date(Date.UTC(2025, 0, 1));

/** The dates written in words in a text, with their positions (day, month and year all given). */
export function writtenDates(text: string): WrittenDate[] {
  if (!MONTH_WORD.test(text)) return [];
  const out: WrittenDate[] = [];
  for (const r of parser().parse(text, { instant: REFERENCE, timezone: 0 })) {
    const s = r.start;
    if (!s.isCertain("day") || !s.isCertain("month") || !s.isCertain("year")) continue;
    const year = s.get("year");
    const month = s.get("month");
    const day = s.get("day");
    if (year === null || month === null || day === null) continue;
    const date = `${year}-${pad(month)}-${pad(day)}`;
    // The span is the date alone when a range was written ("March 3 - March 5, 2025" gives its start).
    const text0 = r.end ? r.text.slice(0, Math.max(1, r.text.search(/\s+(?:-|to|until|till|through)\s+/i))) : r.text;
    const timed = s.isCertain("hour") && s.get("hour") !== null;
    const value = timed ? `${date}T${pad(s.get("hour") ?? 0)}:${pad(s.get("minute") ?? 0)}:00` : date;
    const lead = /^(?:on|from|since|by|until|till)\s+/i.exec(text0)?.[0].length ?? 0;
    out.push({ start: r.index + lead, end: r.index + (r.end ? text0.length : r.text.length), value, kind: timed ? "datetime" : "date" });
  }
  return out;
}
