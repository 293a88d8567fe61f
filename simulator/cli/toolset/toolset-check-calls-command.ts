import { Command } from "commander";
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { formatProblem } from "../../../specs/load/spec-problem.js";
import { CALL_FAILURE_CLASSES, checkApiBankCall, readApiBankCalls, summarizeCalls, type ApiBankCall, type CallReport } from "../../../toolsets/import/apibank-calls.js";
import { loadToolsets } from "../../../toolsets/load-toolset.js";
import { UsageError, UserError, type CliIO } from "../cli-io.js";

async function dialogueFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    if ((await stat(p)).isDirectory()) {
      for (const f of (await readdir(p)).sort()) if (f.endsWith(".jsonl")) out.push(join(p, f));
    } else out.push(p);
  }
  return out;
}

function pct(r: number): string {
  return `${(r * 100).toFixed(1)}%`;
}

function counts(report: CallReport, key: "byPrimary" | "byClass"): string {
  return CALL_FAILURE_CLASSES.map((c) => `${c} ${report[key][c]}`).join(", ");
}

/** `toolsim toolset check-calls DIALOGUES... --toolsets DIR`: validates the API calls of API-Bank dialogues against toolsets. */
export function toolsetCheckCallsCommand(io: CliIO, setExit: (code: number) => void): Command {
  return new Command("check-calls")
    .description("validate every API call of API-Bank dialogues (JSON lines) against toolsets, and classify the failures")
    .argument("<dialogues...>", "API-Bank dialogue files (.jsonl) or folders of them, e.g. ../shared/corpora/apibank/level-1-dialogues")
    .requiredOption("--toolsets <paths...>", "toolset files or folders (e.g. made by `toolset import apibank`)")
    .option("--examples <n>", "failures shown per class", "3")
    .option("--min-rate <r>", "exit 1 when fewer than this share (0..1) of the recorded calls validate")
    .option("--json", "the reports and every failure as JSON")
    .action(async (paths: string[], opts: { toolsets: string[]; examples: string; minRate?: string; json?: boolean }) => {
      const minRate = opts.minRate !== undefined ? Number(opts.minRate) : undefined;
      if (minRate !== undefined && !(minRate >= 0 && minRate <= 1)) throw new UsageError(`--min-rate must be between 0 and 1, got "${opts.minRate}"`);
      const examples = Number(opts.examples);
      if (!Number.isInteger(examples) || examples < 0) throw new UsageError(`--examples must be a whole number, got "${opts.examples}"`);
      const { toolsets, problems } = await loadToolsets(opts.toolsets);
      for (const p of problems) io.err(`toolsim: skipped: ${formatProblem(p)}\n`);
      if (toolsets.length === 0) throw new UserError(`no toolset could be loaded from ${opts.toolsets.join(", ")}`);
      const files = await dialogueFiles(paths);
      if (files.length === 0) throw new UserError(`no dialogue files (.jsonl) in: ${paths.join(", ")}`);
      const calls: ApiBankCall[] = [];
      let unreadable = 0;
      let withoutCalls = 0;
      for (const f of files) {
        const read = readApiBankCalls(await readFile(f, "utf8"), basename(f));
        calls.push(...read.calls);
        unreadable += read.unreadable;
        if (read.calls.length === 0) withoutCalls++;
      }
      const inline = calls.filter((c) => c.inline).length;
      const recorded = summarizeCalls(calls.map((c) => checkApiBankCall(c, toolsets)), unreadable);
      const parsed = summarizeCalls(calls.map((c) => checkApiBankCall(c, toolsets, { parsed: true })), unreadable);
      if (opts.json) {
        const brief = (r: CallReport): object => ({ total: r.total, valid: r.valid, rate: r.rate, byPrimary: r.byPrimary, byClass: r.byClass, unreadable: r.unreadable });
        const failures = recorded.failures.map((f) => ({ file: f.call.file, line: f.call.line, api: f.call.api, toolset: f.toolset ?? null, primary: f.primary, classes: f.classes, renamed: f.renamed ?? [], issues: f.issues }));
        io.out(`${JSON.stringify({ dialogues: files.length, withoutCalls, inline, toolsets: toolsets.length, recorded: brief(recorded), parsed: brief(parsed), failures }, null, 2)}\n`);
      } else {
        const notes = [...(withoutCalls > 0 ? [`${withoutCalls} without a call`] : []), ...(inline > 0 ? [`${inline} call${inline === 1 ? "" : "s"} written in an AI turn's text`] : [])];
        io.out(`${calls.length} API calls in ${files.length} dialogues${notes.length > 0 ? ` (${notes.join("; ")})` : ""}, against ${toolsets.length} toolsets:\n`);
        io.out(`  as recorded (param_dict): ${recorded.valid} of ${recorded.total} valid (${pct(recorded.rate)})\n`);
        io.out(`  failures by class: ${counts(recorded, "byPrimary")}\n`);
        io.out(`  as API-Bank parsed them (result.input): ${parsed.valid} of ${parsed.total} valid (${pct(parsed.rate)}); failures: ${counts(parsed, "byPrimary")}\n`);
        if (unreadable > 0) io.out(`  ${unreadable} unreadable lines\n`);
        for (const c of CALL_FAILURE_CLASSES) {
          const of = recorded.failures.filter((f) => f.primary === c);
          if (of.length === 0 || examples === 0) continue;
          io.out(`${c} (${of.length}):\n`);
          for (const f of of.slice(0, examples)) {
            const renamed = f.renamed ? ` [${f.renamed.join(", ")}]` : "";
            io.out(`  ${f.call.file}:${f.call.line} ${f.call.api}${renamed}: ${f.issues.map((i) => `${i.location.join(".")} ${i.message}`).join("; ")}\n`);
          }
          if (of.length > examples) io.out(`  ... and ${of.length - examples} more\n`);
        }
      }
      setExit(minRate !== undefined && recorded.rate < minRate ? 1 : 0);
    });
}
