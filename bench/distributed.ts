/**
 * Section `distributed` (issue 17): generation over a Redis job queue with `toolsim worker` processes.
 *
 * Part `scaling`: episodes per second with 1, 2 and 4 worker processes (each `--concurrency 8`,
 * `--llm-concurrency 64`) against a local OpenAI-protocol server that answers every request after a fixed 200 ms
 * (a child process, the one of `bench/llm-throughput.ts`); the assistant is the model, the other roles offline.
 * Each worker count has its own Redis database and its own workers, started once; the coordinator is this process
 * (`main(["generate", "--queue", ...])`, as a user runs it), keeping 2 x (workers x 8) episodes queued. The rate is
 * measured in the steady state from the journal's `episode.finished` times (as `llm.throughput` does), rounds
 * interleaved over the worker counts:
 *
 *   bench: distributed.scaling_w<n> <episodes/s with n workers / (n x episodes/s with 1)> ratio=<that / 0.9>
 *
 * The `#` line gives per round the share of the ideal (n x 8 episodes in flight, each its model calls x the
 * latency long) and `slots_busy`, the mean share of the workers' slots running an episode in the steady window: a
 * queue that keeps the workers fed is near 1, and what remains below the ideal is episodes made longer by the CPU
 * (on 2 cores, 4 workers, the coordinator, the server and Redis share them).
 *
 * Part `overhead`: what the queue costs an offline episode. The same offline run (1000 episodes, seed 7) in one
 * process at `--concurrency 4`, and over the queue with one worker at `--concurrency 4`, interleaved:
 *
 *   bench: distributed.overhead_ms <1000/eps(queue) - 1000/eps(one process)> ratio=<2 / that>
 *
 * (the steady-state time per episode the queue adds; goal under 2 ms). The `#` line adds the CPU the queue costs per
 * episode over all processes (coordinator, worker, redis-server) against the one process.
 *
 * Environment: BENCH_DIST_ROUNDS (default 3), BENCH_DIST_SECONDS (target length of a scaling run, default 6),
 * BENCH_DIST_OFFLINE_EPISODES (default 1000), BENCH_LLM_LATENCY_MS (default 200).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { main as toolsimMain } from "../simulator/cli/main.js";
import { startCli, type CliChild } from "../test/support/cli-children.js";
import { redisMissing, startRedis, type TestRedis } from "../test/support/redis-server.js";
import { ROOT } from "./paths.js";
import { formatValue, median, note, pairedRatio, printFigure, printRounds } from "./stats.js";

/** Parts of the section a filter can pick. */
export const DISTRIBUTED_PARTS = ["scaling", "overhead"] as const;

const ROUNDS = Math.max(1, Number(process.env["BENCH_DIST_ROUNDS"] ?? 3));
const TARGET_SECONDS = Number(process.env["BENCH_DIST_SECONDS"] ?? 6);
const OFFLINE_EPISODES = Number(process.env["BENCH_DIST_OFFLINE_EPISODES"] ?? 1000);
const LATENCY_MS = Number(process.env["BENCH_LLM_LATENCY_MS"] ?? 200);
const WORKER_COUNTS = [1, 2, 4] as const;
const PER_WORKER = 8;
const SCALING_GOAL = 0.9;
const OVERHEAD_GOAL_MS = 2;
const TOOLSETS = ["holidays", "weather", "currency", "geocoding", "stocks", "news", "recipes", "music"].map((n) => join(ROOT, "toolsets", "bundled", `${n}.yaml`));

/** The bench's OpenAI-protocol server (the child of `llm.throughput`): resolves with its base URL. */
function startServerChild(latencyMs: number): Promise<{ baseURL: string; child: ChildProcess }> {
  return new Promise((resolveStart, reject) => {
    const script = fileURLToPath(new URL("./llm-throughput.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", script, "--serve", String(latencyMs)], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("@@url "));
      if (line !== undefined) resolveStart({ baseURL: line.slice("@@url ".length).trim(), child });
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`the bench's OpenAI-protocol server exited with ${code}`)));
  });
}

/** CPU seconds a process has used so far (Linux /proc; 0 elsewhere). */
function cpuSecondsOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

interface Measured {
  /** Episodes per second in the steady state (from the journal), and over the whole run. */
  steadyEps: number;
  /** Model calls per episode (what bounds an episode's length at the server's latency). */
  callsPerEpisode: number;
  /**
   * The mean number of episodes running on the workers in the steady window, over the slots they have (workers x
   * concurrency): how well the queue keeps the workers fed, whatever the machine's CPU does to episode lengths.
   */
  slotsBusy: number;
  wholeEps: number;
  seconds: number;
  /** Episodes per worker (from the coordinator's last line). */
  perWorker: Record<string, number>;
}

