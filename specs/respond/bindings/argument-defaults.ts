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
