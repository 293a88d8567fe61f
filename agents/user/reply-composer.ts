import type { Rng } from "../../specs/seed.js";
import type { PlanLink, PlanRequest } from "../roles/plan.js";
import { toolArguments, type ArgumentInfo } from "../assistant/tool-arguments.js";
import type { Toolbox } from "../roles/toolbox.js";
import { coordinateOf, isIdName, quoteIfText, valueText } from "../language/value-phrase.js";
import { booleanClause, beFor } from "../language/field-clauses.js";
import { CONFIRMATION_OPENINGS, CONFIRMATION_WORDS, QUESTION_CUES, QUESTION_STOP_WORDS, type QuestionCueKind } from "../language/lexicon/questions.js";
import { anyWord, wordAtStart } from "../language/word-patterns.js";
import { capitalize, editDistance, humanize, identifierWords, joinList, singular, tokens } from "../language/words.js";

/** One value of the user's plan that a question may be about. */
export interface PlannedValue {
  step: number;
  arg: string;
  value: unknown;
  info?: ArgumentInfo;
  withheld: boolean;
  /** Set when the value comes from an earlier result rather than from the user. */
  link?: PlanLink;
}

const STOP: ReadonlySet<string> = new Set(QUESTION_STOP_WORDS);

/** How a planned value is of each kind of value a question may point at (see `QUESTION_CUES`). */
const CUE_MATCHES: Record<QuestionCueKind, (v: PlannedValue, words: string[], names: readonly string[]) => boolean> = {
  date: (v, w, names) => v.info?.format === "date" || v.info?.format === "date-time" || w.some((x) => names.includes(x)),
  place: (_v, w, names) => w.some((x) => names.includes(x)),
  email: (_v, w, names) => w.some((x) => names.includes(x)),
  count: (v) => v.info?.type === "integer" || v.info?.type === "number",
  amount: (_v, w, names) => w.some((x) => names.includes(x)),
  search: (_v, w, names) => w.some((x) => names.includes(x)),
  id: (v) => isIdName(v.arg),
  name: (_v, w, names) => w.some((x) => names.includes(x)),
  language: (_v, w, names) => w.some((x) => names.includes(x)),
  currency: (_v, w, names) => w.some((x) => names.includes(x)),
};

/** Question words that point at a kind of value. */
const CUES: { cue: RegExp; matches: (v: PlannedValue, words: string[]) => boolean }[] = QUESTION_CUES.map(({ kind, cues, names = [] }) => ({
  cue: anyWord(cues, ""),
  matches: (v: PlannedValue, words: string[]) => CUE_MATCHES[kind](v, words, names),
}));

/** The planned values of a request (linked arguments included, with their link). */
export function plannedValues(request: PlanRequest, toolbox: Toolbox): PlannedValue[] {
  const out: PlannedValue[] = [];
  request.steps.forEach((step, i) => {
    const entry = toolbox.get(step.tool);
    const infos = entry ? toolArguments(entry.toolset.catalog, entry.tool) : [];
    for (const [arg, value] of Object.entries(step.args)) {
      const info = infos.find((a) => a.name === arg);
      out.push({ step: i, arg, value, ...(info ? { info } : {}), withheld: request.withheld.includes(`${i}:${arg}`) });
    }
    for (const link of step.links) {
      const info = infos.find((a) => a.name === link.arg);
      out.push({ step: i, arg: link.arg, value: undefined, ...(info ? { info } : {}), withheld: false, link });
    }
  });
  return out;
}

function nameWords(v: PlannedValue): string[] {
  return identifierWords(v.arg).map((w) => singular(w));
}

