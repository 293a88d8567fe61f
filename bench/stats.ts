/** Small statistics and printing helpers for `npm run bench`. */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** The median of a non-empty list (mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of an empty list");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const hi = sorted[mid] as number;
  return sorted.length % 2 === 1 ? hi : ((sorted[mid - 1] as number) + hi) / 2;
}

/** Minimum, median and maximum of a non-empty list. */
export function summarize(values: readonly number[]): { min: number; median: number; max: number } {
  return { min: Math.min(...values), median: median(values), max: Math.max(...values) };
}

/** The spread of rounds around their median, in percent ((max - min) / median). */
export function spreadPercent(values: readonly number[]): number {
  const s = summarize(values);
  return s.median === 0 ? 0 : ((s.max - s.min) / s.median) * 100;
}

/** The median of the per-round ratios a[i] / b[i] of two interleaved series (robust to load drifting over time). */
export function pairedRatio(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) ratios.push((a[i] as number) / (b[i] as number));
  return median(ratios);
}

/** A number for a bench line: integers for large values, 3 significant digits for small ones. */
export function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toString();
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** A ratio with two decimals. */
export function formatRatio(ratio: number): string {
  return Number.isFinite(ratio) ? ratio.toFixed(2) : String(ratio);
}

/** Prints one figure: `bench: <name> <value> ratio=<x>` (ratio above 1: toolsim is faster or smaller). */
export function printFigure(name: string, value: number, ratio: number): void {
  console.log(`bench: ${name} ${formatValue(value)} ratio=${formatRatio(ratio)}`);
}

/** Prints the raw rounds behind a figure on a `#` comment line. */
export function printRounds(name: string, series: Record<string, readonly number[]>, note = ""): void {
  const parts = Object.entries(series).map(([label, values]) => `${label}=[${values.map(formatValue).join(", ")}]`);
  console.log(`# ${name} rounds ${parts.join(" ")}${note !== "" ? ` ${note}` : ""}`);
}

/** Prints a free comment line. */
export function note(text: string): void {
  console.log(`# ${text}`);
}

/** Milliseconds since an arbitrary origin, high resolution. */
export function nowMs(): number {
  return performance.now();
}

let collect: (() => void) | undefined;

/** A full garbage collection, so that one side's garbage is not collected during the other's round. */
export function fullGc(): void {
  if (collect === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed) collect = exposed;
    else {
      // Same as running with --expose-gc, without changing the npm script.
      setFlagsFromString("--expose-gc");
      collect = runInNewContext("gc") as () => void;
    }
  }
  collect();
}

/** Between rounds: a full garbage collection and a turn of the event loop. */
export async function settle(): Promise<void> {
  fullGc();
  await new Promise<void>((resolve) => setImmediate(resolve));
}
