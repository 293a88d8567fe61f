import type { Catalog } from "../catalog/catalog.js";
import type { Tool } from "../catalog/tool.js";
import { isUnconstrained } from "../catalog/unconstrained-schema.js";
import { selectedResponse } from "./response-cache.js";
import { examplesOf } from "./response-examples.js";

/**
 * Whether an operation's success answer, made from its spec, can hold nothing: the spec declares no success answer,
 * or no content for it, or content with neither a schema nor an example, or a schema that says nothing of the answer's shape (`{}`,
 * answered `null`). A read like that tells its caller nothing, so no episode can rest on it.
 */
export function answersNothing(catalog: Catalog, tool: Tool): boolean {
  const selected = selectedResponse(catalog, tool);
  // No success answer declared at all, or one without content: answered without a body.
  if (selected.key === undefined || selected.mediaType === undefined) return true;
  if (examplesOf(catalog, selected).length > 0) return false;
  if (selected.schemaPointer === undefined) return true;
  return isUnconstrained(catalog.registry.resolve("response", selected.schemaPointer).schema);
}

/** Whether every operation of a catalog is a read whose answer, made from its spec, holds nothing ({@link answersNothing}). */
export function onlyEmptyReads(catalog: Catalog): boolean {
  const live = catalog.tools.filter((t) => !t.deprecated);
  return live.length > 0 && live.every((t) => t.operation.method === "get" && answersNothing(catalog, t));
}
