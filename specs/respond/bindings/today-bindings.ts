import type { SchemaField } from "../../catalog/schema-fields.js";
import type { Tool } from "../../catalog/tool.js";
import type { TodayBinding } from "./binding-types.js";
import { findBy, isDateField, ITEM_DATES, itemFields, mainLists, norm, recordFields, snake } from "./response-fields.js";

/**
 * Infers how an answer is dated by the simulated today, from the words of its operation (its id, its path,
 * its summary): "today", "now" or "current" date the answer's own day field (`isTodayHoliday` -> `date`);
 * "next", "upcoming" or "future" put the items of its list on or after today (`getNextHolidays`), a forecast's
 * start today (`getForecast`), "recent",
 * "past" or "history" on or before it. A date argument that names another day takes over when it is given.
 */

const NOW = new Set(["today", "now", "current", "currently", "latest"]);
const NEXT = new Set(["next", "upcoming", "future", "coming", "forthcoming", "forecast", "forecasts"]);
/** Lists that start today (a forecast's first day is today), not only on or after it. */
const STARTING = new Set(["forecast", "forecasts"]);
const PAST = new Set(["past", "previous", "recent", "history", "historical"]);
const ONGOING = new Set(["current", "currently", "active", "ongoing", "running"]);
/** Words of lists of what is in force now (their items started by today). */
const ACTIVE = new Set(["active", "ongoing", "current", "currently"]);
/** Names (normalized) of an item's start and end. */
const STARTS = ["start", "startdate", "startsat", "starttime", "startat", "effective", "effectivedate", "onset", "from", "validfrom", "begins", "beginsat"];
const ENDS = ["end", "enddate", "endsat", "endtime", "endat", "expires", "expiresat", "until", "to", "validto", "validuntil", "ends"];
/** Fields that say what day (or moment) it is. */
const DAY_FIELD = /^(date|day|today|now|currentdate|currenttime|asof|asofdate|localdate|localtime|servertime|datetime|timestamp|observedat|observationtime|lastupdated)$/;
const FROM = /^(from|start|start_?date|date_?from|from_?date|since|after|begin|min_?date|earliest)$/;
const TO = /^(to|end|end_?date|date_?to|to_?date|until|before|max_?date|latest)$/;

/** A date argument of the operation (`date`, `from`). */
export interface DateInput {
  arg: string;
  name: string;
}

/** The words of an operation: its id's and its path's fixed segments' (`name`), and its summary's (the description's first sentence). */
function operationWords(tool: Tool): { name: Set<string>; summary: Set<string> } {
  const name = new Set<string>();
  const add = (text: string): void => {
    for (const w of snake(text).split("_")) if (w !== "") name.add(w);
  };
  add(tool.operation.operationId ?? tool.name);
  for (const segment of tool.operation.path.split("/")) if (!segment.startsWith("{")) add(segment);
  const first = tool.description.split(/(?<=[.!?])\s/)[0] ?? "";
  const summary = new Set(first.toLowerCase().split(/[^a-z]+/).filter((w) => w !== ""));
  return { name, summary };
}

function some(words: ReadonlySet<string>, of: ReadonlySet<string>): boolean {
  for (const w of of) if (words.has(w)) return true;
  return false;
}

/** The bindings that date an operation's answer by the simulated today. */
export function todayBindings(tool: Tool, fields: readonly SchemaField[], dateInputs: readonly DateInput[]): TodayBinding[] {
  const { name, summary } = operationWords(tool);
  const words = new Set([...name, ...summary]);
  // A list of pages (`nextPage`, `next cursor`) is not about days.
  if (words.has("page") || words.has("cursor") || words.has("token")) return [];
  const out: TodayBinding[] = [];
  const argNamed = (test: (n: string) => boolean): string | undefined => dateInputs.find((i) => test(snake(i.name)))?.arg;
  // Upcoming or past, not both ("current, past and future offerings"), and not what is going on now.
  const next = some(words, NEXT) && !some(words, PAST) && !some(words, ONGOING);
  const past = some(words, PAST) && !some(words, NEXT) && !some(words, ONGOING);
  if (next || past) {
    const arg = argNamed((n) => (next ? FROM : TO).test(n));
    for (const list of mainLists(fields)) {
      const date = findBy(itemFields(fields, list).filter(isDateField), ITEM_DATES);
      if (date) out.push({ kind: "today", field: date.path, bound: next ? "min" : "max", ...(next && some(words, STARTING) ? { starts: true } : {}), ...(arg !== undefined ? { arg } : {}) });
    }
  }
  // What is in force now ("active alerts", "ongoing outages"): items that have a start and an end started by today.
  const ongoing = some(words, ACTIVE) && !some(words, NEXT) && !some(words, PAST);
  if (ongoing) {
    for (const list of mainLists(fields)) {
      const dated = itemFields(fields, list).filter(isDateField);
      const start = findBy(dated, STARTS);
      const end = findBy(dated, ENDS);
      if (start && end) out.push({ kind: "today", field: start.path, bound: "max" });
    }
  }
  // "Today" said by the operation's name or summary; "now" and "current" by its name only (`getCurrentDate`, not
  // "the currently running strategy").
  if (some(name, NOW) || summary.has("today")) {
    for (const f of recordFields(fields)) {
      if (f.path.includes(".") || f.object || f.list || !DAY_FIELD.test(norm(f.name)) || (f.type !== undefined && f.type !== "string")) continue;
      const arg = argNamed((n) => norm(n) === norm(f.name) || /^(date|day|on|at)$/.test(n));
      out.push({ kind: "today", field: f.path, bound: "equals", ...(arg !== undefined ? { arg } : {}) });
    }
  }
  return out;
}
