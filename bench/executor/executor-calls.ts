/**
 * Executor part `calls`: in-process calls per second, route + validate + respond, toolsim against Prism's
 * in-process HTTP client, on the same spec and the same sequence of calls (70% valid, 30% invalid; see
 * `call-mix.ts`). Specs: the bundled bookstore toolset's OpenAPI document and a real APIs.guru spec.
 *
 * - `toolsim` (the headline): `simulateCall` with the schema responder only and no state passed (a fresh
 *   empty ResourceStore per call, unused), like Prism's stateless mock; response validation kept.
 * - `toolsim_stateful`: the default pipeline (state responder, then schema responder), with a fresh
 *   ResourceStore per batch of 8 calls (an episode's worth).
 * - `prism`: `client.request(url, {method, headers, body})` with static mocks and request validation.
 * - `prism_dynamic` (context line only): the same client with `mock.dynamic: true` (faker bodies), closer
 *   to what toolsim does (a realistic body synthesized per distinct call, validated against its schema).
 *
 * toolsim's modules are the compiled ones in dist/ when it is fresh (`compiled.ts`), as Prism's are.
 * Calls are awaited one after another. Rounds of ROUND_MS are interleaved (order reversed every other
 * round, a full GC before each) after the check pass and one warm-up round each; figures are medians and
 * the ratio is toolsim's median over Prism's. Each round also measures this process's CPU time: calls
 * per CPU-second (on a `#` line) hardly move when other work shares the cores; wall-clock rates do.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Catalog } from "../../specs/catalog/catalog.js";
import { buildCallMix, type BenchCall } from "./call-mix.js";
import { importToolsim, toolsimBuild } from "../compiled.js";
import { bookstoreSpec, CORPORA, figureLabel, ROUND_MS, ROUNDS } from "../paths.js";
import { createPrismClient, type PrismClient } from "../prism.js";
import { median, note, nowMs, pairedRatio, printFigure, printRounds, settle } from "../stats.js";

/** The toolsim under test: compiled (dist/) when it is fresh, as users run it and as Prism runs (see `compiled.ts`). */
async function toolsimModules() {
  return {
    ...(await importToolsim<typeof import("../../specs/catalog/load-catalog.js")>("specs/catalog/load-catalog.js")),
    ...(await importToolsim<typeof import("../../specs/respond/resource-store.js")>("specs/respond/resource-store.js")),
    ...(await importToolsim<typeof import("../../specs/respond/schema-responder.js")>("specs/respond/schema-responder.js")),
    ...(await importToolsim<typeof import("../../specs/call/simulate-call.js")>("specs/call/simulate-call.js")),
  };
}
type Toolsim = Awaited<ReturnType<typeof toolsimModules>>;

/** The real-world spec: configcat.com (63 operations, JSON bodies, enums, path and query parameters). */
const CORPUS_SPEC = process.env["BENCH_CORPUS_SPEC"] ?? "configcat.com.json";
/** Calls per episode in the stateful variant: a fresh ResourceStore every this many calls. */
const EPISODE_CALLS = 8;
/** Untimed rounds of each runner before the timed ones. */
const WARMUP_ROUNDS = 1;

export async function benchCalls(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), "toolsim-bench-"));
  try {
    const specs: Array<{ label: string; path: string }> = [{ label: "bookstore", path: bookstoreSpec(tmp) }];
    const corpus = join(CORPORA, "oas3", CORPUS_SPEC);
    if (existsSync(corpus)) specs.push({ label: figureLabel(CORPUS_SPEC), path: corpus });
    else note(`executor.calls: ${corpus} not found; the real-world spec is skipped`);
    const toolsim = await toolsimModules();
    for (const spec of specs) await benchSpec(toolsim, spec.label, spec.path);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}


/** One round's rates: calls per wall-clock second, and per second of this process's CPU time. */
interface Rate {
  wall: number;
  cpu: number;
}

type Runner = (sequence: readonly BenchCall[], ms: number) => Promise<Rate>;

/** Runs the sequence (cycling) until `ms` have passed; returns calls per second (wall and CPU). */
function timed(step: (call: BenchCall, index: number) => Promise<unknown>): Runner {
  return async (sequence, ms) => {
    let done = 0;
    const start = nowMs();
    const cpuStart = process.cpuUsage();
    let elapsed = 0;
    while (elapsed < ms) {
      for (let k = 0; k < 50; k++) {
        await step(sequence[done % sequence.length] as BenchCall, done);
        done++;
      }
      elapsed = nowMs() - start;
    }
    const cpu = process.cpuUsage(cpuStart);
    return { wall: (done / elapsed) * 1000, cpu: (done / ((cpu.user + cpu.system) / 1000)) * 1000 };
  };
}

