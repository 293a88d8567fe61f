import type { Responder, ResponderAnswer, ResponseContext } from "./responder.js";
import { perSelection, selectedResponse } from "./response-cache.js";
import { examplesOf, responseExamples } from "./response-examples.js";
import { isJsonMediaType, type SelectedResponse } from "../call/select-response.js";
import { synthesize } from "../synthesize/synthesize.js";
import { cloneJson } from "../synthesize/synthesis-rules.js";
import { obeyBindings, stampFits } from "./bindings/obey-bindings.js";
import { obeyPlan } from "./bindings/obey-plan.js";
import { Edits } from "./bindings/answer-edits.js";
import { stampTouched } from "./world/made-now.js";
import { errorAboutCall } from "./error-message.js";
import type { Catalog } from "../catalog/catalog.js";
import { isUnconstrained } from "../catalog/unconstrained-schema.js";

/** The spec's examples of a response (re-exported: the LLM responder shows the first). */
export { responseExamples };

/**
 * The first example that validates against the response schema, and how many examples there are (examples are
 * dated as of the simulated today when the catalog is built: `dated-examples.ts`).
 */
function validExampleOf(catalog: Catalog, selected: SelectedResponse, schemaPointer: string): { count: number; valid?: { value: unknown } } {
  return perSelection(catalog, selected, "valid-example", () => {
    const validate = catalog.registry.validatorAt("response", schemaPointer);
    const examples = examplesOf(catalog, selected);
    for (const example of examples) if (validate(example)) return { count: examples.length, valid: { value: example } };
    return { count: examples.length };
  });
}

/**
 * The example of an operation that makes or changes a record, with its stamps of that as of now (worked out once:
 * the simulated now is fixed), so that each call need not restamp it; the example itself where that does not validate.
 */
function touchedExample(ctx: ResponseContext, selected: SelectedResponse, schemaPointer: string, example: unknown): unknown {
  const touch = selected.status >= 200 && selected.status <= 299 ? obeyPlan(ctx.catalog, ctx.call.tool).touch : undefined;
  if (touch === undefined) return example;
  return perSelection(ctx.catalog, selected, `example-${touch}`, () => {
    const copy = cloneJson(example);
    const edits = new Edits();
    stampTouched(copy, touch, {}, stampFits(ctx.catalog, schemaPointer), { write: (h, k, p, v) => edits.writeKey(h, k, p, v), remove: (h, k, p) => edits.remove(h, k, p) });
    return edits.list.length > 0 && ctx.catalog.registry.validatorAt("response", schemaPointer)(copy) ? copy : example;
  });
}

/** On an answer whose body was validated against the selected response's schema: that schema and body (a symbol: never sent, never written). */
const VALIDATED = Symbol("validated");

type MarkedAnswer = ResponderAnswer & { [VALIDATED]?: { schemaPointer: string; body: unknown } };

/** An answer of the selected response (`validatedAt`: the schema its body was validated against as it was made). */
function answerOf(selected: SelectedResponse, body: unknown, source: ResponderAnswer["source"], notes?: string[], validatedAt?: string): ResponderAnswer {
  const answer: MarkedAnswer = selected.mediaType !== undefined ? { status: selected.status, contentType: selected.mediaType, body, source } : { status: selected.status, body, source };
  if (notes !== undefined && notes.length > 0) answer.notes = notes;
  if (validatedAt !== undefined) answer[VALIDATED] = { schemaPointer: validatedAt, body };
  return answer;
}

/**
 * Whether an answer of `schemaAnswer` carries a body already validated against the schema at a pointer
 * (so that the check stage need not validate it again). It counts while the answer (or a copy of it) still holds that very body.
 */
export function validatedBody(answer: ResponderAnswer): { schemaPointer: string; body: unknown } | undefined {
  const known = (answer as MarkedAnswer)[VALIDATED];
  return known !== undefined && known.body === answer.body ? known : undefined;
}

/**
 * Answers a call from its response schema: a valid example from the spec when there is one, else a
 * seeded synthesized body that is validated and repaired against the schema.
 */
export function schemaAnswer(ctx: ResponseContext, selected: SelectedResponse = selectedResponse(ctx.catalog, ctx.call.tool, ctx.status)): ResponderAnswer {
  if (selected.schemaPointer === undefined) {
    if (selected.key === undefined) {
      const declared = ctx.call.tool.responses;
      const note = declared.length > 0 ? `the spec declares no success response (only ${declared.join(", ")}): answered ${selected.status} without a body` : `the spec declares no response: answered ${selected.status} without a body`;
      return answerOf(selected, undefined, "schema", [note]);
    }
    const examples = examplesOf(ctx.catalog, selected);
    // No schema to hold it to: the example, made to obey the call's bindings all the same.
    if (examples.length > 0) return answerOf(selected, selected.status >= 200 && selected.status <= 299 ? obeyBindings(ctx, undefined, cloneJson(examples[0]), { synthesized: false }) : examples[0], "example");
    return answerOf(selected, undefined, "schema");
  }
  const notes: string[] = [];
  // JSON answers, and text answers (a string example of a string schema), come from valid examples first.
  if (ctx.useExamples !== false && (isJsonMediaType(selected.mediaType) || /^text\//i.test(selected.mediaType ?? ""))) {
    const example = validExampleOf(ctx.catalog, selected, selected.schemaPointer);
    if (example.valid !== undefined) {
      const body = agreeing(ctx, selected, cloneJson(touchedExample(ctx, selected, selected.schemaPointer, example.valid.value)), false, true);
      return answerOf(selected, body, "example", undefined, selected.schemaPointer);
    }
    if (example.count > 0) notes.push("the spec's example does not match its schema; synthesized instead");
  }
  // A schema that says nothing of the answer's shape (`{}`): nothing made would mean anything (a random token), so null.
  if (isUnconstrained(ctx.catalog.registry.resolve("response", selected.schemaPointer).schema)) {
    return answerOf(selected, null, "schema", [...notes, "the spec's schema for this answer says nothing of its shape: answered null"]);
  }
  const result = synthesize(ctx.catalog.registry, "response", selected.schemaPointer, { seed: ctx.seed });
  if (result.repairs > 0) notes.push(`synthesized body repaired ${result.repairs} time(s)`);
  if (!result.valid) {
    notes.push("synthesized body could not be made valid");
    return answerOf(selected, result.value, "schema", notes);
  }
  return answerOf(selected, agreeing(ctx, selected, result.value, true), "schema", notes, selected.schemaPointer);
}

/**
 * A valid body made to agree with the call, where it stays valid: a success body obeys the call's bindings
 * (and a synthesized one's entities hang together); an error body names the requested id, not an example's.
 */
function agreeing(ctx: ResponseContext, selected: SelectedResponse, body: unknown, synthesized: boolean, datedAsOfToday = false): unknown {
  const pointer = selected.schemaPointer;
  if (pointer === undefined) return body;
  if (selected.status >= 200 && selected.status <= 299) return obeyBindings(ctx, pointer, body, { synthesized, datedAsOfToday });
  return errorAboutCall(ctx, selected.status, body, ctx.catalog.registry.validatorAt("response", pointer), synthesized);
}

/** The last responder: examples first, then seeded synthesis. Always answers. */
export const schemaResponder: Responder = {
  name: "schema",
  respond: (ctx) => schemaAnswer(ctx),
};
