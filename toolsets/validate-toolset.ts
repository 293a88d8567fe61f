import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parse as parseYaml, YAMLParseError } from "yaml";
import { buildCatalog, type Catalog } from "../specs/catalog/catalog.js";
import { fromPointer, getAt, toPointer } from "../specs/json-pointer.js";
import { loadSpec } from "../specs/load/load-spec.js";
import type { LoadedSpec } from "../specs/load/loaded-spec.js";
import { parseSpecText } from "../specs/load/parse-spec-text.js";
import { fail, ok, type Result } from "../specs/result.js";
import { selectResponse } from "../specs/call/select-response.js";
import type { SpecProblem } from "../specs/load/spec-problem.js";
import { validateCall } from "../specs/call/validate-call.js";
import { parseFunctionDocs, type FunctionDoc } from "./function-docs.js";
import { findMissingIds } from "./id-chains.js";
import { checkToolsetSchema } from "./toolset-schema.js";
import { checkDeclaredBindings } from "./toolset-bindings.js";
import { isObject, type Json } from "../specs/json-object.js";
import { isUnconstrained } from "../specs/catalog/unconstrained-schema.js";

/** A toolset that passed validation: its catalog and the warnings found. */
export interface ValidToolset {
  file: string;
  /** The display name. */
  name: string;
  catalog: Catalog;
  warnings: SpecProblem[];
}

/** Where a problem found in the spec is reported: the spec file, or the toolset file under `/openapi`. */
type Locate = (pointer: string) => { file: string; pointer: string };

function warn(at: Locate, pointer: string, code: string, message: string): SpecProblem {
  return { ...at(pointer), severity: "warning", code, message };
}

/**
 * Operations without a summary or description, and without a success response schema (an empty one counts, unless
 * it stands for a refused part of the spec: `stubbed`, pointers already reported as errors).
 */
function checkOperations(catalog: Catalog, at: Locate, stubbed: ReadonlySet<string>): SpecProblem[] {
  const doc = catalog.spec.document as unknown;
  const out: SpecProblem[] = [];
  for (const tool of catalog.tools) {
    const op = getAt(doc, tool.operation.pointer);
    const label = `${tool.name} (${tool.operation.method.toUpperCase()} ${tool.operation.path})`;
    const text = (k: string): string => (isObject(op) && typeof op[k] === "string" ? (op[k] as string).trim() : "");
    if (text("summary") === "" && text("description") === "") {
      out.push(warn(at, tool.operation.pointer, "operation-undocumented", `${label} has neither a summary nor a description: agents see only its name`));
    }
    const selected = selectResponse(catalog, tool);
    if (selected.key === undefined) {
      out.push(warn(at, `${tool.operation.pointer}/responses`, "no-success-response", `${label} declares no 2xx or default response`));
    } else if (selected.schemaPointer !== undefined && !stubbed.has(selected.schemaPointer) && isUnconstrained(catalog.registry.resolve("response", selected.schemaPointer).schema)) {
      out.push(warn(at, selected.pointer ?? `${tool.operation.pointer}/responses`, "no-response-schema", `${label} has an empty schema for its ${selected.key} response: the simulator cannot shape its answers`));
    } else if (selected.schemaPointer === undefined && selected.status !== 204 && selected.status !== 205 && !(selected.status >= 300 && selected.status < 400)) {
      out.push(warn(at, selected.pointer ?? `${tool.operation.pointer}/responses`, "no-response-schema", `${label} has no schema for its ${selected.key} response: the simulator cannot shape its answers`));
    }
  }
  return out;
}

/**
 * Names of the credentials the spec's security schemes carry, and of the toolset's API keys the harness passes
 * (`auth.name`, `auth.keys`): they may be documented but are not the assistant's arguments.
 */
function credentialNames(catalog: Catalog, data: Json): Set<string> {
  const doc = catalog.spec.document as unknown as Json;
  const schemes = isObject(doc["components"]) && isObject(doc["components"]["securitySchemes"]) ? doc["components"]["securitySchemes"] : {};
  const names = new Set(["Authorization", "authorization"]);
  for (const s of Object.values(schemes)) if (isObject(s) && typeof s["name"] === "string") names.add(s["name"]);
  const auth = isObject(data["auth"]) ? data["auth"] : {};
  if (auth["checkedBy"] !== "api") {
    if (typeof auth["name"] === "string") names.add(auth["name"]);
    if (isObject(auth["keys"])) for (const k of Object.keys(auth["keys"])) names.add(k);
  }
  return names;
}

