import { getAt } from "../json-pointer.js";
import { isObject } from "../json-object.js";
import type { Catalog } from "./catalog.js";
import type { ParameterBinding } from "./tool.js";

/**
 * The examples a parameter object gives beside its schema (`example`, and the values of `examples`), in document
 * order, and whether it is deprecated: what the spec says of a parameter above its schema.
 */
export function parameterNotes(catalog: Catalog, p: ParameterBinding): { examples: unknown[]; deprecated: boolean } {
  // The parameter object sits above its schema (`.../schema` or `.../content/<type>/schema`).
  const pointer = p.schemaPointer?.replace(/\/(schema|content\/[^/]+\/schema)$/, "");
  const param = pointer !== undefined ? getAt(catalog.spec.document as unknown, pointer) : undefined;
  const examples: unknown[] = [];
  if (!isObject(param)) return { examples, deprecated: false };
  if (param["example"] !== undefined) examples.push(param["example"]);
  if (isObject(param["examples"])) {
    for (const ex of Object.values(param["examples"])) if (isObject(ex) && ex["value"] !== undefined) examples.push(ex["value"]);
  }
  return { examples, deprecated: param["deprecated"] === true };
}
