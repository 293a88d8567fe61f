import { resourceRoute } from "../specs/resource-routes.js";
import { guessIdField } from "../specs/resource-store.js";
import { deriveSeed, type Rng } from "../specs/seed.js";
import { realisticValue } from "../specs/realistic-value.js";
import { synthesize } from "../specs/synthesize.js";
import type { ArgumentInfo } from "./tool-arguments.js";
import type { ToolboxEntry } from "./toolbox.js";
import { idStem, isIdName } from "./value-phrase.js";
import { identifierWords, singular } from "./words.js";

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function norm(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Where a planned value came from (for tests and statistics). */
export type ValueSource = "fixture" | "enum" | "example" | "synthesized" | "fallback";

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

function fallbackValue(arg: ArgumentInfo): unknown {
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

const FREE_TEXT = /^(text|texts|title|name|description|message|note|notes|comment|content|body|summary|bio|subject|q|query|search|keywords?)$/;

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

/**
 * The value the user has in mind for one argument: an id of the initial state when the argument names
 * one, else one of the spec's enum values, else (often) one of its examples, else a realistic
 * synthesized value. All choices come from `rng`.
 */
export function chooseValue(entry: ToolboxEntry, arg: ArgumentInfo, rng: Rng): { value: unknown; source: ValueSource } {
  const ids = fixtureIds(entry, arg);
  if (ids.length > 0 && rng.chance(0.85)) return { value: rng.pick(ids), source: "fixture" };
  if (arg.enum !== undefined && arg.enum.length > 0) return { value: pickEnum(arg, arg.enum, rng), source: "enum" };
  const examples = arg.examples.filter((e) => e !== null && e !== undefined && !(isObject(e) && Object.keys(e).length === 0));
  const seed = deriveSeed(Math.floor(rng.next() * 0x100000000), entry.name, arg.name);
  // Text invented by a generator that does not know the name reads badly ("yowza acidly"): examples first then.
  if (examples.length > 0 && (!knowsName(arg, seed) || rng.chance(0.5))) return { value: structuredClone(rng.pick(examples)), source: "example" };
  const synthesized = synthesizedValue(entry, arg, seed);
  if (synthesized !== undefined) return { value: synthesized, source: "synthesized" };
  if (examples.length > 0) return { value: structuredClone(rng.pick(examples)), source: "example" };
  return { value: fallbackValue(arg), source: "fallback" };
}
