import { Command, Option } from "commander";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadToolsets } from "../../toolsets/load-toolset.js";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { formatDifference } from "../replay/journal-compare.js";
import { diffRuns, formatRunDiff } from "../replay/run-diff.js";
import { readRunInfo, recordedLlmSettings, replayRun, type ForkPoint, type ReplayReport } from "../replay/replay.js";
import { acquireRunLock } from "../runs/run-lock.js";
import { UsageError, UserError, type CliIO } from "./cli-io.js";
import { addLlmOptions, llmRunOptions, mergeLlmSettings, usesModels, type LlmFlags } from "./options/llm-options.js";
import { parseInteger } from "./options/parse-options.js";
import { synthesisSettingsFromFlags, withWorkBudgetOptions, type WorkBudgetFlags } from "./options/work-budget-options.js";

interface ReplayFlags extends LlmFlags, WorkBudgetFlags {
  out?: string;
  results?: "recompute" | "journal";
  toolsets?: string[];
  allowSpecChange?: boolean;
  fromEpisode?: string;
  fromTurn?: string;
  assistant?: string;
  user?: string;
  json?: boolean;
}

/** Errors of the replay about the run or its toolsets: the user's to fix, reported without a stack trace. */
const USER_CODES = new Set(["run.exists", "run.not-a-run", "run.corrupt", "replay.no-toolsets", "replay.bad-toolset", "replay.spec-changed", "replay.fork-journal"]);

/** The text report of a replay. */
export function formatReplayReport(r: ReplayReport): string {
  const lines: string[] = [];
  const where = r.out !== undefined ? ` -> ${r.out}` : "";
  if (r.fork) {
    lines.push(
      `fork of ${r.source}${where}: ${r.episodes} episodes, ${r.fork.forked} forked at turn ${r.fork.turn} ` +
        `(${r.fork.prefixEvents} recorded events kept, ${r.fork.newEvents} new)`,
    );
    lines.push(r.equal ? "prefixes: equal to the recording" : `prefixes: DIVERGED in ${r.diverged} episode(s)`);
  } else {
    lines.push(`replay of ${r.source}${where} (results ${r.mode === "journal" ? "from the journal" : "recomputed"}): ${r.episodes} episodes`);
    lines.push(r.equal ? "equal: the new journal equals the recorded one except times" : `DIVERGED in ${r.diverged} of ${r.episodes} episode(s)`);
  }
  if (r.first) lines.push(`first difference: ${formatDifference(r.first)}`);
  for (const d of r.differences.slice(1, 10)) lines.push(`  also: ${formatDifference(d)}`);
  return `${lines.join("\n")}\n`;
}

