import { closeSync, mkdirSync, openSync, renameSync, rmSync } from "node:fs";
import { writeAllSync } from "../runs/file-writes.js";
import { dirname } from "node:path";
import type { AgentTool } from "../../agents/roles/roles.js";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { projectEpisode, type CorpusRecord, type RejectedRecord } from "../runs/corpus-projection.js";
import type { SimEvent } from "../core/events.js";
import { alpacaFormat } from "./alpaca-format.js";
import { apiBankFormat } from "./apibank-dialogue-format.js";
import { conversationOf } from "./conversation.js";
import { splitDraw, splitFileNames, validationThreshold, type SplitOptions } from "./dataset-split.js";
import { lineMeta, resolveExportOptions, type EpisodeFormat, type ExportEpisode, type ExportFormatName, type ExportOptions, type ResolvedExportOptions } from "./export-format.js";
import { mcpFormat } from "./mcp-format.js";
import { openaiFormat, openaiMessages, type OpenAIMessage } from "./openai-format.js";
import { pairCandidate, planPairs, type PairCandidate, type PairingRule } from "./pairing-rule.js";
import { splitPreferencePair } from "./preference-pair.js";
import { redactRecord, scrubStrings } from "./redact-record.js";
import { readEpisodesSkippingCorrupt, readRunInfo, type LenientReadOptions } from "./run-folder.js";
import { RunToolsets } from "./run-toolsets.js";
import { shareGptFormat } from "./sharegpt-format.js";
import { withoutSuppliedArguments } from "./supplied-arguments.js";
import { toolAlpacaFormat } from "./toolalpaca-format.js";

/** The formats that write each episode on its own. */
export const EPISODE_FORMATS: Readonly<Record<Exclude<ExportFormatName, "dpo">, EpisodeFormat>> = {
  openai: openaiFormat,
  sharegpt: shareGptFormat,
  toolalpaca: toolAlpacaFormat,
  apibank: apiBankFormat,
  alpaca: alpacaFormat,
  mcp: mcpFormat,
};

/** What to export, from where, to where. */
export interface ExportRunOptions extends ExportOptions {
  /** The run folder. */
  dir: string;
  format: ExportFormatName;
  /** The output file (with `split`: the base of the two files, see {@link splitFileNames}). */
  out: string;
  /** Also export episodes that were not accepted (rejected or broken off). Not used by `dpo`. */
  includeRejected?: boolean;
  /** Split the lines into train and validation files. */
  split?: SplitOptions;
  /** Toolset files or folders to use instead of those recorded in run.json. */
  toolsets?: string[];
  /** `dpo`: more runs whose episodes may pair with this run's (a replay or fork of it with another assistant). */
  pairWith?: string[];
  /** Receives warnings (toolsets not found or changed). */
  warn?: (message: string) => void;
}

/** What an export wrote. */
export interface ExportResult {
  format: ExportFormatName;
  /** Episodes read from the journal (of the exported run). */
  episodes: number;
  /** Episodes (or pairs, for dpo) exported. */
  exported: number;
  /** Episodes that were selected but could not be written in the format (sharegpt: turns that cannot alternate). */
  skipped: number;
  files: { path: string; lines: number }[];
  /** dpo: pairs by rule. */
  pairs?: Record<PairingRule, number>;
  /** dpo: the trajectories that could pair (episodes that broke off with an error are not counted), in all runs. */
  trajectories?: { accepted: number; rejected: number };
}

/** Writes lines to a file through a buffer, into `<file>.partial` renamed at the end (no half-written file stays behind). */
class LineWriter {
  private readonly fd: number;
  private buffer = "";
  lines = 0;

  constructor(readonly path: string) {
    mkdirSync(dirname(path) || ".", { recursive: true });
    this.fd = openSync(`${path}.partial`, "w");
  }

  write(value: unknown): void {
    this.buffer += `${JSON.stringify(value)}\n`;
    this.lines++;
    if (this.buffer.length > 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.buffer === "") return;
    writeAllSync(this.fd, this.buffer, this.path);
    this.buffer = "";
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
    renameSync(`${this.path}.partial`, this.path);
  }

