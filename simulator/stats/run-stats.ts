import { projectEpisode } from "../runs/corpus-projection.js";
import type { SimEvent } from "../core/events.js";
import { readEpisodesSkippingCorrupt, readRunInfo } from "../export/run-folder.js";
import { redactRecord, scrubStrings } from "../export/redact-record.js";
import { RunToolsets } from "../export/run-toolsets.js";
import { SummaryBuilder, type LlmSummary, type ReasonCount, type RunSummary, type StageSummary } from "../runs/run-summary.js";
import type { TesterStage } from "../../agents/roles/verdict.js";
import { Histogram, type Distribution } from "./distribution.js";
import { NearDuplicateWindow } from "./near-duplicate-window.js";

/** Near-duplicate instructions: how many repeat an earlier one nearly word for word. */
export interface NearDuplicateStats {
  /** Similarity (the larger of token and word-bigram Jaccard) at or above which two instructions are near-duplicates. */
  threshold: number;
  /** How many earlier instructions each one is compared with (the most recent ones). */
  window: number;
  duplicates: number;
  /** `duplicates / instructions`. */
  rate: number;
  /** A few of them with the earlier instruction they repeat. */
  examples: { text: string; similarTo: string; similarity: number }[];
}

/** `toolsim stats`: the figures of a run's dataset, streamed from its journal. */
export interface RunStats {
  runId: string;
  episodes: number;
  accepted: number;
  rejected: number;
  errors: number;
  acceptRate: number;
  /** Assistant steps per episode. */
  steps: Distribution;
  /** Tool calls per episode (answered calls, as `episode.finished` counts them), and the outcomes of all calls. */
  calls: Distribution & { total: number; ok: number; failed: number; invalid: number; unknownTool: number };
  /** Messages (user, assistant, tool) of each episode's corpus dialogue. */
  turns: Distribution;
  /** User instructions (one per request). */
  instructions: { count: number; chars: Distribution; words: Distribution };
  nearDuplicates: NearDuplicateStats;
  /** Distinct tools called (toolset/tool), distinct tools with a successful call, and the operations the toolsets offer. */
  tools: { called: number; succeeded: number; offered: number | null; top: { tool: string; calls: number }[] };
  /** Episodes per toolset. */
  toolsets: Record<string, number>;
  /** Episodes per toolset category (`unknown` when a toolset could not be loaded or has none). */
  categories: Record<string, number>;
  /** Spec coverage: operations with a successful call in an accepted episode, out of those the toolsets offer. */
  coverage: { covered: number; total: number | null; rate: number | null; byToolset: RunSummary["operations"] };
  /** The tester funnel: per stage, the episodes it failed and those it discarded first, with top reasons. */
  funnel: { stages: Partial<Record<TesterStage, StageSummary>>; errorReasons: ReasonCount[] };
  levels: RunSummary["levels"];
  llm: LlmSummary;
}

/** Options of {@link StatsBuilder}. */
export interface StatsOptions {
  /** Near-duplicate threshold (default 0.8, as the LLM user's filter). */
  duplicateThreshold?: number;
  /** Earlier instructions each one is compared with (default 20000). */
  duplicateWindow?: number;
  /** Removes secrets from the instructions quoted as near-duplicate examples (given the episode's events). */
  redact?: (text: string, events: readonly SimEvent[]) => string;
  /** Toolset -> category, for the category counts. */
  categoryOf?: (toolset: string) => string | undefined;
}

const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** Word count of a text (runs of letters or digits). */
export function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

/**
 * Accumulates a run's statistics one finished episode at a time, in memory bounded by the run's vocabulary of
 * values (histograms, tool names, reason templates) and the near-duplicate window, not by its length. The
 * counts, funnel and coverage come from the same {@link SummaryBuilder} as `summary.json`, so they match it.
 */
export class StatsBuilder {
  private readonly summary: SummaryBuilder;
  private readonly steps = new Histogram();
  private readonly calls = new Histogram();
  private readonly turns = new Histogram();
  private readonly chars = new Histogram();
  private readonly words = new Histogram();
  private readonly toolCalls = new Map<string, number>();
  private readonly toolOk = new Set<string>();
  private readonly toolsets = new Map<string, number>();
  private readonly categories = new Map<string, number>();
  private readonly duplicates: NearDuplicateWindow;
  private duplicateCount = 0;
  private readonly duplicateExamples: NearDuplicateStats["examples"] = [];

  constructor(
    private readonly runId: string,
    private readonly operationTotals: Readonly<Record<string, number>> = {},
    private readonly options: StatsOptions = {},
  ) {
    this.summary = new SummaryBuilder(runId, operationTotals);
    this.duplicates = new NearDuplicateWindow({ threshold: options.duplicateThreshold ?? 0.8, window: options.duplicateWindow ?? 20_000 });
  }

