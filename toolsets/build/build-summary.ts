import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { BuildStage } from "./build-toolset.js";
import { BUILD_FILES, type BatchResult } from "./build-toolsets.js";

/** Model calls, tokens and cost of a build (or of all the builds into a folder). */
export interface BuildUsage {
  calls: number;
  /** Calls answered from a cassette (`--replay`). */
  cached: number;
  /** Calls that failed for good. */
  failedCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** US dollars spent on calls to the endpoint (0 for unpriced models, and for local endpoints unless the config prices their model). */
  costUsd: number;
  /** What the replayed calls cost when they were recorded, at the same prices. */
  replayedCostUsd: number;
  durationMs: number;
}

/** `build-summary.json`: what a `toolset build` run did, and what the folder holds after it. */
export interface BuildSummary {
  /** Format of this file. */
  version: 1;
  startedAt: string;
  finishedAt: string;
  /** The public-apis list and the selection from it. */
  from: string;
  category?: string;
  limit?: number;
  /** `provider:model` of the build. */
  model: string;
  /** Set when every call was answered from this cassette. */
  replay?: string;
  /**
   * What the cost was computed with: USD per 1M tokens of the model (the config's `llm.prices`, which apply on
   * any host, else the defaults, which apply off this machine only), whether the endpoint is local, and where
   * the price came from.
   */
  pricing: { input: number; output: number; local: boolean; source: "config" | "default" | "unpriced" };
  /** This run: the APIs selected, and which were built, skipped (already built) and failed. */
  run: { apis: number; built: string[]; skipped: string[]; failed: string[] } & BuildUsage;
  /** The folder after this run: toolsets built by any run from this selection, and every API still failing. */
  built: number;
  failed: {
    count: number;
    byStage: Record<BuildStage, number>;
    /** One entry per API not built, as in failures.jsonl: its last stage and reason, and the runs that tried it. */
    apis: Array<{ api: string; slug: string; stage: BuildStage; reason: string; attempts: number; at: string }>;
  };
  /** What the builder changed in the model's specs (e.g. an added security scheme), by API. */
  fixes: Record<string, string[]>;
  /** Warnings left on the toolsets built in this run, by API. */
  warnings: Record<string, number>;
  /** All runs into this folder so far, this one included. */
  allRuns: { runs: number } & BuildUsage;
}

/** What a run contributes to a summary. */
export interface BuildRunInfo {
  startedAt: Date;
  finishedAt: Date;
  from: string;
  category?: string;
  limit?: number;
  model: string;
  replay?: string;
  pricing: BuildSummary["pricing"];
  usage: Omit<BuildUsage, "durationMs">;
  apis: number;
  result: BatchResult;
  /** Fixes and warnings of the toolsets built in this run, by API. */
  fixes: Record<string, string[]>;
  warnings: Record<string, number>;
}

const EMPTY: BuildUsage = { calls: 0, cached: 0, failedCalls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, replayedCostUsd: 0, durationMs: 0 };

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/** The summary a folder has from its last run, or undefined. */
export async function readBuildSummary(dir: string): Promise<BuildSummary | undefined> {
  try {
    const v: unknown = JSON.parse(await readFile(join(dir, BUILD_FILES.summary), "utf8"));
    return typeof v === "object" && v !== null && (v as { version?: unknown }).version === 1 ? (v as BuildSummary) : undefined;
  } catch {
    return undefined;
  }
}

/** The summary of a run, its totals added to those of the earlier runs into the folder (`previous`). */
export function summarizeBuild(info: BuildRunInfo, previous?: BuildSummary): BuildSummary {
  const durationMs = Math.max(0, info.finishedAt.getTime() - info.startedAt.getTime());
  const usage: BuildUsage = { ...info.usage, durationMs };
  const before = previous?.allRuns;
  const allRuns = { runs: num(before?.runs) + 1, ...EMPTY };
  for (const key of Object.keys(EMPTY) as Array<keyof BuildUsage>) allRuns[key] = num(before?.[key]) + usage[key];
  const byStage: Record<BuildStage, number> = { description: 0, functions: 0, openapi: 0 };
  for (const f of info.result.failures) byStage[f.stage]++;
  return {
    version: 1,
    startedAt: info.startedAt.toISOString(),
    finishedAt: info.finishedAt.toISOString(),
    from: info.from,
    ...(info.category !== undefined ? { category: info.category } : {}),
    ...(info.limit !== undefined ? { limit: info.limit } : {}),
    model: info.model,
    ...(info.replay !== undefined ? { replay: info.replay } : {}),
    pricing: info.pricing,
    run: { apis: info.apis, built: info.result.built, skipped: info.result.skipped, failed: info.result.failed.map((f) => f.api), ...usage },
    built: info.result.built.length + info.result.skipped.length,
    failed: {
      count: info.result.failures.length,
      byStage,
      apis: info.result.failures.map((f) => ({ api: f.api, slug: f.slug, stage: f.stage, reason: f.reason, attempts: f.attempts, at: f.at })),
    },
    fixes: info.fixes,
    warnings: info.warnings,
    allRuns,
  };
}

/** Writes `build-summary.json` (atomically) and returns its path. */
export async function writeBuildSummary(dir: string, summary: BuildSummary): Promise<string> {
  const path = join(dir, BUILD_FILES.summary);
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(summary, null, 2)}\n`, "utf8");
  await rename(tmp, path);
  return path;
}
