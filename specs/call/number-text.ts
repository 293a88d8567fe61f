import type { SchemaRegistry } from "../catalog/schema-registry.js";
import { isObject } from "../json-object.js";

/**
 * Numbers written as text (query, path, header and cookie parameters, form and XML fields) are decimal numbers:
 * validation coerces text where `text == +text`, which JavaScript also grants to `0x10`, `0b11`, `Infinity` and
 * `1e309` (infinite). Those are refused before coercion; `5`, `-2.5`, `+5`, ` 7 ` and `1e3` are numbers.
 */

const DECIMAL = /^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

/** Whether a text is a finite decimal number. */
export function isNumberText(text: string): boolean {
  return DECIMAL.test(text) && Number.isFinite(Number(text));
}

/** The numeric type a schema gives its values (`number` or `integer`, of the value or of a list's items), if only that. */
export function numericType(registry: SchemaRegistry, flavor: "request" | "response", pointer: string): "number" | "integer" | undefined {
  const { pointer: at, schema } = registry.resolve(flavor, pointer);
  if (!isObject(schema)) return undefined;
  const type = schema["type"];
  if (type === "number" || type === "integer") return type;
  if (type === "array" && isObject(schema["items"])) {
    const items = registry.resolve(flavor, `${at}/items`).schema;
    if (isObject(items) && (items["type"] === "number" || items["type"] === "integer")) return items["type"];
  }
  return undefined;
}

/** Whether a value sent as text for a numeric field has a text that is no number (checked item by item for a list). */
export function notANumberText(value: unknown): boolean {
  if (typeof value === "string") return !isNumberText(value);
  if (Array.isArray(value)) return value.some((v) => typeof v === "string" && !isNumberText(v));
  return false;
}
