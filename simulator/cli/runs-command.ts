import { Command } from "commander";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { formatSummary } from "../runs/format-summary.js";
import { readEpisodesSkippingCorrupt } from "../export/run-folder.js";
import { readLines } from "../runs/journal-lines.js";
import { RUN_FILES } from "../runs/run-info.js";
import { SummaryBuilder, type RunSummary } from "../runs/run-summary.js";
import { readQueueFile } from "../queue/queue-file.js";
import { UsageError, UserError, type CliIO } from "./cli-io.js";
import { auditRun, formatAudit } from "../stats/world-audit.js";

/** A run's summary and how it relates to the journal and the run's target. */
export interface RunSummaryReading {
  summary: RunSummary;
  /** Episodes the run was asked for (run.json), when recorded. */
  target: number | undefined;
  /** Why the summary was recomputed from the journal (summary.json missing, unreadable or behind it), if it was. */
  recomputed: string | undefined;
  /** Damaged journal lines skipped while recomputing (file and line). */
  warnings: string[];
}

/** How many episodes the journal holds to the end (a cheap scan: no event is parsed). */
async function finishedInJournal(dir: string): Promise<number> {
  let n = 0;
  for await (const line of readLines(join(dir, RUN_FILES.events))) if (line.includes('"type":"episode.finished"')) n++;
  return n;
}

/**
 * Reads a run's summary. summary.json is rewritten now and then while a run goes on, so after a crash it may be
 * behind the journal: then (or when it is missing or unreadable) the summary is recomputed from the journal,
 * skipping damaged episodes with a warning.
 */
export async function readRunSummary(dir: string): Promise<RunSummaryReading> {
  if (!existsSync(join(dir, RUN_FILES.events))) throw new UserError(`${dir} is not a run folder (no ${RUN_FILES.events})`);
  let info: { id?: string; operations?: Record<string, number>; config?: { episodes?: unknown } } = {};
  try {
    info = JSON.parse(await readFile(join(dir, RUN_FILES.run), "utf8")) as typeof info;
  } catch {
    // no run.json: the journal alone tells
  }
  const target = Number.isSafeInteger(info.config?.episodes) ? (info.config?.episodes as number) : undefined;
  const finished = await finishedInJournal(dir);
  let stored: RunSummary | undefined;
  let recomputed: string | undefined;
  try {
    stored = JSON.parse(await readFile(join(dir, RUN_FILES.summary), "utf8")) as RunSummary;
  } catch (e) {
    recomputed = existsSync(join(dir, RUN_FILES.summary)) ? `${RUN_FILES.summary} is unreadable` : `there is no ${RUN_FILES.summary}`;
  }
  if (stored && stored.episodes === finished) return { summary: stored, target, recomputed: undefined, warnings: [] };
  recomputed ??= `${RUN_FILES.summary} counts ${stored?.episodes ?? 0} episodes, the journal ${finished}`;
  const warnings: string[] = [];
  const builder = new SummaryBuilder(info.id ?? stored?.runId ?? "unknown", info.operations ?? {});
  for await (const episode of readEpisodesSkippingCorrupt(dir, { warn: (m) => warnings.push(m) })) builder.add(episode);
  return { summary: builder.toJSON(), target, recomputed, warnings };
}

/** `toolsim runs show DIR`. */
export function runsCommand(io: CliIO, setExit: (code: number) => void = () => undefined): Command {
  const runs = new Command("runs").description("inspect run folders");
  runs
    .command("show")
    .description("print the summary of a run: counts, tester funnel with reasons, coverage, time")
    .argument("<dir>", "run folder")
    .option("--json", "summary.json as it is")
    .action(async (dir: string, opts: { json?: boolean }) => {
      const { summary, target, recomputed, warnings } = await readRunSummary(dir);
      for (const w of warnings) io.err(`toolsim: ${w}\n`);
      if (recomputed) io.err(`toolsim: ${recomputed}: the summary is recomputed from the journal\n`);
      io.out(opts.json ? JSON.stringify(summary, null, 2) + "\n" : formatSummary(summary, dir));
      if (target !== undefined && summary.episodes < target) {
        // A distributed run (queue.json) may still be going on: its coordinator writes the folder as episodes finish.
        const queue = readQueueFile(dir);
        const where = queue ? ` (distributed on queue ${queue.queue} at ${queue.redis}: it may still be running)` : "";
        io.err(`toolsim: the run is unfinished: ${summary.episodes} of ${target} episodes${where}; continue it with:\n  npx toolsim generate --resume --out ${dir}${queue ? ` --queue ${queue.redis}` : ""}\n`);
      }
    });
  runs
    .command("audit")
    .description(
      "audit a run's world: the share of accepted episodes whose responses contradict their calls (or the state the episode built) and the share of typed values (dates, countries, currencies, languages, coordinates, emails, URLs, phones) that are plausible",
    )
    .argument("<dir>", "run folder")
    .option("--json", "the figures as JSON")
    .option("--top <n>", "how many of the most frequent findings to list", "15")
    .option("--max-contradicting <share>", "exit 1 when the share of contradicting accepted episodes is above this (0..1)")
    .option("--min-plausible <share>", "exit 1 when the share of plausible typed values is below this (0..1)")
    .option("--max-filler <share>", "exit 1 when the share of short phrases that read as filler is above this (0..1)")
    .action(async (dir: string, opts: { json?: boolean; top: string; maxContradicting?: string; minPlausible?: string; maxFiller?: string }) => {
      if (!existsSync(join(dir, RUN_FILES.events))) throw new UserError(`${dir} is not a run folder (no ${RUN_FILES.events})`);
      const top = Number(opts.top);
      if (!Number.isInteger(top) || top < 0) throw new UsageError(`--top wants a whole number, not ${opts.top}`);
      const share = (name: string, v: string | undefined): number | undefined => {
        if (v === undefined) return undefined;
        const n = Number(v);
        if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`${name} wants a share between 0 and 1, not ${v}`);
        return n;
      };
      const maxContradicting = share("--max-contradicting", opts.maxContradicting);
      const minPlausible = share("--min-plausible", opts.minPlausible);
      const maxFiller = share("--max-filler", opts.maxFiller);
      const audit = await auditRun(dir, { top, warn: (m) => io.err(`toolsim: ${m}\n`) });
      io.out(opts.json ? JSON.stringify(audit, null, 2) + "\n" : formatAudit(audit, dir));
      const failed: string[] = [];
      if (maxContradicting !== undefined && audit.contradictingShare > maxContradicting) failed.push(`contradicting share ${audit.contradictingShare.toFixed(4)} is above ${maxContradicting}`);
      if (minPlausible !== undefined && audit.typed.share < minPlausible) failed.push(`plausible share ${audit.typed.share.toFixed(4)} is below ${minPlausible}`);
      if (maxFiller !== undefined && audit.phrases.share > maxFiller) failed.push(`filler share ${audit.phrases.share.toFixed(4)} is above ${maxFiller}`);
      if (failed.length > 0) {
        io.err(`toolsim: ${failed.join("; ")}\n`);
        setExit(1);
      }
    });
  return runs;
}
