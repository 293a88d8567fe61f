import type { Job } from "bullmq";
import { Redis } from "ioredis";
import { hostname } from "node:os";
import type { CassetteEntry } from "../../agents/llm/cassette.js";
import type { LlmRole } from "../../agents/llm/llm-gateway.js";
import type { RunCacheRecord } from "../../agents/llm/llm-run-cache.js";
import { isRedactedUrl, type ModelSpec } from "../../agents/llm/model-spec.js";
import type { EpisodeToolset } from "../../agents/roles/toolbox.js";
import { costOf, DEFAULT_PRICES, type PriceTable } from "../../agents/llm/price-table.js";
import type { Result } from "../../specs/result.js";
import { roleModels } from "../cli/options/llm-options.js";
import { createLlmRoleAgents } from "../core/llm-agents.js";
import type { LlmSettings } from "../core/run-config.js";
import { episodeId } from "../core/run-episode.js";
import { currentVersions } from "../runs/run-info.js";
import { createSimulation, type AgentFactory, type Simulation } from "../core/simulation.js";
import { Capacity, EpisodeWorker } from "./episode-worker.js";
import { LogReader } from "./log-reader.js";
import { BULL_PREFIX, KEYS, type EpisodeJob, type EpisodeResult, type RunDescription } from "./protocol.js";
import { ReplicaAnswerCache } from "./replica-answer-cache.js";
import { ReplicaInstructions } from "./replica-instructions.js";
import type { LocalEntry, ReplicaHooks } from "./replica-waits.js";
import { redisOptions, type RedisTarget } from "./redis-url.js";
import { FENCED_WRITE } from "./state-log.js";
import { TapeCassette } from "./tape-cassette.js";
import type { WorkerToolsets } from "./worker-toolsets.js";

/** A worker's own model settings: where its calls go and how (the models themselves are the run's). */
export interface WorkerEndpoint {
  baseUrl?: string;
  apiKeyEnv?: string;
  timeoutMs?: number;
  retries?: number;
  llmConcurrency?: number;
  rpm?: number;
}

/** What a run context needs from the worker process. */
export interface WorkerSetup {
  name: string;
  redis: RedisTarget;
  /** The connection for commands (shared by the worker's runs). */
  commands: Redis;
  capacity: Capacity;
  toolsets: WorkerToolsets;
  endpoint: WorkerEndpoint;
  /** How long a job stays locked without a renewal before another worker may take it over (ms). */
  lockMs: number;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

/** One run of an episode on this worker (a job attempt): its token fences what it writes. */
interface Attempt {
  index: number;
  token: string;
  lock: string;
  abandoned: Promise<never>;
  abandon: (reason: string) => void;
  lost: string | undefined;
  cache?: RunCacheRecord[];
  /** Writes not yet acknowledged: the job completes only after them (the lock is released on completion). */
  pending: Set<Promise<unknown>>;
}

/** The run's model settings with the worker's endpoint settings over them (the worker's base URL replaces the run's). */
export function workerLlmSettings(run: LlmSettings, mine: WorkerEndpoint): LlmSettings {
  const out: LlmSettings = { ...run };
  if (mine.baseUrl !== undefined) {
    out.baseUrl = mine.baseUrl;
    for (const k of ["model", "userModel", "assistantModel", "executorModel", "testerModel"] as const) {
      const v = out[k];
      if (v !== undefined) out[k] = v.replace(/^([a-z]+:.*?)@https?:\/\/.*$/is, "$1");
    }
  }
  if (mine.apiKeyEnv !== undefined) out.apiKeyEnv = mine.apiKeyEnv;
  if (mine.timeoutMs !== undefined) out.timeoutMs = mine.timeoutMs;
  if (mine.retries !== undefined) out.retries = mine.retries;
  if (mine.llmConcurrency !== undefined) out.llmConcurrency = mine.llmConcurrency;
  if (mine.rpm !== undefined) out.rpm = mine.rpm;
  return out;
}

/**
 * A worker's side of one run (in one epoch): the run's toolsets and agents rebuilt from its description (the
 * run id must come out the same), the replicas of its order-dependent memories fed by the state log, the
 * episodes' tapes, and the BullMQ worker that takes its jobs. Each job runs one episode with
 * {@link Simulation.runOne}, the episode loop of a run in one process.
 */
export class RunContext {
  private readonly attempts = new Map<number, Attempt>();
  /** Tokens of this worker's attempts: their entries in the log were applied here already. */
  private readonly own = new Set<string>();
  private worker: EpisodeWorker | undefined;
  private reader: LogReader | undefined;
  private closing = false;
  /** Set when a write of this worker was refused (lost lock, new epoch): the context must be rebuilt. */
  failure: string | undefined;
  /** Episodes completed here. */
  done = 0;

