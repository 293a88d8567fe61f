import { Redis } from "ioredis";
import { hostname } from "node:os";
import { currentVersions } from "../runs/run-info.js";
import { Capacity } from "./episode-worker.js";
import { BULL_PREFIX, KEYS, type WorkerBeat } from "./protocol.js";
import { parseRedisUrl, redisOptions, type RedisTarget } from "./redis-url.js";
import { parseRunDescription } from "./run-description.js";
import { defaultWorkerName, defineCommands, RunContext, type WorkerEndpoint } from "./run-context.js";
import { WorkerToolsets } from "./worker-toolsets.js";

/** Options of {@link startQueueWorker}. */
export interface QueueWorkerOptions {
  /** `redis://HOST:PORT[/DB]`. */
  url: string;
  /** Episodes this worker runs at once, over all runs (default 4). */
  concurrency?: number;
  /** Toolset files or folders to serve runs from (default: the files a run names, and the bundled toolsets). */
  toolsets?: string[];
  /** This worker's name in counts and messages (default `<host>:<pid>`). */
  name?: string;
  /** This worker's endpoint and call settings for the runs' models. */
  endpoint?: WorkerEndpoint;
  /** How long a job stays locked without this worker renewing it before another worker retries it (ms, default 30000). */
  lockMs?: number;
  /** How often the worker looks for runs and reports itself (ms, default 1000). */
  pollMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Receives the worker's messages, one line each (default: stderr). */
  log?: (line: string) => void;
}

/** A running worker. */
export interface QueueWorker {
  readonly name: string;
  /** Episodes completed, over all runs. */
  done(): number;
  /** Stops: no new episode starts; unless `force`, the episodes running finish and are handed back first. */
  stop(force?: boolean): Promise<void>;
  /** Resolves once the worker has stopped. */
  readonly stopped: Promise<void>;
}

interface Served {
  epoch: number;
  description: string;
  context?: RunContext;
  refused?: string;
  opening?: Promise<void>;
}

/**
 * Starts a worker of distributed runs (`toolsim worker`): it finds the runs in progress on the Redis server,
 * serves each one whose toolsets it has (by content hash) with its own concurrency and model endpoint, refuses
 * the others with the reason (reported to their coordinators), and reports itself every second. Workers can join
 * and leave at any time; a worker that dies has its episodes retried elsewhere once their locks expire.
 */
