import type { Level } from "../../agents/roles/agent-context.js";
import { OfflineAssistant } from "../../agents/assistant/offline/offline-assistant.js";
import { RuleTester } from "../../agents/tester/offline-tester.js";
import { OfflineUser } from "../../agents/user/offline-user.js";
import { SimulatedExecutor } from "../../agents/executor/simulated-executor.js";
import type { EpisodeToolset } from "../../agents/roles/toolbox.js";
import { contentHash, currentVersions, type RunInfo } from "../runs/run-info.js";
import { RunStore } from "../runs/run-store.js";
import type { RunSummary } from "../runs/run-summary.js";
import { SummaryBuilder } from "../runs/run-summary.js";
import { EventBus, type Clock, type EventBusOptions, type Listener } from "./event-bus.js";
import type { EventPayloads, SimEvent, SimEventType } from "./events.js";
import { episodeId, runEpisode, type EpisodeAgents } from "./run-episode.js";
import { schedule } from "./scheduler.js";
import { stableStringify } from "../../specs/stable-stringify.js";
import type { WorkSettings } from "../../specs/synthesize/work-budget.js";
import { synthesisSettingsOf, workOf, type SynthesisSettings } from "./run-config.js";

/** Options of a simulation. */
export interface SimulationOptions {
  /** The world: loaded toolsets (see `toolsets/load-toolset.ts`). */
  toolsets: EpisodeToolset[];
  episodes?: number;
  seed?: number;
  level?: Level;
  concurrency?: number;
  /** Assistant steps per request. */
  maxSteps?: number;
  /** Run folder; without it the run is not written (subscribe to events instead). */
  out?: string;
  /** Continue the run in `out`. */
  resume?: boolean;
  /**
   * Replace any of the four agents; the offline ones by default. A function is called once per episode
   * (LLM agents bind their model to the episode there, to account and record its calls).
   */
  agents?: Partial<EpisodeAgents> | AgentFactory;
  /** Stop starting episodes once the run's model calls or cost reach these (the run stays resumable). */
  budget?: { maxCalls?: number; maxCost?: number };
  /** Injectable clock (event times). */
  clock?: Clock;
  /**
   * Extra settings recorded in run.json. `synthesis` ({@link SynthesisSettings}) also sets the executor's synthesis
   * caps and per-call time budget, in this process and on a queue's workers (which get the run's config).
   */
  config?: Record<string, unknown>;
  /** Receives the errors of subscribers that throw (they never disturb the run); a process warning by default. */
  onListenerError?: EventBusOptions["onListenerError"];
  /** Runs the episodes elsewhere (the workers of a job queue, see `simulator/queue`) instead of in this process. */
  runner?: EpisodeRunner;
}

/**
 * Runs a simulation's episodes somewhere else than in its process (the workers of a job queue). The run folder,
 * the in-order commit, budgets and stopping stay the simulation's; the runner only turns an index into the
 * episode's events (which the workers make with {@link Simulation.runOne}, the same episode loop).
 */
export interface EpisodeRunner {
  /** Called once the run folder is open, before the first episode: `start` is the first index to run. */
  begin?(run: { runId: string; dir?: string; start: number; end: number }): Promise<void>;
  /**
   * Runs episode `index` and resolves with its events, from `episode.started` to `episode.finished`. A runner that
   * hands results back in index order calls `finished` once the episode is over elsewhere but still waits for an
   * earlier one: it stops counting against the run's `concurrency` (episodes queued or running), so one long
   * episode does not leave the workers without work.
   */
  run(index: number, finished: () => void): Promise<readonly SimEvent[]>;
  /** Called once episode `index` is written (in index order). */
  committed?(index: number): void;
  /** Called when the run ends, whatever the outcome (`complete`: every episode is written). */
  end?(outcome: { complete: boolean; failed: boolean }): Promise<void>;
}

/** What an agent factory learns about the episode it makes agents for. */
export interface EpisodeBinding {
  runId: string;
  episodeId: string;
  index: number;
  /** Publishes an `llm.call` event in this episode (for accounting, budgets and the journal). */
  reportLlmCall(payload: EventPayloads["llm.call"]): void;
  /** Registers a clean-up to run once the episode is over (per-episode caches, counters). */
  onFinish?(cleanup: () => void): void;
}

/** Makes (some of) the agents of one episode. */
export type AgentFactory = (episode: EpisodeBinding) => Partial<EpisodeAgents>;

/** The outcome of `Simulation.run`. */
export interface RunResult {
  runId: string;
  /** The run folder, when written. */
  dir?: string;
  summary: RunSummary;
  /** Episodes run in this call (a resumed run counts only the new ones). */
  ran: number;
  /** True when the run stopped early (`stop()`, Ctrl-C, a budget); resumable. */
  interrupted: boolean;
  /** Why it stopped early. */
  stopReason?: "stopped" | "budget";
}

/**
 * The offline agents: deterministic, no network. The assistant is the offline chat model called directly
 * (`OfflineAssistant`: the same turns as `new ChatModelAssistant(new OfflineChatModel())`, without loading
 * LangChain).
 */
