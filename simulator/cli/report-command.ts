import { Command } from "commander";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { DEFAULT_REPORT_EPISODES } from "../report/report-data.js";
import { writeReport } from "../report/write-report.js";
import { UserError, type CliIO } from "./cli-io.js";
import { parseInteger } from "./options/parse-options.js";

/** `toolsim report RUN --out report.html`. */
export function reportCommand(io: CliIO): Command {
  return new Command("report")
    .description("write a self-contained HTML report of a run: summary, funnel, coverage and a conversation browser")
    .argument("<run>", "run folder")
    .option("--out <file>", "the HTML file (default RUN/report.html)")
    .option("--max-episodes <n>", `episodes embedded in the conversation browser (default ${DEFAULT_REPORT_EPISODES})`)
    .option("--toolsets <paths...>", "toolset files or folders, when those recorded in run.json moved")
    .action(async (dir: string, opts: { out?: string; maxEpisodes?: string; toolsets?: string[] }) => {
      const max = parseInteger("--max-episodes", opts.maxEpisodes, 1);
      const out = opts.out ?? `${dir.replace(/\/+$/, "")}/report.html`;
      try {
        const r = await writeReport(dir, out, {
          ...(max !== undefined ? { maxEpisodes: max } : {}),
          ...(opts.toolsets ? { toolsets: opts.toolsets } : {}),
          warn: (m) => io.err(`toolsim: warning: ${m}\n`),
        });
        const capped = r.data.cap.total > r.data.cap.shown ? ` (browser holds the first ${r.data.cap.shown} of ${r.data.cap.total} episodes)` : "";
        io.out(`report: ${r.path} (${(r.bytes / 1024).toFixed(0)} KiB, ${r.data.cap.total} episodes${capped})\n`);
      } catch (e) {
        if (e instanceof ToolsimError && (e.code === "run.not-a-run" || e.code === "run.corrupt")) throw new UserError(e.message);
        throw e;
      }
    });
}
