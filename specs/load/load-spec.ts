import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPI } from "openapi-types";
import { checkStructure, findInvalidRefs } from "./check-structure.js";
import { convertSwagger2 } from "./convert-swagger2.js";
import { getAt } from "../json-pointer.js";
import { toPointer } from "../json-pointer.js";
import type { LoadedSpec, LoadOptions, OpenApiDocument, SchemaDialect } from "./loaded-spec.js";
import { isRecord, type JsonRecord } from "../catalog/openapi-nodes.js";
import { parseSpecText } from "./parse-spec-text.js";
import { createRefGuard, type RefGuard } from "./ref-guard.js";
import { repairBeforeBundle, repairDefects } from "./repair-defects.js";
import { fail, ok, type Result } from "../result.js";
import type { SpecProblem } from "./spec-problem.js";
import { detectSpecVersion } from "./spec-version.js";
import { ToolsimError } from "../toolsim-error.js";

/** The file name used as the base of relative `$ref`s of an object source (it is never read). */
const INLINE_BASE = "__inline_spec__.json";

/**
 * Loads an OpenAPI 3.0 / 3.1 or Swagger 2.0 document from a file (JSON or YAML) or an already-parsed
 * object: bundles external `$ref`s into internal ones (recursive schemas stay `$ref`s), converts 2.0
 * to 3.0, repairs common defects with warnings, and checks the structure toolsim relies on.
 * `$ref`s over http(s) are refused unless `allowHttpRefs`; file `$ref`s may not leave `root`.
 * Never throws for bad input: every problem of the spec comes back as a `SpecProblem`.
 */
export async function loadSpec(source: string | object, options: LoadOptions = {}): Promise<Result<LoadedSpec, SpecProblem>> {
  if (typeof source !== "string" && (typeof source !== "object" || source === null)) {
    throw new ToolsimError("usage", `loadSpec(source): expected a file path or an object, got ${source === null ? "null" : typeof source}`);
  }
  const file = typeof source === "string" ? path.resolve(source) : (options.label ?? "<inline>");
  try {
    return await load(source, file, options);
  } catch (err) {
    // swagger-parser and the converter throw for inputs they cannot handle: still the input's fault.
    const message = err instanceof Error ? err.message : String(err);
    return fail([{ file, pointer: "", severity: "error", code: "load-failed", message: `the document could not be loaded: ${message}` }]);
  }
}

async function load(source: string | object, file: string, options: LoadOptions): Promise<Result<LoadedSpec, SpecProblem>> {
  const read = typeof source === "string" ? await readSource(file) : serialiseSource(source, file);
  if (!read.ok) return read;
  const { text, hash, data } = read.value;
  const parsed = data !== undefined ? ok(data) : parseSpecText(text, file);
  if (!parsed.ok) return parsed;

  const detected = detectSpecVersion(parsed.value, file);
  if (!detected.ok) return detected;
  const doc = parsed.value as JsonRecord;
  const { version } = detected.value;
  const warnings = [...detected.value.warnings, ...repairBeforeBundle(doc, version, file)];

  const invalidRefs = findInvalidRefs(doc, file);
  if (invalidRefs.length > 0) return fail([...invalidRefs, ...warnings]);

  const root = path.resolve(options.root ?? (typeof source === "string" ? path.dirname(file) : process.cwd()));
  const base = typeof source === "string" ? file : path.join(root, INLINE_BASE);
  const bundled = text.includes("$ref") && needsBundling(doc) ? await bundle(doc, base, file, root, options.allowHttpRefs === true) : ok(doc);
  if (!bundled.ok) return fail([...bundled.errors, ...warnings]);

  let document = bundled.value;
  let dialect: SchemaDialect;
  if (version === "2.0") {
    const converted = await convertSwagger2(document, file);
    if (!converted.ok) return fail([...converted.errors, ...warnings]);
    document = converted.value.document as unknown as JsonRecord;
    warnings.push(...converted.value.warnings);
    dialect = "3.0";
  } else {
    dialect = version;
  }

  warnings.push(...repairDefects(document, dialect, file));
  const found = checkStructure(document, dialect, file);
  const errors = found.filter((p) => p.severity === "error");
  warnings.push(...found.filter((p) => p.severity !== "error"));
  if (errors.length > 0) return fail([...errors, ...warnings]);
  return ok({ file, sourceVersion: version, dialect, document: document as unknown as OpenApiDocument, hash, warnings });
}

interface SourceText {
  text: string;
  hash: string;
  /** The parsed value, when the source was an object already. */
  data?: unknown;
}

