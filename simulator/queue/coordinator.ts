import { Job, Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { safeParse, scanKeys } from "./redis-keys.js";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { Cassette, type CassetteEntry } from "../../agents/llm/cassette.js";
import type { Level } from "../../agents/roles/agent-context.js";
import type { EpisodeToolset } from "../../agents/roles/toolbox.js";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { episodeId } from "../core/run-episode.js";
import { currentVersions } from "../runs/run-info.js";
import type { SimEvent } from "../core/events.js";
import type { EpisodeRunner } from "../core/simulation.js";
import { CoordinatorStatus } from "./coordinator-status.js";
import { BULL_PREFIX, jobIdOf, KEYS, parseJobId, type EpisodeJob, type EpisodeResult, type RunDescription } from "./protocol.js";
import { readQueueFile, writeQueueFile } from "./queue-file.js";
import { parseRedisUrl, redisOptions, type RedisTarget } from "./redis-url.js";
import { describeRun } from "./run-description.js";
import { dropCassetteEntriesFrom, epochLoads, folderSummary, RunFolderOutput } from "./run-folder-output.js";
import { LOG_FIELD, type LogEntry } from "./state-log.js";

/** Options of {@link QueueCoordinator.connect}. */
export interface CoordinatorOptions {
  /** `redis://HOST:PORT[/DB]`. */
  url: string;
  toolsets: readonly EpisodeToolset[];
  seed: number;
  episodes: number;
  level: Level;
  maxSteps: number;
  /** The simulation's extra settings (as recorded in run.json: `llm`). */
  config: Record<string, unknown>;
  /** `generate --replay`: the cassette whose recordings the workers answer from. */
  replay?: string;
  /** Budgets over all workers' model calls; `onBudget` is called once when one is reached. */
  budget?: { maxCalls?: number; maxCost?: number };
  onBudget?: () => void;
  /** Receives the coordinator's messages (one or more lines, without the `toolsim: ` prefix). */
  say: (line: string) => void;
  /** How often the progress line is printed (ms, default 5000). */
  progressEveryMs?: number;
  /** How often the coordinator checks the queue, the workers and Redis (ms, default 1000). */
  sweepMs?: number;
}

interface Task {
  resolve: (events: readonly SimEvent[]) => void;
  reject: (error: unknown) => void;
  /** Tells the simulation the episode is over on the workers (it no longer takes a slot of its concurrency). */
  finished: () => void;
  /** When the job was last added or seen waiting (0: check it now). */
  at: number;
}

/** How many times a worker may fail an episode's job (its processor throwing) before the run gives up. */
const JOB_ATTEMPTS = 10;
/** A job not finished after this long is looked at (lost from Redis? finished while the coordinator did not listen?). */
const CHECK_AFTER_MS = 3000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * The coordinator of a distributed run (`generate --queue`): the run's {@link EpisodeRunner}. It enqueues
 * episodes as BullMQ jobs in index order (the simulation's scheduler dispatches them, its `--concurrency` being
 * how many are queued or running at once), writes their `enter` to the state log when episodes share run-wide
 * memory, hands the workers' results back in index order (the simulation writes them), appends their model calls
 * to the run's cassette, and keeps the run recoverable: a job lost from Redis is added again, a result missed is
 * fetched, a Redis that lost the run's data starts a new epoch rebuilt from the run folder, and a coordinator that
 * is restarted with `--resume` continues from the folder and the queue.
 */
export class QueueCoordinator implements EpisodeRunner {
  private queueName = "";
  private epoch = 0;
  private entered = -1;
  private dir = "";
  private runId = "";
  private end_ = 0;
  private description: RunDescription | undefined;
  private queue: Queue<EpisodeJob, EpisodeResult> | undefined;
  private events: QueueEvents | undefined;
  private readonly tasks = new Map<number, Task>();
  private readonly results = new Map<number, EpisodeResult>();
  private nextResolve = 0;
  private committedCount = 0;
  private cleanup: number[] = [];
  private toEnqueue: number[] = [];
  private flushing: Promise<void> | undefined;
  private resetting = false;
  private failed: ToolsimError | undefined;
  private replay: Map<string, CassetteEntry[]> | undefined;
  private output: RunFolderOutput | undefined;
  private status: CoordinatorStatus | undefined;
  private timers: NodeJS.Timeout[] = [];
  private sweeping = false;
  private budgetHit = false;
  private redisDown = false;
  private counts = { accepted: 0, errors: 0, live: 0, replayed: 0 };
  /** Episodes whose worker stopped answering (BullMQ's stall detection gave them to another worker). */
  retried = 0;

  private constructor(
    private readonly options: CoordinatorOptions,
    private readonly target: RedisTarget,
    private readonly commands: Redis,
  ) {}

  /** Connects to the queue's Redis (a clear error when it cannot be reached within a few seconds). */
  static async connect(options: CoordinatorOptions): Promise<QueueCoordinator> {
    const parsed = parseRedisUrl(options.url);
    if (!parsed.ok) throw new ToolsimError("queue.url", parsed.errors.join("; "));
    const target = parsed.value;
    const commands = new Redis({ ...redisOptions(target, `toolsim-coordinator:${hostname()}:${process.pid}`), lazyConnect: true } as never);
    let last: Error | undefined;
    commands.on("error", (e: Error) => void (last = e));
    try {
      await Promise.race([
        commands.connect().then(() => commands.ping()),
        sleep(5000).then(() => {
          throw new Error(last?.message ?? "no answer within 5 s");
        }),
      ]);
    } catch (e) {
      commands.disconnect();
      throw new ToolsimError("queue.unreachable", `cannot reach Redis at ${target.display}: ${last?.message ?? (e as Error).message} (is redis-server running there?)`);
    }
    return new QueueCoordinator(options, target, commands);
  }

  /** The run's queue name (once begun). */
  get name(): string {
    return this.queueName;
  }

  /** The queue's Redis URL without credentials (for messages). */
  get url(): string {
    return this.target.display;
  }

  /** Model calls made by the workers for the episodes written, and how many of them a tape or the replayed cassette answered. */
  stats(): { calls: number; replayed: number } {
    return { calls: this.counts.live + this.counts.replayed, replayed: this.counts.replayed };
  }

  /** Episodes written per worker in this session. */
  perWorker(): Record<string, number> {
    return this.status?.counts() ?? {};
  }

  private get shared(): boolean {
    return this.description !== undefined && (this.description.shared.instructions || this.description.shared.cache);
  }

  private say(line: string): void {
    this.options.say(line);
  }

  // ------------------------------------------------------------------------------------------------ begin

  async begin(run: { runId: string; dir?: string; start: number; end: number }): Promise<void> {
    if (run.dir === undefined) throw new RangeError("a distributed run needs a run folder");
    const o = this.options;
    this.dir = run.dir;
    this.runId = run.runId;
    this.end_ = run.end;
    this.nextResolve = run.start;
    this.committedCount = run.start;
    const recorded = readQueueFile(run.dir);
    this.queueName = recorded?.runId === run.runId ? recorded.queue : `${run.runId}-${randomBytes(3).toString("hex")}`;
    writeQueueFile(run.dir, { queue: this.queueName, redis: this.target.display, runId: run.runId });
    this.description = describeRun({
      queue: this.queueName,
      runId: run.runId,
      toolsim: currentVersions([]).toolsim,
      seed: o.seed,
      episodes: o.episodes,
      level: o.level,
      maxSteps: o.maxSteps,
      config: o.config,
      toolsets: o.toolsets,
      replay: o.replay !== undefined,
    });
    const summary = folderSummary(run.dir);
    this.counts.accepted = summary.accepted;
    this.counts.errors = summary.errors;
    if (o.replay !== undefined) {
      const cassette = await Cassette.load(o.replay);
      this.replay = new Map();
      for (const e of cassette.entries) {
        if (e.episodeId === undefined) continue;
        let list = this.replay.get(e.episodeId);
        if (!list) this.replay.set(e.episodeId, (list = []));
        list.push(e);
      }
    } else await dropCassetteEntriesFrom(run.dir, run.start);
    this.output = new RunFolderOutput(run.dir, o.replay === undefined);

    const connection = redisOptions(this.target, `toolsim-coordinator:${hostname()}:${process.pid}`);
    this.queue = new Queue<EpisodeJob, EpisodeResult>(this.queueName, { connection: connection as never, prefix: BULL_PREFIX, streams: { events: { maxLen: 1000 } }, skipVersionCheck: true });
    this.queue.on("error", (e: Error) => this.redisTrouble(e));
    this.events = new QueueEvents(this.queueName, { connection: connection as never, prefix: BULL_PREFIX, skipVersionCheck: true });
    this.events.on("error", (e: Error) => this.redisTrouble(e));
    this.events.on("completed", ({ jobId, returnvalue }) => this.completed(jobId, returnvalue as unknown));
    this.events.on("stalled", ({ jobId }) => {
      const id = parseJobId(jobId);
      if (id && id.epoch === this.epoch) {
        this.retried++;
        this.say(`episode ${episodeId(id.index)}: its worker stopped answering; it runs again on another worker`);
      }
    });
    this.commands.on("ready", () => {
      if (this.redisDown) this.say(`connected to Redis at ${this.target.display} again`);
      this.redisDown = false;
    });
    this.commands.on("error", (e: Error) => this.redisTrouble(e));
    await this.events.waitUntilReady();

    const continued = await this.continues(run.start);
    if (continued) {
      this.say(`resuming on queue ${this.queueName} (epoch ${this.epoch}): episodes already queued or done on the workers are taken as they are`);
    } else {
      await this.startEpoch(run.start, [], "");
    }
    await this.commands.sadd(KEYS.runs, this.queueName);
    this.status = new CoordinatorStatus(this.queueName, this.target.display, (l) => this.say(l), o.progressEveryMs ?? 5000);
    this.say(`run ${run.runId} on queue ${this.queueName} at ${this.target.display}: workers join with\n  npx toolsim worker --queue ${this.target.display}`);
    const sweepMs = o.sweepMs ?? 1000;
    this.timers.push(setInterval(() => void this.sweep(), sweepMs));
    this.timers.push(setInterval(() => void this.flushCleanup(), 200));
    if (o.budget && (o.budget.maxCalls !== undefined || o.budget.maxCost !== undefined)) this.timers.push(setInterval(() => void this.checkBudget(), 250));
    void this.sweep();
  }

  /** Whether the run can go on in the epoch Redis holds: the same run, and the folder at or past what Redis knows was written. */
  private async continues(start: number): Promise<boolean> {
    const h = await this.commands.hgetall(KEYS.run(this.queueName));
    const epoch = Number(h["epoch"]);
    const committed = Number(h["committed"]);
    if (!Number.isSafeInteger(epoch) || !Number.isSafeInteger(committed) || h["description"] === undefined) return false;
    let stored: RunDescription;
    try {
      stored = JSON.parse(h["description"]) as RunDescription;
    } catch {
      return false;
    }
    if (stored.runId !== this.runId || committed > start || this.options.replay !== undefined) return false;
    // Episodes written to the folder after Redis last heard of it must still be there as finished jobs.
    for (let i = committed; i < start; i++) {
      const job = await Job.fromId(this.queue as Queue, jobIdOf(epoch, i));
      if (!job?.finishedOn || job.failedReason) return false;
    }
    this.epoch = epoch;
    this.entered = Number.isSafeInteger(Number(h["entered"])) ? Number(h["entered"]) : start - 1;
    this.description = { ...(this.description as RunDescription), queue: this.queueName };
    // The written episodes whose jobs may still be there: from where the last cleanup finished.
    const cleaned = Number(h["cleaned"]);
    for (let i = Number.isSafeInteger(cleaned) ? Math.min(cleaned, committed) : committed; i < start; i++) this.cleanup.push(i);
    return true;
  }

  /**
   * Starts a new epoch: the queue emptied, the state log rebuilt from the run folder (and `kept`, finished episodes
   * just after it whose results are kept), the spend from the folder's summary. Workers drop what they had of the
   * run and rebuild it from the new log; results of earlier epochs are ignored.
   */
  private async startEpoch(next: number, kept: EpisodeResult[], why: string): Promise<void> {
    const queue = this.queue as Queue;
    const runKey = KEYS.run(this.queueName);
    const before = Number(await this.commands.hget(runKey, "epoch"));
    this.epoch = Math.max(Number.isSafeInteger(before) ? before : 0, this.epoch) + 1;
    await this.commands.hset(runKey, "epoch", String(this.epoch));
    await queue.obliterate({ force: true }).catch(() => undefined);
    const stale = await scanKeys(this.commands, `${runKey}:log:*`);
    if (stale.length > 0) await this.commands.del(...stale);
    const tapes = await scanKeys(this.commands, `${runKey}:tape:*`);
    const done = tapes.filter((k) => Number(/(\d+)$/.exec(k)?.[1] ?? -1) < next);
    if (done.length > 0) await this.commands.del(...done);
    const description = { ...(this.description as RunDescription), queue: this.queueName };
    this.description = description;
    const summary = folderSummary(this.dir);
    const spent = kept.reduce((a, r) => ({ calls: a.calls + (r.calls?.live ?? 0), cost: a.cost }), { calls: summary.calls, cost: summary.cost });
    const last = next + kept.length - 1;
    await this.commands
      .multi()
      .hset(runKey, { description: JSON.stringify(description), epoch: String(this.epoch), committed: String(next), cleaned: String(next), entered: String(last) })
      .del(KEYS.spend(this.queueName))
      .hset(KEYS.spend(this.queueName), { calls: String(spent.calls), cost: String(spent.cost) })
      .exec();
    this.entered = last;
    if (this.shared) {
      const loads = await epochLoads(this.dir, next, kept);
      if (loads.length > 0) {
        const p = this.commands.pipeline();
        for (const entry of loads) p.xadd(KEYS.log(this.queueName, this.epoch), "*", LOG_FIELD, JSON.stringify(entry));
        await p.exec();
      }
    }
    if (why !== "") this.say(`${why}: started epoch ${this.epoch} of the run from the run folder (${next + kept.length} episodes kept); the rest is queued again`);
  }

  // ------------------------------------------------------------------------------------------------ episodes

  run(index: number, finished: () => void = () => undefined): Promise<readonly SimEvent[]> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.tasks.set(index, { resolve, reject, finished, at: Date.now() });
      if (this.results.has(index)) {
        finished();
        this.drain();
      }
      else if (index <= this.entered) {
        // Queued before (a resumed coordinator): look at its job now.
        const task = this.tasks.get(index);
        if (task) task.at = 0;
        void this.sweep();
      } else {
        this.toEnqueue.push(index);
        this.flush();
      }
    });
  }

  committed(index: number): void {
    this.committedCount = index + 1;
    this.cleanup.push(index);
  }

  /** Enqueues the episodes waiting for it, in index order (their `enter` first, when episodes share memory). */
  private flush(): void {
    if (this.flushing) return;
    this.flushing = (async () => {
      await new Promise((r) => setImmediate(r));
      while (this.toEnqueue.length > 0 && !this.resetting && !this.failed) {
        const batch = [...new Set(this.toEnqueue.splice(0))].sort((a, b) => a - b).filter((i) => this.tasks.has(i) && !this.results.has(i));
        if (batch.length === 0) continue;
        try {
          await this.enqueue(batch);
        } catch (e) {
          this.toEnqueue.unshift(...batch);
          this.redisTrouble(e as Error);
          await sleep(500);
        }
      }
    })().finally(() => {
      this.flushing = undefined;
      if (this.toEnqueue.length > 0 && !this.resetting) this.flush();
    });
  }

  private async enqueue(batch: number[]): Promise<void> {
    const epoch = this.epoch;
    const fresh = batch.filter((i) => i > this.entered);
    if (this.shared && fresh.length > 0) {
      const m = this.commands.multi();
      for (const i of fresh) m.xadd(KEYS.log(this.queueName, epoch), "*", "e", JSON.stringify({ k: "enter", i } satisfies LogEntry));
      m.hset(KEYS.run(this.queueName), "entered", String(fresh[fresh.length - 1]));
      const replies = await m.exec();
      const error = replies?.find(([err]) => err)?.[0];
      if (error) throw error;
    }
    if (fresh.length > 0) this.entered = Math.max(this.entered, fresh[fresh.length - 1] as number);
    if (this.replay) {
      const p = this.commands.pipeline();
      for (const i of batch) {
        const entries = this.replay.get(episodeId(i)) ?? [];
        p.del(KEYS.tape(this.queueName, i));
        if (entries.length > 0) p.rpush(KEYS.tape(this.queueName, i), ...entries.map((e) => JSON.stringify(e)));
      }
      await p.exec();
    }
    if (epoch !== this.epoch) return;
    await (this.queue as Queue<EpisodeJob, EpisodeResult>).addBulk(
      batch.map((index) => ({
        name: "episode",
        data: { epoch, index },
        opts: { jobId: jobIdOf(epoch, index), attempts: JOB_ATTEMPTS, backoff: { type: "fixed", delay: 1000 } },
      })),
    );
    const now = Date.now();
    for (const i of batch) {
      const t = this.tasks.get(i);
      if (t) t.at = now;
    }
  }

  /** A job's completion (from the queue's events, or found by the sweep). */
  private completed(jobId: string, value: unknown): void {
    const id = parseJobId(jobId);
    // During a reset a result may belong to either epoch: it is dropped (its episode is queued again if need be).
    if (!id || this.resetting || id.epoch !== this.epoch || id.index < this.nextResolve || this.results.has(id.index)) return;
    const r = (typeof value === "string" ? safeParse(value) : value) as EpisodeResult | undefined;
    const events = r?.events;
    const first = events?.[0];
    const last = events?.[events.length - 1];
    const badLines = r?.cassette !== undefined && !(Array.isArray(r.cassette) && r.cassette.every((l) => typeof l === "string" && !l.includes("\n")));
    if (!r || r.epoch !== this.epoch || r.index !== id.index || first?.type !== "episode.started" || first.index !== id.index || last?.type !== "episode.finished" || badLines) {
      this.say(`episode ${episodeId(id.index)}: a worker returned a malformed result; running it again`);
      void (this.queue as Queue).remove(jobId).then(() => {
        this.toEnqueue.push(id.index);
        this.flush();
      });
      return;
    }
    this.results.set(id.index, r);
    // Its slot goes to the next episode at once, even while an earlier episode still runs (the hand-back waits).
    this.tasks.get(id.index)?.finished();
    this.drain();
  }

  /** Hands the results back in index order: their model calls go to the cassette first, then the simulation writes them. */
  private drain(): void {
    while (!this.resetting) {
      const i = this.nextResolve;
      const r = this.results.get(i);
      const t = this.tasks.get(i);
      if (!r || !t) return;
      this.record(r);
      this.results.delete(i);
      this.tasks.delete(i);
      this.nextResolve++;
      t.resolve(r.events);
    }
  }

  private record(r: EpisodeResult): void {
    this.output?.record(r);
    this.counts.live += r.calls?.live ?? 0;
    this.counts.replayed += r.calls?.replayed ?? 0;
    const finished = r.events[r.events.length - 1];
    if (finished?.type === "episode.finished") {
      if (finished.outcome === "accepted") this.counts.accepted++;
      else if (finished.outcome === "error") this.counts.errors++;
    }
    this.status?.episode(r.worker);
  }

  // ------------------------------------------------------------------------------------------------ the sweep

  /** Looks after the run: Redis still holds it, lost jobs, missed results, failed jobs, workers, progress. */
  private async sweep(): Promise<void> {
    if (this.sweeping || this.resetting || !this.queue) return;
    this.sweeping = true;
    try {
      const runKey = KEYS.run(this.queueName);
      const epoch = await this.commands.hget(runKey, "epoch");
      if (epoch === null) {
        await this.reset("the run's data is gone from Redis (was it restarted without persistence?)");
        return;
      }
      await this.commands.hset(runKey, "coordinator", JSON.stringify({ host: hostname(), pid: process.pid, at: Date.now() }));
      this.status?.beats(await this.commands.hgetall(KEYS.workers));
      const now = Date.now();
      const due = [...this.tasks].filter(([i, t]) => !this.results.has(i) && now - t.at >= CHECK_AFTER_MS && !this.toEnqueue.includes(i)).slice(0, 256);
      for (const [i, t] of due) {
        if (this.epoch !== Number(epoch)) break;
        const job = await Job.fromId(this.queue as Queue, jobIdOf(this.epoch, i));
        if (!job) {
          if (i <= this.entered || !this.shared) {
            this.toEnqueue.push(i);
            this.flush();
          }
          continue;
        }
        if (job.finishedOn !== undefined && !job.failedReason) this.completed(job.id ?? "", job.returnvalue);
        else if (job.finishedOn !== undefined && job.failedReason && job.attemptsMade >= (job.opts.attempts ?? 1)) {
          this.fail(new ToolsimError("queue.failed", `episode ${episodeId(i)} failed on the workers ${job.attemptsMade} times, the last: ${job.failedReason}`));
          return;
        } else t.at = now;
      }
      this.status?.progress(this.committedCount, this.end_, this.counts.accepted, this.counts.errors, this.tasks.size);
    } catch (e) {
      this.redisTrouble(e as Error);
    } finally {
      this.sweeping = false;
    }
  }

  /** Redis lost the run's data: a new epoch from the run folder and the results that follow it without a gap. */
  private async reset(why: string): Promise<void> {
    this.resetting = true;
    try {
      // Results already handed back are written synchronously by the simulation: wait until they are.
      while (this.committedCount < this.nextResolve) await new Promise((r) => setImmediate(r));
      const next = this.nextResolve;
      const kept: EpisodeResult[] = [];
      for (let i = next; this.results.has(i); i++) kept.push(this.results.get(i) as EpisodeResult);
      // With shared memory only an unbroken run of results is consistent with the new log; without, every result is.
      if (this.shared) this.results.clear();
      await this.startEpoch(next, this.shared ? kept : [], why);
      for (const r of kept) this.results.set(r.index, { ...r, epoch: this.epoch });
      if (!this.shared) for (const [i, r] of this.results) this.results.set(i, { ...r, epoch: this.epoch });
      await this.commands.sadd(KEYS.runs, this.queueName);
      this.toEnqueue = [...this.tasks.keys()].filter((i) => !this.results.has(i)).sort((a, b) => a - b);
      // Every episode not kept is entered again in the new log, in index order.
      this.entered = next + (this.shared ? kept.length : 0) - 1;
    } finally {
      this.resetting = false;
    }
    this.drain();
    this.flush();
  }

  private fail(error: ToolsimError): void {
    if (this.failed) return;
    this.failed = error;
    const tasks = [...this.tasks.values()];
    this.tasks.clear();
    for (const t of tasks) t.reject(error);
  }

  private async checkBudget(): Promise<void> {
    const b = this.options.budget;
    if (!b || this.budgetHit) return;
    try {
      const [calls, cost] = await this.commands.hmget(KEYS.spend(this.queueName), "calls", "cost");
      const c = Number(calls ?? 0);
      const usd = Number(cost ?? 0);
      if ((b.maxCalls !== undefined && c >= b.maxCalls) || (b.maxCost !== undefined && usd >= b.maxCost)) {
        this.budgetHit = true;
        this.say(`budget reached over the workers (${c} model calls, $${usd.toFixed(4)}): no new episode is queued; those queued or running finish`);
        this.options.onBudget?.();
      }
    } catch {
      // Redis trouble is reported by the sweep
    }
  }

  /**
   * Tells Redis how far the folder is (`committed`), then removes the jobs and tapes of the written episodes and
   * says so (`cleaned`). In that order: a coordinator killed in between leaves jobs that a resume removes, never a
   * folder ahead of Redis with its jobs gone (which would make the resume start a new epoch).
   */
  private async flushCleanup(): Promise<void> {
    if (this.cleanup.length === 0 || !this.queue || this.resetting) return;
    const done = this.cleanup.splice(0);
    const runKey = KEYS.run(this.queueName);
    try {
      const epoch = this.epoch;
      const committed = String(this.committedCount);
      await this.commands.hset(runKey, "committed", committed);
      await Promise.all(done.map((i) => (this.queue as Queue).remove(jobIdOf(epoch, i)).catch(() => 0)));
      const p = this.commands.pipeline();
      for (const i of done) p.del(KEYS.tape(this.queueName, i));
      p.hset(runKey, "cleaned", committed);
      await p.exec();
    } catch {
      this.cleanup.unshift(...done);
    }
  }

  private redisTrouble(e: Error): void {
    if (this.redisDown) return;
    this.redisDown = true;
    this.say(`Redis at ${this.target.display}: ${e.message} (retrying; the workers keep their episodes)`);
  }

  // ------------------------------------------------------------------------------------------------ end

  async end(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    while (this.sweeping) await sleep(20);
    await this.flushing;
    if (this.queue) {
      // The workers' last word (a refusal said just before the run ended is still reported).
      this.status?.beats(await this.commands.hgetall(KEYS.workers).catch(() => ({})));
      this.status?.progress(this.committedCount, this.end_, this.counts.accepted, this.counts.errors, 0, true);
      const per = this.status?.counts() ?? {};
      if (Object.keys(per).length > 0) this.say(`episodes per worker: ${Object.entries(per).map(([w, n]) => `${w} ${n}`).join(", ")}`);
      // Nothing is left in flight (the simulation waited for every episode it queued): the run's data goes.
      await this.forget().catch((e: unknown) => this.say(`could not remove the run's data from Redis: ${(e as Error).message}`));
    }
    await this.close();
  }

  /** Closes the connections and files (the run's data in Redis stays: for a run that never began, or a crash). */
  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.events?.close().catch(() => undefined);
    await this.queue?.close().catch(() => undefined);
    this.events = undefined;
    this.queue = undefined;
    this.commands.disconnect();
    this.output?.close();
  }

  /** Removes every trace of the run from Redis (its queue, log, tapes and spend) and from the list workers read. */
  private async forget(): Promise<void> {
    const runKey = KEYS.run(this.queueName);
    await this.commands.srem(KEYS.runs, this.queueName);
    await (this.queue as Queue).obliterate({ force: true });
    const keys = await scanKeys(this.commands, `${runKey}:*`);
    if (keys.length > 0) await this.commands.del(...keys);
    await this.commands.del(runKey);
  }
}