  abort(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    rmSync(`${this.path}.partial`, { force: true });
  }
}

/** One episode with secrets removed and everything the formats need. */
export function prepareEpisode(record: CorpusRecord | RejectedRecord, toolsets: RunToolsets): ExportEpisode {
  const tools = toolsets.toolsFor(record);
  // The tools are offered without the arguments the harness fills in (API keys): the calls leave them out too.
  const { value, secrets } = redactRecord(withoutSuppliedArguments(record, (tool) => toolsets.credentialsOf(record, tool)), toolsets.secrets(record));
  return {
    record: value,
    turns: conversationOf(value),
    tools: secrets.size > 0 ? (scrubStrings(tools, secrets) as AgentTool[]) : tools,
    toolsets: toolsets.toolsetsOf(record),
    documents: toolsets.toolsetsOf(record).map((t) => toolsets.documentOf(t)),
    scrub: (text) => (secrets.size > 0 ? (scrubStrings(text, secrets) as string) : text),
  };
}

function outcomeOf(events: readonly SimEvent[]): "accepted" | "rejected" | "error" {
  const last = events[events.length - 1];
  return last?.type === "episode.finished" ? last.outcome : "error";
}

function episodeIdOf(events: readonly SimEvent[]): string {
  return events[0]?.episodeId ?? "";
}

/** Opens the output files: one, or train and validation. */
function openWriters(out: string, split: SplitOptions | undefined): { train: LineWriter; validation?: LineWriter; all: LineWriter[] } {
  if (!split) {
    const w = new LineWriter(out);
    return { train: w, all: [w] };
  }
  const names = splitFileNames(out);
  const train = new LineWriter(names.train);
  const validation = new LineWriter(names.validation);
  return { train, validation, all: [train, validation] };
}

/** Warnings about damaged episodes go where the export's other warnings go. */
function warnings(options: ExportRunOptions): LenientReadOptions {
  return options.warn ? { warn: options.warn } : {};
}

/**
 * Exports a run to a training format, streaming its journal (the source of truth; one episode in memory at a
 * time, except `dpo`, which holds the paired episodes' messages). Secrets are removed from every line (see
 * {@link redactRecord}). With a split, each episode (for dpo: each pair, by its chosen episode) goes wholly to
 * train or validation, decided by the seed and its episode id alone.
 */
export async function exportRun(options: ExportRunOptions): Promise<ExportResult> {
  const opts = resolveExportOptions(options);
  if (options.split && !(options.split.train > 0 && options.split.train < 1)) throw new ToolsimError("usage", "the split's training share must be between 0 and 1");
  if (options.format === "dpo") return exportPairs(options, opts);
  const format = EPISODE_FORMATS[options.format];
  if (!format) throw new ToolsimError("usage", `unknown export format ${String(options.format)}`);
  const info = await readRunInfo(options.dir);
  const toolsets = await RunToolsets.load(info, { ...(options.toolsets ? { paths: options.toolsets } : {}), ...(options.warn ? { warn: options.warn } : {}) });
  const selected = (events: readonly SimEvent[]): boolean => options.includeRejected === true || outcomeOf(events) === "accepted";

  // With a split, a first pass draws every selected episode, to put exactly the right share in validation.
  let threshold = -1;
  if (options.split) {
    const draws: number[] = [];
    for await (const events of readEpisodesSkippingCorrupt(options.dir)) if (selected(events)) draws.push(splitDraw(options.split.seed, episodeIdOf(events)));
    threshold = validationThreshold(draws, options.split.train);
  }
  const writers = openWriters(options.out, options.split);
  let episodes = 0;
  let exported = 0;
  let skipped = 0;
  try {
    for await (const events of readEpisodesSkippingCorrupt(options.dir, warnings(options))) {
      episodes++;
      if (!selected(events)) continue;
      const lines = format.lines(prepareEpisode(projectEpisode(events), toolsets), opts);
      if (lines.length === 0) {
        skipped++;
        continue;
      }
      exported++;
      const target = options.split && writers.validation && splitDraw(options.split.seed, episodeIdOf(events)) <= threshold ? writers.validation : writers.train;
      for (const line of lines) target.write(line);
    }
    // Nothing to write: no empty file is left behind (the caller says why).
    for (const w of writers.all) if (exported > 0) w.close();
    else w.abort();
  } catch (e) {
    for (const w of writers.all) w.abort();
    throw e;
  }
  return { format: options.format, episodes, exported, skipped, files: exported > 0 ? writers.all.map((w) => ({ path: w.path, lines: w.lines })) : [] };
}