/** How strongly a question asks about a planned value: its name, its words, its description, question cues. */
export function relevance(question: string, v: PlannedValue): number {
  const q = question.toLowerCase();
  const qWords = new Set(tokens(question));
  const qFlat = q.replace(/[^a-z0-9]/g, "");
  const flat = v.arg.toLowerCase().replace(/[^a-z0-9]/g, "");
  let score = 0;
  if (flat.length >= 3 && qFlat.includes(flat)) score += 3;
  if (flat.length < 3 && new RegExp(`(^|[^a-z0-9])${flat}([^a-z0-9]|$)`).test(q.replace(/[`'"]/g, " "))) score += 2;
  const words = nameWords(v).filter((w) => !STOP.has(w));
  for (const w of words) {
    if (qWords.has(w)) score += 1.5;
    else if (w.length >= 5 && [...qWords].some((x) => x.length >= 4 && editDistance(x, w, 1) <= 1)) score += 1;
  }
  const description = (v.info?.description ?? "").toLowerCase();
  if (description !== "") {
    const dWords = new Set(tokens(description).filter((w) => w.length >= 4 && !STOP.has(w)));
    let overlap = 0;
    for (const w of qWords) if (w.length >= 4 && !STOP.has(w) && dWords.has(w)) overlap++;
    score += Math.min(1.5, overlap * 0.5);
  }
  const allWords = identifierWords(v.arg);
  for (const { cue, matches } of CUES) if (cue.test(q) && matches(v, allWords)) score += 1;
  return score;
}

/** Where a question first mentions a planned value (its name or one of its words), or the end. */
function mentionAt(question: string, v: PlannedValue): number {
  const q = question.toLowerCase();
  const spots = [v.arg.toLowerCase(), humanize(v.arg).toLowerCase(), ...nameWords(v).filter((w) => w.length >= 3 && !STOP.has(w))]
    .map((w) => q.indexOf(w))
    .filter((i) => i >= 0);
  return spots.length > 0 ? Math.min(...spots) : q.length;
}

function spoken(v: PlannedValue): string {
  return quoteIfText(v.arg, v.value);
}

/** "the genre is mystery", "the authors are X and Y", "it is in stock": the value said with its name, in agreement. */
function statement(v: PlannedValue): string {
  if (typeof v.value === "boolean") return booleanClause([v.arg], v.value);
  // One value of a list names one thing: "the country code is US", "the action is (...)".
  const name = Array.isArray(v.value) && v.value.length === 1 ? label(v).replace(/(\w+)$/, (w) => singular(w)) : label(v);
  return `the ${name} ${beFor(name, v.value)} ${spoken(v)}`;
}

function label(v: PlannedValue): string {
  const c = coordinateOf(v.arg);
  if (c) return `${c.prefix !== "" ? c.prefix + " " : ""}${c.axis === "lat" ? "latitude" : "longitude"}`;
  const h = humanize(v.arg);
  return h === "q" ? "search text" : h;
}

function linkAnswer(v: PlannedValue, rng: Rng): string {
  const link = v.link as PlanLink;
  const fromSearch = /(^|\.)\d+(\.|$)/.test(link.field);
  return fromSearch
    ? rng.pick(["The first one from the results, please.", "Just take the first result.", "Use the top result."])
    : rng.pick(["Use the one from the previous step.", "The one you just got back.", "Take it from the previous result."]);
}

function answerOne(v: PlannedValue, rng: Rng): string {
  if (v.link) return linkAnswer(v, rng);
  const s = spoken(v);
  return rng.pick([`It's ${s}.`, `${capitalize(label(v))}: ${s}.`, `Use ${s}.`, `${capitalize(statement(v))}.`, `Oh, sorry: ${s}.`, `Let's go with ${s}.`]);
}

function answerMany(values: readonly PlannedValue[], rng: Rng): string {
  const parts = values.map((v) => (v.link ? `the ${label(v)} comes from the previous result` : statement(v)));
  const text = joinList(parts);
  return rng.pick([`${capitalize(text)}.`, `Sure: ${text}.`, `Sorry about that: ${text}.`]);
}

/** The part of a question that names what is needed (after "I need"), and the rest (its purpose, its courtesy). */
export function focusOf(question: string): { focus: string; rest: string } {
  const m = /\b(?:i(?:'d| would| will)? need|i require|i(?:'m| am) missing|need to know|please (?:provide|give me|tell me)|could you (?:tell|give) me|what(?:'s| is| are)|which)\b/i.exec(question);
  if (!m) return { focus: question, rest: "" };
  const after = question.slice(m.index + m[0].length);
  // Up to the end of that sentence ("... Could you tell me what it is?" is courtesy).
  const end = after.search(/[.?!](\s|$)/);
  const focus = end >= 0 ? after.slice(0, end) : after;
  if (focus.trim() === "" || /^\s*(it|they|that)\s+(is|are)\s*$/i.test(focus)) return { focus: question, rest: "" };
  return { focus, rest: question.slice(0, m.index) + (end >= 0 ? after.slice(end) : "") };
}

const CONFIRMATION_START = wordAtStart(CONFIRMATION_OPENINGS);
const CONFIRMATION_WORD = anyWord(CONFIRMATION_WORDS);

/**
 * The user's answer to the assistant's question, from the plan: the planned value(s) the question is
 * about (by argument name, its words, its description, fuzzily); else every withheld value of the
 * request; else a polite "nothing more" with the values already given.
 */
export function composeReply(question: string, request: PlanRequest, toolbox: Toolbox, rng: Rng, asks?: readonly string[]): string {
  const values = plannedValues(request, toolbox);
  // One answer per distinct argument name (shared values are said once).
  const distinct: PlannedValue[] = [];
  for (const v of values) if (!distinct.some((d) => d.arg === v.arg && valueText(d.value) === valueText(v.value) && !d.link === !v.link)) distinct.push(v);
  // The assistant said which arguments it asks for: those are answered (nested ones by their top argument).
  if (asks && asks.length > 0) {
    const named = distinct.filter((v) => asks.some((a) => a === v.arg || a.split(".")[0] === v.arg));
    // A name the plan has twice (two steps) is answered once, preferring the value the user held back.
    const chosen = named.filter((v) => !named.some((w) => w !== v && w.arg === v.arg && w.withheld && !v.withheld));
    if (chosen.length === 1) return answerOne(chosen[0] as PlannedValue, rng);
    if (chosen.length > 1) return answerMany(chosen.slice(0, 4), rng);
  }
  // What the question says it needs ("..., I need the currency code") counts; its purpose ("To convert an amount") hardly.
  const { focus, rest } = focusOf(question);
  const scored = distinct.map((v) => ({ v, score: relevance(focus, v) + (rest !== "" ? 0.25 * relevance(rest, v) : 0) + (v.withheld ? 0.75 : 0) }));
  const best = Math.max(0, ...scored.map((s) => s.score));
  const threshold = 1.5;
  if (best >= threshold) {
    // Several values are given in the order the question asks for them.
    const chosen = scored
      .filter((s) => s.score >= threshold && s.score >= best - 1.25)
      .sort((a, b) => b.score - a.score)
      .slice(0, 3)
      .map((s) => s.v)
      .sort((a, b) => mentionAt(question, a) - mentionAt(question, b));
    // The question names several things: give the withheld ones it names along with the best one.
    return chosen.length === 1 ? answerOne(chosen[0] as PlannedValue, rng) : answerMany(chosen, rng);
  }
  const withheld = distinct.filter((v) => v.withheld);
  if (withheld.length === 1) return answerOne(withheld[0] as PlannedValue, rng);
  if (withheld.length > 1) return answerMany(withheld, rng);
  if (CONFIRMATION_START.test(question.trim()) || CONFIRMATION_WORD.test(question.trim())) return rng.pick(["Yes, please go ahead.", "Yes, go ahead.", "Sure, do it."]);
  const known = distinct.filter((v) => !v.link && v.value !== undefined && (typeof v.value !== "object" || Array.isArray(v.value))).slice(0, 3);
  if (known.length === 0) return rng.pick(["I don't have anything more specific, so whatever you think is best.", "No preference from me, go ahead with the defaults."]);
  const given = joinList(known.map((v) => statement(v)));
  return rng.pick([`I don't have anything more to add: ${given}. Anything else is up to you.`, `I think I've told you everything I know: ${given}. Use the defaults for the rest.`, `No preference beyond what I said: ${given}.`]);
}
