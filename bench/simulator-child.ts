/**
 * The `simulator` bench's run, in its own process so that its peak RSS is its own:
 *
 *   node --import tsx bench/simulator-child.ts [episodes] [segments] [maxSeconds]
 *
 * Loads the bundled toolsets and runs `createSimulation(...)` with the offline agents and the defaults of
 * `toolsim generate` (level call, concurrency 4, seed 1), streamed to a temporary run folder (removed
 * afterwards). Times each segment of the run, samples RSS and the live heap (after a full GC) at the end of each, stops starting episodes
 * after `maxSeconds`, and prints one `@@result {json}` line (`ChildResult` in `simulator.ts`).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_RUN_CONFIG } from "../simulator/run-config.js";
import { createSimulation } from "../simulator/simulation.js";
import { bundledToolsetsDir, loadToolsets } from "../toolsets/load-toolset.js";
import { RESULT_PREFIX, type ChildResult, type Segment } from "./simulator.js";
import { fullGc } from "./stats.js";

const MB = 1024 * 1024;

/** The live V8 heap: used heap right after a full garbage collection (flat across segments when nothing leaks). */
function liveHeapMb(): number {
  fullGc();
  return process.memoryUsage().heapUsed / MB;
}

async function main(): Promise<void> {
  const episodes = Number(process.argv[2] ?? 10_000);
  const segmentCount = Number(process.argv[3] ?? 5);
  const maxSeconds = Number(process.argv[4] ?? Infinity);
  const loadStart = performance.now();
  const { toolsets, problems } = await loadToolsets([bundledToolsetsDir()]);
  if (toolsets.length === 0) throw new Error(`no bundled toolset loaded: ${problems.map((p) => p.message).join("; ")}`);
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
    const segments: Segment[] = [];
    let done = 0;
    let capped = false;
    const start = performance.now();
    let segmentStart = start;
    let segmentCpu = process.cpuUsage();
    let segmentDone = 0;
    const closeSegment = (): void => {
      const now = performance.now();
      const cpu = process.cpuUsage(segmentCpu);
      segments.push({
        episodes: done - segmentDone,
        seconds: (now - segmentStart) / 1000,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        rssMb: process.memoryUsage.rss() / MB,
        heapUsedMb: liveHeapMb(),
      });
      // The next segment starts after the measurement's full GC.
      segmentStart = performance.now();
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
    if (done > segmentDone) closeSegment();
    const report: ChildResult = {
      asked: episodes,
      episodes: result.ran,
      accepted: result.summary.accepted,
      seconds,
      loadSeconds,
      rssBeforeRunMb,
      segments,
      runFiles: Object.fromEntries(readdirSync(join(dir, "run")).map((f) => [f, statSync(join(dir, "run", f)).size])),
      peakRssMb: (process.resourceUsage().maxRSS * 1024) / MB, // maxRSS is in kilobytes
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