/** The function documentation of toolset data: its parsed blocks, or the warning that it is missing or unreadable. */
function functionDocs(data: Json, file: string): { docs: FunctionDoc[] } | { problem: SpecProblem } {
  const text = typeof data["functions"] === "string" ? data["functions"] : "";
  if (text.trim() === "") {
    return {
      problem: {
        file,
        pointer: "/functions",
        severity: "warning",
        code: "functions-missing",
        message:
          'no function documentation ("functions", part of ToolAlpaca\'s quintuple): the loader derives it from the spec (operation names, argument schemas, outputs), which says less than written documentation; `toolsim toolset show` prints the derived text to start from',
      },
    };
  }
  const docs = parseFunctionDocs(text);
  if (docs.length === 0) {
    return { problem: { file, pointer: "/functions", severity: "warning", code: "functions-unparsed", message: 'the function documentation has no "N. Name: <operationId>" blocks: it cannot be matched with the operations' } };
  }
  return { docs };
}

/** Function documentation against the spec: functions the spec lacks, operations the documentation lacks, inputs that differ. */
function checkFunctions(docs: readonly FunctionDoc[], catalog: Catalog, file: string, at: Locate, data: Json): SpecProblem[] {
  const out: SpecProblem[] = [];
  const byName = new Map(catalog.tools.map((t) => [t.name, t]));
  for (const t of catalog.tools) if (t.operation.operationId !== undefined) byName.set(t.operation.operationId, t);
  const documented = new Set<string>();
  const credentials = credentialNames(catalog, data);
  for (const fn of docs) {
    const tool = byName.get(fn.name);
    if (!tool) {
      out.push({ file, pointer: "/functions", severity: "warning", code: "function-not-in-spec", message: `function "${fn.name}" (line ${fn.line} of the functions) has no operation in the spec` });
      continue;
    }
    documented.add(tool.name);
    if (fn.input === undefined) continue;
    const args = new Set([...tool.parameters.map((p) => p.arg), ...(tool.body?.mode === "flat" ? Object.keys(tool.body.properties) : tool.body?.arg !== undefined ? [tool.body.arg] : [])]);
    const extra = Object.keys(fn.input).filter((k) => !args.has(k) && !credentials.has(k));
    const undocumented = tool.required.filter((r) => !(r in (fn.input ?? {})) && !credentials.has(r));
    if (extra.length > 0 || undocumented.length > 0) {
      const parts = [
        ...(extra.length > 0 ? [`documents ${extra.map((x) => `"${x}"`).join(", ")}, which the operation does not take`] : []),
        ...(undocumented.length > 0 ? [`leaves out the required ${undocumented.map((x) => `"${x}"`).join(", ")}`] : []),
      ];
      out.push({ file, pointer: "/functions", severity: "warning", code: "function-input-mismatch", message: `function "${fn.name}" (line ${fn.line} of the functions) ${parts.join(" and ")}` });
    }
  }
  for (const tool of catalog.tools) {
    if (!documented.has(tool.name)) out.push(warn(at, tool.operation.pointer, "operation-not-in-functions", `operation ${tool.name} is not in the function documentation`));
  }
  return out;
}

function checkIds(catalog: Catalog, at: Locate, data: Json): SpecProblem[] {
  // The toolset's API keys are passed by the harness, not taken from another operation's answer.
  const auth = isObject(data["auth"]) ? data["auth"] : {};
  const keys = new Set([...(typeof auth["name"] === "string" ? [auth["name"]] : []), ...(isObject(auth["keys"]) ? Object.keys(auth["keys"]) : [])]);
  return findMissingIds(catalog).filter(({ tool, argument }) => !keys.has(tool.parameters.find((p) => p.arg === argument)?.name ?? argument)).map(({ tool, argument }) =>
    warn(at, tool.operation.pointer, "id-not-returned", `${tool.name} needs "${argument}", but no other operation returns it: add a search or list operation whose response carries it`),
  );
}

function checkAuth(data: Json, catalog: Catalog, file: string): SpecProblem[] {
  const secured = catalog.tools.filter((t) => t.security.some((req) => req.length > 0));
  const auth = data["auth"];
  if (auth === undefined && secured.length > 0) {
    return [{ file, pointer: "", severity: "warning", code: "auth-missing", message: `${secured.length} operation${secured.length === 1 ? " requires" : "s require"} credentials, but the toolset has no "auth": the simulation has no credentials to accept` }];
  }
  // A key the spec declares as an ordinary parameter of its operations (as ToolAlpaca's specs do) is used too.
  const names = isObject(auth) ? [...(typeof auth["name"] === "string" ? [auth["name"]] : []), ...(isObject(auth["keys"]) ? Object.keys(auth["keys"]) : [])] : [];
  const carried = catalog.tools.filter((t) => names.some((n) => t.parameters.some((p) => p.name === n) || (t.body?.mode === "flat" && n in t.body.properties)));
  if (isObject(auth) && secured.length === 0 && carried.length === 0) {
    return [{ file, pointer: "/auth", severity: "warning", code: "auth-unused", message: `"auth" is set, but no operation of the spec has a security requirement${typeof auth["name"] === "string" ? ` or a parameter named ${JSON.stringify(auth["name"])}` : ""}` }];
  }
  return [];
}

