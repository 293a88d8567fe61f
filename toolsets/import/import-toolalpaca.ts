import { fail, ok, type Result } from "../../specs/result.js";
import type { SpecProblem } from "../../specs/load/spec-problem.js";
import { carryDocumentedExamples } from "./documented-examples.js";
import { slugify } from "../slug.js";
import type { ToolsetFile } from "../toolset.js";
import { scrubCredentials, toolAlpacaCredentials } from "./toolalpaca-credentials.js";
import { goldenTasks } from "./toolalpaca-golden.js";
import { applyFunctionProjection, projectedToolName } from "./toolalpaca-projection.js";

export { parseActionInput } from "./toolalpaca-golden.js";
import { isObject, type Json } from "../../specs/json-object.js";

/** A toolset made by an importer, with the file name it should be written under. */
export interface ImportedToolset {
  slug: string;
  toolset: ToolsetFile;
  /** What the importer carried into the spec from the source's documentation (one line per argument). */
  notes?: string[];
  /** What the importer changed to keep the source's meaning (names, credentials, keys removed), one line each. */
  changes?: string[];
  /**
   * The documentation the source's own evaluation shows its judge (ToolAlpaca's `NLDocumentation`, which names the
   * functions as the tools are named), when it has one besides `functions`.
   */
  documentation?: string;
}

/** What an importer made, and the entries it had to skip (with why). */
export interface ImportResult {
  toolsets: ImportedToolset[];
  skipped: SpecProblem[];
}

