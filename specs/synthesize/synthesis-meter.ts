import { toPointer } from "../json-pointer.js";
import { BudgetExceeded, DEFAULT_SYNTHESIS_LIMITS, LIMIT_OPTIONS, type SynthesisLimits, type WorkBudget } from "./work-budget.js";

/** Thrown by a generator when one value (or one synthesis, over all its attempts) grows past `maxSize`. */
export class CapReached extends Error {
  constructor(readonly cap: keyof SynthesisLimits) {
    super(`synthesis cap ${cap} reached`);
    this.name = "CapReached";
  }
}

/** Control-flow errors that no fallback may swallow: the time budget, and a value grown past its size cap. */
export function rethrowControl(err: unknown): void {
  if (err instanceof BudgetExceeded || err instanceof CapReached) throw err;
}

/** A value's place in messages: `the value at /items/0` (the root: `the value`). */
export function valuePlace(path: readonly string[]): string {
  return path.length === 0 ? "the value" : `the value at ${toPointer(path)}`;
}

/** How many values' worth of work one synthesis may spend over all its attempts (repairs, fallbacks). */
const ATTEMPTS_ALLOWANCE = 4;

/**
 * The work of one synthesis, counted against the caps (`maxSize` per value, a few values' worth over all
 * attempts) and the request's time budget; cap warnings go to the request's budget, named for the user.
 */
export class SynthesisMeter {
  readonly limits: Readonly<SynthesisLimits>;
  private size = 0;
  private total = 0;
  /** When set, generators stop growing the value instead of throwing (the last, bounded attempt). */
  lenient = false;
  /** Warnings of this synthesis, each once. */
  readonly warnings: string[] = [];
  /** Whether a cap cut a value of this synthesis (a value cut by a cap cannot satisfy its schema). */
  cut = false;

  constructor(
    readonly budget: WorkBudget | undefined,
    /** What is being synthesized, for messages (`the response body of getTree`, `#/components/...`). */
    readonly where: string,
  ) {
    this.limits = budget?.limits ?? DEFAULT_SYNTHESIS_LIMITS;
  }

  /** Starts a new value: its size counts from zero again. */
  startValue(): void {
    this.size = 0;
  }

  /** Whether the value being built has reached `maxSize` (in lenient mode: generators then stop growing it). */
  full(): boolean {
    return this.size > this.limits.maxSize;
  }

  /** Counts `units` (about one per JSON character) of the value being built; checks the time budget. */
  spend(units: number): void {
    this.size += units;
    this.total += units;
    if (!this.lenient && (this.size > this.limits.maxSize || this.total > this.limits.maxSize * ATTEMPTS_ALLOWANCE)) throw new CapReached("maxSize");
    this.budget?.check(`synthesizing ${this.where}`);
  }

  private asked: Set<string> | undefined;

  /**
   * Records that a cap cut a value: `what` says where and what the schema asked; `asked` (the size the schema
   * asked for) makes the same cut, met again by another generator, warned once.
   */
  capped(cap: keyof SynthesisLimits, what: string, asked?: number): void {
    this.cut = true;
    if (asked !== undefined) {
      const key = `${cap}:${asked}`;
      this.asked ??= new Set();
      if (this.asked.has(key)) return;
      this.asked.add(key);
    }
    this.warn(`synthesis cap ${cap} (${this.limits[cap]}, ${LIMIT_OPTIONS[cap]}) reached: ${what}`);
  }

  warn(message: string): void {
    if (this.warnings.includes(message) || this.warnings.length >= 20) return;
    this.warnings.push(message);
    this.budget?.warn(message);
  }
}
