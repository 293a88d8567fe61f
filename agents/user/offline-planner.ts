import type { Level } from "../roles/agent-context.js";
import { stableStringify } from "../../specs/stable-stringify.js";
import { objectShape } from "../../specs/catalog/object-properties.js";
import { resourceRoute } from "../../specs/catalog/resource-routes.js";
import { deriveSeed, type Rng } from "../../specs/seed.js";
import { synthesizeArguments } from "../../specs/synthesize/synthesize-call.js";
import { findCity, findCountry } from "../../specs/synthesize/world/world-data.js";
import { validateCall } from "../../specs/call/validate-call.js";
import { answersNothing as answersNothingOf } from "../../specs/respond/empty-answer.js";
import { templatesFor } from "./instruction-templates.js";
import type { InstructionStyle, Plan, PlanLink, PlanRequest, PlanStep } from "../roles/plan.js";
import { chainCandidates, type ChainCandidate } from "./plan-chains.js";
import { chooseValue, synthesizedValue, validFor } from "./plan-values.js";
import { asPersonSaysIt } from "./goal-values.js";
import { newValueContext, termPairs, wordsOfLanguage, type ValueContext } from "./value-pools.js";
import { hasNounPhrase, renderInstruction } from "./render-instruction.js";
import { toolArguments, type ArgumentInfo } from "../assistant/tool-arguments.js";
import type { Toolbox, ToolboxEntry } from "../roles/toolbox.js";
import { coordinateOf, valueText } from "../language/value-phrase.js";
import { identifierWords } from "../language/words.js";
import { PAIR_END_WORDS, PLUMBING_NAMES, SEARCH_PARAMETER_NAMES, TRANSLATION_LANGUAGE_NAMES } from "../language/lexicon/names.js";
import { wholeWord } from "../language/word-patterns.js";
import { isObject } from "../../specs/json-object.js";

/** Knobs of the offline planner; the defaults follow API-Bank and the toolsim design. */
export interface PlannerOptions {
  /**
   * The API-Bank level the plan is for (default `call`): at `call` a request is mostly one operation (chains
   * and independent steps sometimes); at `retrieve` every request is exactly one operation (the assistant
   * finds its tool through ToolSearcher); at `plan` every request takes 2-3 operations (a chain or
   * independent steps), each to be found and called in turn. The rates below default per level.
   */
  level?: Level;
  /** Relative weights of dialogues with 1, 2 and 3 requests (API-Bank: about one in five has two). */
  requestWeights?: readonly [number, number, number];
  /**
   * Probability that the first request of a dialogue withholds one required value (default 0.2); later
   * requests withhold at half that rate, so that about one request and about one dialogue in five do.
   */
  withholdRate?: number;
  /** Probability that a request is a chain, when its toolset allows one (default 0.25 at `call`, 0 at `retrieve`, 0.6 at `plan`). */
  chainRate?: number;
  /**
   * Probability that a request has 2-3 independent steps (default 0.1 at `call`, 0 at `retrieve`; at `plan`
   * every request that is not a chain has them).
   */
  multiStepRate?: number;
}

type PlannerSettings = Required<Omit<PlannerOptions, "level">> & { level: Level };

/** The default rates of each level: mostly single operations at `call`, only single ones at `retrieve`, only several at `plan`. */
const LEVEL_RATES: Record<Level, { chainRate: number; multiStepRate: number }> = {
  call: { chainRate: 0.25, multiStepRate: 0.1 },
  retrieve: { chainRate: 0, multiStepRate: 0 },
  plan: { chainRate: 0.6, multiStepRate: 0.4 },
};

const BASE_DEFAULTS = { requestWeights: [0.78, 0.18, 0.04] as const, withholdRate: 0.2 };

const STYLES: readonly InstructionStyle[] = ["question", "imperative", "first-person"];

/** Arguments that are plumbing rather than part of a user's goal (paging, formats, keys), from the lexicon. */
const PLUMBING = wholeWord(PLUMBING_NAMES, "");

interface DraftStep {
  entry: ToolboxEntry;
  args: Record<string, unknown>;
  links: PlanLink[];
}