function text(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

/** Where a document declares a parameter of a name: `query` or `header` (operation, path-item or component parameters, or an apiKey scheme). */
function parameterLocation(document: Json, name: string): "header" | "query" | undefined {
  const components = isObject(document["components"]) ? document["components"] : {};
  const shared = isObject(components["parameters"]) ? components["parameters"] : {};
  const resolve = (p: unknown): Json | undefined => {
    if (isObject(p) && typeof p["$ref"] === "string") {
      const m = /^#\/components\/parameters\/(.+)$/.exec(p["$ref"]);
      const target = m ? shared[decodeURIComponent(m[1] as string).replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
      return isObject(target) ? target : undefined;
    }
    return isObject(p) ? p : undefined;
  };
  const found: string[] = [];
  const look = (list: unknown): void => {
    for (const p of Array.isArray(list) ? list : []) {
      const param = resolve(p);
      if (param && param["name"] === name && typeof param["in"] === "string") found.push(param["in"]);
    }
  };
  for (const item of Object.values(isObject(document["paths"]) ? document["paths"] : {})) {
    if (!isObject(item)) continue;
    look(item["parameters"]);
    for (const op of Object.values(item)) if (isObject(op)) look(op["parameters"]);
  }
  const schemes = isObject(components["securitySchemes"]) ? components["securitySchemes"] : {};
  for (const s of Object.values(schemes)) if (isObject(s) && s["type"] === "apiKey" && s["name"] === name && typeof s["in"] === "string") found.push(s["in"]);
  return found.includes("query") ? "query" : found.includes("header") ? "header" : undefined;
}

/**
 * Reads one ToolAlpaca entry ({Name, Description, Introduction, Functions|NLDocumentation, Documentation,
 * Function_Projection, Authentication, Instructions, Golden_Answers}) as a toolset file, keeping the dataset's
 * identity: its functions are named as `Function_Projection` names them (the names the golden answers call),
 * `Authentication` becomes the toolset's `auth` with a placeholder credential, and every key the source holds (in
 * `Authentication` or the golden answers) is replaced by that placeholder before anything else reads the entry.
 * ToolAlpaca's one-line `Description` becomes the introduction and its `Introduction` paragraph the description (the
 * toolset format names them as the paper does); the golden answers become the toolset's `tasks`; what the
 * documentation says of values in prose is carried into the spec (`notes`). An entry without a name or a spec
 * that is not a JSON object is an error.
 */
export function readToolAlpacaEntry(raw: unknown, source: string, pointer: string): Result<ImportedToolset, SpecProblem> {
  const name = isObject(raw) ? text(raw["Name"]) : undefined;
  if (!isObject(raw) || name === undefined) return fail([{ file: source, pointer, severity: "error", code: "toolalpaca-entry", message: "not a ToolAlpaca toolset: no Name" }]);
  let openapi: unknown = raw["Documentation"];
  if (typeof openapi === "string") {
    try {
      openapi = JSON.parse(openapi);
    } catch (e) {
      return fail([{ file: source, pointer: `${pointer}/Documentation`, severity: "error", code: "json-syntax", message: `${name}: Documentation is not JSON: ${(e as Error).message}` }]);
    }
  }
  if (!isObject(openapi)) return fail([{ file: source, pointer: `${pointer}/Documentation`, severity: "error", code: "toolalpaca-entry", message: `${name}: no OpenAPI Documentation` }]);
  const changes: string[] = [];
  // Keys first: nothing below (nor anything written) sees the source's keys.
  const credentials = toolAlpacaCredentials(raw, name, (p) => parameterLocation(openapi as Json, p));
  let entry: Json = raw;
  if (credentials) {
    const scrubbed = scrubCredentials({ entry: raw, openapi }, credentials);
    entry = scrubbed.value.entry;
    openapi = scrubbed.value.openapi;
    const auth = credentials.auth;
    const more = credentials.parameters.slice(1);
    changes.push(
      `credentials: Authentication names ${auth.name} (an API key in the ${auth.in}): the toolset accepts the placeholder ${credentials.placeholder}, which the harness passes in ${auth.name} (never asked from the user)` +
        (more.length > 0 ? `; also ${more.map((p) => `${p.name} (placeholder ${p.placeholder})`).join(", ")}, passed the same way` : "") +
        (credentials.secrets.length > 0 ? `; the source's key${credentials.secrets.length === 1 ? "" : "s"} (${scrubbed.replaced} occurrence${scrubbed.replaced === 1 ? "" : "s"}, golden answers included) replaced by the placeholder${more.length > 0 ? "s" : ""} and written nowhere` : ""),
    );
  } else {
    openapi = structuredClone(openapi);
  }
  const doc = openapi as Json;
  const projection = applyFunctionProjection(doc, entry["Function_Projection"]);
  if (projection.renamed.length > 0) changes.push(`names: ${projection.renamed.length} function${projection.renamed.length === 1 ? "" : "s"} named as Function_Projection names them (${projection.renamed.join(", ")})`);
  if (projection.unmatched.length > 0) changes.push(`names: Function_Projection lists ${projection.unmatched.join(", ")}, which the spec does not have`);
  for (const u of projection.unsafe) changes.push(`names: ${JSON.stringify(u.name)} is not a valid tool name for chat models: the tool is called ${u.tool}`);
  for (const d of projection.displaced) changes.push(`names: ${d} (its name is a function of Function_Projection)`);
  const functionsText = typeof entry["Functions"] === "string" ? entry["Functions"] : undefined;
  const nlDocumentation = typeof entry["NLDocumentation"] === "string" ? entry["NLDocumentation"] : undefined;
  const notes = carryDocumentedExamples(doc, functionsText, nlDocumentation);
  const oneLine = text(entry["Description"]);
  const paragraph = text(entry["Introduction"]);
  const toolset: ToolsetFile = {
    name,
    ...(text(entry["Category"]) !== undefined ? { category: text(entry["Category"]) as string } : {}),
    introduction: oneLine ?? paragraph?.split(/(?<=\.)\s/)[0] ?? name,
    description: paragraph ?? oneLine ?? name,
    ...(text(entry["Link"]) !== undefined ? { link: text(entry["Link"]) as string } : {}),
    functions: (functionsText ?? nlDocumentation ?? "").trim(),
    ...(credentials ? { auth: credentials.auth } : {}),
    openapi: doc,
  };
  const tasks = goldenTasks(entry, `${source.split(/[\\/]/).pop() ?? source}:${name}`, (action) => projectedToolName(action, projection));
  if (tasks.length > 0) toolset.tasks = tasks;
  const documentation = nlDocumentation?.trim();
  return ok({ slug: slugify(name), toolset, ...(notes.length > 0 ? { notes } : {}), ...(changes.length > 0 ? { changes } : {}), ...(documentation ? { documentation } : {}) });
}

/**
 * Turns ToolAlpaca toolset data (a JSON array of entries, see {@link readToolAlpacaEntry}) into toolset files, one
 * per entry; an entry that cannot be read is skipped with why, and the others go on.
 */
export function importToolAlpaca(data: unknown, source: string): Result<ImportResult, SpecProblem> {
  const entries = Array.isArray(data) ? data : isObject(data) && Array.isArray(data["entries"]) ? data["entries"] : undefined;
  if (entries === undefined) {
    return fail([{ file: source, pointer: "", severity: "error", code: "not-toolalpaca", message: "ToolAlpaca data is a JSON array of toolsets ({Name, Introduction, Functions, Documentation, ...})" }]);
  }
  const toolsets: ImportedToolset[] = [];
  const skipped: SpecProblem[] = [];
  const taken = new Set<string>();
  entries.forEach((entry, i) => {
    const read = readToolAlpacaEntry(entry, source, `/${i}`);
    if (!read.ok) {
      skipped.push(...read.errors);
      return;
    }
    const base = read.value.slug;
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    toolsets.push({ ...read.value, slug });
  });
  return ok({ toolsets, skipped });
}
