import { existsSync } from "node:fs";
import { readFile, stat, readdir } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml, YAMLParseError } from "yaml";
import { buildCatalog, type Catalog } from "../specs/catalog/catalog.js";
import type { Responder } from "../specs/respond/responder.js";
import { behaviourResponders } from "./apibank/apibank-responder.js";
import { declareBindings } from "../specs/respond/bindings/bindings.js";
import { declareWorld } from "../specs/respond/world-settings.js";
import { readDeclaredBindings, readWorld } from "./toolset-bindings.js";
import { loadSpec } from "../specs/load/load-spec.js";
import type { Result } from "../specs/result.js";
import type { SpecProblem } from "../specs/load/spec-problem.js";
import { describeFunctions } from "./build/describe-functions.js";
import type { LoadedToolset, ToolsetAuth, ToolsetTask } from "./toolset.js";
import { isObject, type Json } from "../specs/json-object.js";
import { keepStampsPast } from "../specs/synthesize/world/dated-examples.js";

/** The folder of the toolsets that ship with toolsim. */
export function bundledToolsetsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // Source: toolsets/; compiled: dist/toolsets/ -> the data stays in toolsets/bundled at the package root.
  const candidates = [join(here, "bundled"), join(here, "..", "..", "toolsets", "bundled")];
  return candidates.find((c) => existsSync(c)) ?? (candidates[0] as string);
}

function slugOf(file: string): string {
  return basename(file, extname(file)).toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
}

function problem(file: string, pointer: string, message: string, code: string): SpecProblem {
  return { file, pointer, message, severity: "error", code };
}

/**
 * Loads one toolset file (YAML or JSON): checks its fields, loads its OpenAPI spec and builds the catalog.
 * A toolset without function documentation still loads: the documentation is derived from the spec (as
 * `toolset import openapi` does) and `functionsDerived` says so; `toolset validate` warns about it.
 */
export async function loadToolset(path: string): Promise<Result<LoadedToolset, SpecProblem>> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    return { ok: false, errors: [problem(file, "", `cannot read toolset: ${(e as Error).message}`, "file-not-found")] };
  }
  let data: unknown;
  try {
    data = parseYaml(text, { prettyErrors: true });
  } catch (e) {
    const where = e instanceof YAMLParseError && e.linePos ? ` (line ${e.linePos[0].line}, column ${e.linePos[0].col})` : "";
    return { ok: false, errors: [problem(file, "", `invalid YAML${where}: ${(e as Error).message.split("\n")[0]}`, "yaml-syntax")] };
  }
  if (!isObject(data)) return { ok: false, errors: [problem(file, "", "a toolset must be a mapping with name, introduction, description, functions and openapi", "toolset-shape")] };
  const errors: SpecProblem[] = [];
  for (const field of ["name", "introduction", "description"] as const) {
    if (typeof data[field] !== "string" || data[field].trim() === "") errors.push(problem(file, `/${field}`, `"${field}" must be a non-empty string`, "toolset-field"));
  }
  if (data["functions"] !== undefined && typeof data["functions"] !== "string") errors.push(problem(file, "/functions", `"functions" must be text`, "toolset-field"));
  if (!isObject(data["openapi"]) && typeof data["openapi"] !== "string") errors.push(problem(file, "/openapi", `"openapi" must be an inline OpenAPI document or a path to one`, "toolset-field"));
  if (data["fixtures"] !== undefined && !isFixtures(data["fixtures"])) errors.push(problem(file, "/fixtures", `"fixtures" must map collection paths to lists of objects`, "toolset-field"));
  const auth = data["auth"];
  if (auth !== undefined && !isAuth(auth)) errors.push(problem(file, "/auth", `"auth" must be {type: apiKey|bearer, in?, name?, credentials: [...], keys?: {parameter: value}, checkedBy?: api}`, "toolset-field"));
  if (errors.length > 0) return { ok: false, errors };

  const source = data["openapi"] as Json | string;
  const spec = typeof source === "string" ? await loadSpec(resolve(dirname(file), source)) : await loadSpec(source, { label: `${file}#/openapi`, root: dirname(file) });
  if (!spec.ok) return spec;
  const catalog = buildCatalog(spec.value);
  const bindings = readDeclaredBindings(data);
  const world = readWorld(data);
  declareBindings(catalog, bindings);
  declareWorld(catalog, world);
  const written = typeof data["functions"] === "string" && data["functions"].trim() !== "" ? data["functions"] : undefined;
  return {
    ok: true,
    value: {
      name: slugOf(file),
      title: String(data["name"]),
      ...(typeof data["category"] === "string" ? { category: data["category"] } : {}),
      introduction: String(data["introduction"]),
      description: String(data["description"]),
      functions: written ?? describeFunctions(catalog),
      ...(written === undefined ? { functionsDerived: true } : {}),
      ...(typeof data["link"] === "string" ? { link: data["link"] } : {}),
      ...(auth !== undefined ? { auth: auth as ToolsetAuth } : {}),
      ...(data["fixtures"] !== undefined ? { fixtures: fixturesAsOfToday(data["fixtures"] as LoadedToolset["fixtures"] & object) } : {}),
      ...(Array.isArray(data["tasks"]) ? { tasks: data["tasks"].filter(isTask) } : {}),
      ...(bindings !== undefined ? { bindings } : {}),
      ...(world !== undefined ? { world } : {}),
      catalog,
      ...withBehaviour(catalog),
      file,
    },
  };
}

