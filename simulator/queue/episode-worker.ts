import { Worker, type Job, type Processor, type WorkerOptions } from "bullmq";
import type { EpisodeJob, EpisodeResult } from "./protocol.js";

/**
 * How many episodes a worker process may run: its `--concurrency`, not counting the episodes that only wait for
 * an earlier episode's decision (see `replica-waits.ts`), shared by the runs it serves.
 */
export class Capacity {
  private running = 0;
  private waiting = 0;
  private wakers: Array<() => void> = [];

  constructor(readonly concurrency: number) {}

  /** Episodes running now (waiting ones included), and waiting for earlier ones. */
  get counts(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting };
  }

  /** Whether one more episode may start. */
  free(): boolean {
    return this.running - this.waiting < this.concurrency;
  }

  /** Whether another episode may start once one of those running ends (a worker fetches the next job when it completes one). */
  freeAfterOne(): boolean {
    return this.running - 1 - this.waiting < this.concurrency;
  }

  /** Resolves when the counts change. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.wakers.push(resolve));
  }

  take(): void {
    this.running++;
    this.wake();
  }

  give(): void {
    this.running--;
    this.wake();
  }

  /** One more (+1) or one fewer (-1) episode waiting for earlier ones. */
  wait(delta: 1 | -1): void {
    this.waiting += delta;
    this.wake();
  }

  private wake(): void {
    const ws = this.wakers;
    this.wakers = [];
    for (const w of ws) w();
  }
}

/**
 * A BullMQ worker that fetches a run's episode jobs itself (BullMQ's manual fetching), so that a job is taken
 * only while the worker has {@link Capacity} for it: an episode waiting for an earlier one's decision leaves its
 * slot to others, and a worker whose slots all hold waiting episodes still takes the earlier episode they wait
 * for (after a crash, BullMQ puts it back at the head of the queue). Locks are renewed and stalled jobs detected
 * by BullMQ as for any worker.
 */
export class EpisodeWorker extends Worker<EpisodeJob, EpisodeResult> {
  private loop: Promise<void> | undefined;
  private stopping = false;
  private readonly stopSignal: Promise<void>;
  private signalStop: () => void = () => undefined;
  private readonly chains = new Set<Promise<void>>();

  constructor(
    queue: string,
    processor: Processor<EpisodeJob, EpisodeResult>,
    options: WorkerOptions,
    private readonly capacity: Capacity,
  ) {
    super(queue, processor, { ...options, autorun: false });
    this.stopSignal = new Promise((resolve) => (this.signalStop = resolve));
  }

  /** Starts fetching jobs. */
  start(): void {
    this.loop ??= this.fetchLoop();
  }

  /** Episodes of this queue running here now. */
  get active(): number {
    return this.chains.size;
  }

  /** Stops taking jobs and, unless `force`, waits for the episodes running here to finish and complete. */
  async stop(force = false): Promise<void> {
    this.stopping = true;
    this.signalStop();
    if (!force) await Promise.allSettled([...this.chains]);
    await this.close(force);
    await this.loop?.catch(() => undefined);
  }

  private async fetchLoop(): Promise<void> {
    await this.startStalledCheckTimer();
    this.lockManager.start();
    let n = 0;
    while (!this.stopping) {
      if (!this.capacity.free()) {
        await Promise.race([this.capacity.changed(), this.stopSignal]);
        continue;
      }
      const token = `${this.id}:${n++}`;
      let job: Job<EpisodeJob, EpisodeResult> | undefined;
      try {
        job = await this.getNextJob(token, { block: true });
      } catch (e) {
        if (this.stopping) break;
        this.emit("error", e instanceof Error ? e : new Error(String(e)));
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      if (!job) continue;
      if (this.stopping) {
        // Taken while stopping: let BullMQ hand it to another worker at once rather than after the lock expires.
        await job.moveToWait(token).catch(() => undefined);
        break;
      }
      this.chain(job, token);
    }
  }

  /** Runs a job, then the next one BullMQ hands back on completion while there is capacity for it. */
  private chain(first: Job<EpisodeJob, EpisodeResult>, token: string): void {
    this.capacity.take();
    const run = (async () => {
      let next: Job<EpisodeJob, EpisodeResult> | void = first;
      while (next) next = await this.processJob(next, token, () => !this.stopping && this.capacity.freeAfterOne());
    })()
      .catch((e: unknown) => void this.emit("error", e instanceof Error ? e : new Error(String(e))))
      .finally(() => {
        this.chains.delete(run);
        this.capacity.give();
      });
    this.chains.add(run);
  }

}