function weighted<T>(rng: Rng, items: readonly T[], weight: (item: T) => number): T {
  const weights = items.map(weight);
  const total = weights.reduce((a, b) => a + b, 0);
  let r = rng.next() * total;
  for (let i = 0; i < items.length; i++) {
    r -= weights[i] as number;
    if (r < 0) return items[i] as T;
  }
  return items[items.length - 1] as T;
}

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Whether an optional argument is something a user would say (a filter, a detail), not plumbing. */
export function isMeaningfulOptional(arg: ArgumentInfo): boolean {
  if (arg.required || arg.deprecated || arg.readOnly || arg.wrappedBody) return false;
  if (arg.in === "header" || arg.in === "cookie") return false;
  if (PLUMBING.test(identifierWords(arg.name).join("_"))) return false;
  if (/deprecated|internal use|for debugging/i.test(arg.description)) return false;
  if (arg.type === "object" && arg.enum === undefined) return false;
  if (arg.format === "binary" || arg.format === "byte") return false;
  return true;
}

function toolWeight(entry: ToolboxEntry): number {
  const m = entry.tool.operation.method;
  // A read whose spec declares no content for its answer tells the user nothing (no episode rests on it): rarely asked.
  if (m === "get" && answersNothing(entry)) return 0.05;
  return m === "get" ? 2 : m === "post" ? 1.5 : 1;
}

/** Whether an operation's success answer, made from its spec, holds nothing (see `answersNothing` of specs). */
function answersNothing(entry: ToolboxEntry): boolean {
  return answersNothingOf(entry.toolset.catalog, entry.tool);
}

/** Which argument names a validation issue is about. */
function issueArgs(entry: ToolboxEntry, location: readonly string[]): string[] {
  const [where, name] = location;
  if (name === undefined) return [];
  if (where === "path" || where === "query" || where === "header" || where === "cookie") {
    return entry.tool.parameters.filter((p) => p.in === where && p.name === name).map((p) => p.arg);
  }
  if (where === "body") {
    const body = entry.tool.body;
    if (body?.mode === "wrapped" && body.arg !== undefined) return [body.arg];
    return [name];
  }
  if (where === "arguments") return [name];
  return [];
}

