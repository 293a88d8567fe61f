// @ts-check
/**
 * The `simulator` bench's run, in its own process so that its peak RSS is its own:
 *
 *   node bench/simulator-child.mjs [episodes] [segments] [maxSeconds]                 (the compiled dist/)
 *   node --import tsx bench/simulator-child.mjs [episodes] [segments] [maxSeconds]    (with TOOLSIM_BENCH_SOURCE=ts)
 *
 * Plain JavaScript on purpose: run by plain `node`, it measures the compiled code users run (`bin/toolsim.js`
 * runs `dist/`), with no TypeScript loader in the process; `bench/simulator.ts` builds `dist/` first. With
 * TOOLSIM_BENCH_SOURCE=ts (and `--import tsx`) it imports the TypeScript sources instead, for comparison.
 *
 * Applies the heap policy of the `toolsim` command (`simulator/heap-policy.ts`, as `bin/toolsim.js` does),
 * loads the bundled toolsets and runs `createSimulation(...)` with the offline agents and the defaults of
 * `toolsim generate` (level call, concurrency 4, seed 1), streamed to a temporary run folder (removed
 * afterwards). Times each segment of the run, samples RSS at the end of each and the live heap (the heap
 * used right after the last major GC V8 ran in the segment: the run is never made to collect, so its peak
 * RSS is what a user's run reaches), stops starting episodes after `maxSeconds`, and prints one
 * `@@result {json}` line (`ChildResult` in `simulator.ts`); the live heap after a full GC is taken once, at
 * the end.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { constants as perfConstants, PerformanceObserver } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const RESULT_PREFIX = "@@result ";
const MB = 1024 * 1024;
const source = process.env["TOOLSIM_BENCH_SOURCE"] === "ts" ? "ts" : "dist";
/** The folder the modules come from: `dist/` (compiled) or the sources (through tsx, which maps `.js` to `.ts`). */
const base = source === "ts" ? ".." : "../dist";

const startedAt = performance.now();
// As `bin/toolsim.js` does before any command: the heap policy of the `toolsim` process.
(await import(`${base}/simulator/core/heap-policy.js`)).applyHeapPolicy();
const { DEFAULT_RUN_CONFIG } = await import(`${base}/simulator/core/run-config.js`);
const { createSimulation } = await import(`${base}/simulator/core/simulation.js`);
const { bundledToolsetsDir, loadToolsets } = await import(`${base}/toolsets/load-toolset.js`);
const importSeconds = (performance.now() - startedAt) / 1000;

/** @type {(() => void) | undefined} */
let collect;
/** A full garbage collection (same as running with --expose-gc, without the flag). */
function fullGc() {
  if (!collect) {
    setFlagsFromString("--expose-gc");
    collect = /** @type {() => void} */ (runInNewContext("gc"));
  }
  collect();
}

/** The live V8 heap: used heap right after a full garbage collection. */
function liveHeapMb() {
  fullGc();
  return process.memoryUsage().heapUsed / MB;
}

/** The heap used just after the latest major GC that V8 ran on its own (flat over a run when nothing leaks). */
let afterMajorGcMb = Number.NaN;
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const detail = /** @type {{kind?: number} | undefined} */ (entry.detail);
    if (detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) afterMajorGcMb = process.memoryUsage().heapUsed / MB;
  }
});

async function main() {
  const episodes = Number(process.argv[2] ?? 10_000);
  const segmentCount = Number(process.argv[3] ?? 5);
  const maxSeconds = Number(process.argv[4] ?? Infinity);
  const rssAfterImportMb = process.memoryUsage.rss() / MB;
  const heapAfterImportMb = process.memoryUsage().heapUsed / MB;
  const loadStart = performance.now();
  const { toolsets, problems } = await loadToolsets([bundledToolsetsDir()]);
  if (toolsets.length === 0) throw new Error(`no bundled toolset loaded: ${problems.map((/** @type {{message: string}} */ p) => p.message).join("; ")}`);
  const loadSeconds = (performance.now() - loadStart) / 1000;
  const rssBeforeRunMb = process.memoryUsage.rss() / MB;
  const dir = mkdtempSync(join(tmpdir(), "toolsim-bench-run-"));
  try {
    const sim = createSimulation({
      toolsets,
      episodes,
      seed: DEFAULT_RUN_CONFIG.seed,
      level: DEFAULT_RUN_CONFIG.level,
      concurrency: DEFAULT_RUN_CONFIG.concurrency,
      maxSteps: DEFAULT_RUN_CONFIG.maxSteps,
      out: join(dir, "run"),
    });
    const size = Math.max(1, Math.round(episodes / segmentCount));
    /** @type {Array<{episodes: number, seconds: number, cpuSeconds: number, rssMb: number, heapUsedMb: number}>} */
    const segments = [];
    let done = 0;
    let capped = false;
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    let segmentStart = start;
    let segmentCpu = process.cpuUsage();
    let segmentDone = 0;
    gcObserver.observe({ entryTypes: ["gc"] });
    const closeSegment = () => {
      const now = performance.now();
      const cpu = process.cpuUsage(segmentCpu);
      segments.push({
        episodes: done - segmentDone,
        seconds: (now - segmentStart) / 1000,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        rssMb: process.memoryUsage.rss() / MB,
        heapUsedMb: afterMajorGcMb,
      });
      afterMajorGcMb = Number.NaN;
      segmentStart = now;
      segmentCpu = process.cpuUsage();
      segmentDone = done;
    };
    const result = await sim.run({
      onEpisode: () => {
        done++;
        if (done % size === 0 || done === episodes) closeSegment();
        if (!capped && (performance.now() - start) / 1000 > maxSeconds) {
          capped = true;
          sim.stop();
        }
      },
    });
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    if (done > segmentDone) closeSegment();
    gcObserver.disconnect();
    const peakRssMb = (process.resourceUsage().maxRSS * 1024) / MB; // maxRSS is in kilobytes
    const liveHeapAtEndMb = liveHeapMb();
    const report = {
      source,
      asked: episodes,
      episodes: result.ran,
      accepted: result.summary.accepted,
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      importSeconds,
      loadSeconds,
      rssAfterImportMb,
      heapAfterImportMb,
      rssBeforeRunMb,
      segments,
      runFiles: Object.fromEntries(readdirSync(join(dir, "run")).map((f) => [f, statSync(join(dir, "run", f)).size])),
      peakRssMb,
      liveHeapAtEndMb,
      capped,
      concurrency: DEFAULT_RUN_CONFIG.concurrency,
      level: DEFAULT_RUN_CONFIG.level,
      toolsets: toolsets.length,
    };
    console.log(RESULT_PREFIX + JSON.stringify(report));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
