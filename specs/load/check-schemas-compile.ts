import { derefNode, type Catalog } from "../catalog/catalog.js";
import { getAt, toPointer } from "../json-pointer.js";
import { isRecord } from "../catalog/openapi-nodes.js";
import type { SchemaFlavor } from "./schema-flavor.js";
import type { SpecProblem } from "./spec-problem.js";

/**
 * Compiles every schema the executor would use (parameters, request bodies, response bodies of every
 * operation) and reports each one ajv cannot compile as an error at the schema's pointer: the operations
 * using it cannot be validated or simulated. `loadSpec` repairs and rejects the known causes already
 * (bad patterns, keywords of the wrong type, `$ref` cycles); this is the safety net that `toolsim spec
 * check` runs. It scales to huge specs: each distinct schema is compiled once (a `$ref` by its target, an
 * inline schema by its content, since every `$ref` in a bundled document is document-absolute), in batches
 * that share their compiled `$ref` targets.
 */
export function checkSchemasCompile(catalog: Catalog): SpecProblem[] {
  const doc = catalog.spec.document as unknown;
  // Every place a schema is used, in order, by the key of what compiling it means.
  const uses: Array<{ flavor: SchemaFlavor; pointer: string; tool: string; key: string }> = [];
  const representative = new Map<string, { flavor: SchemaFlavor; pointer: string }>();
  const seen = new Set<string>();
  const probe = (flavor: SchemaFlavor, pointer: string, tool: string): void => {
    if (seen.has(`${flavor}${pointer}`)) return;
    seen.add(`${flavor}${pointer}`);
    const key = `${flavor}|${schemaKey(catalog, flavor, pointer)}`;
    if (!representative.has(key)) representative.set(key, { flavor, pointer });
    uses.push({ flavor, pointer, tool, key });
  };
  for (const tool of catalog.tools) {
    for (const p of tool.parameters) if (p.schemaPointer !== undefined) probe("request", p.schemaPointer, tool.name);
    if (tool.body?.schemaPointer !== undefined) probe("request", tool.body.schemaPointer, tool.name);
    const responsesPointer = `${tool.operation.pointer}/responses`;
    const responses = getAt(doc, responsesPointer);
    if (!isRecord(responses)) continue;
    for (const [status, raw] of Object.entries(responses)) {
      const { node, pointer } = derefNode(doc, raw, `${responsesPointer}${toPointer([status])}`);
      if (!isRecord(node) || !isRecord(node["content"])) continue;
      for (const [mediaType, media] of Object.entries(node["content"])) {
        if (isRecord(media) && media["schema"] !== undefined) probe("response", `${pointer}/content${toPointer([mediaType])}/schema`, tool.name);
      }
    }
  }
  const failed = new Map<string, string>();
  for (const flavor of ["request", "response"] as const) {
    const keys = [...representative].filter(([, r]) => r.flavor === flavor);
    const errors = catalog.registry.compileErrors(flavor, keys.map(([, r]) => r.pointer));
    for (const [key, r] of keys) {
      const reason = errors.get(r.pointer);
      if (reason !== undefined) failed.set(key, reason);
    }
  }
  const problems: SpecProblem[] = [];
  for (const use of uses) {
    const reason = failed.get(use.key);
    if (reason === undefined) continue;
    // The reason names the schema compiled for all uses alike: each use is reported at its own pointer.
    const own = reason.replace(/^the schema at #\S* cannot be used/, `the schema at #${use.pointer} cannot be used`);
    problems.push({ file: catalog.spec.file, pointer: use.pointer, severity: "error", code: "schema-unusable", message: `${own} (operation ${use.tool} cannot be validated or simulated)` });
  }
  return problems;
}

/** Inline schemas larger than this are compiled by pointer, not compared by content. */
const MAX_CONTENT_KEY = 2048;

/** What compiling the schema at a pointer depends on: its final `$ref` target, or (inline) its content. */
function schemaKey(catalog: Catalog, flavor: SchemaFlavor, pointer: string): string {
  const { pointer: target, schema } = catalog.registry.resolve(flavor, pointer);
  if (target !== pointer) return `#${target}`;
  const text = JSON.stringify(schema);
  return text !== undefined && text.length <= MAX_CONTENT_KEY ? `=${text}` : `#${pointer}`;
}