export function offlineAgents(): EpisodeAgents {
  return {
    user: new OfflineUser(),
    assistant: new OfflineAssistant(),
    executor: new SimulatedExecutor(),
    tester: new RuleTester(),
  };
}

/**
 * The id of a run: a hash of what determines its content, so that equal runs have equal journals. Where the
 * models are served (base URLs, also inline in `openai:<model>@<url>`) and where their keys come from do not
 * determine it, so a replay with no endpoint gets the recorded run's id.
 */
export function runIdFor(parts: Record<string, unknown>): string {
  return `run-${contentHash(stableStringify(withoutEndpoints(parts))).replace(/^sha256:/, "").slice(0, 12)}`;
}

const ENDPOINT_KEYS = new Set(["baseUrl", "baseURL", "apiKey", "apiKeyEnv"]);

/** A copy without endpoint settings: those keys dropped, `@http(s)://...` cut from model spec strings. */
function withoutEndpoints(value: unknown): unknown {
  if (typeof value === "string") return value.replace(/^([a-z]+:.*?)@https?:\/\/.*$/is, "$1");
  if (Array.isArray(value)) return value.map(withoutEndpoints);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!ENDPOINT_KEYS.has(k)) out[k] = withoutEndpoints(v);
  return out;
}

/**
 * A simulation: the four agents over an event bus, episode after episode, written to a run folder.
 * Subscribe with `on(type, listener)` before `run()`.
 */
export class Simulation {
  readonly bus: EventBus;
  readonly runId: string;
  private readonly agents: EpisodeAgents;
  private readonly factory: AgentFactory | undefined;
  private spent = { calls: 0, cost: 0 };
  private stopping = false;
  private stopReason: "stopped" | "budget" = "stopped";
  /** The events of the episodes running, by episode id (one subscriber for all of them). */
  private readonly pending = new Map<string, SimEvent[]>();
  private collecting = false;
  /** The executor's caps and time budget, from `config.synthesis`. */
  private readonly work: WorkSettings | undefined;

  constructor(private readonly options: SimulationOptions) {
    this.work = workOf(synthesisSettingsOf(options.config));
    if (options.toolsets.length === 0) throw new RangeError("a simulation needs at least one toolset");
    this.bus = new EventBus(options.clock, options.onListenerError ? { onListenerError: options.onListenerError } : {});
    this.factory = typeof options.agents === "function" ? options.agents : undefined;
    this.agents = { ...offlineAgents(), ...(typeof options.agents === "function" ? {} : options.agents) };
    this.runId = runIdFor({
      seed: this.seed,
      episodes: this.episodes,
      level: this.level,
      maxSteps: options.maxSteps ?? 8,
      toolsets: options.toolsets.map((t) => [t.name, t.catalog.spec.hash]),
      config: options.config ?? {},
    });
  }

  get seed(): number {
    return this.options.seed ?? 1;
  }
  get episodes(): number {
    return this.options.episodes ?? 100;
  }
  get level(): Level {
    return this.options.level ?? "call";
  }

  /** Subscribes to one event type (or `*`); returns the unsubscribe function. */
  on<K extends SimEventType>(type: K, listener: Listener<K>): () => void;
  on(type: "*", listener: (event: SimEvent) => void): () => void;
  on(type: SimEventType | "*", listener: (event: never) => void): () => void {
    return this.bus.on(type as "*", listener as (event: SimEvent) => void);
  }

  /**
   * Asks the run to stop: no new episode starts, episodes in flight finish and are written. `budget` when a budget
   * kept elsewhere (the workers' spending, see `simulator/queue`) was reached.
   */
  stop(reason: "stopped" | "budget" = "stopped"): void {
    if (!this.stopping) this.stopReason = reason;
    this.stopping = true;
  }

  /** The toolsets an episode plays in: one per episode in turn at level `call`, all of them otherwise. */
  toolsetsFor(index: number): EpisodeToolset[] {
    const all = this.options.toolsets;
    if (this.level !== "call") return all;
    return [all[index % all.length] as EpisodeToolset];
  }

