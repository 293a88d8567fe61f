import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Level } from "../../../agents/roles/agent-context.js";
import { RUN_FILES } from "../../../simulator/runs/run-info.js";
import { createSimulation } from "../../../simulator/core/simulation.js";
import { bundledToolsetsDir, loadToolsets } from "../../../toolsets/load-toolset.js";
import type { LoadedToolset } from "../../../toolsets/toolset.js";

/**
 * Same seed and offline agents -> the same journal, byte for byte with a fixed clock, and except the `at`
 * fields with the real one; the corpus does not depend on concurrency; another seed gives another run.
 */

const root = mkdtempSync(join(tmpdir(), "toolsim-determinism-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A subset of the bundled toolsets, for speed: stateful CRUD with fixtures, auth, chains, plain reads. */
const SUBSET = ["agenda", "bookstore", "holidays", "music", "weather"];
const EPISODES = 20;
const FIXED = new Date("2025-06-01T12:00:00.000Z");

let toolsets: LoadedToolset[];
beforeAll(async () => {
  const loaded = await loadToolsets(SUBSET.map((n) => join(bundledToolsetsDir(), `${n}.yaml`)));
  expect(loaded.problems).toEqual([]);
  toolsets = loaded.toolsets;
});

let counter = 0;
interface RunFiles {
  events: string;
  corpus: string;
  rejected: string;
}

async function generate(o: { seed: number; concurrency: number; clock?: "fixed" | "real"; level?: Level; episodes?: number }): Promise<RunFiles> {
  const out = join(root, `run-${counter++}`);
  const sim = createSimulation({
    toolsets,
    episodes: o.episodes ?? EPISODES,
    seed: o.seed,
    concurrency: o.concurrency,
    level: o.level ?? "call",
    out,
    ...(o.clock === "real" ? {} : { clock: () => FIXED }),
  });
  const result = await sim.run();
  expect(result.summary.episodes).toBe(o.episodes ?? EPISODES);
  const read = (f: string): string => readFileSync(join(out, f), "utf8");
  return { events: read(RUN_FILES.events), corpus: read(RUN_FILES.corpus), rejected: read(RUN_FILES.rejected) };
}

/** The journal with every `at` blanked. */
function withoutTimes(journal: string): string {
  return journal
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.stringify({ ...(JSON.parse(l) as Record<string, unknown>), at: "" }))
    .join("\n");
}

/** The first differing line of two texts, for a readable failure. */
function firstDifference(a: string, b: string): string | undefined {
  const x = a.split("\n");
  const y = b.split("\n");
  for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i] !== y[i]) return `line ${i + 1}:\n- ${x[i]?.slice(0, 400)}\n+ ${y[i]?.slice(0, 400)}`;
  return undefined;
}

describe("determinism of offline runs", () => {
  let reference: RunFiles;
  beforeAll(async () => {
    reference = await generate({ seed: 42, concurrency: 4 });
  });

  it("produces a real run: events, some accepted and the projections line up with the episodes", () => {
    const episodes = reference.events.split("\n").filter((l) => l.includes('"type":"episode.finished"'));
    expect(episodes).toHaveLength(EPISODES);
    const corpus = reference.corpus.split("\n").filter((l) => l !== "");
    const rejected = reference.rejected.split("\n").filter((l) => l !== "");
    expect(corpus.length).toBeGreaterThan(0);
    expect(corpus.length + rejected.length).toBe(EPISODES);
  });

  it("same seed, fixed clock: events.jsonl, corpus.jsonl and rejected.jsonl are identical byte for byte", async () => {
    const again = await generate({ seed: 42, concurrency: 4 });
    expect(firstDifference(again.events, reference.events)).toBeUndefined();
    expect(again.events).toBe(reference.events);
    expect(again.corpus).toBe(reference.corpus);
    expect(again.rejected).toBe(reference.rejected);
  });

  it("same seed, real clock: identical except the `at` fields", async () => {
    const real = await generate({ seed: 42, concurrency: 4, clock: "real" });
    expect(real.events).not.toBe(reference.events);
    expect(firstDifference(withoutTimes(real.events), withoutTimes(reference.events))).toBeUndefined();
    expect(real.corpus).toBe(reference.corpus);
    expect(real.rejected).toBe(reference.rejected);
  });

  it("concurrency 1 vs 8: identical corpus.jsonl and rejected.jsonl (and journal)", async () => {
    const [one, eight] = [await generate({ seed: 42, concurrency: 1 }), await generate({ seed: 42, concurrency: 8 })];
    expect(one.corpus).toBe(reference.corpus);
    expect(eight.corpus).toBe(reference.corpus);
    expect(one.rejected).toBe(reference.rejected);
    expect(eight.rejected).toBe(reference.rejected);
    expect(firstDifference(eight.events, one.events)).toBeUndefined();
  });

  it("concurrency does not matter at the retrieve level either", async () => {
    const [one, eight] = [await generate({ seed: 5, concurrency: 1, level: "retrieve", episodes: 8 }), await generate({ seed: 5, concurrency: 8, level: "retrieve", episodes: 8 })];
    expect(firstDifference(eight.events, one.events)).toBeUndefined();
    expect(eight.corpus).toBe(one.corpus);
  });

  it("different seeds give different runs", async () => {
    const other = await generate({ seed: 43, concurrency: 4 });
    expect(other.events).not.toBe(reference.events);
    const instructions = (journal: string): string[] =>
      journal
        .split("\n")
        .filter((l) => l.includes('"type":"user.instruction"'))
        .map((l) => (JSON.parse(l) as { text: string }).text);
    // Not just the run id: the episodes themselves differ.
    expect(instructions(other.events)).not.toEqual(instructions(reference.events));
  });
});
