import { Command, Option } from "commander";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { parseSplit } from "../export/dataset-split.js";
import { EXPORT_FORMATS, type ExportFormatName } from "../export/export-format.js";
import { exportRun, type ExportResult } from "../export/export-run.js";
import { UsageError, UserError, type CliIO } from "./cli-io.js";
import { parseInteger } from "./options/parse-options.js";

interface ExportFlags {
  format: ExportFormatName;
  out: string;
  includeRejected?: boolean;
  split?: string;
  seed?: string;
  system?: string;
  thoughts?: boolean;
  meta?: boolean;
  toolsets?: string[];
  pairWith?: string[];
}

/** The one-line account of an export. */
export function describeExport(result: ExportResult, dir: string): string {
  const files = result.files.length > 0 ? result.files.map((f) => `${f.path} (${f.lines} lines)`).join(", ") : "nothing written";
  const what = result.format === "dpo" ? `${result.exported} preference pairs` : `${result.exported} episodes`;
  const rules = result.pairs ? ` (${result.pairs.instruction} by instruction, ${result.pairs.plan} by plan)` : "";
  const skipped = result.skipped > 0 ? `, ${result.skipped} skipped` : "";
  return `exported ${what}${rules} as ${result.format} from ${result.episodes} episodes of ${dir}${skipped} -> ${files}\n`;
}

/** Why an export wrote nothing, and what to do about it. */
export function explainEmptyExport(result: ExportResult, dir: string, flags: { includeRejected?: boolean; pairWith?: string[] }): string {
  if (result.format === "dpo") {
    const t = result.trajectories ?? { accepted: 0, rejected: 0 };
    const runs = flags.pairWith && flags.pairWith.length > 0 ? `${dir} and ${flags.pairWith.join(", ")}` : dir;
    return (
      `no preference pairs: no instruction (or plan) in ${runs} has both an accepted and a rejected trajectory ` +
      `(${t.accepted} accepted, ${t.rejected} rejected). Pair with another run of the same tasks: ` +
      `--pair-with RUN2, e.g. a fork with another assistant (toolsim replay ${dir} --from-episode all --from-turn 1 --assistant openai:<model> --out RUN2)`
    );
  }
  if (result.exported === 0 && result.skipped > 0) return `no episode could be written as ${result.format} (${result.skipped} skipped)`;
  return flags.includeRejected
    ? `no episodes to export: ${dir} has ${result.episodes} episodes`
    : `no accepted episodes to export among the ${result.episodes} episodes of ${dir} (--include-rejected exports the others)`;
}

/** Run-folder errors that are the user's to fix. */
const RUN_ERRORS = new Set(["run.not-a-run", "run.corrupt", "usage"]);

/** `toolsim export RUN --format F --out FILE`. */
export function exportCommand(io: CliIO, setExit: (code: number) => void = () => undefined): Command {
  return new Command("export")
    .description("export a run's episodes to a training format (secrets removed)")
    .argument("<run>", "run folder")
    .addOption(new Option("--format <format>", "openai | sharegpt | toolalpaca | apibank | alpaca | mcp | dpo").choices([...EXPORT_FORMATS]).makeOptionMandatory())
    .requiredOption("--out <file>", "output JSONL file (with --split: FILE.train.jsonl and FILE.validation.jsonl)")
    .option("--include-rejected", "also export episodes that were not accepted (not for dpo)")
    .option("--split <share>", "split into train and validation files, e.g. 0.9 for 90% training")
    .option("--seed <s>", "seed of the split (default 1)")
    .option("--system <text>", 'system prompt of the chat formats ("" for none; default: the native assistant prompt)')
    .option("--no-thoughts", "leave out the assistant's thoughts")
    .option("--meta", "add a meta object (run, episode, outcome) to every line")
    .option("--toolsets <paths...>", "toolset files or folders, when those recorded in run.json moved")
    .option("--pair-with <runs...>", "dpo: also pair with episodes of these runs (a replay or fork with another assistant)")
    .action(async (dir: string, flags: ExportFlags) => {
      if (flags.seed !== undefined && flags.split === undefined) throw new UsageError("--seed sets the seed of --split: give --split too");
      if (flags.pairWith && flags.format !== "dpo") throw new UsageError("--pair-with is for --format dpo");
      if (flags.includeRejected && flags.format === "dpo") {
        io.err("toolsim: warning: --include-rejected does not apply to dpo: every pair already holds a rejected trajectory (with --pair-with, from either run)\n");
      }
      let split: { train: number; seed: number } | undefined;
      try {
        split = flags.split !== undefined ? { train: parseSplit(flags.split), seed: parseInteger("--seed", flags.seed) ?? 1 } : undefined;
      } catch (e) {
        if (e instanceof ToolsimError) throw new UsageError(e.message);
        throw e;
      }
      try {
        const result = await exportRun({
          dir,
          format: flags.format,
          out: flags.out,
          ...(flags.includeRejected ? { includeRejected: true } : {}),
          ...(split ? { split } : {}),
          ...(flags.system !== undefined ? { system: flags.system } : {}),
          thoughts: flags.thoughts !== false,
          meta: flags.meta === true,
          ...(flags.toolsets ? { toolsets: flags.toolsets } : {}),
          ...(flags.pairWith ? { pairWith: flags.pairWith } : {}),
          warn: (m) => io.err(`toolsim: warning: ${m}\n`),
        });
        io.out(describeExport(result, dir));
        if (result.exported === 0) {
          io.err(`toolsim: ${explainEmptyExport(result, dir, flags)}\n`);
          setExit(1);
        }
      } catch (e) {
        if (e instanceof ToolsimError && RUN_ERRORS.has(e.code)) throw new UserError(e.message);
        throw e;
      }
    });
}
