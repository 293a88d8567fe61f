/**
 * Section `llm`, part `throughput` (issue 4, item 7b): achieved vs ideal episodes per second of
 * `toolsim generate --model openai:...` against a local OpenAI-protocol server that answers every request
 * after a fixed latency (200 ms), at `--concurrency` 1, 8 and 32 (episodes in flight), with
 * `--llm-concurrency 64` so that the per-endpoint cap of model calls in flight never binds.
 *
 * The assistant is the only LLM role (native function calling; user, executor and tester stay offline), so
 * the model calls of an episode are strictly one after another and an episode cannot be faster than
 * (its model calls) x (latency). The ideal rate is therefore
 *
 *   ideal = concurrency / (model calls per episode x latency)
 *
 * with the model calls per episode MEASURED in the same run (the `llm.call` events of the episodes counted).
 * The achieved rate is measured in the run's steady state, from the journal's `episode.finished` times:
 * completions from the `concurrency`-th to the `(N - concurrency)`-th over the time between them (the
 * ramp-up, when no episode has finished yet, and the drain, when fewer than `concurrency` are left, say
 * nothing about throughput); the whole-run rate is printed on the `#` line too.
 *
 * The run goes through the real CLI (`main(["generate", ...])`: commander, the run store writing
 * events.jsonl/corpus/cassette, the gateway with its limiter, cassette recording and accounting, ChatOpenAI
 * and the OpenAI SDK's HTTP client). The server runs in a child process (this file with `--serve`), so its
 * own work does not share the event loop being measured.
 *
 *   bench: llm.achieved_vs_ideal_c<k> <achieved/ideal> ratio=<(achieved/ideal)/0.9>
 *
 * The `#` line gives each round's share, both rates, the calls per episode, and what tells a slow round's
 * cause apart: this process's CPU per episode (including the run's start: loading the toolsets), the event
 * loop's utilisation and its delay's 99th percentile. A round with the usual CPU per episode but a long loop
 * delay lost time to other processes on the machine, not to toolsim.
 *
 * Goal: at least 90% of ideal at concurrency 32. Environment: BENCH_LLM_LATENCY_MS (default 200),
 * BENCH_LLM_ROUNDS (default 5, interleaved over the concurrencies), BENCH_LLM_SECONDS (target length of one
 * run, default 6).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { main as toolsimMain } from "../simulator/cli/main.js";
import { startOpenAIServer, type ReceivedRequest, type ScriptedReply } from "../test/support/openai-server.js";
import { ROOT } from "./paths.js";
import { formatRatio, formatValue, median, note, printFigure, printRounds } from "./stats.js";

/** Parts of the section a filter can pick: `llm.throughput`. */
export const LLM_THROUGHPUT_PARTS = ["throughput"] as const;

const LATENCY_MS = Number(process.env["BENCH_LLM_LATENCY_MS"] ?? 200);
const ROUNDS = Math.max(1, Number(process.env["BENCH_LLM_ROUNDS"] ?? 5));
const TARGET_SECONDS = Number(process.env["BENCH_LLM_SECONDS"] ?? 6);
const CONCURRENCIES = [1, 8, 32] as const;
/** The goal: at least this share of the ideal rate at concurrency 32. */
const GOAL = 0.9;
const TOOLSETS = ["holidays", "weather", "currency", "geocoding", "stocks", "news", "recipes", "music"].map((n) => join(ROOT, "toolsets", "bundled", `${n}.yaml`));

// ------------------------------------------------------------------------------------------ the server

function systemText(req: ReceivedRequest): string {
  const messages = (req.body["messages"] ?? []) as { role: string; content: unknown }[];
  const first = messages[0];
  return first && typeof first.content === "string" ? first.content : "";
}

/**
 * A plausible model for every role (told apart by their prompts): the assistant calls the first tool it
 * is offered, then answers in text once a tool result came back.
 */
