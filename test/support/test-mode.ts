/*
 * The two sizes of the suite: `npm test` runs the quick one (slow corpus suites sampled with a fixed seed,
 * smaller episode counts), `npm run test:full` (and `.ci/run`) the full sweep, with `TOOLSIM_FULL=1`.
 */

/** Whether this run is the full sweep. */
export const FULL = process.env["TOOLSIM_FULL"] === "1";

/** A size for the quick run and one for the full sweep. */
export function sized(quick: number, full: number): number {
  return FULL ? full : quick;
}

/**
 * A deterministic sample of a list (the same items on every run): every item in the full sweep; in the quick run
 * `n` items spread over the list by a fixed seed.
 */
export function sampled<T>(items: readonly T[], n: number, seed = 20240601): T[] {
  if (FULL || items.length <= n) return [...items];
  const picked = new Set<number>();
  let x = seed >>> 0;
  while (picked.size < n) {
    x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    picked.add(x % items.length);
  }
  return [...picked].sort((a, b) => a - b).map((i) => items[i] as T);
}
