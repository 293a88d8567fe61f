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
 * check` runs, since compiling everything costs more than loading.
 */
export function checkSchemasCompile(catalog: Catalog): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const seen = new Set<string>();
  const probe = (flavor: SchemaFlavor, pointer: string, tool: string): void => {
    const key = `${flavor}${pointer}`;
    if (seen.has(key)) return;
    seen.add(key);
    const reason = catalog.registry.compileError(flavor, pointer);
    if (reason !== undefined) {
      problems.push({ file: catalog.spec.file, pointer, severity: "error", code: "schema-unusable", message: `${reason} (operation ${tool} cannot be validated or simulated)` });
    }
  };
  const doc = catalog.spec.document as unknown;
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
  return problems;
}
