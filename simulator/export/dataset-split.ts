import { createHash } from "node:crypto";
import { ToolsimError } from "../../specs/toolsim-error.js";

/** A split of exported lines into train and validation sets. */
export interface SplitOptions {
  /** The share of items for training, in (0, 1). */
  train: number;
  /** The seed of the split (another seed, another split). */
  seed: number;
}

/** A number in [0, 1) drawn from the seed and an item's key: the same pair always gives the same number. */
export function splitDraw(seed: number, key: string): number {
  const hex = createHash("sha256").update(`${seed}\u0000${key}`).digest("hex").slice(0, 13);
  return Number.parseInt(hex, 16) / 2 ** 52;
}

/** How many of n items go to validation: the rounded share, but at least one of each set when n >= 2. */
export function validationCount(n: number, train: number): number {
  if (n <= 1) return 0;
  const v = Math.round(n * (1 - train));
  return Math.min(n - 1, Math.max(1, v));
}

/**
 * Decides the split of items known by their draws: the items with the smallest draws go to validation, so the
 * split is exact (`validationCount` items), deterministic for a seed, and independent of the items' order.
 * Returns the draw below which an item is a validation item.
 */
export function validationThreshold(draws: Float64Array | readonly number[], train: number): number {
  const n = draws.length;
  const v = validationCount(n, train);
  if (v === 0) return -1;
  const sorted = Float64Array.from(draws).sort();
  // Every validation item's draw is <= sorted[v-1]; ties at 52 bits do not happen in practice.
  return sorted[v - 1] as number;
}

/** Checks a `--split` value: a share of training items strictly between 0 and 1. */
export function parseSplit(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n >= 1) throw new ToolsimError("usage", `--split must be a number between 0 and 1 (the training share, e.g. 0.9), got "${value}"`);
  return n;
}

/** The files of a split export: `data.jsonl` -> `data.train.jsonl` and `data.validation.jsonl`. */
export function splitFileNames(out: string): { train: string; validation: string } {
  const base = out.replace(/\.(jsonl|json|ndjson)$/i, "");
  return { train: `${base}.train.jsonl`, validation: `${base}.validation.jsonl` };
}
