import type { TesterStage } from "../../agents/roles/verdict.js";
import type { SimEvent } from "../core/events.js";

/** A reason template and how many episodes it discarded. */
export interface ReasonCount {
  reason: string;
  count: number;
}

/** The funnel figures of one tester stage. */
export interface StageSummary {
  /** Episodes this stage failed, wherever it came in the order. */
  failed: number;
  /** Episodes discarded here: this was the first stage that failed. */
  discarded: number;
  /** `discarded / episodes`. */
  discardRate: number;
  /** The most frequent reasons of the episodes discarded here, values blanked (`"…"`, `N`). */
  topReasons: ReasonCount[];
}

/** `summary.json`: the figures of a run, computed from its journal alone. */
export interface RunSummary {
  runId: string;
  episodes: number;
  accepted: number;
  rejected: number;
  /** Episodes that broke off with an error before a verdict. */
  errors: number;
  acceptRate: number;
  stages: Partial<Record<TesterStage, StageSummary>>;
  errorReasons: ReasonCount[];
  steps: { histogram: Record<string, number>; mean: number; max: number };
  calls: {
    total: number;
    /** Routed, valid and answered below 400. */
    ok: number;
    /** Answered 400 or above (invalid and unknown included). */
    failed: number;
    invalid: number;
    unknownTool: number;
    perEpisode: number;
  };
  /** Per toolset: operations with a successful call in an accepted episode, out of its total (when known). */
  operations: Record<string, { covered: number; total: number | null; calls: number }>;
  levels: Record<string, { episodes: number; accepted: number }>;
  llm: LlmSummary;
  /** From the events' times: first start, last finish, their span, the sum of episode durations, and the rate. */
  time: { firstAt: string | null; lastAt: string | null; wallSeconds: number; episodeSeconds: number; episodesPerSecond: number };
}

/** Model calls, tokens and cost of one role (or of the whole run). */
export interface LlmFigures {
  calls: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  /** USD, from the price table. */
  cost: number;
}

/** LLM accounting of a run: totals, per role, per episode and per accepted instance. */
export interface LlmSummary extends LlmFigures {
  cached: number;
  byRole: Record<string, LlmFigures>;
  perEpisode: { calls: number; tokens: number; cost: number };
  perAccepted: { calls: number; tokens: number; cost: number };
}

/** The top reasons kept per stage in the summary. */
export const TOP_REASONS = 5;
const MAX_TEMPLATES = 500;
const STAGES: readonly TesterStage[] = ["format", "execution", "consistency", "grounding", "plan", "judge"];

/**
 * A reason with its values blanked, so reasons of the same kind count together. Names stay: a tool after
 * `calls[N]` or `steps[N]`, a field, an argument (`calls[2] "getForecast": field "location.name" = "…"`), and
 * numbers inside names (`gpt-4o`, `bk-1003`).
 */
export function reasonTemplate(reason: string): string {
  const names: string[] = [];
  const kept = reason.replace(/((?:steps|calls)\[\d+\] |\b(?:field|argument|tool|has) )"([A-Za-z_$@][\w$@.\-[\]]*)"/g, (_m, lead: string, name: string) => {
    names.push(name);
    return `${lead}\u0000${String.fromCharCode(97 + ((names.length - 1) % 26))}\u0000`;
  });
  return kept
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/(?<![\w])(?<![\w]-)-?\d+(?:\.\d+)?(?![\w])/g, "N")
    .replace(/"…"(?:, "…")+/g, '"…"')
    .replace(/N(?:, N)+/g, "N")
    .replace(/\u0000([a-z])\u0000/g, (_m, i: string) => `"${names[i.charCodeAt(0) - 97] ?? ""}"`);
}

/** Most frequent first, then in code-unit order of the reason. */
function byCountThenReason(a: readonly [string, number], b: readonly [string, number]): number {
  return b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}

class ReasonCounter {
  private readonly counts = new Map<string, number>();
  /** The last `top` answer, until the next `add` (summaries are taken after every episode). */
  private cached: { n: number; top: ReadonlyArray<readonly [string, number]> } | undefined;

  add(reason: string): void {
    let key = reasonTemplate(reason);
    if (!this.counts.has(key) && this.counts.size >= MAX_TEMPLATES) key = "(other reasons)";
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.cached = undefined;
  }

  top(n: number): ReasonCount[] {
    if (n <= 0) return [];
    if (this.cached?.n !== n) {
      // The n best in one pass (the counter holds up to MAX_TEMPLATES reasons; n is small).
      const best: Array<readonly [string, number]> = [];
      for (const entry of this.counts) {
        if (best.length === n && byCountThenReason(entry, best[n - 1] as readonly [string, number]) >= 0) continue;
        let i = best.length;
        while (i > 0 && byCountThenReason(entry, best[i - 1] as readonly [string, number]) < 0) i--;
        best.splice(i, 0, entry);
        if (best.length > n) best.pop();
      }
      this.cached = { n, top: best };
    }
    return this.cached.top.map(([reason, count]) => ({ reason, count }));
  }
}