/** Fills a step's arguments: the required ones and sometimes one or two meaningful optional ones, valid against the spec. */
function fillStep(entry: ToolboxEntry, links: PlanLink[], shared: Map<string, unknown>, rng: Rng, ctx: ValueContext, item?: Record<string, unknown>): DraftStep {
  const catalog = entry.toolset.catalog;
  // Credential arguments are the harness's to fill (see ToolboxEntry.credentials): no user plans or says them.
  const credentials = entry.credentials ?? {};
  const infos = toolArguments(catalog, entry.tool).filter((a) => !(a.name in credentials));
  const linked = new Set(links.map((l) => l.arg));
  const required = infos.filter((a) => a.required && !linked.has(a.name));
  const optional = infos.filter((a) => !linked.has(a.name) && isMeaningfulOptional(a));
  const weights = required.length === 0 ? [0.25, 0.5, 0.25] : [0.55, 0.33, 0.12];
  const count = Math.min(optional.length, weighted(rng, [0, 1, 2], (n) => weights[n] as number));
  const picked = shuffled(rng, optional).slice(0, count);
  // A change with nothing to change is no request: an update sets at least one body field.
  const method = entry.tool.operation.method;
  if ((method === "put" || method === "patch") && ![...required, ...picked].some((a) => a.in === "body")) {
    const field = optional.find((a) => a.in === "body" && !picked.includes(a)) ?? infos.find((a) => a.in === "body" && !a.readOnly && !linked.has(a.name) && !required.includes(a));
    if (field) picked.push(field);
  }
  const chosen = new Set([...required, ...picked].map((a) => a.name));
  // A coordinate is said with its partner (a latitude alone names no place).
  for (const a of [...chosen]) {
    const c = coordinateOf(a);
    const partner = c && infos.find((b) => !linked.has(b.name) && coordinateOf(b.name)?.prefix === c.prefix && coordinateOf(b.name)?.axis !== c.axis);
    if (partner) chosen.add(partner.name);
  }
  // An optional body that is sent must have its own required properties.
  const body = entry.tool.body;
  if (body?.mode === "flat" && !body.required && [...chosen].some((n) => n in body.properties) && body.schemaPointer !== undefined) {
    for (const r of objectShape(catalog.registry, "request", body.schemaPointer)?.required ?? []) if (!linked.has(r)) chosen.add(r);
  }
  const args: Record<string, unknown> = {};
  for (const arg of infos) {
    if (!chosen.has(arg.name)) continue;
    const known = shared.get(shareKey(entry, arg));
    // A change sets something new: "update it setting the title to" the title it already has is no change.
    const changes = (method === "put" || method === "patch") && arg.in === "body" && !arg.required;
    let value = known !== undefined && !changes && rng.chance(0.85) ? structuredClone(known) : chooseValue(entry, arg, rng, ctx).value;
    for (let i = 0; i < 3 && changes && known !== undefined && stableStringify(value) === stableStringify(known); i++) value = chooseValue(entry, arg, rng, ctx).value;
    // An empty list or object says nothing: an optional one is left out.
    const empty = (Array.isArray(value) && value.length === 0) || (typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0);
    if (empty && !arg.required) continue;
    // A structured value says its required fields and a detail or two, as a person would (kept whole when trimming breaks it).
    const said = typeof value === "object" && value !== null ? asPersonSaysIt(catalog.registry, arg.pointer, value, rng) : value;
    args[arg.name] = withoutRepeats(said !== value && validFor(entry, arg, said) ? said : value);
  }
  if (item) matchItem(infos, args, item);
  makeConsistent(entry, infos, args, rng, ctx);
  // Valid arguments from the synthesizer, drawn only when something needs repair or a stand-in.
  let valid: Record<string, unknown> | undefined;
  const validArgs = (): Record<string, unknown> => (valid ??= synthesizeArguments(catalog, entry.tool, { seed: rng.int(0, 0x7fffffff), optionals: 0 }));
  // Linked arguments are unknown until the earlier call answers: a stand-in value checks the rest.
  const standIns: Record<string, unknown> = {};
  for (const arg of infos) {
    if (linked.has(arg.name)) standIns[arg.name] = validArgs()[arg.name] ?? synthesizedValue(entry, arg, 1) ?? arg.examples[0] ?? (arg.type === "integer" || arg.type === "number" ? 1 : "x");
  }
  for (let round = 0; round < 4; round++) {
    const checked = validateCall(catalog, entry.tool.name, { ...args, ...standIns, ...credentials });
    if (checked.ok) break;
    const bad = new Set(checked.errors.flatMap((e) => issueArgs(entry, e.location)));
    if (bad.size === 0) break;
    for (const name of bad) {
      if (linked.has(name)) continue;
      const info = infos.find((a) => a.name === name);
      if (!info) {
        delete args[name];
        continue;
      }
      if (!info.required && (round >= 1 || name in args)) {
        delete args[name];
        continue;
      }
      // Examples and fixtures can be wrong: the synthesizer's values follow the schema.
      const repaired = round === 0 ? validArgs()[name] : synthesizedValue(entry, info, deriveSeed(round, rng.int(0, 0x7fffffff)));
      if (repaired !== undefined) args[name] = repaired;
    }
  }
  for (const arg of infos) {
    const key = shareKey(entry, arg);
    if (arg.name in args && !shared.has(key)) shared.set(key, args[arg.name]);
  }
  return { entry, args, links };
}

/**
 * Under what a value is shared by the steps of one request: its argument's name (`city`, `bookId`), except a path's
 * generic id, which is the id of that path's resource (`/rewards/{id}` and `/questions/{id}` name two records).
 */
function shareKey(entry: ToolboxEntry, arg: ArgumentInfo): string {
  if (arg.in !== "path" || !/^(id|uuid|guid|key|slug|code|name)$/i.test(arg.name)) return arg.name;
  const segments = entry.tool.operation.path.split("/");
  const at = segments.indexOf(`{${arg.name}}`);
  return `${arg.name}@${at > 0 ? (segments[at - 1] ?? "") : entry.tool.operation.path}`;
}

/** A value whose lists hold no item twice (synthesized lists repeat items, which no user does). */
function withoutRepeats(value: unknown): unknown {
  if (Array.isArray(value)) {
    const seen = new Set<string>();
    return value.map(withoutRepeats).filter((v) => {
      const key = stableStringify(v);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutRepeats(v)]));
  return value;
}

