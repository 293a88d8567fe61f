import { isObject, pointerSegment, type Json } from "../../json-object.js";
import type { SchemaField } from "../../catalog/schema-fields.js";
import { snakeName } from "../../snake-name.js";

/**
 * An answer echoes only the search its call sent: an example's `query: "42 avenue Champs Elysees Paris"` beside
 * the results of a call that searched for nothing (a reverse geocoding by coordinates) says the call asked what it
 * did not. Such an echo is left out (where the schema lets it be); a call that sent a search has its echo bound.
 */

/** Names of a field that echoes what was searched for. */
const ECHO = /^(q|query|search|search_query|search_term|search_string|keyword|keywords|term|text_query)$/;

/** The top-level text fields of a success answer's schema that echo a search. */
export function searchEchoes(fields: readonly SchemaField[]): string[] {
  return fields.filter((f) => !f.path.includes(".") && !f.path.includes("[") && f.type === "string" && ECHO.test(snakeName(f.name))).map((f) => f.path);
}

/** Takes out of an answer the search echoes (`paths`) when the call sent no search, through `remove`. */
export function dropUnsentEchoes(args: Json, out: unknown, paths: readonly string[], remove: (holder: Json, key: string, pointer: string) => void): void {
  if (!isObject(out)) return;
  const searched = Object.entries(args).some(([k, v]) => ECHO.test(snakeName(k)) && v !== undefined && v !== null && v !== "");
  if (searched) return;
  for (const path of paths) if (typeof out[path] === "string") remove(out, path, `/${pointerSegment(path)}`);
}