async function readSource(file: string): Promise<Result<SourceText, SpecProblem>> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const missing = code === "ENOENT" || code === "ENOTDIR";
    const message = missing ? `spec file not found: ${file}` : code === "EISDIR" ? `spec path is a folder, not a file: ${file}` : `spec file cannot be read: ${(err as Error).message}`;
    return fail([{ file, pointer: "", severity: "error", code: missing ? "file-not-found" : "file-unreadable", message }]);
  }
  return ok({ text: bytes.toString("utf8"), hash: sha256(bytes) });
}

function serialiseSource(source: object, file: string): Result<SourceText, SpecProblem> {
  let text: string | undefined;
  try {
    text = JSON.stringify(source);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return fail([{ file, pointer: "", severity: "error", code: "not-json", message: `the spec object is not JSON data: ${message}` }]);
  }
  if (text === undefined) return fail([{ file, pointer: "", severity: "error", code: "not-json", message: "the spec object is not JSON data" }]);
  // A copy: loading repairs the document in place and must not touch the caller's object.
  return ok({ text, hash: sha256(text), data: JSON.parse(text) as unknown });
}

function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Whether a document needs the bundler: it has a `$ref` to another file or URL, or an internal `$ref` that
 * does not resolve (the bundler reports those with their pointers). Documents whose `$ref`s are all internal
 * and sound (most real specs) skip it.
 */
function needsBundling(doc: unknown): boolean {
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") {
        if (!value.startsWith("#") || getAt(doc, decodeURIComponent(value.slice(1))) === undefined) return true;
      } else if (value !== null && typeof value === "object") stack.push(value);
    }
  }
  return false;
}

/** Bundles external `$ref`s (under the ref guard) so only internal `$ref`s are left; never dereferences. */
async function bundle(doc: JsonRecord, base: string, file: string, root: string, allowHttpRefs: boolean): Promise<Result<JsonRecord, SpecProblem>> {
  const guard = await createRefGuard(root, allowHttpRefs);
  try {
    const parser = new SwaggerParser();
    const result = await parser.bundle(base, doc as unknown as OpenAPI.Document, {
      resolve: guard.resolve,
      continueOnError: true,
      validate: { schema: false, spec: false },
    });
    if (!isRecord(result)) return fail([{ file, pointer: "", severity: "error", code: "load-failed", message: "bundling produced no document" }]);
    return ok(result);
  } catch (err) {
    const nested = isRecord(err) && Array.isArray(err["errors"]) ? (err["errors"] as unknown[]) : [err];
    return fail(dedupe(nested.map((e) => bundleProblem(e, base, file, guard))));
  }
}

/**
 * Turns one json-schema-ref-parser error into a problem, using the guard's record of refusals.
 * Errors met while reading a referenced file carry the referencing file and the pointer inside it;
 * errors met while following a pointer carry the pointer from the document root.
 */
function bundleProblem(err: unknown, base: string, file: string, guard: RefGuard): SpecProblem {
  const e = isRecord(err) ? err : {};
  const message = err instanceof Error ? err.message : String(err);
  const source = typeof e["source"] === "string" && e["source"] !== "" ? path.resolve(e["source"]) : base;
  const sourceFile = source === base ? file : source;
  const segments = Array.isArray(e["path"]) ? (e["path"] as unknown[]).map(String) : [];
  const pointer = toPointer(segments);
  const inSource = (code: string, text: string): SpecProblem => ({ file: sourceFile, pointer, severity: "error", code, message: text });
  switch (e["code"]) {
    case "ERESOLVER":
    case "EUNMATCHEDRESOLVER": {
      const url = /"([^"]+)"/.exec(message)?.[1];
      const refused = url !== undefined ? guard.refused.get(url) : undefined;
      if (refused !== undefined) return inSource(refused.code, refused.message);
      return inSource("ref-unresolved", `$ref cannot be resolved: ${message}`);
    }
    case "EPARSER":
    case "EUNMATCHEDPARSER":
      return inSource(/\.ya?ml\b/i.test(message) ? "yaml-syntax" : "json-syntax", `a $ref'd file cannot be parsed: ${message.split("\n")[0] ?? message}`);
    case "EMISSINGPOINTER":
    case "EINVALIDPOINTER": {
      const target = sourceFile === file ? "" : ` (in ${sourceFile})`;
      return { file, pointer, severity: "error", code: "ref-unresolved", message: `$ref points to nothing: ${message}${target}` };
    }
    default:
      return { file, pointer, severity: "error", code: "ref-unresolved", message };
  }
}

function dedupe(problems: SpecProblem[]): SpecProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.code}|${p.file}|${p.pointer}|${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