const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/**
 * Accumulates a run's summary one finished episode at a time, in constant memory per episode (counters,
 * reason templates and the set of operations), so a resumed run can recompute it by streaming its journal.
 */
export class SummaryBuilder {
  private episodes = 0;
  private accepted = 0;
  private rejected = 0;
  private errors = 0;
  private readonly stageFailed = new Map<TesterStage, number>();
  private readonly stageDiscarded = new Map<TesterStage, number>();
  private readonly stageReasons = new Map<TesterStage, ReasonCounter>();
  private readonly errorReasons = new ReasonCounter();
  private readonly stepsHistogram = new Map<number, number>();
  private stepsTotal = 0;
  private stepsMax = 0;
  private readonly calls = { total: 0, ok: 0, failed: 0, invalid: 0, unknownTool: 0 };
  private readonly covered = new Map<string, Set<string>>();
  private readonly toolsetCalls = new Map<string, number>();
  private readonly levels = new Map<string, { episodes: number; accepted: number }>();
  private readonly llm = { calls: 0, cached: 0, errors: 0, promptTokens: 0, completionTokens: 0, cost: 0 };
  private readonly llmByRole = new Map<string, LlmFigures>();
  private firstAt: string | null = null;
  private lastAt: string | null = null;
  private episodeMs = 0;

  /**
   * @param runId the run's id
   * @param operationTotals the number of operations of each toolset, for `operations.*.total`
   */
  constructor(
    private readonly runId: string,
    private readonly operationTotals: Readonly<Record<string, number>> = {},
  ) {}

  /** Counts one finished episode from its events. */
  add(events: readonly SimEvent[]): void {
    let outcome: "accepted" | "rejected" | "error" = "error";
    let level = "call";
    let steps = 0;
    let startedAt: string | undefined;
    let finishedAt: string | undefined;
    let errorReason: string | undefined;
    let failedStage: TesterStage | undefined;
    let stageVerdicts: { stage: TesterStage; pass: boolean; reasons: string[] }[] = [];
    const targets = new Map<string, { toolset?: string; op: string }>();
    const successes: { toolset: string; op: string }[] = [];

    for (const e of events) {
      switch (e.type) {
        case "episode.started":
          level = e.level;
          startedAt = e.at;
          break;
        case "tool.call": {
          const op = e.operation ? `${e.operation.method.toUpperCase()} ${e.operation.path}` : e.call.name;
          targets.set(e.call.id, { ...(e.toolset !== undefined ? { toolset: e.toolset } : {}), op });
          if (e.toolset !== undefined) this.toolsetCalls.set(e.toolset, (this.toolsetCalls.get(e.toolset) ?? 0) + 1);
          break;
        }
        case "tool.result": {
          const r = e.result;
          this.calls.total++;
          if (r.source === "route") this.calls.unknownTool++;
          else if (r.source === "validation") this.calls.invalid++;
          if (r.status >= 400) this.calls.failed++;
          else if (r.source !== "route" && r.source !== "validation") {
            this.calls.ok++;
            const t = targets.get(e.callId);
            const op = r.operation ? `${r.operation.method.toUpperCase()} ${r.operation.path}` : t?.op;
            if (t?.toolset !== undefined && op !== undefined) successes.push({ toolset: t.toolset, op });
          }
          break;
        }
        case "tester.verdict":
          failedStage = e.verdict.failedStage;
          stageVerdicts = e.verdict.stages;
          break;
        case "llm.call":
          this.llm.calls++;
          if (e.cached) this.llm.cached++;
          if (e.error !== undefined) this.llm.errors++;
          this.llm.promptTokens += e.usage.promptTokens;
          this.llm.completionTokens += e.usage.completionTokens;
          this.llm.cost += e.cost ?? 0;
          {
            const r = this.llmByRole.get(e.role) ?? { calls: 0, errors: 0, promptTokens: 0, completionTokens: 0, cost: 0 };
            r.calls++;
            if (e.error !== undefined) r.errors++;
            r.promptTokens += e.usage.promptTokens;
            r.completionTokens += e.usage.completionTokens;
            r.cost += e.cost ?? 0;
            this.llmByRole.set(e.role, r);
          }
          break;
        case "episode.finished":
          outcome = e.outcome;
          steps = e.steps;
          finishedAt = e.at;
          errorReason = e.reason;
          break;
        default:
          break;
      }
    }

    this.episodes++;
    const lv = this.levels.get(level) ?? { episodes: 0, accepted: 0 };
    lv.episodes++;
    this.levels.set(level, lv);
    this.stepsHistogram.set(steps, (this.stepsHistogram.get(steps) ?? 0) + 1);
    this.stepsTotal += steps;
    this.stepsMax = Math.max(this.stepsMax, steps);
    for (const s of stageVerdicts) if (!s.pass) this.stageFailed.set(s.stage, (this.stageFailed.get(s.stage) ?? 0) + 1);

    if (outcome === "accepted") {
      this.accepted++;
      lv.accepted++;
      for (const { toolset, op } of successes) {
        let set = this.covered.get(toolset);
        if (!set) {
          set = new Set();
          this.covered.set(toolset, set);
        }
        set.add(op);
      }
    } else if (outcome === "rejected" && failedStage !== undefined) {
      this.rejected++;
      this.stageDiscarded.set(failedStage, (this.stageDiscarded.get(failedStage) ?? 0) + 1);
      let counter = this.stageReasons.get(failedStage);
      if (!counter) {
        counter = new ReasonCounter();
        this.stageReasons.set(failedStage, counter);
      }
      for (const reason of stageVerdicts.find((s) => s.stage === failedStage)?.reasons ?? []) counter.add(reason);
    } else {
      this.errors++;
      this.errorReasons.add(errorReason ?? "the episode ended without a verdict");
    }

    if (startedAt !== undefined && (this.firstAt === null || startedAt < this.firstAt)) this.firstAt = startedAt;
    if (finishedAt !== undefined && (this.lastAt === null || finishedAt > this.lastAt)) this.lastAt = finishedAt;
    if (startedAt !== undefined && finishedAt !== undefined) {
      const ms = Date.parse(finishedAt) - Date.parse(startedAt);
      if (Number.isFinite(ms) && ms > 0) this.episodeMs += ms;
    }
  }

