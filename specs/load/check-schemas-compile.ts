import { derefNode, type Catalog } from "../catalog/catalog.js";
import { getAt, toPointer } from "../json-pointer.js";
import { isRecord } from "../catalog/openapi-nodes.js";
import { linearRegExp } from "./patterns/linear-pattern.js";
import type { SchemaFlavor } from "./schema-flavor.js";
import type { SpecProblem } from "./spec-problem.js";

/**
 * Compiles every schema the executor would use (parameters, request bodies, response bodies of every
 * operation) and reports each one ajv cannot compile as an error at the schema's pointer: the operations
 * using it cannot be validated or simulated. `loadSpec` repairs and rejects the known causes already
 * (bad patterns, keywords of the wrong type, `$ref` cycles); this is the safety net that `toolsim spec
 * check` runs. It scales to huge specs: each distinct schema is compiled once (a `$ref` by its target, an
 * inline schema by its content, since every `$ref` in a bundled document is document-absolute), in batches
 * that share their compiled `$ref` targets; a leaf schema of plain keywords is checked without compiling.
 */
export function checkSchemasCompile(catalog: Catalog): SpecProblem[] {
  const doc = catalog.spec.document as unknown;
  // Every place a schema is used, in order, by the key of what compiling it means.
  const uses: Array<{ flavor: SchemaFlavor; pointer: string; tool: string; key: string }> = [];
  const representative = new Map<string, { flavor: SchemaFlavor; pointer: string }>();
  const seen = new Set<string>();
  const failed = new Map<string, string>();
  const fine = new Set<string>();
  const probe = (flavor: SchemaFlavor, pointer: string, tool: string): void => {
    if (seen.has(`${flavor}${pointer}`)) return;
    seen.add(`${flavor}${pointer}`);
    const { pointer: target, schema } = catalog.registry.resolve(flavor, pointer);
    const key = `${flavor}|${schemaKey(target, pointer, schema)}`;
    uses.push({ flavor, pointer, tool, key });
    if (representative.has(key) || failed.has(key) || fine.has(key)) return;
    // A leaf schema of plain keywords compiles whenever its keyword values have their types: checked here.
    const leaf = leafProblem(schema);
    if (leaf === undefined) representative.set(key, { flavor, pointer: target });
    else if (leaf === null) fine.add(key);
    else failed.set(key, `the schema at #${pointer} cannot be used: ${leaf}`);
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

/** What compiling a schema depends on: its final `$ref` target, or (inline) its content. */
function schemaKey(target: string, pointer: string, schema: unknown): string {
  if (target !== pointer) return `#${target}`;
  const text = JSON.stringify(schema);
  return text !== undefined && text.length <= MAX_CONTENT_KEY ? `=${text}` : `#${pointer}`;
}

/** Keywords without subschemas, by the type of value ajv takes (a wrong type is a compile error). */
const LEAF_KEYWORDS: Readonly<Record<string, (v: unknown) => boolean>> = {
  type: (v) => (Array.isArray(v) ? v.length > 0 && v.every(isJsonType) : isJsonType(v)),
  enum: (v) => Array.isArray(v) && v.length > 0,
  const: () => true,
  format: (v) => typeof v === "string",
  pattern: (v) => typeof v === "string",
  required: (v) => Array.isArray(v) && v.every((x) => typeof x === "string"),
  uniqueItems: (v) => typeof v === "boolean",
  ...Object.fromEntries(
    ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].map((k) => [k, (v: unknown) => typeof v === "number" && Number.isFinite(v)]),
  ),
};
/** Keywords ajv only reads as annotations. */
const ANNOTATIONS = new Set(["title", "description", "default", "example", "examples", "readOnly", "writeOnly", "deprecated", "$comment", "contentMediaType", "contentEncoding", "xml", "externalDocs"]);
const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);
const isJsonType = (v: unknown): boolean => typeof v === "string" && JSON_TYPES.has(v);

/**
 * For a leaf schema (plain keywords and annotations only): null when it compiles, else why not; undefined
 * for any other schema (left to ajv).
 */
function leafProblem(schema: unknown): string | null | undefined {
  if (!isRecord(schema)) return schema === true || schema === false ? null : undefined;
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key) || key.startsWith("x-")) continue;
    const fits = LEAF_KEYWORDS[key];
    if (fits === undefined || !fits(value)) return undefined;
  }
  const pattern = schema["pattern"];
  if (typeof pattern !== "string") return null;
  try {
    linearRegExp(pattern, "u");
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