const SEARCH_TEXT = wholeWord(SEARCH_PARAMETER_NAMES, "");
const SOURCE_LANGUAGE = wholeWord(TRANSLATION_LANGUAGE_NAMES.source);
const TARGET_LANGUAGE = wholeWord(TRANSLATION_LANGUAGE_NAMES.target);

/**
 * Makes a search's filters find a given item of the initial state (the state answers from its fixtures,
 * so "search books about lighthouses" would find nothing to chain from): filters the item has take the
 * item's values, and the search text is the item's title or name.
 */
function matchItem(infos: readonly ArgumentInfo[], args: Record<string, unknown>, item: Record<string, unknown>): void {
  for (const arg of infos) {
    if (!(arg.name in args) || arg.in !== "query") continue;
    const field = item[arg.name];
    if (typeof field === "string" || typeof field === "number" || typeof field === "boolean") args[arg.name] = field;
    else if (Array.isArray(field) && field.length > 0 && (typeof field[0] === "string" || typeof field[0] === "number")) args[arg.name] = arg.type === "array" ? [field[0]] : field[0];
    else if (field === undefined && SEARCH_TEXT.test(arg.name)) {
      const text = ["title", "name", "displayName", "label", "text", "summary"].map((k) => item[k]).find((v): v is string => typeof v === "string" && v.trim() !== "");
      if (text !== undefined) args[arg.name] = text.split(/\s+/).length > 4 ? text.split(/\s+/).slice(0, 3).join(" ") : text;
      else if (!arg.required) delete args[arg.name];
    } else if (!arg.required && typeof args[arg.name] !== "boolean") delete args[arg.name]; // a filter the item cannot match (null, an object, a field it lacks)
  }
}

const START = wholeWord(PAIR_END_WORDS.start, "");
const END = wholeWord(PAIR_END_WORDS.end, "");
const SOURCE = wholeWord(PAIR_END_WORDS.source, "");
const TARGET = wholeWord(PAIR_END_WORDS.target, "");

/** The argument's words without the one that says which end it is (`startDate` -> `date`). */
function pairKey(name: string, end: RegExp): string | undefined {
  const words = identifierWords(name);
  const i = words.findIndex((w) => end.test(w));
  return i < 0 ? undefined : words.filter((_, j) => j !== i).join("_");
}

/**
 * Makes related values agree as a user's would: a range ends after it starts (`startDate` <= `endDate`),
 * and a trip or a translation goes somewhere else (`origin` != `destination`, `source` != `target`).
 */
