import { derefNode } from "./catalog.js";
import { getAt } from "./json-pointer.js";
import type { Responder, ResponderAnswer, ResponseContext } from "./responder.js";
import { isJsonMediaType, selectResponse, type SelectedResponse } from "./select-response.js";
import { synthesize } from "./synthesize.js";
import type { Catalog } from "./catalog.js";

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The spec's examples of a response, in order of preference: media `example`, media `examples`, schema `example`. */
export function responseExamples(catalog: Catalog, selected: SelectedResponse): unknown[] {
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

/**
 * Answers a call from its response schema: a valid example from the spec when there is one, else a
 * seeded synthesized body that is validated and repaired against the schema.
 */
export function schemaAnswer(ctx: ResponseContext, selected: SelectedResponse = selectResponse(ctx.catalog, ctx.call.tool, ctx.status)): ResponderAnswer {
  const base = { status: selected.status, ...(selected.mediaType !== undefined ? { contentType: selected.mediaType } : {}) };
  if (selected.schemaPointer === undefined) {
    const examples = responseExamples(ctx.catalog, selected);
    if (examples.length > 0) return { ...base, body: examples[0], source: "example" };
    return { ...base, body: undefined, source: "schema" };
  }
  const notes: string[] = [];
  if (ctx.useExamples !== false && isJsonMediaType(selected.mediaType)) {
    const validate = ctx.catalog.registry.validatorAt("response", selected.schemaPointer);
    const examples = responseExamples(ctx.catalog, selected);
    for (const example of examples) {
      if (validate(example)) return { ...base, body: structuredClone(example), source: "example" };
    }
    if (examples.length > 0) notes.push("the spec's example does not match its schema; synthesized instead");
  }
  const result = synthesize(ctx.catalog.registry, "response", selected.schemaPointer, { seed: ctx.seed });
  if (result.repairs > 0) notes.push(`synthesized body repaired ${result.repairs} time(s)`);
  if (!result.valid) notes.push("synthesized body could not be made valid");
  return { ...base, body: result.value, source: "schema", ...(notes.length > 0 ? { notes } : {}) };
}

/** The last responder: examples first, then seeded synthesis. Always answers. */
export const schemaResponder: Responder = {
  name: "schema",
  respond: (ctx) => schemaAnswer(ctx),
};
