import { formatSeconds } from "../core/progress.js";
import type { WorkerBeat } from "./protocol.js";

/** A worker as the coordinator sees it. */
interface Seen {
  beat: WorkerBeat;
  /** When its beat last changed (the coordinator's clock). */
  changedAt: number;
}

/** A worker is gone when its beat has not changed for this long. */
const GONE_AFTER_MS = 10_000;

/**
 * What the coordinator tells about a distributed run on stderr: progress, throughput and per-worker counts every
 * few seconds, the workers that join, leave or refuse the run (with their reason), and a hint when no worker
 * serves it.
 */
export class CoordinatorStatus {
  private readonly workers = new Map<string, Seen>();
  private readonly perWorker = new Map<string, number>();
  private readonly refusalsSaid = new Set<string>();
  private readonly started = Date.now();
  private startDone: number | undefined;
  private lastLine = 0;
  private lastDone = -1;
  private noWorkersSince: number | undefined;
  private lastHint = 0;

  constructor(
    private readonly queue: string,
    private readonly url: string,
    private readonly say: (line: string) => void,
    private readonly lineEveryMs = 5000,
  ) {}

  /** Counts an episode written for a worker. */
  episode(worker: string): void {
    this.perWorker.set(worker, (this.perWorker.get(worker) ?? 0) + 1);
  }

  /** Episodes written per worker in this session. */
  counts(): Record<string, number> {
    return Object.fromEntries(this.perWorker);
  }

  /** Takes the workers' heartbeats: reports joins, departures and refusals. */
  beats(all: Record<string, string>, now = Date.now()): void {
    for (const [name, text] of Object.entries(all)) {
      let beat: WorkerBeat;
      try {
        beat = JSON.parse(text) as WorkerBeat;
      } catch {
        continue;
      }
      const seen = this.workers.get(name);
      if (!seen || seen.beat.beat !== beat.beat) this.workers.set(name, { beat, changedAt: now });
      const reason = beat.refused?.[this.queue];
      const key = `${name}\u0000${reason ?? ""}`;
      if (reason !== undefined && !this.refusalsSaid.has(key) && now - (seen?.changedAt ?? now) < GONE_AFTER_MS) {
        this.refusalsSaid.add(key);
        this.say(`worker ${name} refuses this run: ${reason}`);
      }
      if (!seen && beat.serving?.includes(this.queue)) this.say(`worker ${name} joined (concurrency ${beat.concurrency})`);
    }
    for (const [name, seen] of [...this.workers]) {
      if (all[name] === undefined || now - seen.changedAt > GONE_AFTER_MS) {
        if (seen.beat.serving?.includes(this.queue)) this.say(`worker ${name} left (or stopped answering); its episodes are retried by others once their locks expire`);
        this.workers.delete(name);
      }
    }
  }

  /** The workers serving this run now. */
  serving(): WorkerBeat[] {
    return [...this.workers.values()].map((s) => s.beat).filter((b) => b.serving?.includes(this.queue));
  }

  /** Prints the progress line when it is time (or `force`), and a hint when no worker serves the run. */
  progress(done: number, total: number, accepted: number, errors: number, queued: number, force = false, now = Date.now()): void {
    this.startDone ??= done;
    const serving = this.serving();
    if (serving.length === 0 && done < total) {
      this.noWorkersSince ??= now;
      if (now - this.noWorkersSince > 3000 && now - this.lastHint > 30_000) {
        this.lastHint = now;
        this.say(`no worker serves this run yet: start workers with\n  npx toolsim worker --queue ${this.url}`);
      }
    } else this.noWorkersSince = undefined;
    if (!force && (now - this.lastLine < this.lineEveryMs || done === this.lastDone)) return;
    this.lastLine = now;
    this.lastDone = done;
    const elapsed = Math.max(0.001, (now - this.started) / 1000);
    const rate = (done - this.startDone) / elapsed;
    const eta = rate > 0 ? formatSeconds((total - done) / rate) : "?";
    const pct = done > 0 ? Math.round((accepted / done) * 100) : 0;
    const slots = serving.reduce((n, b) => n + b.concurrency, 0);
    const per = [...this.perWorker].map(([w, n]) => `${w} ${n}`).join(", ");
    this.say(
      `episodes ${done}/${total}  accepted ${pct}%  errors ${errors}  ${rate.toFixed(1)} ep/s  ETA ${eta}  |  ` +
        `${serving.length} worker${serving.length === 1 ? "" : "s"} (${slots} slots), ${queued} queued or running` +
        (per !== "" ? `  |  ${per}` : ""),
    );
  }
}