/** `toolsim replay RUN`: re-publishes a recorded run and compares; with --from-episode/--from-turn, forks it. */
export function replayCommand(io: CliIO, setExit: (code: number) => void): Command {
  const cmd = new Command("replay")
    .description("replay a recorded run (compare the new journal with the old one), or fork it at a turn with other agents")
    .argument("<run>", "the run folder to replay")
    .option("--out <dir>", "write the new run here (default: compare only)")
    .addOption(new Option("--results <mode>", "recompute tool results and verdicts and compare them (default), or take them from the journal").choices(["recompute", "journal"]))
    .option("--toolsets <paths...>", "toolset files to use instead of those recorded in run.json")
    .option("--allow-spec-change", "replay even when a toolset's spec hash differs from the recorded one")
    .option("--from-episode <e>", "fork: the episode index to fork, or `all`")
    .option("--from-turn <n>", "fork: the first turn played by the new agents (user instructions/replies and assistant steps count, from 0)")
    .option("--assistant <spec>", "fork: the assistant of the new turns: offline or openai:<model>[@<base-url>]")
    .option("--user <spec>", "fork: the user of the new turns: offline or openai:<model>[@<base-url>]")
    .option("--json", "print the report as JSON");
  return withWorkBudgetOptions(addLlmOptions(cmd), "as the replayed run recorded").action(async (run: string, flags: ReplayFlags) => {
    // The run's recorded caps and time budget apply; these flags replace them one by one.
    const synthesis = synthesisSettingsFromFlags(flags);
    if (!existsSync(run)) throw new UserError(`no such run folder: ${run}`);
    const forking = flags.fromEpisode !== undefined || flags.fromTurn !== undefined;
    if (!forking && (flags.assistant !== undefined || flags.user !== undefined)) throw new UsageError("--assistant and --user choose the agents of a fork: give --from-episode and --from-turn too");
    let fork: ForkPoint | undefined;
    if (forking) {
      if (flags.fromEpisode === undefined || flags.fromTurn === undefined) throw new UsageError("a fork needs both --from-episode and --from-turn");
      const episode = flags.fromEpisode.trim() === "all" ? "all" : parseInteger("--from-episode", flags.fromEpisode, 0);
      const turn = parseInteger("--from-turn", flags.fromTurn, 0) ?? 0;
      fork = { episode: episode ?? 0, turn };
    }
    try {
      const info = readRunInfo(run);
      const settings = mergeLlmSettings(recordedLlmSettings(info), flags);
      if (flags.assistant !== undefined) settings.assistantModel = flags.assistant;
      if (flags.user !== undefined) settings.userModel = flags.user;
      // Recorded model calls come from the run's cassette (no key needed for them); new ones need the endpoint.
      const hasCassette = existsSync(join(run, "cassette.jsonl"));
      const llm = usesModels(settings) ? llmRunOptions(settings, flags.out ?? run, info.seed, hasCassette ? run : undefined) : undefined;
      let toolsets;
      if (flags.toolsets && flags.toolsets.length > 0) {
        const loaded = await loadToolsets(flags.toolsets);
        for (const p of loaded.problems) io.err(`toolsim: skipped: ${p.file}${p.pointer}: ${p.message}\n`);
        toolsets = loaded.toolsets;
      }
      // One writer per run folder, for the life of the command.
      const lock = flags.out !== undefined ? acquireRunLock(flags.out, "replay --out") : undefined;
      let report: Awaited<ReturnType<typeof replayRun>>;
      try {
        report = await replayRun({
        source: run,
        ...(flags.out !== undefined ? { out: flags.out } : {}),
        ...(flags.results ? { results: flags.results } : {}),
        ...(toolsets ? { toolsets } : {}),
        ...(flags.allowSpecChange ? { allowSpecChange: true } : {}),
        ...(fork ? { fork } : {}),
        ...(llm ? { llm } : {}),
        ...(Object.keys(synthesis).length > 0 ? { synthesis } : {}),
        });
      } finally {
        lock?.release();
      }
      io.out(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatReplayReport(report));
      if (!report.equal) setExit(1);
    } catch (e) {
      if (e instanceof ToolsimError && e.code === "replay.fork-range") throw new UsageError(e.message);
      if (e instanceof ToolsimError && USER_CODES.has(e.code)) throw new UserError(e.message);
      throw e;
    }
  });
}

/** `toolsim diff RUN_A RUN_B`: per episode, what differs between two runs (calls, results, verdicts, scores). */
export function diffCommand(io: CliIO, setExit: (code: number) => void): Command {
  return new Command("diff")
    .description("compare two runs episode by episode: calls, results, answers, verdicts and scores")
    .argument("<runA>", "the first run folder")
    .argument("<runB>", "the second run folder")
    .option("--json", "print the diff as JSON")
    .action(async (a: string, b: string, flags: { json?: boolean }) => {
      for (const dir of [a, b]) if (!existsSync(dir)) throw new UserError(`no such run folder: ${dir}`);
      try {
        const diff = await diffRuns(a, b);
        io.out(flags.json ? `${JSON.stringify(diff, null, 2)}\n` : formatRunDiff(diff));
        if (diff.differing + diff.onlyA + diff.onlyB > 0) setExit(1);
      } catch (e) {
        if (e instanceof ToolsimError && USER_CODES.has(e.code)) throw new UserError(e.message);
        throw e;
      }
    });
}