/** Runs `toolsim generate` in this process and measures its journal. */
async function generate(args: string[], inFlight: number): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), "toolsim-bench-dist-"));
  const out = join(dir, "run");
  let stderr = "";
  const io = { isTTY: false, out: (_t: string) => undefined, err: (t: string) => void (stderr += t) };
  try {
    const t0 = performance.now();
    const code = await toolsimMain([...args, "--out", out], io);
    const seconds = (performance.now() - t0) / 1000;
    if (code !== 0) throw new Error(`toolsim generate exited with ${code}: ${stderr.trim().split("\n").slice(-5).join("\n")}`);
    const finished: number[] = [];
    const started: number[] = [];
    let firstStart = Infinity;
    let calls = 0;
    for (const line of readFileSync(join(out, "events.jsonl"), "utf8").trim().split("\n")) {
      const e = JSON.parse(line) as { type: string; at: string; outcome?: string; reason?: string };
      if (e.type === "llm.call") calls++;
      else if (e.type === "episode.finished") {
        if (e.outcome === "error") throw new Error(`an episode ended with an error: ${e.reason ?? "?"}`);
        finished.push(Date.parse(e.at));
      } else if (e.type === "episode.started") {
        started.push(Date.parse(e.at));
        firstStart = Math.min(firstStart, Date.parse(e.at));
      }
    }
    finished.sort((a, b) => a - b);
    const n = finished.length;
    const k1 = Math.min(inFlight, Math.floor(n / 4));
    const k2 = Math.max(k1 + 1, n - inFlight);
    const from = finished[k1 - 1] ?? firstStart;
    const to = finished[k2 - 1] ?? 0;
    const span = (to - from) / 1000;
    // Episode-milliseconds run inside the window (each episode's [start, finish] clipped to it).
    const ends = [...finished].sort((a, b) => a - b);
    const begins = [...started].sort((a, b) => a - b);
    let running = 0;
    for (let i = 0; i < begins.length; i++) running += Math.max(0, Math.min(ends[i] ?? to, to) - Math.max(begins[i] as number, from));
    const line = stderr.split("\n").reverse().find((l) => l.startsWith("toolsim: episodes per worker: ")) ?? "";
    const perWorker = Object.fromEntries(line.replace("toolsim: episodes per worker: ", "").split(", ").filter((x) => x !== "").map((x) => [x.split(" ")[0] ?? "", Number(x.split(" ")[1])]));
    return { steadyEps: (k2 - k1) / span, callsPerEpisode: calls / Math.max(1, n), slotsBusy: running / (span * 1000 * inFlight), wholeEps: n / (((finished[n - 1] ?? firstStart) - firstStart) / 1000), seconds, perWorker };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts `n` workers on a Redis database and waits until they are ready. */
async function startWorkers(redis: TestRedis, db: number, n: number, concurrency: number, extra: string[] = []): Promise<CliChild[]> {
  const url = `redis://127.0.0.1:${redis.port}/${db}`;
  const workers = Array.from({ length: n }, (_, i) => startCli(["worker", "--queue", url, "--concurrency", String(concurrency), "--name", `db${db}-w${i + 1}`, ...extra]));
  await Promise.all(workers.map((w) => w.waitFor("waiting for runs", 120_000)));
  return workers;
}

async function stopWorkers(workers: CliChild[]): Promise<void> {
  await Promise.all(workers.map(async (w) => {
    w.child.kill("SIGTERM");
    await w.exit;
  }));
}

async function runScaling(redis: TestRedis): Promise<void> {
  const { baseURL, child } = await startServerChild(LATENCY_MS);
  const pools = new Map<number, CliChild[]>();
  try {
    for (const n of WORKER_COUNTS) pools.set(n, await startWorkers(redis, n, n, PER_WORKER, ["--llm-concurrency", "64"]));
    const argsFor = (n: number, episodes: number, seed: number): string[] => [
      "generate",
      "--toolsets",
      ...TOOLSETS,
      "--episodes",
      String(episodes),
      "--seed",
      String(seed),
      "--assistant-model",
      "openai:bench-model",
      "--base-url",
      baseURL,
      "--queue",
      `redis://127.0.0.1:${redis.port}/${n}`,
      "--concurrency",
      String(2 * n * PER_WORKER),
    ];
    // A warm-up run per pool (a worker's first run of a process loads the toolsets), then a pilot that sizes the runs.
    for (const n of WORKER_COUNTS) await generate(argsFor(n, 2 * n * PER_WORKER, 1), n * PER_WORKER);
    const pilotEps = (await generate(argsFor(1, 6 * PER_WORKER, 2), PER_WORKER)).steadyEps;
    note(`distributed.scaling: server latency ${LATENCY_MS} ms (child process), assistant = openai (native tools), user/executor/tester offline; workers x ${PER_WORKER} episodes, --llm-concurrency 64; pilot ${formatValue(pilotEps)} episodes/s with 1 worker`);
    const results = new Map<number, Measured[]>(WORKER_COUNTS.map((n) => [n, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const n of WORKER_COUNTS) {
        const episodes = Math.max(4 * n * PER_WORKER, Math.round(n * pilotEps * TARGET_SECONDS));
        results.get(n)?.push(await generate(argsFor(n, episodes, 100 + round), n * PER_WORKER));
      }
    }
    const one = (results.get(1) ?? []).map((r) => r.steadyEps);
    for (const n of WORKER_COUNTS) {
      const runs = results.get(n) ?? [];
      const eps = runs.map((r) => r.steadyEps);
      const share = pairedRatio(eps, one.map((e) => n * e));
      printFigure(`distributed.scaling_w${n}`, share, share / SCALING_GOAL);
      printRounds(`distributed.scaling_w${n}`, {
        eps,
        // The share of what the server's latency allows: n x 8 episodes in flight, each (calls x latency) long.
        share_of_ideal: runs.map((r) => r.steadyEps / ((n * PER_WORKER) / (r.callsPerEpisode * (LATENCY_MS / 1000)))),
        // What is missing from the ideal is either slots left idle (the queue's doing) or longer episodes (CPU).
        slots_busy: runs.map((r) => r.slotsBusy),
        whole_run_eps: runs.map((r) => r.wholeEps),
        seconds: runs.map((r) => r.seconds),
      }, `(per worker in the last round: ${Object.entries(runs[runs.length - 1]?.perWorker ?? {}).map(([w, c]) => `${w} ${c}`).join(", ")})`);
    }
  } finally {
    for (const workers of pools.values()) await stopWorkers(workers);
    child.removeAllListeners("exit");
    child.kill("SIGTERM");
  }
}

async function runOverhead(redis: TestRedis): Promise<void> {
  const db = 5;
  const workers = await startWorkers(redis, db, 1, 4);
  try {
    const base = ["generate", "--episodes", String(OFFLINE_EPISODES), "--seed", "7"];
    const queueArgs = [...base, "--queue", `redis://127.0.0.1:${redis.port}/${db}`, "--concurrency", "64"];
    // Warm-up: the worker loads the toolsets at its first run; this process at its first run too.
    await generate([...queueArgs.slice(0, 2), "200", ...queueArgs.slice(3)], 4);
    await generate([...base.slice(0, 2), "200", ...base.slice(3), "--concurrency", "4"], 4);
    const local: number[] = [];
    const queued: number[] = [];
    const cpuLocal: number[] = [];
    const cpuQueued: number[] = [];
    const worker = workers[0]?.child.pid;
    for (let round = 0; round < ROUNDS; round++) {
      let c0 = process.cpuUsage();
      const l = await generate([...base, "--concurrency", "4"], 4);
      let c = process.cpuUsage(c0);
      local.push(l.steadyEps);
      cpuLocal.push(((c.user + c.system) / 1e6 / OFFLINE_EPISODES) * 1000);
      c0 = process.cpuUsage();
      const w0 = cpuSecondsOf(worker);
      const r0 = cpuSecondsOf(redis.pid);
      const q = await generate(queueArgs, 4);
      c = process.cpuUsage(c0);
      const total = (c.user + c.system) / 1e6 + (cpuSecondsOf(worker) - w0) + (cpuSecondsOf(redis.pid) - r0);
      queued.push(q.steadyEps);
      cpuQueued.push((total / OFFLINE_EPISODES) * 1000);
    }
    const perEpisode = (eps: number): number => 1000 / eps;
    const overheads = queued.map((q, i) => perEpisode(q) - perEpisode(local[i] as number));
    const overhead = median(overheads);
    printFigure("distributed.overhead_ms", overhead, overhead <= 0 ? Infinity : OVERHEAD_GOAL_MS / overhead);
    printRounds("distributed.overhead_ms", {
      overhead_ms: overheads,
      eps_one_process: local,
      eps_queue_1_worker: queued,
      cpu_ms_per_episode_one_process: cpuLocal,
      cpu_ms_per_episode_queue_all_processes: cpuQueued,
    }, `(${OFFLINE_EPISODES} offline episodes, --concurrency 4 in one process and in the worker; CPU over coordinator + worker + redis-server: ${formatValue(median(cpuQueued) - median(cpuLocal))} ms per episode more)`);
  } finally {
    await stopWorkers(workers);
  }
}

export async function runDistributed(parts: ReadonlySet<string>): Promise<void> {
  const missing = redisMissing();
  if (missing !== undefined) {
    note(`distributed: skipped: ${missing}`);
    return;
  }
  const redis = await startRedis();
  try {
    if (parts.has("scaling")) await runScaling(redis);
    if (parts.has("overhead")) await runOverhead(redis);
  } finally {
    await redis.stop();
  }
}
