/**
 * Section `spec` (issue 14, item 4): `toolsim spec check` of a huge spec, a synthetic document of
 * BENCH_SPEC_OPERATIONS operations (default 50,000; see `huge-spec.ts`), in a child process running the
 * compiled CLI (`npm run build` first): its CPU seconds (user + system, steady under a shared machine's
 * load, unlike wall time), wall seconds and peak RSS, with and without `--no-compile`. There is no peer: the
 * ratio is the goal over the figure (goal 60 CPU seconds for the whole check of 50,000 operations).
 *
 *   bench: spec.check_cpu_s <s> ratio=<goal / s>
 *   bench: spec.check_rss_mb <MB> ratio=<goal 1500 MB / MB>
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hugeSpec } from "./huge-spec.js";
import { ROOT } from "./paths.js";
import { note, printFigure } from "./stats.js";

/** Parts of the section a filter can pick: `spec.check`. */
export const SPEC_PARTS = ["check"] as const;

const OPERATIONS = Number(process.env["BENCH_SPEC_OPERATIONS"] ?? 50_000);
const GOAL_CPU_S = 60;
const GOAL_RSS_MB = 1500;

/** One `spec check` in a child process, measured by the child itself (CPU, wall, peak RSS). */
function measure(file: string, extra: string[]): { cpu: number; wall: number; rssMb: number; ok: boolean } {
  const script = `
    const { main } = await import(${JSON.stringify(join(ROOT, "dist/simulator/cli/main.js"))});
    const t = performance.now();
    const code = await main(["spec", "check", ...${JSON.stringify(extra)}, ${JSON.stringify(file)}], { out: () => {}, err: () => {}, isTTY: false });
    const u = process.resourceUsage();
    console.log(JSON.stringify({ code, wall: (performance.now() - t) / 1000, cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, rssMb: u.maxRSS / 1024 }));`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", maxBuffer: 1 << 20 });
  const line = child.stdout.trim().split("\n").pop() ?? "";
  const r = JSON.parse(line) as { code: number; wall: number; cpu: number; rssMb: number };
  return { cpu: r.cpu, wall: r.wall, rssMb: r.rssMb, ok: r.code === 0 };
}

export async function runSpecCheck(parts: ReadonlySet<string>): Promise<void> {
  if (!parts.has("check")) return;
  if (!existsSync(join(ROOT, "dist/simulator/cli/main.js"))) throw new Error("the spec bench runs the compiled CLI: run `npm run build` first");
  const dir = mkdtempSync(join(tmpdir(), "toolsim-bench-spec-"));
  try {
    const file = join(dir, `huge-${OPERATIONS}.json`);
    writeFileSync(file, JSON.stringify(hugeSpec(OPERATIONS)));
    const full = measure(file, []);
    const load = measure(file, ["--no-compile"]);
    note(`spec check of ${OPERATIONS} operations: ${full.cpu.toFixed(1)} s CPU, ${full.wall.toFixed(1)} s wall, ${Math.round(full.rssMb)} MB peak RSS (exit ${full.ok ? 0 : "non-zero"}); with --no-compile ${load.cpu.toFixed(1)} s CPU, ${load.wall.toFixed(1)} s wall, ${Math.round(load.rssMb)} MB`);
    printFigure("spec.check_cpu_s", full.cpu, GOAL_CPU_S / full.cpu);
    printFigure("spec.check_rss_mb", full.rssMb, GOAL_RSS_MB / full.rssMb);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
