/**
 * Section `simulator` (issue 3, item 10): offline episodes per second and peak RSS over 10,000 episodes
 * streamed to a temporary run folder. The run happens in a child process (`bench/simulator-child.mjs`) so
 * that the peak RSS is the child's own (`process.resourceUsage().maxRSS`). The rounds are the run's five
 * consecutive segments of 2,000 episodes: the figure is the median of their rates, and the RSS at the end of
 * each segment shows whether memory stays flat. No peer: the ratios are against the goals, 300 episodes/s
 * and 300 MB.
 *
 * What is measured is what users run: `toolsim generate` runs the compiled `dist/` with plain `node`
 * (`bin/toolsim.js`), so this section builds `dist/` first (`tsc -p tsconfig.build.json`, as `npm run build`)
 * and runs the child with plain `node`, without the TypeScript loader the bench itself runs under (tsx costs
 * the child about 25 MB and a second of start-up, and is not in a user's process). Environment:
 * BENCH_SIM_BUILD=0 skips the build (measures `dist/` as it is); BENCH_SIM_TSX=1 also runs the child on the
 * TypeScript sources through tsx and prints its figures on a `#` line, for comparison.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./paths.js";
import { median, note, printFigure, printRounds } from "./stats.js";

const EPISODES = Number(process.env["BENCH_EPISODES"] ?? 10_000);
const SEGMENTS = 5;
/** The child stops starting episodes after this long (keeps the whole bench near 5 minutes). */
const MAX_SECONDS = Number(process.env["BENCH_SIM_MAX_S"] ?? 210);
const BUILD = process.env["BENCH_SIM_BUILD"] !== "0";
const ALSO_TSX = process.env["BENCH_SIM_TSX"] === "1";
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
  /** Heap used right after the segment's last major GC (V8's own; NaN when it ran none), in MB. */
  heapUsedMb: number;
}

/** What the child reports on its `@@result` line. */
export interface ChildResult {
  /** `dist`: the compiled code with plain node; `ts`: the sources through tsx. */
  source: "dist" | "ts";
  /** Episodes asked for, and run. */
  asked: number;
  episodes: number;
  accepted: number;
  seconds: number;
  /** CPU time of the child during the run (all its threads). */
  cpuSeconds: number;
  /** Importing toolsim's modules. */
  importSeconds: number;
  /** Loading the bundled toolsets, before the run. */
  loadSeconds: number;
  /** RSS and heap once toolsim's modules are imported (MB). */
  rssAfterImportMb: number;
  heapAfterImportMb: number;
  /** RSS once the modules and the toolsets are loaded, before the first episode (MB). */
  rssBeforeRunMb: number;
  segments: Segment[];
  /** The run folder's files and their sizes in bytes, just before it is removed. */
  runFiles: Record<string, number>;
  /** Peak resident set size of the child over its whole life, in MB. */
  peakRssMb: number;
  /** Live heap after a full GC once the run is over, in MB. */
  liveHeapAtEndMb: number;
  /** True when the time cap stopped the run early. */
  capped: boolean;
  concurrency: number;
  level: string;
  toolsets: number;
}

export const RESULT_PREFIX = "@@result ";

/** Runs a command to its end; resolves with its exit code and output. */
function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolveRun({ code, out, err }));
  });
}

/** `tsc -p tsconfig.build.json` (the `build` script): `dist/` from the current sources. */
async function build(): Promise<void> {
  const t = performance.now();
  const r = await run(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"]);
  const seconds = ((performance.now() - t) / 1000).toFixed(1);
  if (r.code === 0) note(`simulator: built dist/ (tsc -p tsconfig.build.json) in ${seconds} s`);
  else note(`simulator: tsc -p tsconfig.build.json exited with ${r.code} after ${seconds} s (dist/ emitted anyway): ${(r.out + r.err).trim().split("\n").slice(0, 3).join(" | ")}`);
}

async function runChild(source: "dist" | "ts"): Promise<ChildResult> {
  const script = join(ROOT, "bench", "simulator-child.mjs");
  const args = [...(source === "ts" ? ["--import", "tsx"] : []), script, String(EPISODES), String(SEGMENTS), String(MAX_SECONDS)];
  const r = await run(process.execPath, args, { ...process.env, TOOLSIM_BENCH_SOURCE: source });
  const line = r.out.split("\n").find((l) => l.startsWith(RESULT_PREFIX));
  if (r.code !== 0 || line === undefined) {
    throw new Error(`simulator child (${source}) exited with ${r.code}: ${(r.err || r.out).trim().split("\n").slice(-8).join("\n")}`);
  }
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as ChildResult;
}

/** Episodes per second of each segment that ran episodes. */
function segmentRates(r: ChildResult): number[] {
  return r.segments.filter((s) => s.episodes > 0).map((s) => s.episodes / s.seconds);
}

function describe(r: ChildResult): string {
  return (
    `${r.episodes} of ${r.asked} episodes over ${r.toolsets} bundled toolsets (offline agents, level ${r.level}, concurrency ${r.concurrency}), ` +
    `streamed to a temp run folder in a child process running ${r.source === "dist" ? "the compiled dist/ with plain node" : "the TypeScript sources through tsx"}; ` +
    `${r.accepted} accepted; run ${r.seconds.toFixed(1)} s (${r.cpuSeconds.toFixed(1)} CPU-s) after ${r.importSeconds.toFixed(2)} s of imports ` +
    `(RSS ${r.rssAfterImportMb.toFixed(0)} MB, heap ${r.heapAfterImportMb.toFixed(0)} MB) and ${r.loadSeconds.toFixed(1)} s of loading` +
    (r.capped ? `; STOPPED by the ${MAX_SECONDS} s cap (BENCH_SIM_MAX_S)` : "")
  );
}

export async function runSimulator(parts: ReadonlySet<string>): Promise<void> {
  if (!parts.has("episodes")) return;
  if (BUILD) await build();
  const r = await runChild("dist");
  note(`simulator: ${describe(r)}`);
  const rates = segmentRates(r);
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
    { rss_at_segment_end: r.segments.map((s) => s.rssMb), heap_after_last_major_gc: r.segments.map((s) => s.heapUsedMb) },
    `(MB; ${r.rssBeforeRunMb.toFixed(0)} MB before the first episode, live heap ${r.liveHeapAtEndMb.toFixed(1)} MB after the run; ` +
      `peak = the child's maxRSS over the whole run, never forced to collect; goal < ${GOAL_RSS_MB} MB, ratio = ${GOAL_RSS_MB} / peak)`,
  );
  note(`simulator run folder: ${Object.entries(r.runFiles).map(([f, size]) => `${f} ${(size / MB).toFixed(1)} MB`).join(", ")}`);
  if (ALSO_TSX) {
    const t = await runChild("ts");
    const tsRates = segmentRates(t);
    const tsEps = tsRates.length > 0 ? median(tsRates) : t.episodes / t.seconds;
    note(`simulator (through tsx, for comparison; not a figure): ${describe(t)}`);
    note(
      `simulator (through tsx): episodes_per_s ${tsEps.toFixed(1)} (segments [${tsRates.map((v) => v.toFixed(1)).join(", ")}]), ` +
        `peak_rss_mb ${t.peakRssMb.toFixed(0)} (${(t.peakRssMb - r.peakRssMb).toFixed(0)} MB more than compiled), ` +
        `heap after each segment's last major GC [${t.segments.map((s) => s.heapUsedMb.toFixed(1)).join(", ")}] MB, live heap after the run ${t.liveHeapAtEndMb.toFixed(1)} MB`,
    );
  }
}