/** Reference calls of the tasks: known tools, and valid arguments (calls with placeholders of the source are not checked). */
function checkTasks(data: Json, catalog: Catalog, file: string): SpecProblem[] {
  const tasks = Array.isArray(data["tasks"]) ? data["tasks"] : [];
  const out: SpecProblem[] = [];
  tasks.forEach((task, i) => {
    const calls = isObject(task) && Array.isArray(task["calls"]) ? task["calls"] : [];
    calls.forEach((call, j) => {
      if (!isObject(call) || typeof call["tool"] !== "string") return;
      const pointer = `/tasks/${i}/calls/${j}`;
      if (!catalog.get(call["tool"])) {
        out.push({ file, pointer, severity: "warning", code: "task-unknown-tool", message: `task ${i + 1} calls "${call["tool"]}", which is not an operation of the spec` });
        return;
      }
      if (typeof call["raw"] === "string" && /\$\{/.test(call["raw"])) return;
      const checked = validateCall(catalog, call["tool"], call["arguments"] ?? {});
      if (!checked.ok) {
        const issues = checked.errors.slice(0, 3).map((e) => `${e.location.join(".")} ${e.message}`);
        out.push({ file, pointer, severity: "warning", code: "task-call-invalid", message: `task ${i + 1}, call ${j + 1} (${call["tool"]}) does not validate: ${issues.join("; ")}${checked.errors.length > 3 ? "; ..." : ""}` });
      }
    });
  });
  return out;
}

function dedupe(problems: readonly SpecProblem[]): SpecProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.severity}|${p.code}|${p.file}|${p.pointer}|${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Rounds of {@link salvageSpec}: each stubs the parts the last load refused. */
const SALVAGE_ROUNDS = 6;

/** Replaces (`{}`) or removes the node at a pointer; false when there is none. */
function stubAt(doc: unknown, pointer: string, replace: boolean): boolean {
  const segments = fromPointer(pointer);
  const key = segments.pop();
  if (key === undefined) return false;
  const parent = getAt(doc, toPointer(segments));
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length) return false;
    if (replace) parent[i] = {};
    else parent.splice(i, 1);
    return true;
  }
  if (!isObject(parent) || !(key in parent)) return false;
  if (replace) parent[key] = {};
  else delete parent[key];
  return true;
}

/**
 * A spec that failed to load, loaded again with the parts it refused stubbed out, so the checks that do not
 * depend on those parts can still run: a `$ref` that resolves to nothing becomes an empty schema, a node that
 * is still refused is left out. Only problems inside the document itself are stubbed. Returns the loaded spec
 * and the number of parts stubbed, or undefined when it still does not load.
 */
async function salvageSpec(document: unknown, errors: readonly SpecProblem[], label: string, root: string): Promise<{ spec: LoadedSpec; stubbed: number } | undefined> {
  if (!isObject(document)) return undefined;
  const doc = structuredClone(document);
  const stubbed = new Set<string>();
  let problems = errors;
  for (let round = 0; round < SALVAGE_ROUNDS; round++) {
    let changed = false;
    for (const p of problems) {
      if (p.severity !== "error" || p.file !== label || p.pointer === "") continue;
      const node = getAt(doc, p.pointer);
      if (!stubAt(doc, p.pointer, isObject(node) && typeof node["$ref"] === "string")) continue;
      changed = true;
      stubbed.add(p.pointer);
    }
    if (!changed) return undefined;
    const again = await loadSpec(doc, { label, root });
    if (again.ok) return { spec: again.value, stubbed: stubbed.size };
    problems = again.errors;
  }
  return undefined;
}

