import { Command } from "commander";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { findSpecFiles } from "../../../specs/load/find-spec-files.js";
import { formatProblem, type SpecProblem } from "../../../specs/load/spec-problem.js";
import { describeFunctions } from "../../../toolsets/build/describe-functions.js";
import { importApiBank } from "../../../toolsets/import/import-apibank.js";
import { importOpenApi } from "../../../toolsets/import/import-openapi.js";
import { importToolAlpaca, type ImportedToolset } from "../../../toolsets/import/import-toolalpaca.js";
import { checkToolsetData } from "../../../toolsets/validate-toolset.js";
import { writeToolset } from "../../../toolsets/write-toolset.js";
import { UserError, type CliIO } from "../cli-io.js";
import { toolsetImportMcpCommand } from "./toolset-import-mcp-command.js";

async function readJson(path: string): Promise<unknown> {
  const text = await readFile(path, "utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new UserError(`${path} is not JSON: ${(e as Error).message}`);
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * Checks and writes imported toolsets: each is validated as a toolset first (function documentation derived
 * from the spec when it has none); invalid ones are reported and not written. Returns whether all were written.
 */
async function writeImported(io: CliIO, out: string, imported: readonly ImportedToolset[], skipped: readonly SpecProblem[]): Promise<boolean> {
  let written = 0;
  let operations = 0;
  let failed = 0;
  for (const { slug, toolset, notes, changes } of imported) {
    const file = resolve(out, `${slug}.yaml`);
    const checked = await checkToolsetData(toolset, file);
    if (!checked.ok) {
      failed++;
      io.out(`FAIL ${toolset.name}: not written\n${checked.errors.map((p) => `  ${formatProblem(p)}`).join("\n")}\n`);
      continue;
    }
    if (toolset.functions.trim() === "") toolset.functions = describeFunctions(checked.value.catalog);
    const path = await writeToolset(out, slug, toolset);
    const warnings = checked.value.warnings.filter((w) => w.code !== "functions-missing");
    const tasks = toolset.tasks?.length ?? 0;
    const carried = notes !== undefined && notes.length > 0 ? `, documentation carried into the spec for ${plural(notes.length, "argument")}` : "";
    io.out(`wrote ${path} (${toolset.name}: ${plural(checked.value.catalog.tools.length, "operation")}${tasks > 0 ? `, ${plural(tasks, "task")}` : ""}${warnings.length > 0 ? `, ${plural(warnings.length, "warning")}` : ""}${carried})\n`);
    for (const c of changes ?? []) io.out(`  note: ${c}\n`);
    written++;
    operations += checked.value.catalog.tools.length;
  }
  for (const p of skipped) io.err(`toolsim: skipped: ${formatProblem(p)}\n`);
  io.out(`imported ${plural(written, "toolset")} (${plural(operations, "operation")}) into ${out}${failed > 0 ? `; ${failed} failed` : ""}${skipped.length > 0 ? `; ${skipped.length} skipped` : ""}\n`);
  if (written > 0) io.out(`check them with: npx toolsim toolset validate ${out}\n`);
  return failed === 0;
}

/** API-Bank's databases: every `<Name>.json` of a folder, by name. */
async function readDatabases(dir: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const f of (await readdir(dir)).sort()) {
    if (f.endsWith(".json")) out[basename(f, ".json")] = await readJson(join(dir, f));
  }
  return out;
}

/** `toolsim toolset import toolalpaca|apibank|openapi`. */
export function toolsetImportCommand(io: CliIO, setExit: (code: number) => void): Command {
  const cmd = new Command("import").description("make toolset files from ToolAlpaca data, API-Bank API descriptions, OpenAPI specs or a live MCP server (no model)");

  cmd
    .command("toolalpaca")
    .description("ToolAlpaca toolsets (JSON array of {Name, Description, Introduction, Functions, Documentation, Instructions, Golden_Answers}) -> toolset files; golden answers become the toolset's `tasks`")
    .argument("<file>", "ToolAlpaca JSON, e.g. ../shared/corpora/toolalpaca/eval_simulated.json")
    .option("--out <dir>", "folder for the toolset files", "toolsets-toolalpaca")
    .action(async (file: string, opts: { out: string }) => {
      const imported = importToolAlpaca(await readJson(file), basename(file));
      if (!imported.ok) throw new UserError(imported.errors.map(formatProblem).join("\n"));
      setExit((await writeImported(io, opts.out, imported.value.toolsets, imported.value.skipped)) ? 0 : 1);
    });

  cmd
    .command("apibank")
    .description("API-Bank API descriptions -> one toolset per database: each API a POST /<ApiName> operation, databases as fixtures, token APIs with auth")
    .argument("<file>", "API-Bank's api_descriptions.json")
    .option("--databases <dir>", "API-Bank's init_database folder (default: init_database next to the file, when present)")
    .option("--out <dir>", "folder for the toolset files", "toolsets-apibank")
    .action(async (file: string, opts: { databases?: string; out: string }) => {
      const sibling = join(dirname(file), "init_database");
      const dbDir = opts.databases ?? (existsSync(sibling) ? sibling : undefined);
      if (opts.databases !== undefined && !existsSync(opts.databases)) throw new UserError(`no such folder: ${opts.databases}`);
      const databases = dbDir !== undefined ? await readDatabases(dbDir) : {};
      if (dbDir !== undefined) io.err(`toolsim: databases from ${dbDir} (${Object.keys(databases).length})\n`);
      const imported = importApiBank(await readJson(file), { databases, source: file });
      if (!imported.ok) throw new UserError(imported.errors.map(formatProblem).join("\n"));
      setExit((await writeImported(io, opts.out, imported.value.toolsets, imported.value.skipped)) ? 0 : 1);
    });

  cmd
    .command("openapi")
    .description("OpenAPI 3.x / Swagger 2.0 specs -> toolset files, with description and function documentation derived from the spec")
    .argument("<specs...>", "spec files or folders of specs")
    .option("--out <dir>", "folder for the toolset files", "toolsets-openapi")
    .option("--reference", "refer to the spec file instead of inlining the (loaded, bundled) document")
    .action(async (paths: string[], opts: { out: string; reference?: boolean }) => {
      const files = await findSpecFiles(paths);
      if (files.length === 0) throw new UserError(`no spec files found in: ${paths.join(", ")}`);
      const imported: ImportedToolset[] = [];
      const skipped: SpecProblem[] = [];
      const taken = new Set<string>();
      for (const f of files) {
        const one = await importOpenApi(f, opts.reference ? { referenceFrom: opts.out } : {});
        if (!one.ok) {
          skipped.push(...one.errors.filter((p) => p.severity === "error"));
          continue;
        }
        let slug = one.value.slug;
        for (let n = 2; taken.has(slug); n++) slug = `${one.value.slug}-${n}`;
        taken.add(slug);
        imported.push({ ...one.value, slug });
      }
      const allWritten = await writeImported(io, opts.out, imported, skipped);
      setExit(allWritten && skipped.length === 0 ? 0 : 1);
    });

  cmd.addCommand(toolsetImportMcpCommand(io, setExit, writeImported));
  return cmd;
}
