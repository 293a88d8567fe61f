import type { OpenAPIV3, OpenAPIV3_1 } from "openapi-types";
import type { SpecProblem } from "./spec-problem.js";

/** An OpenAPI 3.x document (Swagger 2.0 input is converted on load). */
export type OpenApiDocument = OpenAPIV3.Document | OpenAPIV3_1.Document;

/** The schema dialect of a loaded document: 3.0 (nullable, boolean exclusive bounds) or 3.1 (JSON Schema 2020-12). */
export type SchemaDialect = "3.0" | "3.1";

/** A spec that loaded: bundled (only internal `$ref`s left), repaired, and in OpenAPI 3.x form. */
export interface LoadedSpec {
  /** Absolute path of the source file, or `<inline>` for an object. */
  file: string;
  /** The version the source was written in. */
  sourceVersion: "2.0" | "3.0" | "3.1";
  /** The dialect of `document`'s schemas (a converted 2.0 spec is 3.0). */
  dialect: SchemaDialect;
  document: OpenApiDocument;
  /** sha256 (hex) of the source text, or of the canonical JSON of an object source. */
  hash: string;
  /** Defects that were repaired on load, and other non-fatal findings. */
  warnings: SpecProblem[];
}

/** Options of `loadSpec`. */
export interface LoadOptions {
  /** Allow `$ref`s over http(s). Off by default: no network unless asked. */
  allowHttpRefs?: boolean;
  /** Folder that file `$ref`s may not leave; defaults to the spec's own folder. */
  root?: string;
  /** Name used in problems for object sources (default `<inline>`). */
  label?: string;
}
