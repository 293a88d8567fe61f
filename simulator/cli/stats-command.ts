import { Command } from "commander";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { formatStats } from "../stats/format-stats.js";
import { runStats } from "../stats/run-stats.js";
import { UserError, type CliIO } from "./cli-io.js";
import { parseInteger } from "./parse-options.js";

/** `toolsim stats RUN [--json]`. */
export function statsCommand(io: CliIO): Command {
  return new Command("stats")
    .description("dataset statistics of a run: counts, steps, instruction lengths, tools, coverage, near-duplicates, tester funnel")
    .argument("<run>", "run folder")
    .option("--json", "print the statistics as JSON")
    .option("--dup-window <n>", "earlier instructions each one is compared with for near-duplicates (default 20000)")
    .option("--toolsets <paths...>", "toolset files or folders, when those recorded in run.json moved")
    .action(async (dir: string, opts: { json?: boolean; dupWindow?: string; toolsets?: string[] }) => {
      try {
        const window = parseInteger("--dup-window", opts.dupWindow, 1);
        const stats = await runStats(dir, {
          ...(window !== undefined ? { duplicateWindow: window } : {}),
          ...(opts.toolsets ? { toolsets: opts.toolsets } : {}),
          warn: (m) => io.err(`toolsim: warning: ${m}\n`),
        });
        io.out(opts.json ? `${JSON.stringify(stats, null, 2)}\n` : formatStats(stats, dir));
      } catch (e) {
        if (e instanceof ToolsimError && (e.code === "run.not-a-run" || e.code === "run.corrupt")) throw new UserError(e.message);
        throw e;
      }
    });
}