function makeConsistent(entry: ToolboxEntry, infos: readonly ArgumentInfo[], args: Record<string, unknown>, rng: Rng, ctx: ValueContext): void {
  const names = Object.keys(args);
  // Each name's words without its end word, once per name (the loop below looks at every pair).
  const keys = new Map(names.map((n) => [n, { start: pairKey(n, START), end: pairKey(n, END), source: pairKey(n, SOURCE), target: pairKey(n, TARGET) }]));
  for (const a of names) {
    for (const b of names) {
      if (a === b) continue;
      const ka = keys.get(a)?.start;
      const kb = keys.get(b)?.end;
      const va = args[a];
      const vb = args[b];
      if (ka !== undefined && ka === kb && typeof va === "string" && typeof vb === "string" && /^\d{4}-\d{2}-\d{2}/.test(va) && /^\d{4}-\d{2}-\d{2}/.test(vb)) {
        // A range ends a little after it starts: an event within hours, a trip or a series within weeks.
        const span = Date.parse(vb) - Date.parse(va);
        const short = va.length > 10 && (entry.tool.operation.method === "post" || entry.tool.operation.method === "put" || entry.tool.operation.method === "patch");
        const tooLong = span > (short ? 12 * HOUR : 60 * DAY_MS);
        if (Number.isNaN(span) || span <= 0 || tooLong) args[b] = shiftedDate(va, short ? rng.int(1, 6) * 30 * 60_000 : rng.int(1, 21) * DAY_MS);
      }
      const sa = keys.get(a)?.source;
      const tb = keys.get(b)?.target;
      if (sa !== undefined && sa === tb && typeof va === "string" && va === args[b]) {
        const info = infos.find((x) => x.name === b);
        if (!info) continue;
        for (let i = 0; i < 4 && args[b] === va; i++) args[b] = chooseValue(entry, info, rng, ctx).value;
        if (args[b] === va && info.enum) args[b] = info.enum.find((v) => v !== va) ?? va;
      }
    }
  }
  // A region belongs to its country: `subdivision: FR-67` goes with `countryCode: FR`.
  const subdivision = Object.entries(args).find(([k, v]) => /subdivision/i.test(k) && typeof v === "string" && /^[A-Z]{2}-/.test(v));
  const country = names.find((k) => /^country(_?code)?$/i.test(k));
  if (subdivision && country !== undefined && typeof args[country] === "string") args[country] = (subdivision[1] as string).slice(0, 2);
  // A city belongs to its country: `city: London` goes with `country: GB` (in the argument's own form).
  const cityArg = names.find((k) => /^(city|town|locality|city_?name|q|query|location)$/i.test(k));
  const known = cityArg !== undefined && typeof args[cityArg] === "string" ? findCity((args[cityArg] as string).split(",")[0] ?? "") : undefined;
  if (known && country !== undefined && typeof args[country] === "string") {
    const current = args[country] as string;
    const info = infos.find((x) => x.name === country);
    const wanted = /^[A-Z]{3}$/.test(current) ? (findCountry(known.countryCode)?.alpha3 ?? current) : /^[a-z]{2}$/.test(current) ? known.countryCode.toLowerCase() : current.length > 3 ? known.country : known.countryCode;
    if (!info?.enum || info.enum.includes(wanted)) args[country] = wanted;
  }
  // A word is looked up in its own language; English sentences are translated from English.
  const source = names.find((k) => SOURCE_LANGUAGE.test(k));
  if (source !== undefined && typeof args[source] === "string") {
    const word = names.find((k) => k === "word");
    const pool = wordsOfLanguage(args[source] as string);
    if (word !== undefined && pool !== undefined && pool.length > 0) args[word] = rng.pick(pool);
    else if (word !== undefined && pool === undefined) args[source] = "en";
    if (names.includes("texts") && entry.tool.operation.method === "post" && !/detect/i.test(entry.name)) args[source] = "en";
    const target = names.find((k) => TARGET_LANGUAGE.test(k));
    if (target !== undefined && typeof args[target] === "string" && (args[target] as string).slice(0, 2) === (args[source] as string).slice(0, 2)) {
      const info = infos.find((x) => x.name === target);
      for (let i = 0; i < 6 && info && (args[target] as string).slice(0, 2) === (args[source] as string).slice(0, 2); i++) args[target] = chooseValue(entry, info, rng, ctx).value;
    }
    // Glossary entries pair words of the two languages.
    const entries = args["entries"];
    if (target !== undefined && Array.isArray(entries) && entries.every((e) => isObject(e) && "source" in e && "target" in e) && typeof args[target] === "string") {
      let pairs = termPairs(args[source] as string, args[target] as string, rng);
      // A pair the word pool lacks (a language it does not have): another pair of the parameters' values that it has.
      const sourceInfo = infos.find((x) => x.name === source);
      const targetInfo = infos.find((x) => x.name === target);
      for (let i = 0; i < 12 && pairs === undefined && sourceInfo && targetInfo; i++) {
        const s = chooseValue(entry, sourceInfo, rng, ctx).value;
        const t = chooseValue(entry, targetInfo, rng, ctx).value;
        if (typeof s !== "string" || typeof t !== "string" || s.slice(0, 2) === t.slice(0, 2)) continue;
        pairs = termPairs(s, t, rng);
        if (pairs) {
          args[source] = s;
          args[target] = t;
        }
      }
      if (pairs) args["entries"] = pairs;
    }
  }
}

const HOUR = 3_600_000;
const DAY_MS = 86_400_000;

/** A date or date-time moved by some milliseconds, in the same form (`2025-06-19`, `2025-06-19T12:30:00+02:00`). */
function shiftedDate(value: string, ms: number): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(Date.parse(`${value}T00:00:00Z`) + ms).toISOString().slice(0, 10);
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.exec(value);
  if (!m) return value;
  const local = Date.parse(`${m[1]}Z`) + ms;
  const text = new Date(local).toISOString().slice(0, 19);
  return `${text}${m[3] ?? ""}`;
}