/** The spec document as written (for a salvage load): the inline object, or the parsed spec file. */
async function rawSpec(source: Json | string, specPath: string | undefined): Promise<unknown> {
  if (typeof source !== "string") return source;
  if (specPath === undefined) return undefined;
  try {
    const parsed = parseSpecText(await readFile(specPath, "utf8"), specPath);
    return parsed.ok ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Validates parsed toolset data: the toolset JSON Schema; the OpenAPI spec (loaded by the OpenAPI core,
 * problems as file + JSON pointer); documentation (function docs, operation summaries, function docs against
 * operations both ways); success response schemas; ToolAlpaca's rule that every id an operation needs is
 * returned by another operation; auth against the spec's security; and the reference calls of the tasks.
 * A spec that does not load does not stop the other checks: they run on the spec with its refused parts
 * stubbed out (see `checked-partially`), and the toolset-level checks run in any case.
 * Errors make it fail; warnings come with the valid toolset.
 */
export async function checkToolsetData(data: unknown, file: string): Promise<Result<ValidToolset, SpecProblem>> {
  const problems = checkToolsetSchema(data, file);
  if (!isObject(data)) return fail(problems);
  const fns = functionDocs(data, file);
  const source = data["openapi"];
  if (!isObject(source) && typeof source !== "string") return fail([...problems, ...("problem" in fns ? [fns.problem] : [])]);
  const label = `${file}#/openapi`;
  const specPath = typeof source === "string" ? resolve(dirname(file), source) : undefined;
  const spec = specPath !== undefined ? await loadSpec(specPath) : await loadSpec(source, { label, root: dirname(file) });
  const inline = typeof source !== "string";
  const specFile = spec.ok ? spec.value.file : specPath;
  const at: Locate = (pointer) => (inline || specFile === undefined ? { file, pointer: `/openapi${pointer}` } : { file: specFile, pointer });
  const relocate = (p: SpecProblem): SpecProblem => (p.file === label ? { ...p, file, pointer: `/openapi${p.pointer}` } : p);
  let loaded: LoadedSpec;
  const stubbed = new Set<string>();
  if (spec.ok) {
    loaded = spec.value;
  } else {
    problems.push(...spec.errors.map(relocate));
    for (const e of spec.errors) stubbed.add(e.pointer);
    const salvaged = await salvageSpec(await rawSpec(source, specPath), spec.errors, inline ? label : (specPath as string), dirname(specPath ?? file));
    if (!salvaged) return fail([...problems, ...("problem" in fns ? [fns.problem] : [])]);
    loaded = salvaged.spec;
    const n = salvaged.stubbed;
    problems.push({
      ...at(""),
      severity: "warning",
      code: "checked-partially",
      message: `the other checks ran with ${n === 1 ? "the refused part" : `the ${n} refused parts`} of the spec stubbed out (an unresolved $ref as an empty schema): fix the errors and validate again`,
    });
  }
  problems.push(...loaded.warnings.map(relocate));
  let catalog: Catalog;
  try {
    catalog = buildCatalog(loaded);
  } catch (e) {
    return fail([...problems, { ...at(""), severity: "error", code: "catalog-failed", message: `could not build tools: ${(e as Error).message}` }, ...("problem" in fns ? [fns.problem] : [])]);
  }
  if (catalog.tools.length === 0) problems.push({ ...at("/paths"), severity: "error", code: "no-operations", message: "the spec has no operations: a toolset needs at least one" });
  problems.push(
    ...checkOperations(catalog, at, stubbed),
    ...("problem" in fns ? [fns.problem] : checkFunctions(fns.docs, catalog, file, at, data)),
    ...checkIds(catalog, at, data),
    ...checkAuth(data, catalog, file),
    ...checkTasks(data, catalog, file),
    ...checkDeclaredBindings(data, catalog, file),
  );
  const unique = dedupe(problems);
  if (unique.some((p) => p.severity === "error")) return fail(unique);
  return ok({ file, name: typeof data["name"] === "string" ? data["name"] : "", catalog, warnings: unique });
}

/** Reads a toolset file (YAML or JSON) and validates it (see {@link checkToolsetData}). */
export async function validateToolsetFile(path: string): Promise<Result<ValidToolset, SpecProblem>> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    return fail([{ file, pointer: "", severity: "error", code: "file-not-found", message: `cannot read toolset: ${(e as Error).message}` }]);
  }
  let data: unknown;
  try {
    data = parseYaml(text, { prettyErrors: true });
  } catch (e) {
    const where = e instanceof YAMLParseError && e.linePos ? ` (line ${e.linePos[0].line}, column ${e.linePos[0].col})` : "";
    return fail([{ file, pointer: "", severity: "error", code: "yaml-syntax", message: `invalid YAML${where}: ${((e as Error).message.split("\n")[0] ?? "").replace(/:\s*$/, "")}` }]);
  }
  return checkToolsetData(data, file);
}