/** The messages and tools of an episode kept for pairing. */
interface PairSide {
  messages: OpenAIMessage[];
  tools: AgentTool[];
  record: CorpusRecord | RejectedRecord;
}

async function exportPairs(options: ExportRunOptions, opts: ResolvedExportOptions): Promise<ExportResult> {
  const dirs = [options.dir, ...(options.pairWith ?? [])];
  const pools: RunToolsets[] = [];
  const candidates: PairCandidate[] = [];
  let episodes = 0;
  for (const [run, dir] of dirs.entries()) {
    const info = await readRunInfo(dir);
    pools.push(await RunToolsets.load(info, { ...(options.toolsets ? { paths: options.toolsets } : {}), ...(options.warn ? { warn: options.warn } : {}) }));
    for await (const events of readEpisodesSkippingCorrupt(dir, warnings(options))) {
      if (run === 0) episodes++;
      const outcome = outcomeOf(events);
      if (outcome === "error") continue;
      candidates.push(pairCandidate(run, projectEpisode(events)));
    }
  }
  const planned = planPairs(candidates);
  const sideKey = (c: PairCandidate): string => `${c.run}:${c.index}`;
  const needed = new Set(planned.flatMap((p) => [sideKey(p.chosen), sideKey(p.rejected)]));
  const sides = new Map<string, PairSide>();
  for (const [run, dir] of dirs.entries()) {
    if (![...needed].some((k) => k.startsWith(`${run}:`))) continue;
    for await (const events of readEpisodesSkippingCorrupt(dir)) {
      const first = events[0];
      const key = `${run}:${first?.type === "episode.started" ? first.index : -1}`;
      if (!needed.has(key)) continue;
      const ep = prepareEpisode(projectEpisode(events), pools[run] as RunToolsets);
      sides.set(key, { messages: openaiMessages(ep.turns, opts), tools: ep.tools, record: ep.record });
    }
  }
  const lines: { line: Record<string, unknown>; key: string }[] = [];
  const pairs: Record<PairingRule, number> = { instruction: 0, plan: 0 };
  let skipped = 0;
  for (const p of planned) {
    const chosen = sides.get(sideKey(p.chosen));
    const rejected = sides.get(sideKey(p.rejected));
    const pair = chosen && rejected ? splitPreferencePair(chosen.messages, rejected.messages, chosen.tools) : undefined;
    if (!pair || !chosen || !rejected) {
      skipped++;
      continue;
    }
    pairs[p.rule]++;
    const line: Record<string, unknown> = { ...pair };
    if (opts.meta) line["meta"] = { rule: p.rule, chosen: lineMeta(chosen.record), rejected: lineMeta(rejected.record) };
    lines.push({ line, key: `${p.chosen.run}:${p.chosen.episodeId}` });
  }
  const split = options.split;
  const threshold = split ? validationThreshold(lines.map((l) => splitDraw(split.seed, l.key)), split.train) : -1;
  const writers = openWriters(options.out, split);
  try {
    for (const { line, key } of lines) (split && writers.validation && splitDraw(split.seed, key) <= threshold ? writers.validation : writers.train).write(line);
    for (const w of writers.all) if (lines.length > 0) w.close();
    else w.abort();
  } catch (e) {
    for (const w of writers.all) w.abort();
    throw e;
  }
  const trajectories = { accepted: candidates.filter((c) => c.outcome === "accepted").length, rejected: candidates.filter((c) => c.outcome === "rejected").length };
  const files = lines.length > 0 ? writers.all.map((w) => ({ path: w.path, lines: w.lines })) : [];
  return { format: "dpo", episodes, exported: lines.length, skipped, files, pairs, trajectories };
}