export function benchScript(req: ReceivedRequest): ScriptedReply {
  const sys = systemText(req);
  const messages = (req.body["messages"] ?? []) as { role: string; content: unknown }[];
  const last = messages[messages.length - 1];
  if (sys.startsWith("You simulate one operation")) return { kind: "text", content: '{"status": 200, "body": {"note": "simulated"}}' };
  if (sys.startsWith("You review a dialogue")) return { kind: "text", content: '{"solvable": true, "process_correct": true, "response_correct": true, "verdict": "pass", "reason": "fine"}' };
  if (sys.startsWith("You play the user in a conversation")) return { kind: "text", content: "Sure, use what I said." };
  if (sys.startsWith("You play a user")) return { kind: "text", content: "1. Could you look that up for me please?" };
  const tools = req.body["tools"] as { function: { name: string } }[] | undefined;
  if (tools && tools.length > 0) {
    if (last?.role === "tool") return { kind: "text", content: "Here is what the service returned." };
    return { kind: "tool-calls", calls: [{ name: tools[0]!.function.name, arguments: "{}" }] };
  }
  return { kind: "text", content: "OK." };
}

/** The child's side: serves {@link benchScript} with the latency, prints `@@url <baseURL>`, runs until killed. */
async function serve(latencyMs: number): Promise<void> {
  const server = await startOpenAIServer(benchScript, { latencyMs });
  // The request log is not needed here: keep it from growing over many runs.
  setInterval(() => void (server.requests.length = 0), 1000).unref();
  process.stdout.write(`@@url ${server.baseURL}\n`);
  process.on("SIGTERM", () => {
    void server.close().then(() => process.exit(0));
  });
}

/** Starts the server child and resolves with its base URL. */
function startServerChild(latencyMs: number): Promise<{ baseURL: string; child: ChildProcess }> {
  return new Promise((resolveStart, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--serve", String(latencyMs)], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("@@url "));
      if (line !== undefined) resolveStart({ baseURL: line.slice("@@url ".length).trim(), child });
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`the bench's OpenAI-protocol server exited with ${code}: ${err.trim().split("\n").slice(-5).join("\n")}`)));
  });
}

// ------------------------------------------------------------------------------------------ one run

/** What one generate run measured. */
export interface ThroughputRun {
  concurrency: number;
  episodes: number;
  /** Model calls over all episodes, and per episode. */
  calls: number;
  callsPerEpisode: number;
  /** Episodes per second in the steady state, and over the whole run (first start to last finish). */
  steadyEps: number;
  wholeEps: number;
  /** concurrency / (calls per episode of the counted episodes x latency). */
  idealEps: number;
  /** The run's wall time as the CLI saw it, in seconds. */
  seconds: number;
  /** CPU time of this process (all its threads) per episode, in ms. */
  cpuMsPerEpisode: number;
  /** Event-loop utilisation over the run (0..1): how busy toolsim's one thread was. */
  elu: number;
  /** The 99th percentile of the event loop's delay over the run, in ms (a blocked or starved loop). */
  loopDelayP99Ms: number;
}

interface JournalEvent {
  type: string;
  episodeId: string;
  at: string;
  outcome?: string;
  reason?: string;
}

