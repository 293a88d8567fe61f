import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { SpecProblem } from "../specs/load/spec-problem.js";
import schema from "./toolset.schema.json" with { type: "json" };

/** The JSON Schema of a toolset file (`toolsets/toolset.schema.json`). */
export const TOOLSET_SCHEMA: Readonly<Record<string, unknown>> = schema;

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  compiled ??= new Ajv({ allErrors: true, strict: false }).compile(schema);
  return compiled;
}

function pointerOf(e: ErrorObject): string {
  const extra = e.keyword === "required" ? e.params["missingProperty"] : e.keyword === "additionalProperties" ? e.params["additionalProperty"] : undefined;
  return typeof extra === "string" ? `${e.instancePath}/${extra.replace(/~/g, "~0").replace(/\//g, "~1")}` : e.instancePath;
}

function messageOf(e: ErrorObject): string {
  if (e.keyword === "required") return `"${String(e.params["missingProperty"])}" is required`;
  if (e.keyword === "additionalProperties") return `unknown field "${String(e.params["additionalProperty"])}" (ignored by the loader)`;
  if (e.keyword === "enum" && Array.isArray(e.params["allowedValues"])) return `must be one of: ${e.params["allowedValues"].map((v: unknown) => JSON.stringify(v)).join(", ")}`;
  if (e.keyword === "pattern" && e.instancePath.startsWith("/fixtures")) return "fixture keys are collection paths and start with /";
  if (e.keyword === "pattern" || e.keyword === "minLength") return "must not be empty";
  return e.message ?? e.keyword;
}

/**
 * Checks parsed toolset data against the toolset JSON Schema. Unknown fields are warnings (the loader
 * ignores them); everything else is an error. Problems point into the toolset file.
 */
export function checkToolsetSchema(data: unknown, file: string): SpecProblem[] {
  const validate = validator();
  if (validate(data)) return [];
  const out: SpecProblem[] = [];
  const seen = new Set<string>();
  let openapiReported = false;
  for (const e of validate.errors ?? []) {
    if (e.keyword === "if" || e.keyword === "propertyNames") continue;
    if (e.instancePath === "/openapi") {
      // oneOf/anyOf/type of the openapi field: one message instead of four.
      if (openapiReported) continue;
      openapiReported = true;
      out.push({ file, pointer: "/openapi", severity: "error", code: "toolset-schema", message: `"openapi" must be an inline OpenAPI document (with an "openapi" or "swagger" field) or a path to one` });
      continue;
    }
    const pointer = pointerOf(e);
    const message = messageOf(e);
    const key = `${pointer}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const unknown = e.keyword === "additionalProperties";
    out.push({ file, pointer, severity: unknown ? "warning" : "error", code: unknown ? "toolset-unknown-field" : "toolset-schema", message });
  }
  return out;
}