  /** The summary so far. */
  private llmSummary(episodes: number): LlmSummary {
    const tokens = this.llm.promptTokens + this.llm.completionTokens;
    const per = (d: number): { calls: number; tokens: number; cost: number } =>
      d === 0 ? { calls: 0, tokens: 0, cost: 0 } : { calls: round(this.llm.calls / d, 3), tokens: round(tokens / d, 1), cost: round(this.llm.cost / d, 6) };
    const byRole: Record<string, LlmFigures> = {};
    for (const [role, f] of [...this.llmByRole].sort(([a], [b]) => a.localeCompare(b))) byRole[role] = { ...f, cost: round(f.cost, 6) };
    return { ...this.llm, cost: round(this.llm.cost, 6), byRole, perEpisode: per(episodes), perAccepted: per(this.accepted) };
  }

  toJSON(): RunSummary {
    const n = this.episodes;
    const stages: Partial<Record<TesterStage, StageSummary>> = {};
    for (const stage of STAGES) {
      if (stage === "judge" && !this.stageFailed.has(stage) && !this.stageDiscarded.has(stage)) continue;
      const discarded = this.stageDiscarded.get(stage) ?? 0;
      stages[stage] = {
        failed: this.stageFailed.get(stage) ?? 0,
        discarded,
        discardRate: n === 0 ? 0 : round(discarded / n, 4),
        topReasons: this.stageReasons.get(stage)?.top(TOP_REASONS) ?? [],
      };
    }
    const histogram: Record<string, number> = {};
    for (const [k, v] of [...this.stepsHistogram].sort((a, b) => a[0] - b[0])) histogram[String(k)] = v;
    const operations: RunSummary["operations"] = {};
    const names = new Set([...Object.keys(this.operationTotals), ...this.toolsetCalls.keys(), ...this.covered.keys()]);
    for (const name of [...names].sort()) {
      operations[name] = {
        covered: this.covered.get(name)?.size ?? 0,
        total: this.operationTotals[name] ?? null,
        calls: this.toolsetCalls.get(name) ?? 0,
      };
    }
    const levels: RunSummary["levels"] = {};
    for (const name of [...this.levels.keys()].sort()) {
      const lv = this.levels.get(name);
      if (lv) levels[name] = { ...lv };
    }
    const wallMs = this.firstAt !== null && this.lastAt !== null ? Math.max(0, Date.parse(this.lastAt) - Date.parse(this.firstAt)) : 0;
    return {
      runId: this.runId,
      episodes: n,
      accepted: this.accepted,
      rejected: this.rejected,
      errors: this.errors,
      acceptRate: n === 0 ? 0 : round(this.accepted / n, 4),
      stages,
      errorReasons: this.errorReasons.top(TOP_REASONS),
      steps: { histogram, mean: n === 0 ? 0 : round(this.stepsTotal / n, 3), max: this.stepsMax },
      calls: { ...this.calls, perEpisode: n === 0 ? 0 : round(this.calls.total / n, 3) },
      operations,
      levels,
      llm: this.llmSummary(n),
      time: {
        firstAt: this.firstAt,
        lastAt: this.lastAt,
        wallSeconds: round(wallMs / 1000, 3),
        episodeSeconds: round(this.episodeMs / 1000, 3),
        episodesPerSecond: wallMs > 0 ? round(n / (wallMs / 1000), 2) : 0,
      },
    };
  }
}
