import { Command } from "commander";
import { existsSync } from "node:fs";
import { formatProblem } from "../../../specs/load/spec-problem.js";
import { bundledToolsetsDir, findToolsetFiles, loadToolset, loadToolsets } from "../../../toolsets/load-toolset.js";
import { describeAuth, renderDocumentation, toolsetDocumentation } from "../../../toolsets/toolset-documentation.js";
import type { LoadedToolset } from "../../../toolsets/toolset.js";
import { validateToolsetFile } from "../../../toolsets/validate-toolset.js";
import { UserError, type CliIO } from "../cli-io.js";
import { toolsetBuildCommand } from "./toolset-build-command.js";
import { toolsetCheckCallsCommand } from "./toolset-check-calls-command.js";
import { toolsetImportCommand } from "./toolset-import-command.js";

/** Makes a command and all its subcommands report through the CLI's output and throw instead of exiting. */
function configure(cmd: Command, io: CliIO): void {
  cmd
    .exitOverride()
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
  for (const sub of cmd.commands) configure(sub, io);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** `toolsim toolset validate PATH...`. */
function validateCommand(io: CliIO, setExit: (code: number) => void): Command {
  return new Command("validate")
    .description("check toolset files: schema, spec problems, documentation, response schemas, ids returned by other operations")
    .argument("<paths...>", "toolset files or folders of them (.yaml, .yml, .json)")
    .option("--json", "one JSON object per toolset")
    .action(async (paths: string[], opts: { json?: boolean }) => {
      const files = await findToolsetFiles(paths);
      if (files.length === 0) throw new UserError(`no toolset files found in: ${paths.join(", ")}`);
      let failed = 0;
      let warned = 0;
      for (const file of files) {
        const result = await validateToolsetFile(file);
        if (!result.ok) {
          failed++;
          if (opts.json) io.out(`${JSON.stringify({ file, ok: false, problems: result.errors })}\n`);
          else io.out(`FAIL ${file}\n${result.errors.map((p) => `  ${formatProblem(p)}`).join("\n")}\n`);
          continue;
        }
        const v = result.value;
        if (v.warnings.length > 0) warned++;
        if (opts.json) {
          io.out(`${JSON.stringify({ file, ok: true, name: v.name, operations: v.catalog.tools.length, problems: v.warnings })}\n`);
        } else {
          const w = v.warnings.length > 0 ? `, ${plural(v.warnings.length, "warning")}` : "";
          io.out(`ok   ${file} (${v.name}: ${plural(v.catalog.tools.length, "operation")}${w})\n`);
          for (const p of v.warnings) io.out(`  ${formatProblem(p)}\n`);
        }
      }
      if (!opts.json) io.out(`${plural(files.length, "toolset")}: ${files.length - failed} valid (${warned} with warnings), ${failed} failed\n`);
      setExit(failed > 0 ? 1 : 0);
    });
}

/** `toolsim toolset list [PATH...]`. */
function listCommand(io: CliIO): Command {
  return new Command("list")
    .description("list toolsets: name, category, operations, auth, fixtures (default: the bundled toolsets)")
    .argument("[paths...]", "toolset files or folders")
    .option("--json", "one JSON object per toolset")
    .action(async (paths: string[], opts: { json?: boolean }) => {
      const from = paths.length > 0 ? paths : [bundledToolsetsDir()];
      const { toolsets, problems } = await loadToolsets(from);
      for (const p of problems) io.err(`toolsim: skipped: ${formatProblem(p)}\n`);
      const rows = toolsets.map((t) => ({
        name: t.name,
        title: t.title,
        category: t.category ?? "",
        operations: t.catalog.tools.length,
        auth: describeAuth(t.auth) ?? "",
        fixtures: Object.values(t.fixtures ?? {}).reduce((n, items) => n + items.length, 0),
        collections: Object.keys(t.fixtures ?? {}).length,
        tasks: t.tasks?.length ?? 0,
        file: t.file,
      }));
      if (opts.json) {
        for (const r of rows) io.out(`${JSON.stringify(r)}\n`);
        return;
      }
      const table = [["NAME", "CATEGORY", "OPS", "AUTH", "FIXTURES", "TASKS", "TITLE"], ...rows.map((r) => [r.name, r.category, String(r.operations), r.auth || "-", r.fixtures > 0 ? `${r.fixtures} in ${plural(r.collections, "collection")}` : "-", r.tasks > 0 ? String(r.tasks) : "-", r.title])];
      const widths = table[0]?.map((_, c) => Math.max(...table.map((row) => (row[c] ?? "").length))) ?? [];
      for (const row of table) io.out(`${row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c] ?? 0))).join("  ")}\n`);
      io.out(`${plural(rows.length, "toolset")}, ${plural(rows.reduce((n, r) => n + r.operations, 0), "operation")}\n`);
    });
}

async function findToolset(nameOrPath: string, paths: string[]): Promise<LoadedToolset> {
  if (existsSync(nameOrPath) && /\.(ya?ml|json)$/i.test(nameOrPath)) {
    const loaded = await loadToolset(nameOrPath);
    if (!loaded.ok) throw new UserError(loaded.errors.map(formatProblem).join("\n"));
    return loaded.value;
  }
  const { toolsets } = await loadToolsets(paths);
  const key = nameOrPath.toLowerCase();
  const found = toolsets.find((t) => t.name === key) ?? toolsets.find((t) => t.title.toLowerCase() === key);
  if (found) return found;
  throw new UserError(`no toolset named "${nameOrPath}" in ${paths.join(", ")}; known: ${toolsets.map((t) => t.name).join(", ")}`);
}

/** `toolsim toolset show NAME|PATH`. */
function showCommand(io: CliIO): Command {
  return new Command("show")
    .description("print a toolset's documentation as the agents see it: introduction, description, functions, and each tool's name, description and argument schema")
    .argument("<toolset>", "a toolset file, or the name of a toolset in --toolsets (default: the bundled ones)")
    .option("--toolsets <paths...>", "where to look the name up (default: the bundled toolsets)")
    .option("--json", "the documentation as JSON")
    .action(async (nameOrPath: string, opts: { toolsets?: string[]; json?: boolean }) => {
      const toolset = await findToolset(nameOrPath, opts.toolsets && opts.toolsets.length > 0 ? opts.toolsets : [bundledToolsetsDir()]);
      const doc = toolsetDocumentation(toolset);
      io.out(opts.json ? `${JSON.stringify(doc, null, 2)}\n` : renderDocumentation(doc));
    });
}

/** `toolsim toolset validate|list|show|import|build|check-calls`. */
export function toolsetCommand(io: CliIO, setExit: (code: number) => void): Command {
  const cmd = new Command("toolset").description("validate, list, show, import and build toolsets (name, introduction, description, functions, OpenAPI)");
  cmd.addCommand(validateCommand(io, setExit));
  cmd.addCommand(listCommand(io));
  cmd.addCommand(showCommand(io));
  cmd.addCommand(toolsetImportCommand(io, setExit));
  cmd.addCommand(toolsetBuildCommand(io, setExit));
  cmd.addCommand(toolsetCheckCallsCommand(io, setExit));
  configure(cmd, io);
  return cmd;
}