  /** Counts one finished episode. */
  add(events: readonly SimEvent[]): void {
    this.summary.add(events);
    let calls = 0;
    let steps = 0;
    const callToolset = new Map<string, string>();
    for (const e of events) {
      switch (e.type) {
        case "episode.started":
          for (const t of e.toolsets) {
            this.toolsets.set(t, (this.toolsets.get(t) ?? 0) + 1);
            const c = this.options.categoryOf?.(t) ?? "unknown";
            this.categories.set(c, (this.categories.get(c) ?? 0) + 1);
          }
          break;
        case "user.instruction": {
          this.chars.add(e.text.length);
          this.words.add(wordCount(e.text));
          const near = this.duplicates.check(e.text);
          if (near) {
            this.duplicateCount++;
            if (this.duplicateExamples.length < 5) {
              const scrub = this.options.redact ?? ((t: string) => t);
              this.duplicateExamples.push({ text: scrub(e.text, events), similarTo: scrub(near.text, events), similarity: round(near.similarity, 3) });
            }
          }
          break;
        }
        case "tool.call": {
          const key = `${e.toolset ?? "?"}/${e.call.name}`;
          callToolset.set(e.call.id, key);
          this.toolCalls.set(key, (this.toolCalls.get(key) ?? 0) + 1);
          break;
        }
        case "tool.result": {
          const key = callToolset.get(e.callId);
          if (key !== undefined && e.result.status < 400 && e.result.source !== "route" && e.result.source !== "validation") this.toolOk.add(key);
          break;
        }
        case "episode.finished":
          steps = e.steps;
          calls = e.calls;
          break;
        default:
          break;
      }
    }
    this.steps.add(steps);
    this.calls.add(calls);
    this.turns.add(projectEpisode(events).dialogue.length);
  }

  /** The statistics so far. */
  toJSON(): RunStats {
    const s = this.summary.toJSON();
    const totals = Object.values(this.operationTotals);
    const offered = totals.length > 0 ? totals.reduce((a, b) => a + b, 0) : null;
    const covered = Object.values(s.operations).reduce((a, o) => a + o.covered, 0);
    const total = Object.values(s.operations).every((o) => o.total !== null) && Object.keys(s.operations).length > 0 ? Object.values(s.operations).reduce((a, o) => a + (o.total ?? 0), 0) : null;
    const instructions = this.chars.summary().count;
    const sortedCounts = (m: Map<string, number>): Record<string, number> => {
      const out: Record<string, number> = {};
      for (const [k, v] of [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) out[k] = v;
      return out;
    };
    return {
      runId: this.runId,
      episodes: s.episodes,
      accepted: s.accepted,
      rejected: s.rejected,
      errors: s.errors,
      acceptRate: s.acceptRate,
      steps: this.steps.summary(),
      calls: { ...this.calls.summary(), total: s.calls.total, ok: s.calls.ok, failed: s.calls.failed, invalid: s.calls.invalid, unknownTool: s.calls.unknownTool },
      turns: this.turns.summary(),
      instructions: { count: instructions, chars: this.chars.summary(), words: this.words.summary() },
      nearDuplicates: {
        threshold: this.duplicates.threshold,
        window: this.duplicates.window,
        duplicates: this.duplicateCount,
        rate: instructions === 0 ? 0 : round(this.duplicateCount / instructions, 4),
        examples: this.duplicateExamples,
      },
      tools: {
        called: this.toolCalls.size,
        succeeded: this.toolOk.size,
        offered,
        top: [...this.toolCalls]
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
          .slice(0, 10)
          .map(([tool, calls]) => ({ tool, calls })),
      },
      toolsets: sortedCounts(this.toolsets),
      categories: sortedCounts(this.categories),
      coverage: { covered, total, rate: total ? round(covered / total, 4) : null, byToolset: s.operations },
      funnel: { stages: s.stages, errorReasons: s.errorReasons },
      levels: s.levels,
      llm: s.llm,
    };
  }
}

/**
 * Removes secrets from quoted instructions: the secrets of the episode (values under secret keys, its toolsets'
 * credentials and secret examples) and of the episode the near-duplicate came from are scrubbed from the text.
 */
export function statsRedactor(toolsets: RunToolsets): (text: string, events: readonly SimEvent[]) => string {
  const seen = new Set<string>();
  return (text, events) => {
    const record = projectEpisode(events);
    for (const s of redactRecord(record, toolsets.secrets(record)).secrets) seen.add(s);
    return scrubStrings(text, seen) as string;
  };
}

/** Computes the statistics of a run folder by streaming its journal. */
export async function runStats(dir: string, options: Omit<StatsOptions, "categoryOf" | "redact"> & { toolsets?: string[]; warn?: (m: string) => void } = {}): Promise<RunStats> {
  const info = await readRunInfo(dir);
  const toolsets = await RunToolsets.load(info, { ...(options.toolsets ? { paths: options.toolsets } : {}), ...(options.warn ? { warn: options.warn } : {}) });
  const builder = new StatsBuilder(info.id, info.operations ?? {}, {
    ...options,
    categoryOf: (name) => toolsets.get(name)?.category,
    redact: statsRedactor(toolsets),
  });
  // A damaged episode is skipped with a warning naming the line; the others still count.
  for await (const episode of readEpisodesSkippingCorrupt(dir, options.warn ? { warn: options.warn } : {})) builder.add(episode);
  return builder.toJSON();
}
