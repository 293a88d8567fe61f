import s2o from "swagger2openapi";
import type { OpenAPIV3 } from "openapi-types";
import { escapeSegment } from "../json-pointer.js";
import { fail, ok, type Result } from "../result.js";
import type { SpecProblem } from "./spec-problem.js";

/** A Swagger 2.0 document converted to OpenAPI 3.0, with what the converter had to patch. */
export interface ConvertedSwagger2 {
  document: OpenAPIV3.Document;
  warnings: SpecProblem[];
}

const WARN_PROPERTY = "x-s2o-warning";

/**
 * Converts a bundled Swagger 2.0 document (only internal `$ref`s) to OpenAPI 3.0. Patched defects and
 * the converter's warnings become warnings; a conversion that fails is an error problem.
 */
export async function convertSwagger2(doc: object, file: string): Promise<Result<ConvertedSwagger2, SpecProblem>> {
  let converted: s2o.ConvertResult;
  try {
    // `text` is only used by the converter to avoid re-serialising the input; `anchors` tolerates shared objects.
    converted = await s2o.convertObj(doc, { patch: true, warnOnly: true, anchors: true, text: "-", resolve: false });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return fail([{ file, pointer: "", severity: "error", code: "swagger2-conversion-failed", message: `cannot convert Swagger 2.0 to OpenAPI 3.0: ${message}` }]);
  }
  // The converter can return shared or (on garbage input) circular objects: insist on a JSON tree.
  let document: Record<string, unknown>;
  try {
    document = JSON.parse(JSON.stringify(converted.openapi)) as Record<string, unknown>;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return fail([{ file, pointer: "", severity: "error", code: "swagger2-conversion-failed", message: `converting Swagger 2.0 to OpenAPI 3.0 gave no JSON document: ${message}` }]);
  }
  const warnings: SpecProblem[] = [];
  if (converted.patches > 0) {
    warnings.push({
      file,
      pointer: "",
      severity: "warning",
      code: "swagger2-patched",
      message: `${converted.patches} small defect(s) of the Swagger 2.0 source were patched while converting to OpenAPI 3.0`,
    });
  }
  collectConverterWarnings(document, "", file, warnings);
  return ok({ document: document as unknown as OpenAPIV3.Document, warnings });
}

/** Moves the converter's `x-s2o-warning` markers out of the document into warnings. */
function collectConverterWarnings(node: unknown, pointer: string, file: string, out: SpecProblem[]): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    node.forEach((item, i) => collectConverterWarnings(item, `${pointer}/${i}`, file, out));
    return;
  }
  const record = node as Record<string, unknown>;
  const marker = record[WARN_PROPERTY];
  if (marker !== undefined) {
    delete record[WARN_PROPERTY];
    out.push({ file, pointer, severity: "warning", code: "swagger2-conversion", message: `Swagger 2.0 conversion: ${String(marker)}` });
  }
  for (const [key, value] of Object.entries(record)) {
    collectConverterWarnings(value, `${pointer}/${escapeSegment(key)}`, file, out);
  }
}
