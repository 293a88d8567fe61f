import { isObject } from "../json-object.js";

/** Keywords that describe a value without constraining it. */
const ANNOTATIONS = new Set(["title", "description", "$comment", "deprecated", "readOnly", "writeOnly", "externalDocs", "xml", "$schema", "$id", "nullable"]);

/**
 * Whether a schema says nothing of its value's shape (`true`, `{}`, or only annotations such as a description):
 * any value fits it, so nothing can be made that means anything. Vendor extensions (`x-*`) count as annotations.
 */
export function isUnconstrained(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isObject(schema)) return false;
  return Object.keys(schema).every((k) => ANNOTATIONS.has(k) || k.startsWith("x-"));
}
