import type { LoadedSpec } from "./loaded-spec.js";
import { isRecord } from "../catalog/openapi-nodes.js";
import { fail, ok, type Result } from "../result.js";
import type { SpecProblem } from "./spec-problem.js";

/** The OpenAPI version a source document is written in. */
export type SourceVersion = LoadedSpec["sourceVersion"];

/** The version of a document, and the repairs made to its version field. */
export interface DetectedVersion {
  version: SourceVersion;
  warnings: SpecProblem[];
}

/** Versions swagger-parser 13 accepts; other spellings of the same version are normalised to these. */
const SUPPORTED_30 = ["3.0.0", "3.0.1", "3.0.2", "3.0.3", "3.0.4"];
const SUPPORTED_31 = ["3.1.0", "3.1.1", "3.1.2"];
const MARKERS_2 = ["definitions", "host", "basePath", "securityDefinitions", "schemes", "produces", "consumes"];

/**
 * Tells which OpenAPI version a parsed document is written in, normalising sloppy version fields
 * (`openapi: 3.0`, `swagger: 2`, a missing field on a document with `paths`) with a warning.
 * Mutates `doc`'s version field. Not an OpenAPI document -> `not-openapi`.
 */
export function detectSpecVersion(doc: unknown, file: string): Result<DetectedVersion, SpecProblem> {
  const problem = (code: string, message: string, severity: "error" | "warning", pointer = ""): SpecProblem => ({ file, pointer, message, severity, code });
  if (!isRecord(doc)) {
    const kind = Array.isArray(doc) ? "an array" : doc === null ? "empty" : `a ${typeof doc}`;
    return fail([problem("not-openapi", `not an OpenAPI or Swagger document: the document is ${kind}, not an object`, "error")]);
  }
  const warnings: SpecProblem[] = [];
  const swagger = doc["swagger"];
  const openapi = doc["openapi"];

  if (swagger !== undefined && openapi === undefined) {
    const text = String(swagger);
    if (text !== "2.0" && text !== "2" && text !== "2.0.0") {
      return fail([problem("unsupported-version", `Swagger version ${JSON.stringify(swagger)} is not supported (only 2.0)`, "error", "/swagger")]);
    }
    if (swagger !== "2.0") {
      doc["swagger"] = "2.0";
      warnings.push(problem("spec-version-format", `swagger version ${JSON.stringify(swagger)} read as "2.0"`, "warning", "/swagger"));
    }
    return ok({ version: "2.0", warnings });
  }

  if (openapi !== undefined) {
    if (typeof openapi !== "string" && typeof openapi !== "number") {
      return fail([problem("not-openapi", "the `openapi` field must be a version string such as \"3.0.3\"", "error", "/openapi")]);
    }
    const text = String(openapi).trim();
    const version: SourceVersion | undefined = /^3(\.0)?(\.|$|-)/.test(text) && !/^3\.[1-9]/.test(text) ? "3.0" : /^3\.[1-9]\d*(\.|$|-)/.test(text) ? "3.1" : undefined;
    if (version === undefined) {
      return fail([problem("unsupported-version", `OpenAPI version ${JSON.stringify(openapi)} is not supported (3.0, 3.1 and Swagger 2.0 are)`, "error", "/openapi")]);
    }
    const supported = version === "3.0" ? SUPPORTED_30 : SUPPORTED_31;
    if (typeof openapi !== "string" || !supported.includes(openapi)) {
      const normalised = version === "3.0" ? "3.0.3" : "3.1.0";
      doc["openapi"] = normalised;
      const note = version === "3.1" && !/^3\.1(\.|$|-)/.test(text) ? " (newer 3.x documents are loaded with 3.1 rules)" : "";
      warnings.push(problem("spec-version-format", `openapi version ${JSON.stringify(openapi)} read as "${normalised}"${note}`, "warning", "/openapi"));
    }
    return ok({ version, warnings });
  }

  if (isRecord(doc["paths"])) {
    const looks2 = MARKERS_2.some((k) => k in doc);
    const version: SourceVersion = looks2 ? "2.0" : "3.0";
    if (looks2) doc["swagger"] = "2.0";
    else doc["openapi"] = "3.0.3";
    warnings.push(
      problem("spec-version-missing", `the document has \`paths\` but neither \`openapi\` nor \`swagger\`: read as ${looks2 ? "Swagger 2.0" : "OpenAPI 3.0.3"}`, "warning"),
    );
    return ok({ version, warnings });
  }
  return fail([problem("not-openapi", "not an OpenAPI or Swagger document: it has neither an `openapi` nor a `swagger` field", "error")]);
}