/** The responders of a catalog's own behaviour (API-Bank's APIs), when it has one. */
function withBehaviour(catalog: Catalog): { responders?: Responder[] } {
  const responders = behaviourResponders(catalog);
  return responders.length > 0 ? { responders } : {};
}

function isTask(v: unknown): v is ToolsetTask {
  return isObject(v) && typeof v["instruction"] === "string" && (v["calls"] === undefined || Array.isArray(v["calls"]));
}

function isFixtures(v: unknown): boolean {
  return isObject(v) && Object.values(v).every((items) => Array.isArray(items) && items.every(isObject));
}

function isAuth(v: unknown): boolean {
  if (!isObject(v) || (v["type"] !== "apiKey" && v["type"] !== "bearer") || !Array.isArray(v["credentials"]) || !v["credentials"].every((c) => typeof c === "string")) return false;
  const keys = v["keys"];
  if (keys !== undefined && !(isObject(keys) && Object.values(keys).every((k) => typeof k === "string"))) return false;
  return v["checkedBy"] === undefined || v["checkedBy"] === "api";
}

/** Expands files and folders to toolset files (`*.yaml`, `*.yml`, `*.json`), sorted. */
export async function findToolsetFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const info = await stat(p);
    if (info.isDirectory()) {
      for (const entry of (await readdir(p)).sort()) {
        if (/\.(ya?ml|json)$/i.test(entry)) out.push(join(p, entry));
      }
    } else out.push(p);
  }
  return out;
}

/** Loads many toolsets; problems of each file are collected, the good ones are returned. */
export async function loadToolsets(paths: readonly string[]): Promise<{ toolsets: LoadedToolset[]; problems: SpecProblem[] }> {
  const toolsets: LoadedToolset[] = [];
  const problems: SpecProblem[] = [];
  const seen = new Set<string>();
  for (const file of await findToolsetFiles(paths)) {
    const loaded = await loadToolset(file);
    if (!loaded.ok) {
      problems.push(...loaded.errors);
      continue;
    }
    let ts = loaded.value;
    if (seen.has(ts.name)) ts = { ...ts, name: `${ts.name}-${seen.size}` };
    seen.add(ts.name);
    toolsets.push(ts);
  }
  return { toolsets, problems };
}

/**
 * The fixtures as the world stands on the simulated today: a collection whose records say they were made or
 * changed after it (`createdAt` two weeks ahead) moves back by whole days, its records together (see
 * `synthesize/world/dated-examples.ts`), so that the state, the user's requests and the answers all see the same dates.
 */
function fixturesAsOfToday(fixtures: NonNullable<LoadedToolset["fixtures"]>): NonNullable<LoadedToolset["fixtures"]> {
  for (const items of Object.values(fixtures)) keepStampsPast(items);
  return fixtures;
}
