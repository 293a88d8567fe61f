/**
 * The examples a spec gives for a response (media `example`, media `examples`, schema `example`/`examples`),
 * memoized per catalog and selected response.
 */
import { derefNode } from "../catalog/catalog.js";
import type { Catalog } from "../catalog/catalog.js";
import { getAt } from "../json-pointer.js";
import type { SelectedResponse } from "../call/select-response.js";
import { perSelection } from "./response-cache.js";

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The spec's examples of a response, in order of preference: media `example`, media `examples`, schema `example`. */
export function responseExamples(catalog: Catalog, selected: SelectedResponse): unknown[] {
  return [...examplesOf(catalog, selected)];
}

/** The examples of a selected response, memoized per catalog and selection. */
export function examplesOf(catalog: Catalog, selected: SelectedResponse): readonly unknown[] {
  return perSelection(catalog, selected, "examples", () => findExamples(catalog, selected));
}

function findExamples(catalog: Catalog, selected: SelectedResponse): unknown[] {
  const doc = catalog.spec.document as unknown;
  const out: unknown[] = [];
  if (selected.mediaPointer === undefined) return out;
  const media = getAt(doc, selected.mediaPointer);
  if (!isObject(media)) return out;
  if (media["example"] !== undefined) out.push(media["example"]);
  if (isObject(media["examples"])) {
    for (const [name, ex] of Object.entries(media["examples"])) {
      const { node } = derefNode(doc, ex, `${selected.mediaPointer}/examples/${name}`);
      if (isObject(node) && node["value"] !== undefined) out.push(node["value"]);
    }
  }
  if (selected.schemaPointer !== undefined) {
    const { schema } = catalog.registry.resolve("response", selected.schemaPointer);
    if (isObject(schema) && schema["example"] !== undefined) out.push(schema["example"]);
    if (isObject(schema) && Array.isArray(schema["examples"])) out.push(...schema["examples"]);
  }
  return out;
}

