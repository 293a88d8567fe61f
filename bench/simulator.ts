/**
 * Section `simulator` (issue 3, item 10): offline episodes per second and peak RSS over 10,000 episodes
 * streamed to a temporary run folder. Each round is a fresh child process (`bench/simulator-child.ts`) so
 * that the peak RSS is the child's own (`process.resourceUsage().maxRSS`). No peer: the ratios are
 * against the goals, 300 episodes/s and 300 MB.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median, note, printFigure, printRounds } from "./stats.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const EPISODES = Number(process.env["BENCH_EPISODES"] ?? 10_000);
const MAX_ROUNDS = Number(process.env["BENCH_SIM_ROUNDS"] ?? 3);
/** No new round starts once the section has used this much time (keeps the bench near 5 minutes). */
const BUDGET_MS = Number(process.env["BENCH_SIM_BUDGET_MS"] ?? 150_000);
const GOAL_EPS = 300;
const GOAL_RSS_MB = 300;

export const SIMULATOR_PARTS = ["episodes"] as const;

/** What a child reports on its `@@result` line. */
export interface ChildResult {
  episodes: number;
  accepted: number;
  seconds: number;
  episodesPerSecond: number;
  /** Peak resident set size of the child, in MB. */
  peakRssMb: number;
  /** RSS (MB) sampled at 10%, 25%, 50%, 75% and 100% of the episodes: flat when streaming works. */
  rssSamplesMb: number[];
  concurrency: number;
  level: string;
}

export const RESULT_PREFIX = "@@result ";

function runChild(episodes: number): Promise<ChildResult> {
  return new Promise((resolveResult, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "bench", "simulator-child.ts"), String(episodes)], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
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
  if (!existsSync(join(ROOT, "simulator", "simulation.ts"))) {
    note("simulator: simulator/simulation.ts (createSimulation) does not exist yet; section skipped");
    return;
  }
  const results: ChildResult[] = [];
  const start = performance.now();
  for (let r = 0; r < MAX_ROUNDS; r++) {
    if (r > 0 && performance.now() - start > BUDGET_MS) {
      note(`simulator: ${r} round(s) within the ${BUDGET_MS / 1000} s budget; no more rounds`);
      break;
    }
    results.push(await runChild(EPISODES));
  }
  const first = results[0] as ChildResult;
  note(
    `simulator: ${EPISODES} episodes per round, fresh child process per round, level ${first.level}, concurrency ${first.concurrency}, ` +
      `accepted ${results.map((r) => r.accepted).join("/")}`,
  );
  const eps = results.map((r) => r.episodesPerSecond);
  const rss = results.map((r) => r.peakRssMb);
  const epsMedian = median(eps);
  const rssMedian = median(rss);
  printFigure("simulator.episodes_per_s", epsMedian, epsMedian / GOAL_EPS);
  printRounds("simulator.episodes_per_s", { toolsim: eps }, `(goal ${GOAL_EPS}/s; ratio = eps / ${GOAL_EPS})`);
  printFigure("simulator.peak_rss_mb", rssMedian, GOAL_RSS_MB / rssMedian);
  printRounds(
    "simulator.peak_rss_mb",
    { toolsim: rss },
    `(goal < ${GOAL_RSS_MB} MB; ratio = ${GOAL_RSS_MB} / peak; RSS at 10/25/50/75/100% of round 1: ${first.rssSamplesMb.map((m) => m.toFixed(0)).join(" ")} MB)`,
  );
}