function chainSteps(chains: readonly ChainCandidate[], rng: Rng, shared: Map<string, unknown>, ctx: ValueContext): DraftStep[] {
  const first = weighted(rng, chains, (c) => (c.to.tool.operation.method === "get" ? 3 : 1) * (c.direct ? 1.5 : 1));
  const order: { entry: ToolboxEntry; links: PlanLink[] }[] = [
    { entry: first.from, links: [] },
    { entry: first.to, links: first.links.map((l) => ({ arg: l.arg, fromStep: 0, field: l.field })) },
  ];
  // Sometimes a third step hangs off the first or the second ("... and its nutrition facts too").
  if (rng.chance(0.25)) {
    const more = chains.filter((c) => (c.from === first.from || c.from === first.to) && c.to !== first.from && c.to !== first.to && c.to.tool.operation.method === "get");
    if (more.length > 0) {
      const next = rng.pick(more);
      const fromStep = next.from === first.from ? 0 : 1;
      order.push({ entry: next.to, links: next.links.map((l) => ({ arg: l.arg, fromStep, field: l.field })) });
    }
  }
  // A search over the initial state is made to find one of its items, so the chain has something to follow.
  let item: Record<string, unknown> | undefined;
  const fixtures = first.from.toolset.fixtures;
  const route = resourceRoute(first.from.toolset.catalog, first.from.tool);
  if (first.kind === "search" && fixtures && route?.kind === "collection" && first.from.tool.operation.method === "get") {
    const items = fixtures[route.collection];
    if (items && items.length > 0) item = rng.pick(items) as Record<string, unknown>;
  }
  return order.map((o, i) => fillStep(o.entry, o.links, shared, rng, ctx, i === 0 ? item : undefined));
}

/** The required, unlinked, simple values of a request that could be held back: `step:arg`. */
function withholdable(steps: readonly DraftStep[]): { key: string; value: unknown }[] {
  const out: { key: string; value: unknown }[] = [];
  steps.forEach((step, i) => {
    const infos = toolArguments(step.entry.toolset.catalog, step.entry.tool);
    for (const arg of infos) {
      if (!arg.required || arg.wrappedBody || arg.in === "header" || arg.in === "cookie") continue;
      if (step.links.some((l) => l.arg === arg.name)) continue;
      const value = step.args[arg.name];
      if (typeof value !== "string" && typeof value !== "number") continue;
      if (valueText(value).trim().length < 2 && typeof value === "string") continue;
      out.push({ key: `${i}:${arg.name}`, value });
    }
  });
  return out;
}

function textHas(text: string, value: unknown): boolean {
  return text.toLowerCase().includes(valueText(value).toLowerCase());
}

function toRequest(steps: readonly DraftStep[], withheld: string[], style: InstructionStyle, template: number): PlanRequest {
  const planSteps: PlanStep[] = steps.map((s) => ({ toolset: s.entry.toolset.name, tool: s.entry.name, args: s.args, links: s.links }));
  return { steps: planSteps, withheld, style, template };
}

