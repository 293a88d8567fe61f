import { resourceRoute } from "../../specs/catalog/resource-routes.js";
import { ITEM_TEXT_FIELDS, SEARCH_PARAMETER_NAMES, USER_TEXT_NAMES } from "../language/lexicon/names.js";
import { wholeWord } from "../language/word-patterns.js";
import { guessIdField } from "../../specs/respond/resource-store.js";
import { deriveSeed, type Rng } from "../../specs/seed.js";
import { realisticValue } from "../../specs/synthesize/values/realistic-value.js";
import { synthesize } from "../../specs/synthesize/synthesize.js";
import { isPlaceholder, type ArgumentInfo } from "../assistant/tool-arguments.js";
import type { ToolboxEntry } from "../roles/toolbox.js";
import { coordinateOf, idStem, isIdName } from "../language/value-phrase.js";
import { boundsPastStamps, meaningfulValue, newValueContext, personaValue, sameShape, variedExample, type ValueContext } from "./value-pools.js";
import { isAfterNow, SIMULATED_TODAY } from "../../specs/synthesize/world/simulated-today.js";
import { identifierWords, singular } from "../language/words.js";
import { isObject, type Json } from "../../specs/json-object.js";
import { namedRecordId } from "./record-id-type.js";

function norm(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** An id of the form of the records' ids the argument names, as text, when their ids have a form (a number, a format, a pattern). */
function recordIdLike(entry: ToolboxEntry, arg: ArgumentInfo, rng: Rng): string | undefined {
  const id = namedRecordId(entry, arg);
  if (id === undefined) return undefined;
  const type = id.schema["type"];
  if (type === "integer") return String(1 + Math.floor(rng.next() * 99_999));
  if (type !== "string") return undefined;
  if (id.schema["format"] === undefined && id.schema["pattern"] === undefined) {
    // An example id (`57b3708b04ad8c2224f2af3b`) shows the form.
    const examples = id.schema["examples"];
    const example = id.schema["example"] ?? (Array.isArray(examples) ? examples[0] : undefined);
    return typeof example === "string" && example.length >= 6 && /\d/.test(example) && !/\s/.test(example) ? sameShape(example, rng) : undefined;
  }
  const made = synthesize(entry.toolset.catalog.registry, "response", id.pointer, { seed: Math.floor(rng.next() * 0x100000000), name: arg.name });
  return made.valid && typeof made.value === "string" ? made.value : undefined;
}

/** Where a planned value came from (for tests and statistics). */
export type ValueSource = "fixture" | "enum" | "example" | "realistic" | "synthesized" | "fallback";

/** The ids of the initial state that an argument can name: the item of an item route, or `<noun>Id` of a `/<noun>s` collection. */
export function fixtureIds(entry: ToolboxEntry, arg: ArgumentInfo): unknown[] {
  const fixtures = entry.toolset.fixtures;
  if (!fixtures) return [];
  const route = resourceRoute(entry.toolset.catalog, entry.tool);
  let collection: string | undefined;
  let hints: readonly string[] = ["id"];
  if (route?.kind === "item" && route.idParam?.arg === arg.name && !route.collection.includes("{")) {
    collection = route.collection;
    hints = route.idHints;
  } else if (isIdName(arg.name) && idStem(arg.name) !== "") {
    const stem = norm(idStem(arg.name));
    collection = Object.keys(fixtures).find((path) => {
      if (path.includes("{")) return false;
      const last = path.split("/").filter((s) => s !== "").pop() ?? "";
      return norm(singular(last)) === stem || norm(last) === stem;
    });
  }
  const items = collection !== undefined ? (fixtures[collection] ?? fixtures[collection.replace(/\/$/, "")]) : undefined;
  if (!items || items.length === 0) return [];
  return items
    .map((item) => item[guessIdField(item as Record<string, unknown>, hints)])
    .filter((v) => v !== undefined && v !== null && (typeof v === "string" || typeof v === "number"));
}

function fallbackValue(arg: ArgumentInfo, rng: Rng): unknown {
  const s = arg.schema;
  switch (arg.type) {
    case "integer":
      return typeof s["minimum"] === "number" ? Math.ceil(s["minimum"]) : 1;
    case "number":
      return typeof s["minimum"] === "number" ? s["minimum"] : 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return {};
    default:
      // An id nothing else gave: one of the common form (a name is no id: "block id").
      if (isIdName(arg.name)) return Array.from({ length: 12 }, () => "abcdefghijkmnpqrstuvwxyz0123456789".charAt(Math.floor(rng.next() * 34))).join("");
      return identifierWords(arg.name).join(" ") || "value";
  }
}

function pickEnum(arg: ArgumentInfo, values: readonly unknown[], rng: Rng): unknown {
  if (arg.type !== "array") return rng.pick(values);
  const first = rng.pick(values);
  if (values.length < 2 || !rng.chance(0.35)) return [first];
  const second = rng.pick(values.filter((v) => v !== first));
  return [first, second];
}

const FREE_TEXT = wholeWord(USER_TEXT_NAMES, "");

/** Whether the realistic generator knows what an argument's name means (its value differs from an unknown name's). */
function knowsName(arg: ArgumentInfo, seed: number): boolean {
  const key = identifierWords(arg.name).join("_");
  if (FREE_TEXT.test(key)) return false;
  const items = arg.type === "array" && isObject(arg.schema["items"]) ? arg.schema["items"] : undefined;
  const schema = items ?? arg.schema;
  if (items === undefined && arg.type !== "string" && arg.type !== undefined) return true;
  const name = items !== undefined ? singular(arg.name) : arg.name;
  const named = realisticValue(schema, { name }, seed);
  return named !== undefined && named !== realisticValue(schema, { name: "zqx_unknown_field" }, seed);
}

/** A synthesized value for an argument (seeded), or undefined when the spec gives no schema to follow. */
export function synthesizedValue(entry: ToolboxEntry, arg: ArgumentInfo, seed: number): unknown {
  if (arg.pointer === undefined) return undefined;
  try {
    const out = synthesize(entry.toolset.catalog.registry, "request", arg.pointer, { seed, name: arg.name });
    return out.valid ? out.value : undefined;
  } catch {
    return undefined;
  }
}

const STOP = new Set(["the", "and", "of", "a", "an", "to", "in", "on", "for", "with", "from", "by", "at", "its", "their", "our", "your"]);

/**
 * Values of the initial state for a filter of a list or search over it (`room` of `/devices` -> the rooms
 * the devices are in; `q` -> a significant word of an item's title), so filters find something.
 */
export function fixtureFieldValues(entry: ToolboxEntry, arg: ArgumentInfo): unknown[] {
  const fixtures = entry.toolset.fixtures;
  if (!fixtures || arg.in !== "query" || entry.tool.operation.method !== "get") return [];
  const route = resourceRoute(entry.toolset.catalog, entry.tool);
  if (route?.kind !== "collection") return [];
  const items = fixtures[route.collection] ?? fixtures[route.collection.replace(/\/$/, "")];
  if (!items || items.length === 0) return [];
  const key = norm(arg.name);
  const out: unknown[] = [];
  const add = (v: unknown): void => {
    if ((typeof v === "string" && v.trim() !== "") || typeof v === "number") if (!out.some((x) => x === v)) out.push(v);
  };
  const search = SEARCH_PARAMETER_NAMES.includes(arg.name);
  for (const item of items as Json[]) {
    for (const [field, v] of Object.entries(item)) {
      const f = norm(field);
      if (search && ITEM_TEXT_FIELDS.includes(f) && typeof v === "string") {
        for (const w of v.split(/[^\p{L}\p{N}'-]+/u)) if (w.length >= 4 && !STOP.has(w.toLowerCase())) add(w.toLowerCase());
      } else if (f === key || norm(singular(field)) === key) {
        if (Array.isArray(v)) v.forEach(add);
        else add(v);
      }
    }
  }
  // "Part of an author's name": the family name.
  if (/part of/i.test(arg.description)) return out.map((v) => (typeof v === "string" ? (v.split(/\s+/).pop() ?? v) : v));
  return arg.type === "array" ? out.map((v) => [v]) : out;
}

/** Whether a value is valid for an argument's own schema (a query or path value as it would be sent). */
export function validFor(entry: ToolboxEntry, arg: ArgumentInfo, value: unknown): boolean {
  if (value === undefined) return false;
  if (arg.pointer === undefined) return true;
  try {
    return arg.in === "body" ? entry.toolset.catalog.registry.validatorAt("request", arg.pointer)(value) === true : entry.toolset.catalog.registry.validatorAt("request", arg.pointer, true)(structuredClone(value)) === true;
  } catch {
    return true;
  }
}

/** A value source for one argument: where it comes from, how likely it is chosen, and how it is drawn. */
interface Source {
  source: ValueSource;
  weight: number;
  draw: () => unknown;
}

/**
 * The value the user has in mind for one argument, drawn from several sources by a seeded choice: an id
 * of the initial state when the argument names one; else an enum value; else one of the spec's examples,
 * a value of the initial state (for filters), a realistic value by what the argument means (the persona's
 * details, places, codes, dates near the reference date, numbers near the example, texts people type),
 * or a realistic faker value by name and format. Every drawn value is checked against the argument's
 * schema; synthesis is the last resort. All choices come from `rng`.
 */
export function chooseValue(entry: ToolboxEntry, arg: ArgumentInfo, rng: Rng, ctx?: ValueContext): { value: unknown; source: ValueSource } {
  const ids = fixtureIds(entry, arg);
  // An id of the initial state: another one (of the same shape) would only be "not found".
  if (ids.length > 0) return { value: rng.pick(ids), source: "fixture" };
  if (arg.enum !== undefined && arg.enum.length > 0) return { value: pickEnum(arg, arg.enum, rng), source: "enum" };
  // A text id that says nothing of its form, of records whose ids have one (`/patient_messages/{id}` of messages
  // with `id: 17369`, patients with 24 hex digits): one of that form.
  if ((arg.type === "string" || arg.type === undefined) && arg.format === undefined && arg.schema["pattern"] === undefined && arg.examples.length === 0) {
    const id = recordIdLike(entry, arg, rng);
    if (id !== undefined && validFor(entry, arg, id)) return { value: id, source: "realistic" };
  }
  const context = ctx ?? newValueContext(rng);
  const state = fixtureFieldValues(entry, arg);
  // The user's own e-mail, name and password are the persona's (a filter over the state may name someone else).
  const own = personaValue(arg, context.persona);
  if (own !== undefined && state.length === 0 && validFor(entry, arg, own)) return { value: own, source: "realistic" };
  // An example of a bound on what already happened (`from` over articles' `publishedAt`) that lies ahead of today is no use.
  const pastOnly = (arg.format === "date" || arg.format === "date-time") && boundsPastStamps(entry, arg);
  const examples = arg.examples.filter((e) => e !== null && e !== undefined && !(isObject(e) && Object.keys(e).length === 0) && !(pastOnly && typeof e === "string" && isAfterNow(e, SIMULATED_TODAY)));
  const seed = deriveSeed(Math.floor(rng.next() * 0x100000000), entry.name, arg.name);
  const sources: Source[] = [];
  const idsFor = (name: string): unknown[] => fixtureIds(entry, { ...arg, name, in: "body" });
  if (examples.length > 0) {
    const structured = examples.some((e) => isObject(e) || (Array.isArray(e) && e.some(isObject)));
    sources.push({ source: "example", weight: structured ? 1 : 0.7, draw: () => structuredClone(rng.pick(examples)) });
    if (structured) sources.push({ source: "realistic", weight: 2, draw: () => variedExample(entry, arg.name, structuredClone(rng.pick(examples)), rng, context, idsFor) });
  } else if (arg.type === "object" || (arg.type === "array" && isObject(arg.schema["items"]) && (arg.schema["items"]["type"] === "object" || arg.schema["items"]["properties"] !== undefined || arg.schema["items"]["$ref"] !== undefined))) {
    // Structured values the spec shows only property by property: synthesized (from those examples), then made the user's own.
    sources.push({ source: "realistic", weight: 3, draw: () => variedExample(entry, arg.name, synthesizedValue(entry, arg, seed), rng, context, idsFor) });
  }
  if (state.length > 0) sources.push({ source: "fixture", weight: 2, draw: () => structuredClone(rng.pick(state)) });
  const meaningful = meaningfulValue(entry, arg, rng, context);
  // A coordinate goes with its partner: both come from the same place.
  if (meaningful !== undefined && coordinateOf(arg.name) !== undefined && validFor(entry, arg, meaningful)) return { value: meaningful, source: "realistic" };
  if (meaningful !== undefined) sources.push({ source: "realistic", weight: 3, draw: () => meaningful });
  // Text invented by a generator that does not know the name reads badly ("yowza acidly"), and a faker city
  // ("Kristinestead") is no real place: the generator only for names it knows that nothing above knows.
  else if (knowsName(arg, seed) && arg.type !== "object" && arg.type !== "array") sources.push({ source: "synthesized", weight: 1.5, draw: () => synthesizedValue(entry, arg, seed) });
  while (sources.length > 0) {
    const chosen = weightedPick(rng, sources);
    sources.splice(sources.indexOf(chosen), 1);
    const value = chosen.draw();
    if (value !== undefined && validFor(entry, arg, value) && !isPlaceholder(value)) return { value, source: chosen.source };
  }
  // (synthesis takes a schema's example as it is: `{{BLOCK_ID}}` is none to say)
  const synthesized = synthesizedValue(entry, arg, seed);
  if (synthesized !== undefined && !isPlaceholder(synthesized)) return { value: synthesized, source: "synthesized" };
  if (examples.length > 0) return { value: structuredClone(rng.pick(examples)), source: "example" };
  return { value: fallbackValue(arg, rng), source: "fallback" };
}

function weightedPick<T extends { weight: number }>(rng: Rng, items: readonly T[]): T {
  const total = items.reduce((a, b) => a + b.weight, 0);
  let r = rng.next() * total;
  for (const item of items) {
    r -= item.weight;
    if (r < 0) return item;
  }
  return items[items.length - 1] as T;
}