  private constructor(
    readonly description: RunDescription,
    readonly epoch: number,
    private readonly setup: WorkerSetup,
    private readonly sim: Simulation,
    private readonly tape: TapeCassette | undefined,
    private readonly replicas: { instructions?: ReplicaInstructions; cache?: ReplicaAnswerCache },
    /** Which model each LLM role uses here (no secrets), for the worker's messages. */
    readonly models: string,
  ) {}

  /** Builds a run's context, or says why this worker cannot serve the run. */
  static async open(description: RunDescription, epoch: number, setup: WorkerSetup): Promise<Result<RunContext, string>> {
    const toolsets = await setup.toolsets.resolve(description.toolsets);
    if (!toolsets.ok) return toolsets;
    const llmRun = description.config["llm"] as LlmSettings | undefined;
    let ctx: RunContext | undefined;
    const hooks: ReplicaHooks = {
      write: (episode, entry) => ctx?.writeLog(episode, entry),
      abandoned: (episode) => ctx?.attempts.get(episode)?.abandoned ?? new Promise<never>(() => undefined),
      waiting: (delta) => setup.capacity.wait(delta),
    };
    const replicas: { instructions?: ReplicaInstructions; cache?: ReplicaAnswerCache } = {
      ...(description.shared.instructions ? { instructions: new ReplicaInstructions(hooks) } : {}),
      ...(description.shared.cache ? { cache: new ReplicaAnswerCache(hooks) } : {}),
    };
    let factory: AgentFactory | undefined;
    let tape: TapeCassette | undefined;
    let models = "offline agents";
    if (llmRun) {
      const settings = workerLlmSettings(llmRun, setup.endpoint);
      const redacted = [settings.baseUrl, settings.model, settings.userModel, settings.assistantModel, settings.executorModel, settings.testerModel].find((v) => v !== undefined && isRedactedUrl(v));
      if (redacted !== undefined && !description.replay) {
        return { ok: false, errors: [`the run's base URL had query parameters, which the coordinator does not share (${redacted}): give this worker --base-url`] };
      }
      let specs: Partial<Record<LlmRole, ModelSpec>>;
      try {
        specs = roleModels(settings, { env: setup.env, requireApiKey: !description.replay });
      } catch (e) {
        return { ok: false, errors: [(e as Error).message] };
      }
      const prices: PriceTable = settings.prices ? { ...DEFAULT_PRICES, ...settings.prices } : DEFAULT_PRICES;
      const costOfEntry = (e: CassetteEntry): number => {
        if (e.error !== undefined && e.usage.promptTokens === 0) return 0;
        return costOf(e.usage, e.model, prices, specs[e.role as LlmRole]?.local ?? false, settings.prices);
      };
      tape = new TapeCassette((entry, line) => ctx?.writeTape(entry, line, costOfEntry(entry)));
      const agents = createLlmRoleAgents({
        llm: {
          models: specs,
          ...(settings.assistantFormat !== undefined ? { assistantFormat: settings.assistantFormat } : {}),
          ...(settings.dfsdt ? { dfsdt: true } : {}),
          ...(settings.judgeVotes !== undefined ? { judgeVotes: settings.judgeVotes } : {}),
          ...(settings.runCache ? { runCache: true } : {}),
          prices,
          ...(settings.prices ? { configuredPrices: settings.prices } : {}),
          seed: description.seed,
        },
        roles: ["user", "assistant", "executor", "tester"],
        cassette: { mode: "replay", cassette: tape, fallback: !description.replay },
        onEpisodeAnswers: (episode, records) => {
          const attempt = ctx?.attempts.get(episode);
          if (!attempt) return;
          const seen = new Set<number>();
          attempt.cache = records.filter((r) => !seen.has(r.position) && seen.add(r.position) !== undefined);
        },
        ...(replicas.instructions ? { history: replicas.instructions } : {}),
        ...(replicas.cache ? { runCache: replicas.cache } : {}),
      });
      models = Object.entries(agents.describe).map(([role, m]) => `${role} ${m}`).join(", ");
      const shared = description.shared.instructions || description.shared.cache;
      factory = (binding) => {
        const made = agents.factory(binding);
        // After the agents' own clean-up (registered first): the other workers learn that the episode is over.
        if (shared) binding.onFinish?.(() => ctx?.writeLog(binding.index, { k: "finish", i: binding.index }));
        return made;
      };
    }
    const sim = createSimulation({
      toolsets: toolsets.value,
      episodes: description.episodes,
      seed: description.seed,
      level: description.level,
      maxSteps: description.maxSteps,
      config: description.config,
      ...(factory ? { agents: factory } : {}),
    });
    if (sim.runId !== description.runId) {
      const mine = currentVersions([]).toolsim;
      return { ok: false, errors: [`the run's settings give run id ${sim.runId} on this worker, not ${description.runId} (the coordinator runs toolsim ${description.toolsim}, this worker ${mine})`] };
    }
    await warmUp(toolsets.value, description);
    ctx = new RunContext(description, epoch, setup, sim, tape, replicas, models);
    ctx.start();
    return { ok: true, value: ctx };
  }