/** Runs `toolsim generate` with the assistant on the endpoint and measures it from its journal. */
export async function throughputRun(baseURL: string, concurrency: number, episodes: number, latencyMs: number): Promise<ThroughputRun> {
  const dir = mkdtempSync(join(tmpdir(), "toolsim-bench-llm-"));
  const out = join(dir, "run");
  let stderr = "";
  const io = { isTTY: false, out: (_t: string) => undefined, err: (t: string) => void (stderr += t) };
  try {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const elu0 = performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const code = await toolsimMain(
      [
        "generate",
        "--toolsets",
        ...TOOLSETS,
        "--episodes",
        String(episodes),
        "--concurrency",
        String(concurrency),
        "--seed",
        "7",
        "--assistant-model",
        "openai:bench-model",
        "--base-url",
        baseURL,
        "--llm-concurrency",
        String(Math.max(64, 2 * concurrency)),
        "--out",
        out,
      ],
      io,
    );
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const elu = performance.eventLoopUtilization(elu0).utilization;
    delay.disable();
    if (code !== 0) throw new Error(`toolsim generate exited with ${code}: ${stderr.trim().split("\n").slice(-5).join("\n")}`);
    const events = readFileSync(join(out, "events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as JournalEvent);
    const callsOf = new Map<string, number>();
    const finished: { id: string; at: number }[] = [];
    let firstStart = Infinity;
    for (const e of events) {
      if (e.type === "llm.call") callsOf.set(e.episodeId, (callsOf.get(e.episodeId) ?? 0) + 1);
      else if (e.type === "episode.finished") {
        // An episode ended by an error (a failed model call) would be shorter than a real one: not a valid run.
        if (e.outcome === "error") throw new Error(`episode ${e.episodeId} ended with an error: ${e.reason ?? "?"}`);
        finished.push({ id: e.episodeId, at: Date.parse(e.at) });
      }
      else if (e.type === "episode.started") firstStart = Math.min(firstStart, Date.parse(e.at));
    }
    if (finished.length !== episodes) throw new Error(`expected ${episodes} finished episodes, the journal has ${finished.length}`);
    finished.sort((a, b) => a.at - b.at);
    const calls = [...callsOf.values()].reduce((a, b) => a + b, 0);
    // The steady state: the k1-th to the k2-th completion (1-based), counting the episodes k1+1..k2.
    const k1 = Math.min(concurrency, Math.floor(episodes / 4));
    const k2 = Math.max(k1 + 1, episodes - concurrency);
    const window = finished.slice(k1, k2);
    const span = ((finished[k2 - 1]?.at ?? 0) - (finished[k1 - 1]?.at ?? firstStart)) / 1000;
    const windowCalls = window.reduce((sum, f) => sum + (callsOf.get(f.id) ?? 0), 0);
    const windowCallsPerEpisode = windowCalls / window.length;
    const last = finished[finished.length - 1]?.at ?? firstStart;
    return {
      concurrency,
      episodes,
      calls,
      callsPerEpisode: calls / episodes,
      steadyEps: window.length / span,
      wholeEps: episodes / ((last - firstStart) / 1000),
      idealEps: concurrency / (windowCallsPerEpisode * (latencyMs / 1000)),
      seconds,
      cpuMsPerEpisode: (cpu.user + cpu.system) / 1000 / episodes,
      elu,
      loopDelayP99Ms: delay.percentile(99) / 1e6,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------------------------------ the figures

export async function runLlmThroughput(_parts: ReadonlySet<string>): Promise<void> {
  const { baseURL, child } = await startServerChild(LATENCY_MS);
  try {
    // A pilot run sizes the runs: model calls per episode, hence the episode's length at this latency.
    const pilot = await throughputRun(baseURL, 4, 16, LATENCY_MS);
    const episodeSeconds = (pilot.callsPerEpisode * LATENCY_MS) / 1000;
    note(
      `llm.throughput: server latency ${LATENCY_MS} ms (child process), assistant = openai (native tools), user/executor/tester offline, ` +
        `--llm-concurrency >= 64; pilot ${formatValue(pilot.callsPerEpisode)} model calls per episode`,
    );
    const episodesFor = (c: number): number => Math.max(4 * c + 8, Math.round((c * TARGET_SECONDS) / episodeSeconds));
    const results = new Map<number, ThroughputRun[]>(CONCURRENCIES.map((c) => [c, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of CONCURRENCIES) results.get(c)?.push(await throughputRun(baseURL, c, episodesFor(c), LATENCY_MS));
    }
    for (const c of CONCURRENCIES) {
      const runs = results.get(c) ?? [];
      const shares = runs.map((r) => r.steadyEps / r.idealEps);
      const share = median(shares);
      printFigure(`llm.achieved_vs_ideal_c${c}`, share, share / GOAL);
      printRounds(`llm.achieved_vs_ideal_c${c}`, {
        share: shares,
        achieved_eps: runs.map((r) => r.steadyEps),
        ideal_eps: runs.map((r) => r.idealEps),
        whole_run_eps: runs.map((r) => r.wholeEps),
        calls_per_episode: runs.map((r) => r.callsPerEpisode),
        cpu_ms_per_episode: runs.map((r) => r.cpuMsPerEpisode),
        elu: runs.map((r) => r.elu),
        loop_delay_p99_ms: runs.map((r) => r.loopDelayP99Ms),
      }, `(${runs[0]?.episodes ?? 0} episodes per run; whole-run share ${formatRatio(median(runs.map((r) => r.wholeEps / r.idealEps)))})`);
    }
  } finally {
    child.removeAllListeners("exit");
    child.kill("SIGTERM");
  }
}

if (process.argv[2] === "--serve" && process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await serve(Number(process.argv[3] ?? 200));
}
