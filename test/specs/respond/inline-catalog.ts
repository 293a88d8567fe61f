import { expect } from "vitest";
import { loadSpec } from "../../../specs/load/load-spec.js";
import { buildCatalog, type Catalog } from "../../../specs/catalog/catalog.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";

/** Helpers of the responder tests: a catalog from paths written in the test, and a call's successful answer. */

export type Json = Record<string, any>;

/** A 200 response with a JSON schema and its example. */
export function ok(schema: Json, example: unknown): Json {
  return { "200": { description: "ok", content: { "application/json": { schema, example } } } };
}

/** The catalog of an OpenAPI 3.0 document with these paths. */
export async function inlineCatalog(paths: Json, title = "Test"): Promise<Catalog> {
  const spec = await loadSpec({ openapi: "3.0.3", info: { title, version: "1" }, paths });
  if (!spec.ok) throw new Error(JSON.stringify(spec.errors));
  return buildCatalog(spec.value);
}

/** The body of a call's answer, which must be a 200 that matches its schema. */
export async function answerOf(catalog: Catalog, tool: string, args: Json, seed = 1): Promise<Json> {
  const r = await simulateCall(catalog, { name: tool, arguments: args }, { seed });
  expect(r.status).toBe(200);
  expect(r.responseErrors).toEqual([]);
  return r.body as Json;
}