  /** Episodes of this run running here. */
  get active(): number {
    return this.attempts.size;
  }

  private start(): void {
    const { setup, description } = this;
    const queue = description.queue;
    if (this.replicas.instructions || this.replicas.cache) {
      const blocking = new Redis(redisOptions(setup.redis, `toolsim-log:${setup.name}`) as never);
      blocking.on("error", () => undefined);
      this.reader = new LogReader(
        blocking,
        KEYS.log(queue, this.epoch),
        (entry) => {
          if ("w" in entry && entry.k !== "settle" && this.own.has(entry.w)) {
            if (entry.k === "finish") this.own.delete(entry.w);
            return;
          }
          this.replicas.instructions?.apply(entry);
          this.replicas.cache?.apply(entry);
        },
        (e) => this.warn(`state log: ${e.message}`),
      );
    }
    const lockMs = setup.lockMs;
    this.worker = new EpisodeWorker(
      queue,
      (job, token) => this.process(job, token ?? ""),
      {
        connection: redisOptions(setup.redis, `toolsim-worker:${setup.name}`) as never,
        prefix: BULL_PREFIX,
        name: setup.name,
        lockDuration: lockMs,
        stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
        maxStalledCount: 5,
        drainDelay: 2,
        skipVersionCheck: true,
      },
      setup.capacity,
    );
    this.worker.on("error", (e) => this.warn(e.message));
    this.worker.start();
  }

  /** Stops taking the run's jobs; unless `force`, the episodes running here finish first. */
  async close(force = false): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (force) for (const a of this.attempts.values()) a.abandon("the worker is stopping");
    await this.worker?.stop(force);
    for (const a of this.attempts.values()) a.abandon("the run's context closed");
    await this.reader?.stop();
  }

  private lastWarning = "";
  private warn(message: string): void {
    if (message === this.lastWarning || this.closing) return;
    this.lastWarning = message;
    this.setup.log(`run ${this.description.runId}: ${message}`);
  }

  /** Runs one episode job (BullMQ's processor). */
  private async process(job: Job<EpisodeJob, EpisodeResult>, token: string): Promise<EpisodeResult> {
    const { epoch, index } = job.data;
    if (epoch !== this.epoch) throw new Error(`job of epoch ${epoch}, the run is in epoch ${this.epoch}`);
    if (this.failure !== undefined) throw new Error(`this worker is rebuilding its view of the run: ${this.failure}`);
    if (this.attempts.has(index)) throw new Error(`episode ${index} is already running on this worker`);
    const id = episodeId(index);
    await this.reader?.catchUp(this.setup.commands);
    let abandon!: (reason: string) => void;
    const abandoned = new Promise<never>((_, reject) => {
      abandon = (reason) => reject(new Error(`episode ${id} abandoned on ${this.setup.name}: ${reason}`));
    });
    abandoned.catch(() => undefined);
    const attempt: Attempt = { index, token, lock: KEYS.lock(this.description.queue, job.id ?? ""), abandoned, abandon: (r) => abandon(r), lost: undefined, pending: new Set() };
    this.attempts.set(index, attempt);
    if (this.reader) this.own.add(token);
    try {
      if (this.tape) {
        this.tape.begin(id, await this.setup.commands.lrange(KEYS.tape(this.description.queue, index), 0, -1));
      }
      const events = await this.sim.runOne(index);
      const tape = this.tape?.end(id);
      // Its tape and log entries are in Redis before the job completes (and releases the lock that fences them).
      while (attempt.pending.size > 0) await Promise.allSettled([...attempt.pending]);
      if (attempt.lost !== undefined) throw new Error(`episode ${id} was taken over: ${attempt.lost}`);
      this.done++;
      return {
        epoch,
        index,
        worker: this.setup.name,
        events,
        ...(tape && tape.lines.length > 0 ? { cassette: tape.lines } : {}),
        ...(attempt.cache ? { cache: attempt.cache } : {}),
        ...(tape ? { calls: { live: tape.live, replayed: tape.replayed } } : {}),
      };
    } finally {
      this.tape?.end(id);
      this.attempts.delete(index);
      this.replicas.cache?.dropAttempts(index);
    }
  }

