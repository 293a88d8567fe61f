import { objectShape } from "../../specs/catalog/object-properties.js";
import { resourceRoute } from "../../specs/catalog/resource-routes.js";
import { selectedResponse } from "../../specs/respond/response-cache.js";
import { identifierWords, isIdName } from "../../specs/words.js";
import { isObject } from "../../specs/json-object.js";
import type { ArgumentInfo } from "../assistant/tool-arguments.js";
import type { ToolboxEntry } from "../roles/toolbox.js";

/**
 * What the id an argument names looks like, by the tool's own answer: `GET /patient_messages/{id}` (a string path
 * parameter) answers with messages whose `id` is an integer, so the user asks for message `17369`, not
 * `ag777ffnpyq5` (an id the API could never have given out, which no answer can agree with); a patient whose
 * `id` is 24 hex digits is asked for by such an id.
 */

const key = (s: string): string => identifierWords(s).join("");

/** Fields that wrap the record an answer is about, beside its metadata. */
const WRAPPERS = /^(data|result|item|record|resource|response|payload|object|entity)$/i;

/** The id names an argument may stand for: an item route's id hints, `companyId` for itself, `templateId` for `templateIdOrAlias`. */
function idNames(entry: ToolboxEntry, arg: ArgumentInfo): string[] {
  const route = resourceRoute(entry.toolset.catalog, entry.tool);
  if (route?.kind === "item" && route.idParam?.arg === arg.name) return route.idHints;
  if (isIdName(arg.name)) return [arg.name];
  const either = /^(.*?(?:Id|_id|ID))(?:Or|_or_)[A-Za-z]/.exec(arg.name);
  return either?.[1] !== undefined ? [either[1]] : [];
}

/** The id field an argument names in the tool's success answer (at its top or in the one record it wraps): its schema's pointer and schema. */
export interface NamedRecordId {
  pointer: string;
  schema: Record<string, unknown>;
}

/** The id field the argument names in the tool's success answer, if it has one. */
export function namedRecordId(entry: ToolboxEntry, arg: ArgumentInfo): NamedRecordId | undefined {
  const names = idNames(entry, arg).map(key);
  if (names.length === 0) return undefined;
  const catalog = entry.toolset.catalog;
  const pointer = selectedResponse(catalog, entry.tool).schemaPointer;
  if (pointer === undefined) return undefined;
  const idIn = (at: string, depth: number): NamedRecordId | undefined => {
    const shape = objectShape(catalog.registry, "response", at);
    if (shape === undefined) return undefined;
    for (const [name, p] of Object.entries(shape.properties)) {
      if (!names.includes(key(name))) continue;
      const resolved = catalog.registry.resolve("response", p);
      if (isObject(resolved.schema)) return { pointer: resolved.pointer, schema: resolved.schema };
    }
    if (depth > 0) return undefined;
    // The one record an answer wraps (`{data: {...}, meta: {...}}`, `{patient: {...}}`).
    const entries = Object.entries(shape.properties);
    const wrapper = entries.length === 1 ? entries[0] : entries.find(([name]) => WRAPPERS.test(name));
    return wrapper !== undefined ? idIn(wrapper[1], depth + 1) : undefined;
  };
  return idIn(pointer, 0);
}
