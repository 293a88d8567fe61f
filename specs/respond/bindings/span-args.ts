import type { Catalog } from "../../catalog/catalog.js";
import type { Tool } from "../../catalog/tool.js";
import { isObject } from "../../json-object.js";

/**
 * Arguments that ask for a span of items: of dated items (`days=5`, `hours=12`: integer query parameters named or
 * described as a number of days or hours), or of what a generator makes (`count=5` on a random or generated list).
 * See `requested-span.ts` for how an answer is made that long.
 */

/**
 * An argument that asks for a span of items: of dated items, with the step between two of them when the list
 * cannot tell (`day`, `hour`), or of the items a generator makes (`item`).
 */
export interface SpanArg {
  arg: string;
  unit: "day" | "hour" | "item";
}

/** Parameter names that ask for a number of days or hours (normalized: lower case, letters and digits). */
const DAY_ARGS = new Set(["days", "numdays", "ndays", "forecastdays", "numberofdays", "daycount", "dayscount", "daysahead", "cnt"]);
const HOUR_ARGS = new Set(["hours", "numhours", "nhours", "forecasthours", "numberofhours", "hourcount", "hoursahead"]);
/** A description that says the parameter is a number of days or hours (`Number of days to forecast`). */
const SPAN_DESCRIPTION = /^\s*(?:the\s+)?(?:number|count)\s+of\s+(?:forecast\s+|future\s+|past\s+)?(days|hours)\b/i;

/** Parameter names of how many items a generator makes (normalized). */
const COUNT_ARGS = /^(count|n|num|number|quantity|qty|amount|howmany|results|numresults)$|^(numberof|num)[a-z]+$|[a-z]+count$/;
/** A description that says how many items the call makes (`Number of UUIDs to generate`; not how many it returns: a page size). */
const COUNT_DESCRIPTION = /\b(?:number|count|amount|how many)\b.{0,40}\b(?:to (?:generate|create|make|draw|pick|roll)|generated)\b/i;
/** Operations that make things up or draw them at random, where a count is how many they make (not a page size). */
const GENERATOR = /random|generat|uuid|guid|password|lorem|ipsum|fake|sample|shuffle|roll|dice|draw|pick/i;

/** Most items a span makes a list grow to (a bound on the work of one answer). */
export const MAX_SPAN_ITEMS = 100;

/** The tool's span argument, if it has one: an integer query parameter named or described as a number of days or hours. */
export function spanArgOf(catalog: Catalog, tool: Tool): SpanArg | undefined {
  for (const p of tool.parameters) {
    if (p.in !== "query" || p.schemaPointer === undefined) continue;
    const schema = catalog.registry.resolve("request", p.schemaPointer).schema;
    if (!isObject(schema) || (schema["type"] !== "integer" && schema["type"] !== "number")) continue;
    const name = p.name.toLowerCase().replace(/[^a-z0-9]/g, "");
    const said = SPAN_DESCRIPTION.exec(p.description ?? "")?.[1]?.toLowerCase();
    const unit = DAY_ARGS.has(name) || said === "days" ? "day" : HOUR_ARGS.has(name) || said === "hours" ? "hour" : undefined;
    if (unit !== undefined) return { arg: p.arg, unit };
  }
  // How many a generator makes (`count=5` on a random or generated list); a page size of a plain list is no span.
  const generator = GENERATOR.test(`${tool.operation.operationId ?? ""} ${tool.operation.path} ${tool.description.slice(0, 200)}`);
  for (const p of tool.parameters) {
    if (p.in !== "query" || p.schemaPointer === undefined) continue;
    const schema = catalog.registry.resolve("request", p.schemaPointer).schema;
    if (!isObject(schema) || schema["type"] !== "integer") continue;
    const name = p.name.toLowerCase().replace(/[^a-z0-9]/g, "");
    if ((generator && COUNT_ARGS.test(name)) || (COUNT_DESCRIPTION.test(p.description ?? "") && !/page|offset|limit/i.test(name))) return { arg: p.arg, unit: "item" };
  }
  return undefined;
}

/** The number of items a span argument asks for (a whole number, as given or as a string of digits). */
export function spanLength(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : undefined;
  return n !== undefined && Number.isInteger(n) && n >= 1 ? n : undefined;
}