  /** Runs the episodes (or the rest of them, when resuming) and returns the summary. */
  async run(hooks: { onEpisode?: (index: number, events: readonly SimEvent[], summary: RunSummary) => void } = {}): Promise<RunResult> {
    const o = this.options;
    const store = o.out !== undefined ? await RunStore.create(o.out, this.runInfo(), { resume: o.resume === true }) : undefined;
    const memory = store ? undefined : new SummaryBuilder(this.runId, this.runInfo().operations);
    const start = store?.nextIndex ?? 0;
    let ran = 0;
    if (store) {
      const before = store.summary().llm;
      this.spent = { calls: before.calls, cost: before.cost ?? 0 };
    }
    const unsubscribeBudget = this.bus.on("llm.call", (e) => {
      this.spent.calls++;
      this.spent.cost += e.cost;
    });
    let budgetHit = false;
    const overBudget = (): boolean => {
      const b = o.budget;
      if (!b) return false;
      budgetHit ||= (b.maxCalls !== undefined && this.spent.calls >= b.maxCalls) || (b.maxCost !== undefined && this.spent.cost >= b.maxCost);
      return budgetHit;
    };
    const runner = o.runner;
    let complete = false;
    let failed = false;
    try {
      await runner?.begin?.({ runId: this.runId, ...(o.out !== undefined ? { dir: o.out } : {}), start, end: this.episodes });
      const result = await schedule({
        start,
        end: this.episodes,
        concurrency: o.concurrency ?? 4,
        stopped: () => this.stopping || overBudget(),
        task: (index, release) => (runner ? this.remoteEpisode(runner, index, release) : this.runOne(index)),
        commit: (index, events) => {
          ran++;
          if (store) store.appendEpisode(events);
          else memory?.add(events);
          runner?.committed?.(index);
          hooks.onEpisode?.(index, events, store ? store.summary() : (memory as SummaryBuilder).toJSON());
        },
      });
      complete = result.next >= this.episodes;
      const summary = store ? store.summary() : (memory as SummaryBuilder).toJSON();
      const interrupted = result.stopped && result.next < this.episodes;
      return {
        runId: this.runId,
        ...(o.out !== undefined ? { dir: o.out } : {}),
        summary,
        ran,
        interrupted,
        ...(interrupted ? { stopReason: budgetHit || this.stopReason === "budget" ? ("budget" as const) : ("stopped" as const) } : {}),
      };
    } catch (e) {
      failed = true;
      throw e;
    } finally {
      unsubscribeBudget();
      try {
        await runner?.end?.({ complete, failed });
      } finally {
        store?.close();
      }
    }
  }

  /**
   * Runs episode `index` in this process and resolves with its events (what `run` appends). The workers of a job
   * queue call it for every job (see `simulator/queue`): the same episode loop as a run in one process.
   */
  async runOne(index: number): Promise<SimEvent[]> {
    this.collect();
    const cleanups: (() => void)[] = [];
    const outcome = await runEpisode(
      {
        runId: this.runId,
        index,
        runSeed: this.seed,
        level: this.level,
        toolsets: this.toolsetsFor(index),
        ...(this.options.maxSteps !== undefined ? { maxSteps: this.options.maxSteps } : {}),
        ...(this.work ? { work: this.work } : {}),
      },
      this.agentsFor(index, cleanups),
      this.bus,
    );
    for (const cleanup of cleanups) cleanup();
    return this.take(outcome.episodeId);
  }

  /** An episode run by the runner: its events are published here as they were recorded (subscribers, budgets). */
  private async remoteEpisode(runner: EpisodeRunner, index: number, finished: () => void): Promise<SimEvent[]> {
    this.collect();
    const events = await runner.run(index, finished);
    const id = episodeId(index);
    for (const e of events) this.bus.republish(e);
    this.bus.endEpisode(id);
    return this.take(id);
  }

  /** Subscribes the collector of the episodes' events (once). */
  private collect(): void {
    if (this.collecting) return;
    this.collecting = true;
    this.bus.on("*", (e) => {
      let list = this.pending.get(e.episodeId);
      if (!list) {
        list = [];
        this.pending.set(e.episodeId, list);
      }
      list.push(e);
    });
  }

  private take(id: string): SimEvent[] {
    const events = this.pending.get(id) ?? [];
    this.pending.delete(id);
    return events;
  }

  private agentsFor(index: number, cleanups: (() => void)[]): EpisodeAgents {
    if (!this.factory) return this.agents;
    const id = episodeId(index);
    const made = this.factory({
      onFinish: (cleanup) => void cleanups.push(cleanup),
      runId: this.runId,
      episodeId: id,
      index,
      reportLlmCall: (payload) => {
        this.bus.publish("llm.call", { runId: this.runId, episodeId: id, from: payload.role, to: "simulator" }, payload);
      },
    });
    return { ...this.agents, ...made };
  }

  private runInfo(): RunInfo {
    const o = this.options;
    const specHashes: Record<string, string> = {};
    const operations: Record<string, number> = {};
    for (const t of o.toolsets) {
      specHashes[t.name] = t.catalog.spec.hash;
      operations[t.name] = t.catalog.tools.length;
    }
    // Toolsets loaded from files (see `toolsets/load-toolset.ts`) record where, so that a resume can reload them.
    const files = o.toolsets.map((t) => (t as { file?: unknown }).file);
    const toolsetFiles = files.every((f): f is string => typeof f === "string") ? files : undefined;
    return {
      id: this.runId,
      createdAt: (o.clock ?? (() => new Date()))().toISOString(),
      seed: this.seed,
      config: { episodes: this.episodes, level: this.level, concurrency: o.concurrency ?? 4, maxSteps: o.maxSteps ?? 8, toolsets: o.toolsets.map((t) => t.name), ...o.config },
      versions: currentVersions(),
      specHashes,
      operations,
      ...(toolsetFiles ? { toolsetFiles } : {}),
    };
  }
}

/** Creates a simulation (the library entry point). */
export function createSimulation(options: SimulationOptions): Simulation {
  return new Simulation(options);
}
