import { Command } from "commander";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { formatStats } from "../stats/format-stats.js";
import { runStats } from "../stats/run-stats.js";
import { auditRunText, formatTextAudit } from "../stats/text-audit.js";
import { UserError, type CliIO } from "./cli-io.js";
import { parseInteger } from "./options/parse-options.js";

/** `toolsim stats RUN [--json] [--text]`. */
export function statsCommand(io: CliIO, setExit: (code: number) => void = () => undefined): Command {
  return new Command("stats")
    .description("dataset statistics of a run: counts, steps, instruction lengths, tools, coverage, near-duplicates, tester funnel")
    .argument("<run>", "run folder")
    .option("--json", "print the statistics as JSON")
    .option("--dup-window <n>", "earlier instructions each one is compared with for near-duplicates (default 20000)")
    .option("--toolsets <paths...>", "toolset files or folders, when those recorded in run.json moved")
    .option("--text", "audit the run's text instead: internal scores in exported text, broken agreements, yes/no values said as nouns, values that never vary (exit 1 when it finds any)")
    .action(async (dir: string, opts: { json?: boolean; dupWindow?: string; toolsets?: string[]; text?: boolean }) => {
      try {
        if (opts.text === true) {
          const audit = await auditRunText(dir, { ...(opts.toolsets ? { toolsets: opts.toolsets } : {}), warn: (m) => io.err(`toolsim: warning: ${m}\n`) });
          io.out(opts.json ? `${JSON.stringify(audit, null, 2)}\n` : formatTextAudit(audit));
          const problems = Object.values(audit.counts).reduce((a, b) => a + b, 0);
          if (problems > 0) setExit(1);
          return;
        }
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
