import { Command } from "commander";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { formatSummary } from "../format-summary.js";
import { readJournal, RUN_FILES } from "../run-store.js";
import { SummaryBuilder, type RunSummary } from "../run-summary.js";
import { UserError, type CliIO } from "./cli-io.js";

/** Reads a run's summary, recomputing it from the journal when summary.json is missing. */
export async function readRunSummary(dir: string): Promise<RunSummary> {
  if (!existsSync(join(dir, RUN_FILES.events))) throw new UserError(`${dir} is not a run folder (no ${RUN_FILES.events})`);
  const path = join(dir, RUN_FILES.summary);
  if (existsSync(path)) {
    try {
      return JSON.parse(await readFile(path, "utf8")) as RunSummary;
    } catch {
      // fall through: recompute from the journal
    }
  }
  const info = JSON.parse(await readFile(join(dir, RUN_FILES.run), "utf8")) as { id: string; operations?: Record<string, number> };
  const builder = new SummaryBuilder(info.id, info.operations ?? {});
  for await (const episode of readJournal(dir)) builder.add(episode);
  return builder.toJSON();
}

/** `toolsim runs show DIR`. */
export function runsCommand(io: CliIO): Command {
  const runs = new Command("runs").description("inspect run folders");
  runs
    .command("show")
    .description("print the summary of a run: counts, tester funnel with reasons, coverage, time")
    .argument("<dir>", "run folder")
    .option("--json", "summary.json as it is")
    .action(async (dir: string, opts: { json?: boolean }) => {
      const summary = await readRunSummary(dir);
      io.out(opts.json ? JSON.stringify(summary, null, 2) + "\n" : formatSummary(summary, dir));
    });
  return runs;
}
