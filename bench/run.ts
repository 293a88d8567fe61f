/**
 * `npm run bench [-- <filter>...]`: toolsim's speed and memory figures, one line each:
 *
 *   bench: <name> <value> ratio=<x>
 *
 * where the ratio is toolsim's figure over its peer's measured in the same run (above 1: toolsim is
 * better), or over the goal when there is no peer. Each figure is the median of several interleaved
 * rounds; the raw rounds follow on a `#` comment line.
 *
 * Filters: a section (`executor`, `simulator`, `serve`, `spec`, `distributed`...) or a part of one (`executor.calls`, `executor.load`).
 * Environment: BENCH_ROUNDS (default 7), BENCH_ROUND_MS (default 1000), BENCH_CORPUS_SPEC (an oas3 file
 * name of ../shared/corpora/openapi), BENCH_EPISODES (default 10000), BENCH_SIM_ROUNDS (default 3),
 * BENCH_SPEC_OPERATIONS (default 50000).
 */
import { cpus, loadavg } from "node:os";
import { EXECUTOR_PARTS, runExecutor } from "./executor/executor.js";
import { LLM_PARTS, runLlm } from "./llm-tokens.js";
import { LLM_THROUGHPUT_PARTS, runLlmThroughput } from "./llm-throughput.js";
import { runServe, SERVE_PARTS } from "./serve.js";
import { runServeMcp, SERVE_MCP_PARTS } from "./serve-mcp.js";
import { runSimulator, SIMULATOR_PARTS } from "./simulator.js";
import { DISTRIBUTED_PARTS, runDistributed } from "./distributed.js";
import { runSpecCheck, SPEC_PARTS } from "./spec-check.js";
import { note } from "./stats.js";

interface Section {
  name: string;
  parts: readonly string[];
  run: (parts: ReadonlySet<string>) => Promise<void>;
}

const SECTIONS: Section[] = [
  { name: "executor", parts: EXECUTOR_PARTS, run: runExecutor },
  { name: "simulator", parts: SIMULATOR_PARTS, run: runSimulator },
  { name: "serve", parts: SERVE_PARTS, run: runServe },
  { name: "serve", parts: SERVE_MCP_PARTS, run: runServeMcp },
  { name: "spec", parts: SPEC_PARTS, run: runSpecCheck },
  { name: "llm", parts: LLM_PARTS, run: runLlm },
  { name: "llm", parts: LLM_THROUGHPUT_PARTS, run: runLlmThroughput },
  { name: "distributed", parts: DISTRIBUTED_PARTS, run: runDistributed },
];

/** The parts of a section the filters select (all of them with no filter). */
function selected(section: Section, filters: readonly string[]): Set<string> {
  if (filters.length === 0) return new Set(section.parts);
  const out = new Set<string>();
  for (const f of filters) {
    if (f === section.name) section.parts.forEach((p) => out.add(p));
    else if (f.startsWith(`${section.name}.`)) {
      const part = f.slice(section.name.length + 1);
      section.parts.filter((p) => p.startsWith(part)).forEach((p) => out.add(p));
    }
  }
  return out;
}

async function main(): Promise<void> {
  const filters = process.argv.slice(2).filter((a) => a !== "--");
  const plan = SECTIONS.map((s) => ({ section: s, parts: selected(s, filters) })).filter((p) => p.parts.size > 0);
  if (plan.length === 0) {
    const known = SECTIONS.flatMap((s) => [s.name, ...s.parts.map((p) => `${s.name}.${p}`)]);
    console.error(`bench: nothing matches ${filters.join(" ")}; known: ${known.join(", ")}`);
    process.exitCode = 2;
    return;
  }
  const cpu = cpus();
  const load = (): string => loadavg().map((l) => l.toFixed(2)).join(" ");
  note(`toolsim bench: node ${process.version}, ${cpu.length} x ${cpu[0]?.model.trim() ?? "cpu"}, ${new Date().toISOString()}, load average ${load()}`);
  const start = performance.now();
  for (const { section, parts } of plan) {
    const t = performance.now();
    try {
      await section.run(parts);
    } catch (e) {
      process.exitCode = 1;
      note(`${section.name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
    note(`${section.name}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  note(`total ${((performance.now() - start) / 1000).toFixed(1)} s; load average ${load()} (above ${cpu.length}: other work shared these cores)`);
}

await main();
