import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { SimulatedExecutor, type ExecutorBudget } from "../../../agents/executor/simulated-executor.js";
import type { EpisodeToolset } from "../../../agents/roles/toolbox.js";
import { buildCatalog } from "../../../specs/catalog/catalog.js";
import { loadSpec } from "../../../specs/load/load-spec.js";
import { formatProblem } from "../../../specs/load/spec-problem.js";
import { ToolsimError } from "../../../specs/toolsim-error.js";
import { readToolAlpacaEntry, type ImportedToolset } from "../../../toolsets/import/import-toolalpaca.js";
import { goldOf, type Task, type TaskTurn } from "../tasks/task-set.js";
import { isObject } from "../../../specs/json-object.js";

/*
 * ToolAlpaca's evaluation sets as task sets and task worlds. Both read an entry through the toolset importer
 * (`readToolAlpacaEntry`), so a task's tools are named as the dataset names them (`Function_Projection`), its key
 * is the toolset's placeholder credential (the source's key is replaced before anything is read or written), and
 * the world an evaluation plays in is exactly the toolset `toolset import toolalpaca` writes.
 */

/** What an import of a ToolAlpaca eval set produced, with the entries it skipped and what it changed. */
export interface ToolAlpacaTaskImport {
  tasks: Task[];
  skipped: Array<{ where: string; reason: string }>;
  /** One line per API whose names, credentials or keys the import changed (see `ImportedToolset.changes`). */
  notes?: string[];
}

function readEntries(file: string): unknown[] {
  if (!existsSync(file)) throw new ToolsimError("import.not-found", `no such file: ${file}`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ToolsimError("import.bad-file", `${file}: not JSON: ${(e as Error).message}`);
  }
  if (Array.isArray(data)) return data;
  if (isObject(data)) return Object.values(data);
  throw new ToolsimError("import.bad-file", `${file}: not a ToolAlpaca eval set (a JSON array of APIs)`);
}

/** The ToolAlpaca tasks of one imported toolset: one per instruction, its golden actions as gold calls. */
function tasksOf(imported: ImportedToolset, ref: string): Task[] {
  const name = imported.toolset.name;
  return (imported.toolset.tasks ?? []).map((t, j) => {
    const index = Number(/#(\d+)$/.exec(t.source ?? "")?.[1] ?? j);
    const turns: TaskTurn[] = [{ role: "user", text: t.instruction }];
    const optional: number[] = [];
    for (const [k, c] of (t.calls ?? []).entries()) {
      turns.push({ role: "api", name: c.tool, arguments: c.arguments });
      if (c.optional) optional.push(k);
    }
    const extra = t.questions !== undefined || optional.length > 0 ? { toolalpaca: { ...(t.questions ? { questions: t.questions } : {}), ...(optional.length > 0 ? { optional } : {}) } } : {};
    return { id: `toolalpaca/${name}/${index}`, source: "toolalpaca" as const, toolset: ref, apis: [...new Set((t.calls ?? []).map((c) => c.tool))], turns, ...goldOf(turns), ...extra };
  });
}

/**
 * Imports a ToolAlpaca evaluation set (`[{Name, Documentation, Function_Projection, Authentication, Instructions,
 * Golden_Answers, ...}]`): one task per instruction, `toolalpaca/<Name>/<instruction index>`. An API that cannot
 * be read is skipped with why; the others go on.
 */
export function importToolAlpacaTasks(file: string): ToolAlpacaTaskImport {
  const entries = readEntries(file);
  const abs = resolve(file);
  const result: ToolAlpacaTaskImport = { tasks: [], skipped: [] };
  const notes: string[] = [];
  entries.forEach((entry, i) => {
    if (!isObject(entry) || typeof entry["Name"] !== "string" || !Array.isArray(entry["Instructions"])) {
      result.skipped.push({ where: `${file}[${i}]`, reason: "not a ToolAlpaca toolset (Name, Instructions)" });
      return;
    }
    const read = readToolAlpacaEntry(entry, file, `/${i}`);
    if (!read.ok) {
      result.skipped.push({ where: `${file}[${i}] (${entry["Name"]})`, reason: read.errors.map((e) => e.message).join("; ") });
      return;
    }
    for (const c of read.value.changes ?? []) notes.push(`${read.value.toolset.name}: ${c}`);
    result.tasks.push(...tasksOf(read.value, `toolalpaca:${abs}#${read.value.toolset.name}`));
  });
  if (notes.length > 0) result.notes = notes;
  return result;
}

/**
 * The world of a ToolAlpaca task (`toolalpaca:<file>#<Name>`): the API read as `toolset import toolalpaca` reads
 * it, over the simulated executor. A spec that still does not load after the loader's repairs is an error naming
 * the API and the problems (the caller reports it for that API's tasks and goes on with the others).
 */
export async function toolAlpacaWorld(file: string, name: string, budget: ExecutorBudget = {}): Promise<{ toolset: EpisodeToolset; executor: SimulatedExecutor; documentation?: string }> {
  if (!existsSync(file)) throw new ToolsimError("tasks.no-toolset", `the ToolAlpaca file ${file} of the task set is gone`);
  const entries = readEntries(file);
  const index = entries.findIndex((e) => isObject(e) && e["Name"] === name);
  if (index < 0) throw new ToolsimError("tasks.no-toolset", `no toolset named ${name} in ${file}`);
  const read = readToolAlpacaEntry(entries[index], file, `/${index}`);
  if (!read.ok) throw new ToolsimError("toolalpaca.bad-documentation", read.errors.map(formatProblem).join("; "));
  const ts = read.value.toolset;
  const label = `${file}#${name}`;
  const spec = await loadSpec(ts.openapi as object, { label, root: dirname(file) });
  if (!spec.ok) {
    const errors = spec.errors.filter((e) => e.severity === "error");
    throw new ToolsimError("toolalpaca.bad-documentation", `${name}: the spec does not load: ${errors.map((e) => `${e.pointer || "/"} ${e.message}`).join("; ")}`);
  }
  return {
    toolset: {
      name: read.value.slug,
      title: ts.name,
      ...(ts.category !== undefined ? { category: ts.category } : {}),
      introduction: ts.introduction,
      description: ts.description,
      functions: ts.functions,
      catalog: buildCatalog(spec.value),
      ...(ts.auth ? { auth: ts.auth } : {}),
    },
    executor: new SimulatedExecutor(budget),
    ...(read.value.documentation !== undefined ? { documentation: read.value.documentation } : {}),
  };
}
