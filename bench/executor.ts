/**
 * Section `executor` (issue 2, item 10):
 * (a) in-process calls per second (route + validate + respond) of toolsim's `simulateCall` against
 *     Prism's in-process HTTP client, on the same spec and the same 70/30 mix of valid and invalid calls;
 * (b) load time of the largest shared specs: toolsim's `loadCatalog` (catalog built, ready to serve)
 *     against Prism's `getHttpOperationsFromSpec`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import type { Catalog } from "../specs/catalog.js";
import { loadCatalog } from "../specs/load-catalog.js";
import { ResourceStore } from "../specs/resource-store.js";
import { schemaResponder } from "../specs/schema-responder.js";
import { simulateCall } from "../specs/simulate-call.js";
import { buildCallMix, type BenchCall } from "./call-mix.js";
import { createPrismClient, prismLoad, type PrismClient } from "./prism.js";
import { median, note, nowMs, printFigure, printRounds, settle } from "./stats.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPORA = resolve(ROOT, "..", "shared", "corpora", "openapi");
/** The real-world spec of the calls bench: 63 operations, bodies, enums, many parameters. */
const CORPUS_SPEC = process.env["BENCH_CORPUS_SPEC"] ?? "configcat.com.json";

const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 7);
/** Each timed round runs the mix until this much time has passed. */
const ROUND_MS = Number(process.env["BENCH_ROUND_MS"] ?? 1000);
/** Calls per episode in the stateful variant: a fresh ResourceStore every this many calls. */
const EPISODE_CALLS = 8;

/** Parts of the section a filter can pick: `executor.calls`, `executor.load`. */
export const EXECUTOR_PARTS = ["calls", "load"] as const;

export async function runExecutor(parts: ReadonlySet<string>): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), "toolsim-bench-"));
  try {
    if (parts.has("calls")) {
      const specs: Array<{ label: string; path: string }> = [{ label: "bookstore", path: bookstoreSpec(tmp) }];
      const corpus = join(CORPORA, "oas3", CORPUS_SPEC);
      if (existsSync(corpus)) specs.push({ label: figureLabel(CORPUS_SPEC), path: corpus });
      else note(`executor.calls: ${corpus} not found, the real-world spec is skipped`);
      for (const spec of specs) await benchCalls(spec.label, spec.path);
    }
    if (parts.has("load")) await benchLoad();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** `drchrono.com.json` -> `drchrono_com`. */
function figureLabel(file: string): string {
  return basename(file).replace(/\.(json|ya?ml)$/i, "").replace(/[^a-zA-Z0-9]+/g, "_").replace(/^_+|_+$/g, "");
}

/** The bundled bookstore toolset's inline OpenAPI document, written to a JSON file both sides load. */
function bookstoreSpec(tmp: string): string {
  const toolset = parseYaml(readFileSync(join(ROOT, "toolsets", "bundled", "bookstore.yaml"), "utf8")) as Record<string, unknown>;
  if (typeof toolset["openapi"] !== "object" || toolset["openapi"] === null) throw new Error("bookstore.yaml has no inline openapi document");
  const path = join(tmp, "bookstore.openapi.json");
  writeFileSync(path, JSON.stringify(toolset["openapi"], null, 2));
  return path;
}

type Runner = (sequence: readonly BenchCall[], ms: number) => Promise<number>;

/** Runs the sequence (cycling) until `ms` have passed; returns calls per second. */
function timed(step: (call: BenchCall, index: number) => Promise<unknown>): Runner {
  return async (sequence, ms) => {
    let done = 0;
    const start = nowMs();
    let elapsed = 0;
    while (elapsed < ms) {
      for (let k = 0; k < 50; k++) {
        await step(sequence[done % sequence.length] as BenchCall, done);
        done++;
      }
      elapsed = nowMs() - start;
    }
    return (done / elapsed) * 1000;
  };
}

function toolsimStateless(catalog: Catalog): Runner {
  // Like Prism's mock: no state, every answer from the schema (examples first), response validation kept.
  const stages = { responders: [schemaResponder] };
  return timed((c) => simulateCall(catalog, c.call, { seed: 7, stages }));
}

function toolsimStateful(catalog: Catalog): Runner {
  // The default pipeline (state then schema responder) with a fresh store per episode of EPISODE_CALLS calls.
  let state = new ResourceStore();
  return timed((c, i) => {
    if (i % EPISODE_CALLS === 0) state = new ResourceStore();
    return simulateCall(catalog, c.call, { seed: 7, state });
  });
}

function prismRunner(prism: PrismClient): Runner {
  return timed((c) => prism.call(c.http));
}

async function benchCalls(label: string, path: string): Promise<void> {
  const loaded = await loadCatalog(path);
  if (!loaded.ok) throw new Error(`toolsim could not load ${path}: ${JSON.stringify(loaded.errors.slice(0, 3))}`);
  const catalog = loaded.value;
  const prism = await createPrismClient(path);
  const mix = await buildCallMix(catalog, prism);
  note(`executor.calls ${label} (${basename(path)}):`);
  for (const line of mix.report) note(`  ${line}`);

  const runners: Record<"toolsim" | "toolsim_stateful" | "prism", Runner> = {
    toolsim: toolsimStateless(catalog),
    toolsim_stateful: toolsimStateful(catalog),
    prism: prismRunner(prism),
  };
  const names = Object.keys(runners) as Array<keyof typeof runners>;
  const rounds: Record<keyof typeof runners, number[]> = { toolsim: [], toolsim_stateful: [], prism: [] };
  for (const name of names) await runners[name](mix.sequence, ROUND_MS / 2); // warm-up: JIT, validator caches
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      await settle();
      rounds[name].push(await runners[name](mix.sequence, ROUND_MS));
    }
  }
  const prismMedian = median(rounds.prism);
  const stateless = median(rounds.toolsim);
  const stateful = median(rounds.toolsim_stateful);
  printFigure(`executor.calls_per_s_${label}`, stateless, stateless / prismMedian);
  printRounds(`executor.calls_per_s_${label}`, { toolsim: rounds.toolsim, prism: rounds.prism }, `(prism median ${Math.round(prismMedian)}/s; toolsim stateless: schema responder only)`);
  printFigure(`executor.calls_per_s_stateful_${label}`, stateful, stateful / prismMedian);
  printRounds(`executor.calls_per_s_stateful_${label}`, { toolsim_stateful: rounds.toolsim_stateful }, `(state then schema responder, fresh ResourceStore per ${EPISODE_CALLS} calls; vs the same prism rounds)`);
}

