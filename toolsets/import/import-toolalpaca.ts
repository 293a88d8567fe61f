import { fail, ok, type Result } from "../../specs/result.js";
import type { SpecProblem } from "../../specs/load/spec-problem.js";
import { carryDocumentedExamples } from "./documented-examples.js";
import { slugify } from "../slug.js";
import type { ToolsetFile, ToolsetTask, ToolsetTaskCall } from "../toolset.js";
import { isObject, type Json } from "../../specs/json-object.js";

/** A toolset made by an importer, with the file name it should be written under. */
export interface ImportedToolset {
  slug: string;
  toolset: ToolsetFile;
  /** What the importer carried into the spec from the source's documentation (one line per argument). */
  notes?: string[];
}

/** What an importer made, and the entries it had to skip (with why). */
export interface ImportResult {
  toolsets: ImportedToolset[];
  skipped: SpecProblem[];
}

/** ToolAlpaca's pseudo-action for asking the user (`{"Question": "..."}`). */
const ASK_USER = "getDetails";
const OPTIONAL = /^\[optional\]\s*/i;
const PLACEHOLDER = /"?\$\{([^}]*)\}?"?/g;

/**
 * Parses ToolAlpaca's `Action_Input`: JSON, or JSON with the placeholders its golden answers use for
 * values taken from earlier calls (`${animeId from searchAnime}`), kept as strings.
 */
export function parseActionInput(text: string): ToolsetTaskCall["arguments"] | undefined {
  const attempt = (t: string): Json | undefined => {
    try {
      const v: unknown = JSON.parse(t);
      return isObject(v) ? v : undefined;
    } catch {
      return undefined;
    }
  };
  return attempt(text.trim() === "" ? "{}" : text) ?? attempt(text.replace(PLACEHOLDER, (_m, inner: string) => JSON.stringify(`\${${inner.trim()}}`)));
}

function text(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

function tasksOf(entry: Json, source: string): ToolsetTask[] {
  const instructions = Array.isArray(entry["Instructions"]) ? entry["Instructions"] : [];
  const golden = Array.isArray(entry["Golden_Answers"]) ? entry["Golden_Answers"] : [];
  const tasks: ToolsetTask[] = [];
  instructions.forEach((instruction, i) => {
    if (typeof instruction !== "string" || instruction.trim() === "") return;
    const steps = Array.isArray(golden[i]) ? (golden[i] as unknown[]) : [];
    const calls: ToolsetTaskCall[] = [];
    const questions: string[] = [];
    for (const step of steps) {
      if (!isObject(step) || typeof step["Action"] !== "string") continue;
      const raw = typeof step["Action_Input"] === "string" ? step["Action_Input"] : JSON.stringify(step["Action_Input"] ?? {});
      const args = parseActionInput(raw);
      if (step["Action"] === ASK_USER) {
        const question = args?.["Question"];
        if (typeof question === "string" && question.trim() !== "") questions.push(question.trim());
        continue;
      }
      const optional = OPTIONAL.exec(step["Action"]);
      const tool = optional ? step["Action"].slice(optional[0].length).trim() : step["Action"];
      const plain = (() => {
        try {
          JSON.parse(raw);
          return true;
        } catch {
          return false;
        }
      })();
      calls.push({ tool, arguments: args ?? {}, ...(plain && args !== undefined ? {} : { raw }), ...(optional ? { optional: true } : {}) });
    }
    tasks.push({ instruction: instruction.trim(), ...(calls.length > 0 ? { calls } : {}), ...(questions.length > 0 ? { questions } : {}), source: `${source}#${i}` });
  });
  return tasks;
}

/**
 * Turns ToolAlpaca toolset data (a JSON array of {Name, Description, Link, Category, Introduction, Functions,
 * Documentation, Instructions, Golden_Answers, ...}) into toolset files. ToolAlpaca's one-line `Description`
 * becomes the introduction and its `Introduction` paragraph the description (the toolset format names them
 * as the paper does); `Documentation` (OpenAPI as a JSON string) is inlined; instructions with their golden
 * answers are kept as the toolset's `tasks` (`getDetails` steps, where the assistant asks the user, become the
 * task's `questions`; `[Optional]` actions optional calls). The values, date formats and argument descriptions its
 * documentation gives in prose are carried into the spec (see `carryDocumentedExamples`; `notes` lists them);
 * the golden answers are not used for that. Entries without a name or a parseable spec are skipped.
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
    const pointer = `/${i}`;
    const name = isObject(entry) ? text(entry["Name"]) : undefined;
    if (!isObject(entry) || name === undefined) {
      skipped.push({ file: source, pointer, severity: "error", code: "toolalpaca-entry", message: "not a ToolAlpaca toolset: no Name" });
      return;
    }
    let openapi: unknown = entry["Documentation"];
    if (typeof openapi === "string") {
      try {
        openapi = JSON.parse(openapi);
      } catch (e) {
        skipped.push({ file: source, pointer: `${pointer}/Documentation`, severity: "error", code: "json-syntax", message: `${name}: Documentation is not JSON: ${(e as Error).message}` });
        return;
      }
    }
    if (!isObject(openapi)) {
      skipped.push({ file: source, pointer: `${pointer}/Documentation`, severity: "error", code: "toolalpaca-entry", message: `${name}: no OpenAPI Documentation` });
      return;
    }
    const functionsText = typeof entry["Functions"] === "string" ? entry["Functions"] : undefined;
    const nlDocumentation = typeof entry["NLDocumentation"] === "string" ? entry["NLDocumentation"] : undefined;
    const notes = carryDocumentedExamples(openapi, functionsText, nlDocumentation);
    const oneLine = text(entry["Description"]);
    const paragraph = text(entry["Introduction"]);
    const toolset: ToolsetFile = {
      name,
      ...(text(entry["Category"]) !== undefined ? { category: text(entry["Category"]) as string } : {}),
      introduction: oneLine ?? paragraph?.split(/(?<=\.)\s/)[0] ?? name,
      description: paragraph ?? oneLine ?? name,
      ...(text(entry["Link"]) !== undefined ? { link: text(entry["Link"]) as string } : {}),
      functions: typeof entry["Functions"] === "string" ? entry["Functions"].trim() : typeof entry["NLDocumentation"] === "string" ? entry["NLDocumentation"].trim() : "",
      openapi,
    };
    const tasks = tasksOf(entry, `${source.split(/[\\/]/).pop() ?? source}:${name}`);
    if (tasks.length > 0) toolset.tasks = tasks;
    let slug = slugify(name);
    for (let n = 2; taken.has(slug); n++) slug = `${slugify(name)}-${n}`;
    taken.add(slug);
    toolsets.push({ slug, toolset, ...(notes.length > 0 ? { notes } : {}) });
  });
  return ok({ toolsets, skipped });
}