  /** Writes a local episode's decision to the state log, fenced by its job lock. */
  private writeLog(episode: number, entry: LocalEntry): void {
    const attempt = this.attempts.get(episode);
    if (!attempt || attempt.lost !== undefined) return;
    const payload = JSON.stringify({ ...entry, w: attempt.token });
    this.fenced(attempt, [attempt.lock, KEYS.run(this.description.queue), KEYS.log(this.description.queue, this.epoch), KEYS.spend(this.description.queue)], ["x", payload, "0", "0"]);
  }

  /** Appends a model call to its episode's tape (and its cost to the run's spend), fenced by the job lock. */
  private writeTape(entry: CassetteEntry, line: string, cost: number): void {
    const index = Number(/(\d+)$/.exec(entry.episodeId ?? "")?.[1] ?? -1);
    const attempt = this.attempts.get(index);
    if (!attempt || attempt.lost !== undefined) return;
    this.fenced(attempt, [attempt.lock, KEYS.run(this.description.queue), KEYS.tape(this.description.queue, index), KEYS.spend(this.description.queue)], ["l", line, "1", String(cost)]);
  }

  private fenced(attempt: Attempt, keys: string[], args: string[]): void {
    const commands = this.setup.commands as unknown as { toolsimFenced(...a: string[]): Promise<unknown> };
    const write = commands.toolsimFenced(...keys, attempt.token, String(this.epoch), ...args).then(
      (r) => {
        if (r === 0 || r === -1) this.refused(attempt, r === 0 ? "its job lock expired (another worker may run it)" : "the coordinator restarted the run");
      },
      (e: unknown) => this.refused(attempt, `a write to Redis failed: ${e instanceof Error ? e.message : String(e)}`),
    );
    attempt.pending.add(write);
    void write.finally(() => attempt.pending.delete(write));
  }

  /**
   * A write of this worker was refused: its view of the run may hold decisions no other worker will see, so every
   * episode of the run running here is abandoned and the context rebuilt from the log.
   */
  private refused(attempt: Attempt, reason: string): void {
    attempt.lost ??= reason;
    if (this.failure !== undefined) return;
    this.failure = `episode ${episodeId(attempt.index)}: ${reason}`;
    this.warn(`${this.failure}; abandoning this run's episodes here and rebuilding`);
    for (const a of this.attempts.values()) {
      a.lost ??= reason;
      a.abandon(reason);
    }
  }
}

/**
 * Runs a few offline episodes over the run's toolsets (not written anywhere) before the worker takes jobs: the
 * first episode over a toolset builds its tools and validators, which on a busy machine can take longer than a
 * job's lock lasts. Offline agents only: no model is called.
 */
async function warmUp(toolsets: EpisodeToolset[], d: RunDescription): Promise<void> {
  const warm = createSimulation({ toolsets, episodes: d.episodes, seed: d.seed, level: d.level, maxSteps: d.maxSteps, config: d.config });
  const n = Math.min(d.level === "call" ? toolsets.length : 2, d.episodes, 32);
  for (let i = 0; i < n; i++) {
    await warm.runOne(i);
    await new Promise((r) => setImmediate(r));
  }
}

/** Registers the fenced write script on a connection (see `state-log.ts`). */
export function defineCommands(redis: Redis): void {
  redis.defineCommand("toolsimFenced", { numberOfKeys: FENCED_WRITE.numberOfKeys, lua: FENCED_WRITE.lua });
}

/** The default name of a worker: host and process id. */
export function defaultWorkerName(): string {
  return `${hostname()}:${process.pid}`;
}
