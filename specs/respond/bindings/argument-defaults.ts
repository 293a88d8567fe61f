import type { Catalog } from "../../catalog/catalog.js";
import type { Tool } from "../../catalog/tool.js";

/**
 * The values a server assumes for the query and path parameters a call leaves out: their schemas' defaults
 * (`unit` -> `km`, `pageSize` -> 20), so that an answer says what the server did (a distance in kilometres,
 * not in the example's miles). Defaults that mean "no filter" (`all`, `any`, `*`) are not values.
 */

const NO_FILTER = /^(all|any|\*|none|default|)$/i;
const byTool = new WeakMap<Tool, ReadonlyMap<string, unknown>>();

/** The defaults of a tool's parameters, by argument name. */
export function argumentDefaults(catalog: Catalog, tool: Tool): ReadonlyMap<string, unknown> {
  let hit = byTool.get(tool);
  if (hit === undefined) {
    const out = new Map<string, unknown>();
    for (const p of tool.parameters) {
      if (p.schemaPointer === undefined || (p.in !== "query" && p.in !== "path")) continue;
      const schema = catalog.registry.resolve("request", p.schemaPointer).schema as Record<string, unknown> | undefined;
      const value = schema?.["default"];
      if (value === undefined || value === null || typeof value === "object" || (typeof value === "string" && NO_FILTER.test(value))) continue;
      out.set(p.arg, value);
    }
    hit = out;
    byTool.set(tool, hit);
  }
  return hit;
}

/** Arguments that say where (normalized: lower case, letters and digits). */
const PLACE_ARGUMENT = /^(city|cityname|town|state|statecode|region|province|county|country|countrycode|zip|zipcode|postalcode|postcode|address|location|place|lat|latitude|lon|lng|long|longitude|near|coordinates|point)$/;

function isPlaceArgument(name: string): boolean {
  return PLACE_ARGUMENT.test(name.toLowerCase().replace(/[^a-z0-9]/g, ""));
}

/**
 * The value a server assumes for an argument the call leaves out (its default), except where the default is a place
 * and the call says where by another argument: RentCast's `city=Austin` is where it looks when nothing else is said,
 * not where listings around the coordinates a call gives are.
 */
export function assumedValue(catalog: Catalog, tool: Tool, args: Readonly<Record<string, unknown>>, arg: string): unknown {
  const value = argumentDefaults(catalog, tool).get(arg);
  if (value === undefined || !isPlaceArgument(arg)) return value;
  for (const [k, v] of Object.entries(args)) if (k !== arg && v !== undefined && v !== null && v !== "" && isPlaceArgument(k)) return undefined;
  return value;
}