/** The three largest files of a corpus folder. */
function largest(folder: string, n: number): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => /\.(json|ya?ml)$/i.test(f))
    .map((f) => ({ path: join(folder, f), size: statSync(join(folder, f)).size }))
    .sort((a, b) => b.size - a.size)
    .slice(0, n)
    .map((f) => f.path);
}

async function benchLoad(): Promise<void> {
  const files = [...largest(join(CORPORA, "oas3"), 3), ...largest(join(CORPORA, "swagger2"), 3)];
  if (files.length === 0) {
    note(`executor.load: no corpora under ${CORPORA}, skipped`);
    return;
  }
  for (const file of files) {
    const label = figureLabel(file);
    const toolsim = async (): Promise<number> => {
      const t = nowMs();
      const result = await loadCatalog(file);
      const ms = nowMs() - t;
      if (!result.ok) throw new Error(`toolsim could not load ${file}`);
      return ms;
    };
    const prism = async (): Promise<number> => {
      const t = nowMs();
      await prismLoad(file);
      return nowMs() - t;
    };
    // Warm-up (first use of each code path), and a check that both see the same operations.
    const first = await loadCatalog(file);
    const ops = await prismLoad(file);
    const tools = first.ok ? first.value.tools.length : -1;
    note(`executor.load ${basename(file)} (${Math.round(statSync(file).size / 1024)} KB): toolsim ${tools} tools, prism ${ops.length} operations`);
    const rounds: { toolsim: number[]; prism: number[] } = { toolsim: [], prism: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? (["toolsim", "prism"] as const) : (["prism", "toolsim"] as const);
      for (const side of order) {
        await settle();
        rounds[side].push(side === "toolsim" ? await toolsim() : await prism());
      }
    }
    const mine = median(rounds.toolsim);
    const theirs = median(rounds.prism);
    printFigure(`executor.load_ms_${label}`, mine, theirs / mine);
    printRounds(`executor.load_ms_${label}`, rounds, `(prism median ${theirs.toFixed(1)} ms)`);
  }
}
