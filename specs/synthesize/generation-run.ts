import type { SynthesisMeter } from "./synthesis-meter.js";

/**
 * The state of one generation: a seeded mulberry32 stream, the optional-property probability, the meter of
 * its work (caps and time budget), the nesting depth and the recursive schemas being generated.
 */
export class GenerationRun {
  private a: number;
  /** Nesting depth of the value being built. */
  depth = 0;
  private inside: Map<string, number> | undefined;
  private taken: Set<string> | undefined;

  constructor(
    seed: number,
    readonly optionals: number,
    readonly meter: SynthesisMeter,
  ) {
    this.a = seed >>> 0;
  }

  /** Runs `fn` as the value of a recursive schema: inside it, that schema generates its smallest value. */
  within<T>(target: string, fn: () => T): T {
    const inside = (this.inside ??= new Map());
    inside.set(target, (inside.get(target) ?? 0) + 1);
    try {
      return fn();
    } finally {
      inside.set(target, (inside.get(target) ?? 1) - 1);
    }
  }

  /** Whether a value of the schema at `target` is being generated (the schema recursed). */
  isInside(target: string): boolean {
    return (this.inside?.get(target) ?? 0) > 0;
  }

  /** Whether this is the first time the run takes `key` (a spec's one example of a name: the first record gets it). */
  takeOnce(key: string): boolean {
    const taken = (this.taken ??= new Set());
    if (taken.has(key)) return false;
    taken.add(key);
    return true;
  }

  /** A number in [0, 1). */
  next(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A 32-bit seed for a sub-generator (faker, json-schema-faker). */
  seed(): number {
    return (this.next() * 4294967296) >>> 0;
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return hi <= lo ? lo : lo + Math.floor(this.next() * (hi - lo + 1));
  }
}

/** A compiled generator: one value per call (undefined: none could be made). */
export type Generator = (run: GenerationRun) => unknown;


/** Steps one level deeper into the value; false (with a warning) past the `maxDepth` cap. */
export function enter(run: GenerationRun, where: string): boolean {
  if (run.depth >= run.meter.limits.maxDepth) {
    run.meter.capped("maxDepth", `the value nests deeper than that at ${where}`);
    return false;
  }
  run.depth++;
  return true;
}
