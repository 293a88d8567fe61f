/**
 * Section `simulator` (issue 3, item 10): offline episodes per second and peak RSS over 10,000 episodes
 * streamed to a temporary run folder. The run happens in a child process (`bench/simulator-child.ts`) so
 * that the peak RSS is the child's own (`process.resourceUsage().maxRSS`). One run of 10,000 episodes
 * already takes minutes at today's speed, so the rounds are the run's five consecutive segments of 2,000
 * episodes: the figure is the median of their rates, and the RSS at the end of each segment shows whether
 * memory stays flat. No peer: the ratios are against the goals, 300 episodes/s and 300 MB.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./paths.js";
import { median, note, printFigure, printRounds } from "./stats.js";

const EPISODES = Number(process.env["BENCH_EPISODES"] ?? 10_000);
const SEGMENTS = 5;
/** The child stops starting episodes after this long (keeps the whole bench near 5 minutes). */
const MAX_SECONDS = Number(process.env["BENCH_SIM_MAX_S"] ?? 210);
const GOAL_EPS = 300;
const GOAL_RSS_MB = 300;
const MB = 1024 * 1024;

export const SIMULATOR_PARTS = ["episodes"] as const;

/** One segment of the child's run. */
export interface Segment {
  episodes: number;
  seconds: number;
  /** CPU time of the child during the segment (all its threads). */
  cpuSeconds: number;
  /** RSS at the end of the segment, in MB. */
  rssMb: number;
  /** Live V8 heap at the end of the segment (after a full GC), in MB. */
  heapUsedMb: number;
}

/** What the child reports on its `@@result` line. */
export interface ChildResult {
  /** Episodes asked for, and run. */
  asked: number;
  episodes: number;
  accepted: number;
  seconds: number;
  /** Loading the bundled toolsets, before the run. */
  loadSeconds: number;
  /** RSS once the modules and the toolsets are loaded, before the first episode (MB). */
  rssBeforeRunMb: number;
  segments: Segment[];
  /** The run folder's files and their sizes in bytes, just before it is removed. */
  runFiles: Record<string, number>;
  /** Peak resident set size of the child over its whole life, in MB. */
  peakRssMb: number;
  /** True when the time cap stopped the run early. */
  capped: boolean;
  concurrency: number;
  level: string;
  toolsets: number;
}

export const RESULT_PREFIX = "@@result ";

function runChild(): Promise<ChildResult> {
  return new Promise((resolveResult, reject) => {
    const args = ["--import", "tsx", join(ROOT, "bench", "simulator-child.ts"), String(EPISODES), String(SEGMENTS), String(MAX_SECONDS)];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const line = out.split("\n").find((l) => l.startsWith(RESULT_PREFIX));
      if (code !== 0 || line === undefined) {
        reject(new Error(`simulator child exited with ${code}: ${(err || out).trim().split("\n").slice(-8).join("\n")}`));
        return;
      }
      resolveResult(JSON.parse(line.slice(RESULT_PREFIX.length)) as ChildResult);
    });
  });
}

export async function runSimulator(parts: ReadonlySet<string>): Promise<void> {
  if (!parts.has("episodes")) return;
  const r = await runChild();
  note(
    `simulator: ${r.episodes} of ${r.asked} episodes over ${r.toolsets} bundled toolsets (offline agents, level ${r.level}, concurrency ${r.concurrency}), ` +
      `streamed to a temp run folder in a child process; ${r.accepted} accepted; run ${r.seconds.toFixed(1)} s after ${r.loadSeconds.toFixed(1)} s of loading` +
      (r.capped ? `; STOPPED by the ${MAX_SECONDS} s cap (BENCH_SIM_MAX_S)` : ""),
  );
  const rates = r.segments.filter((s) => s.episodes > 0).map((s) => s.episodes / s.seconds);
  const eps = rates.length > 0 ? median(rates) : r.episodes / r.seconds;
  printFigure("simulator.episodes_per_s", eps, eps / GOAL_EPS);
  printRounds(
    "simulator.episodes_per_s",
    { segments: rates },
    `(episodes/s per segment of ${Math.round(r.asked / SEGMENTS)} episodes; whole run ${(r.episodes / r.seconds).toFixed(1)}/s; goal ${GOAL_EPS}/s, ratio = eps / ${GOAL_EPS})`,
  );
  const cpuRates = r.segments.filter((s) => s.episodes > 0).map((s) => s.episodes / s.cpuSeconds);
  note(
    `simulator.episodes_per_s per CPU-second (robust to other load on the machine): segments=[${cpuRates.map((v) => v.toFixed(1)).join(", ")}], ` +
      `median ${cpuRates.length > 0 ? median(cpuRates).toFixed(1) : "-"}`,
  );
  printFigure("simulator.peak_rss_mb", r.peakRssMb, GOAL_RSS_MB / r.peakRssMb);
  printRounds(
    "simulator.peak_rss_mb",
    { rss_at_segment_end: r.segments.map((s) => s.rssMb), live_heap_at_segment_end: r.segments.map((s) => s.heapUsedMb) },
    `(MB; ${r.rssBeforeRunMb.toFixed(0)} MB before the first episode; peak = the child's maxRSS over the whole run; goal < ${GOAL_RSS_MB} MB, ratio = ${GOAL_RSS_MB} / peak)`,
  );
  note(`simulator run folder: ${Object.entries(r.runFiles).map(([f, size]) => `${f} ${(size / MB).toFixed(1)} MB`).join(", ")}`);
}