export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  const target = parseRedisUrl(options.url);
  if (!target.ok) throw new RangeError(target.errors.join("; "));
  const redis: RedisTarget = target.value;
  const name = options.name ?? defaultWorkerName();
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const say = (line: string): void => log(`toolsim worker ${name}: ${line}`);
  const toolsets = new WorkerToolsets(options.toolsets);
  const problem = toolsets.check();
  if (problem !== undefined) throw new RangeError(problem);
  const capacity = new Capacity(Math.max(1, Math.floor(options.concurrency ?? 4)));
  const commands = new Redis(redisOptions(redis, `toolsim-worker:${name}`) as never);
  let connectionWarned = false;
  commands.on("error", (e: Error) => {
    if (connectionWarned) return;
    connectionWarned = true;
    say(`Redis at ${redis.display}: ${e.message} (retrying)`);
  });
  commands.on("ready", () => {
    if (connectionWarned) say(`connected to Redis at ${redis.display} again`);
    connectionWarned = false;
  });
  defineCommands(commands);
  const setup = {
    name,
    redis,
    commands,
    capacity,
    toolsets,
    endpoint: options.endpoint ?? {},
    lockMs: Math.max(1000, options.lockMs ?? 30_000),
    env: options.env ?? process.env,
    log: (line: string) => say(line),
  };
  const served = new Map<string, Served>();
  const version = currentVersions([]).toolsim;
  let beat = 0;
  let stopping = false;
  let finished = 0;

  const open = async (queue: string, entry: Served): Promise<void> => {
    const { epoch, description: text } = entry;
    const parsed = parseRunDescription(text);
    if (!parsed.ok) {
      entry.refused = parsed.errors.join("; ");
      say(`refusing run in queue ${queue}: ${entry.refused}`);
      return;
    }
    const d = parsed.value;
    const made = await RunContext.open(d, epoch, setup);
    if (!made.ok) {
      entry.refused = made.errors.join("; ");
      say(`refusing run ${d.runId} (queue ${queue}): ${entry.refused}`);
      return;
    }
    if (stopping || served.get(queue) !== entry) {
      await made.value.close(true);
      return;
    }
    entry.context = made.value;
    say(`serving run ${d.runId} (queue ${queue}${epoch > 1 ? `, epoch ${epoch}` : ""}): ${d.episodes} episodes over ${d.toolsets.length} toolsets, seed ${d.seed}; ${made.value.models}`);
  };

  const retire = async (queue: string, entry: Served, why: string | undefined): Promise<void> => {
    served.delete(queue);
    await entry.opening?.catch(() => undefined);
    if (entry.context) {
      finished += entry.context.done;
      if (why !== undefined) say(`run ${entry.context.description.runId}: ${why}`);
      await entry.context.close(true);
    }
  };

  const poll = async (): Promise<void> => {
    const queues = await commands.smembers(KEYS.runs);
    const seen = new Set<string>();
    for (const queue of queues) {
      const [text, epochText] = await commands.hmget(KEYS.run(queue), "description", "epoch");
      const epoch = Number(epochText);
      if (text === null || text === undefined || !Number.isSafeInteger(epoch)) continue;
      seen.add(queue);
      const entry = served.get(queue);
      if (entry && entry.epoch === epoch && entry.description === text && entry.context?.failure === undefined) continue;
      if (entry) await retire(queue, entry, entry.context?.failure !== undefined ? `rebuilding (${entry.context.failure})` : `the run was restarted (epoch ${epoch})`);
      const next: Served = { epoch, description: text };
      served.set(queue, next);
      // Opened in the background (loading toolsets takes a while): the worker keeps reporting itself meanwhile.
      next.opening = open(queue, next)
        .catch((e: unknown) => {
          next.refused = `cannot serve the run: ${e instanceof Error ? e.message : String(e)}`;
          say(next.refused);
        })
        // The coordinator learns at once whether this worker serves or refuses the run.
        .then(() => report().catch(() => undefined));
    }
    for (const [queue, entry] of [...served]) {
      if (seen.has(queue)) continue;
      await retire(queue, entry, "the run is over (or its coordinator removed it)");
      await forgetQueue(queue);
    }
  };

  /**
   * Removes what BullMQ left of a finished run's queue: a worker still polling it after the coordinator removed it
   * recreates its meta and events. Only while the run is absent (a run restarted in a new epoch keeps its queue).
   */
  const forgetQueue = async (queue: string): Promise<void> => {
    const keys = ["meta", "events", "stalled-check"].map((k) => `${BULL_PREFIX}:${queue}:${k}`);
    await commands.eval("if redis.call('EXISTS', KEYS[1]) == 0 then return redis.call('DEL', KEYS[2], KEYS[3], KEYS[4]) end return 0", 4, KEYS.run(queue), ...keys);
  };

  const report = async (): Promise<void> => {
    const counts = capacity.counts;
    const refused: Record<string, string> = {};
    const serving: string[] = [];
    for (const [queue, entry] of served) {
      if (entry.refused !== undefined) refused[queue] = entry.refused;
      else if (entry.context) serving.push(queue);
    }
    const me: WorkerBeat = {
      name,
      host: hostname(),
      pid: process.pid,
      concurrency: capacity.concurrency,
      running: counts.running,
      blocked: counts.waiting,
      serving,
      refused,
      beat: ++beat,
      toolsim: version,
    };
    await commands.hset(KEYS.workers, name, JSON.stringify(me));
  };

  let timer: NodeJS.Timeout | undefined;
  let beatTimer: NodeJS.Timeout | undefined;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => (resolveStopped = r));
  const pollMs = Math.max(100, options.pollMs ?? 1000);
  let polling: Promise<void> = Promise.resolve();
  const tick = (): void => {
    polling = poll()
      .catch((e: unknown) => {
        if (!stopping && !connectionWarned) say(`cannot read the runs: ${e instanceof Error ? e.message : String(e)}`);
      })
      .finally(() => {
        if (!stopping) timer = setTimeout(tick, pollMs);
      });
  };
  const beatTick = (): void => {
    void report()
      .catch(() => undefined)
      .finally(() => {
        if (!stopping) beatTimer = setTimeout(beatTick, pollMs);
      });
  };
  say(`waiting for runs on ${redis.display} (concurrency ${capacity.concurrency}${options.toolsets ? `, toolsets ${options.toolsets.join(" ")}` : ""})`);
  // The toolsets are loaded while the worker waits, so that it is ready when a run comes.
  await toolsets.preload();
  tick();
  beatTick();

  return {
    name,
    done: () => finished + [...served.values()].reduce((n, s) => n + (s.context?.done ?? 0), 0),
    stopped,
    stop: async (force = false) => {
      if (stopping) return stopped;
      stopping = true;
      clearTimeout(timer);
      clearTimeout(beatTimer);
      await polling;
      const running = capacity.counts.running;
      if (running > 0 && !force) say(`stopping after the ${running} episode${running === 1 ? "" : "s"} running here`);
      await Promise.all([...served.values()].map(async (s) => {
        await s.opening?.catch(() => undefined);
        await s.context?.close(force);
      }));
      const total = finished + [...served.values()].reduce((n, s) => n + (s.context?.done ?? 0), 0);
      served.clear();
      await commands.hdel(KEYS.workers, name).catch(() => undefined);
      commands.disconnect();
      say(`stopped after ${total} episode${total === 1 ? "" : "s"}`);
      resolveStopped();
      return stopped;
    },
  };
}
