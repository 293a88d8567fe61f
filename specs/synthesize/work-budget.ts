/**
 * Caps on what synthesis builds, whatever a schema asks (`minItems: 1000000`, `minLength: 100000000`, a schema
 * that recurses through required properties). The defaults are far above what real specs ask; a value that
 * reaches a cap is cut there, with a warning naming the cap (and the value is then reported as not valid).
 */
export interface SynthesisLimits {
  /** Most items in one array (default 1000). */
  maxItems: number;
  /** Longest string, in code points (default 10,000). */
  maxStringLength: number;
  /** Deepest nesting of objects and arrays in one value (default 64). */
  maxDepth: number;
  /** Largest value, counted as the characters of its JSON text, about (default 1,000,000). */
  maxSize: number;
}

/** The default caps of synthesis. */
export const DEFAULT_SYNTHESIS_LIMITS: Readonly<SynthesisLimits> = Object.freeze({ maxItems: 1000, maxStringLength: 10_000, maxDepth: 64, maxSize: 1_000_000 });

/** The default time budget of one request's synthesis work, in milliseconds. */
export const DEFAULT_REQUEST_BUDGET_MS = 5000;

/** The name users know a limit by (the CLI option), for messages. */
export const LIMIT_OPTIONS: Readonly<Record<keyof SynthesisLimits | "budgetMs", string>> = {
  maxItems: "--max-items",
  maxStringLength: "--max-string-length",
  maxDepth: "--max-depth",
  maxSize: "--max-size",
  budgetMs: "--request-budget-ms",
};

/** Thrown inside synthesis when a request has used up its time budget; `simulateCall` turns it into a 500 problem. */
export class BudgetExceeded extends Error {
  constructor(
    readonly budgetMs: number,
    readonly where: string,
  ) {
    super(`the request used up its time budget of ${budgetMs} ms (${LIMIT_OPTIONS.budgetMs}) while ${where}`);
    this.name = "BudgetExceeded";
  }
}

/** The caps and time budget a run or a server sets for every call it answers (defaults where absent). */
export interface WorkSettings {
  /** Milliseconds of synchronous work allowed (synthesis, repairs); 0: no time limit. */
  budgetMs?: number;
  limits?: Partial<SynthesisLimits>;
}

/** Options of a work budget. */
export interface WorkBudgetOptions extends WorkSettings {
  /** The clock (tests inject one); default `performance.now`. */
  now?: () => number;
}

const MAX_WARNINGS = 20;

/** The default clock of a budget. */
const monotonicNow = (): number => performance.now();

/**
 * What one request may spend: synthesis caps, and a time budget for its synchronous work (time spent waiting
 * for a model or a real API does not count). Collects the warnings of caps that were reached.
 */
export class WorkBudget {
  readonly limits: Readonly<SynthesisLimits>;
  readonly budgetMs: number | undefined;
  private readonly now: () => number;
  /** Warnings of caps that were reached, each once. */
  readonly warnings: string[] = [];
  private spent = 0;
  private started = 0;
  private depth = 0;
  private ticks = 0;

  constructor(options: WorkBudgetOptions = {}) {
    this.limits = options.limits === undefined ? DEFAULT_SYNTHESIS_LIMITS : Object.freeze({ ...DEFAULT_SYNTHESIS_LIMITS, ...definedOnly(options.limits) });
    this.budgetMs = options.budgetMs !== undefined && options.budgetMs > 0 && Number.isFinite(options.budgetMs) ? options.budgetMs : undefined;
    this.now = options.now ?? monotonicNow;
  }

  /** Runs a section of work that counts against the time budget (sections may nest). */
  section<T>(fn: () => T): T {
    if (this.depth++ === 0) this.started = this.now();
    try {
      return fn();
    } finally {
      if (--this.depth === 0) this.spent += this.now() - this.started;
    }
  }

  /** Milliseconds of work used so far. */
  used(): number {
    return this.spent + (this.depth > 0 ? this.now() - this.started : 0);
  }

  /** Throws `BudgetExceeded` when the time budget is used up (the clock is read on every 32nd check). */
  check(where: string): void {
    if (this.budgetMs === undefined || this.ticks++ % 32 !== 0) return;
    if (this.used() > this.budgetMs) throw new BudgetExceeded(this.budgetMs, where);
  }

  /** Records that a cap was reached (each message once, at most 20). */
  warn(message: string): void {
    if (this.warnings.length >= MAX_WARNINGS || this.warnings.includes(message)) return;
    this.warnings.push(message);
  }
}

function definedOnly(limits: Partial<SynthesisLimits>): Partial<SynthesisLimits> {
  const out: Partial<SynthesisLimits> = {};
  for (const [k, v] of Object.entries(limits) as Array<[keyof SynthesisLimits, number | undefined]>) {
    if (typeof v === "number" && v >= 0 && !Number.isNaN(v)) out[k] = v;
  }
  return out;
}

/** The budget of the synchronous work in progress (synthesis is synchronous: no context needs to follow awaits). */
let active: WorkBudget | undefined;

/**
 * Runs a function under a work budget, which synthesis then finds by itself (`currentBudget`). Only the
 * synchronous part of the function sees it: what an async function does after an `await` runs without it
 * (still within the default caps), so that concurrent requests never see each other's budget.
 */
export function withBudget<T>(budget: WorkBudget, fn: () => T): T {
  const saved = active;
  active = budget;
  try {
    return fn();
  } finally {
    active = saved;
  }
}

/** The budget of the work in progress, if any. */
export function currentBudget(): WorkBudget | undefined {
  return active;
}