/** Plans one request on one toolset: its steps (single, independent or chained), what it withholds, and its wording. */
function planRequest(toolbox: Toolbox, toolset: string, position: number, rng: Rng, options: PlannerSettings, ctx: ValueContext): PlanRequest {
  const entries = toolbox.ofToolset(toolset).filter((e) => !e.tool.deprecated);
  const chains = chainCandidates(toolbox).filter((c) => c.from.toolset.name === toolset);
  // Steps are operations whose answers say something: a read that answers nothing only when the toolset has no other.
  const askable = entries.filter((e) => !(e.tool.operation.method === "get" && answersNothing(e)));
  const withhold = rng.chance(position === 0 ? options.withholdRate : options.withholdRate / 2);
  let steps: DraftStep[] = [];
  let candidates: { key: string; value: unknown }[] = [];
  // When the request is to withhold a value, a few drafts are tried until one has a value to withhold.
  for (let attempt = 0; attempt < (withhold ? 6 : 1); attempt++) {
    const shared = new Map<string, unknown>();
    ctx.places.clear();
    const r = rng.next();
    // At the plan level every request takes several operations: a chain when the toolset has one, else independent steps.
    const several = options.level === "plan" ? 1 : options.chainRate + options.multiStepRate;
    if (chains.length > 0 && r < options.chainRate) steps = chainSteps(chains, rng, shared, ctx);
    else if (askable.length >= 2 && r < several) {
      const n = askable.length >= 3 && rng.chance(0.2) ? 3 : 2;
      const picked: ToolboxEntry[] = [];
      while (picked.length < n) picked.push(weighted(rng, askable.filter((e) => !picked.includes(e)), toolWeight));
      steps = picked.map((e) => fillStep(e, [], shared, rng, ctx));
    } else steps = [fillStep(weighted(rng, askable.length > 0 ? askable : entries, toolWeight), [], shared, rng, ctx)];
    candidates = withholdable(steps);
    if (!withhold || candidates.length > 0) break;
  }

  const style = rng.pick(STYLES);
  const draft = toRequest(steps, [], style, 0);
  const template = rng.pick(templatesFor(style, hasNounPhrase(draft, toolbox)));
  if (!withhold || candidates.length === 0) return toRequest(steps, [], style, template);

  // Withhold one value (every step that uses the same value keeps it back too), unless the wording would still say it.
  for (const candidate of shuffled(rng, candidates)) {
    const same = stableStringify(candidate.value);
    const withheld = candidates.filter((c) => stableStringify(c.value) === same).map((c) => c.key);
    // Coordinates go together: holding back a latitude holds back its longitude.
    for (const key of [...withheld]) {
      const [stepText, argName] = key.split(":") as [string, string];
      const axis = coordinateOf(argName);
      const step = steps[Number(stepText)];
      if (!axis || !step) continue;
      for (const other of Object.keys(step.args)) {
        const c = coordinateOf(other);
        const partner = `${stepText}:${other}`;
        if (c && c.prefix === axis.prefix && !withheld.includes(partner) && candidates.some((x) => x.key === partner)) withheld.push(partner);
      }
    }
    const request = toRequest(steps, withheld, style, template);
    const hiddenValues = withheld.map((key) => {
      const [i, arg] = key.split(":") as [string, string];
      return steps[Number(i)]?.args[arg];
    });
    const hiddenKeys = new Set(hiddenValues.map((v) => stableStringify(v)));
    const mentionedElsewhere = steps.some((s, i) => Object.entries(s.args).some(([arg, v]) => !withheld.includes(`${i}:${arg}`) && hiddenKeys.has(stableStringify(v))));
    if (mentionedElsewhere) continue;
    const text = renderInstruction(request, toolbox, position);
    if (hiddenValues.some((v) => textHas(text, v))) continue;
    return request;
  }
  return toRequest(steps, [], style, template);
}

function withoutUndefined(options: PlannerOptions): PlannerOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as PlannerOptions;
}

/**
 * The offline user's hidden goal for an episode: mostly one request, sometimes two or three
 * (API-Bank); each request 1-3 steps on the episode's toolbox, chains linking a result field to a
 * later argument, values from fixtures, enums, examples and synthesis, valid against the spec.
 * All randomness comes from `rng`.
 */
export function planEpisode(toolbox: Toolbox, rng: Rng, options: PlannerOptions = {}): Plan {
  const level = options.level ?? "call";
  const o: PlannerSettings = { ...BASE_DEFAULTS, ...LEVEL_RATES[level], ...withoutUndefined(options), level };
  const toolsets = [...new Set(toolbox.entries.filter((e) => !e.tool.deprecated).map((e) => e.toolset.name))];
  if (toolsets.length === 0) return { requests: [] };
  const count = weighted(rng, [1, 2, 3], (n) => o.requestWeights[n - 1] ?? 0);
  const requests: PlanRequest[] = [];
  // One user per episode: the same person registers, logs in and books.
  const ctx = newValueContext(rng);
  let toolset = rng.pick(toolsets);
  for (let i = 0; i < count; i++) {
    if (i > 0 && toolsets.length > 1 && rng.chance(0.4)) toolset = rng.pick(toolsets.filter((t) => t !== toolset));
    requests.push(planRequest(toolbox, toolset, i, rng, o, ctx));
  }
  return { requests };
}