function toolsimStateless({ simulateCall, schemaResponder }: Toolsim, catalog: Catalog): Runner {
  const stages = { responders: [schemaResponder] };
  return timed((c) => simulateCall(catalog, c.call, { seed: 7, stages }));
}

function toolsimStateful({ simulateCall, ResourceStore }: Toolsim, catalog: Catalog): Runner {
  let state = new ResourceStore();
  return timed((c, i) => {
    if (i % EPISODE_CALLS === 0) state = new ResourceStore();
    return simulateCall(catalog, c.call, { seed: 7, state });
  });
}

function prismRunner(prism: PrismClient): Runner {
  return timed((c) => prism.call(c.http));
}

async function benchSpec(toolsim: Toolsim, label: string, path: string): Promise<void> {
  const loaded = await toolsim.loadCatalog(path);
  if (!loaded.ok) throw new Error(`toolsim could not load ${path}: ${JSON.stringify(loaded.errors.slice(0, 3))}`);
  const catalog = loaded.value;
  const prism = await createPrismClient(path);
  const mix = await buildCallMix(catalog, prism);
  note(`executor.calls ${label} (${basename(path)}), ${toolsimBuild()}:`);
  for (const line of mix.report) note(`  ${line}`);

  const runners = {
    toolsim: toolsimStateless(toolsim, catalog),
    toolsim_stateful: toolsimStateful(toolsim, catalog),
    prism: prismRunner(prism),
    // For context only (no figure): Prism generating every body with json-schema-faker, as toolsim does.
    prism_dynamic: prismRunner(await createPrismClient(path, { dynamic: true })),
  };
  const names = Object.keys(runners) as Array<keyof typeof runners>;
  const rounds: Record<keyof typeof runners, number[]> = { toolsim: [], toolsim_stateful: [], prism: [], prism_dynamic: [] };
  const cpuRounds: Record<keyof typeof runners, number[]> = { toolsim: [], toolsim_stateful: [], prism: [], prism_dynamic: [] };
  // Warm-up, interleaved: Prism needs 2-3 s of calls before it reaches its speed (JIT, lazy validators).
  for (let w = 0; w < WARMUP_ROUNDS; w++) {
    for (const name of names) {
      await settle();
      await runners[name](mix.sequence, ROUND_MS);
    }
  }
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      await settle();
      const rate = await runners[name](mix.sequence, ROUND_MS);
      rounds[name].push(rate.wall);
      cpuRounds[name].push(rate.cpu);
    }
  }
  const prismMedian = median(rounds.prism);
  const dynamicMedian = median(rounds.prism_dynamic);
  const stateless = median(rounds.toolsim);
  const stateful = median(rounds.toolsim_stateful);
  printFigure(`executor.calls_per_s_${label}`, stateless, stateless / prismMedian);
  printRounds(`executor.calls_per_s_${label}`, { toolsim: rounds.toolsim, prism: rounds.prism }, `(calls/s; prism median ${Math.round(prismMedian)}; toolsim stateless; median of per-round ratios ${pairedRatio(rounds.toolsim, rounds.prism).toFixed(2)})`);
  printFigure(`executor.calls_per_s_stateful_${label}`, stateful, stateful / prismMedian);
  printRounds(
    `executor.calls_per_s_stateful_${label}`,
    { toolsim_stateful: rounds.toolsim_stateful },
    `(calls/s; state then schema responder, fresh ResourceStore per ${EPISODE_CALLS} calls; ratio vs the same prism rounds; median of per-round ratios ${pairedRatio(rounds.toolsim_stateful, rounds.prism).toFixed(2)})`,
  );
  const cpu = (name: keyof typeof runners): number => median(cpuRounds[name]);
  note(
    `executor.calls_per_s_${label} per CPU-second (robust to other load on the machine): toolsim ${Math.round(cpu("toolsim"))}, ` +
      `toolsim_stateful ${Math.round(cpu("toolsim_stateful"))}, prism ${Math.round(cpu("prism"))}, prism_dynamic ${Math.round(cpu("prism_dynamic"))}; ` +
      `ratios toolsim/prism ${(cpu("toolsim") / cpu("prism")).toFixed(2)}, stateful/prism ${(cpu("toolsim_stateful") / cpu("prism")).toFixed(2)}`,
  );
  note(
    `executor.calls_per_s_${label} context: prism dynamic (faker bodies) median ${Math.round(dynamicMedian)} calls/s, ` +
      `toolsim stateless / prism dynamic = ${(stateless / dynamicMedian).toFixed(2)}; rounds prism_dynamic=[${rounds.prism_dynamic.map((v) => Math.round(v)).join(", ")}]`,
  );
}
