import { buildCatalog, type Catalog } from "../../specs/catalog/catalog.js";
import { loadSpec } from "../../specs/load/load-spec.js";

// OpenAPI documents written inline in tests: a catalog from paths alone, and a 200 answer of one JSON schema.

/** A catalog of one OpenAPI 3.0 API with these paths (and components, when given). */
export async function catalogOf(title: string, paths: object, components?: object): Promise<Catalog> {
  const spec = await loadSpec({ openapi: "3.0.3", info: { title, version: "1" }, paths, ...(components !== undefined ? { components } : {}) });
  if (!spec.ok) throw new Error(JSON.stringify(spec.errors));
  return buildCatalog(spec.value);
}

/** The `responses` of an operation that answers 200 with JSON of this schema (and this example, when given). */
export function okJson(schema: object, example?: unknown): object {
  return { "200": { description: "ok", content: { "application/json": { schema, ...(example !== undefined ? { example } : {}) } } } };
}
