import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import { RUN_FILES } from "../../../simulator/runs/run-info.js";
import type { RunSummary } from "../../../simulator/runs/run-summary.js";
import { Histogram } from "../../../simulator/stats/distribution.js";
import { NearDuplicateWindow } from "../../../simulator/stats/near-duplicate-window.js";
import { runStats, wordCount, type RunStats } from "../../../simulator/stats/run-stats.js";
import { bundledToolsetsDir } from "../../../toolsets/load-toolset.js";
import { DUNE_INSTRUCTION, FIXTURE_SECRETS, HOSTILE_TEXT, writeFixtureRun } from "../../fixtures/export-run.js";
import { runCli as cli } from "../../support/cli-in-process.js";

const root = mkdtempSync(join(tmpdir(), "toolsim-stats-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const summaryOf = (dir: string): RunSummary => JSON.parse(readFileSync(join(dir, RUN_FILES.summary), "utf8")) as RunSummary;

/** The figures the stats share with summary.json. */
function expectMatchesSummary(stats: RunStats, summary: RunSummary): void {
  expect(stats.runId).toBe(summary.runId);
  expect([stats.episodes, stats.accepted, stats.rejected, stats.errors, stats.acceptRate]).toEqual([summary.episodes, summary.accepted, summary.rejected, summary.errors, summary.acceptRate]);
  expect(stats.funnel.stages).toEqual(summary.stages);
  expect(stats.funnel.errorReasons).toEqual(summary.errorReasons);
  expect(stats.coverage.byToolset).toEqual(summary.operations);
  expect([stats.calls.total, stats.calls.ok, stats.calls.failed, stats.calls.invalid, stats.calls.unknownTool]).toEqual([summary.calls.total, summary.calls.ok, summary.calls.failed, summary.calls.invalid, summary.calls.unknownTool]);
  expect(stats.steps.mean).toBeCloseTo(summary.steps.mean, 2);
  expect(stats.steps.max).toBe(summary.steps.max);
  expect(stats.levels).toEqual(summary.levels);
  expect(stats.llm).toEqual(summary.llm);
}

describe("stats of the fixture run (checked by hand)", () => {
  let dir = "";
  let stats: RunStats;
  beforeAll(async () => {
    dir = await writeFixtureRun(join(root, "fixture"));
    stats = await runStats(dir);
  });

  it("counts episodes, steps, calls and messages", () => {
    expect([stats.episodes, stats.accepted, stats.rejected, stats.errors]).toEqual([6, 3, 2, 1]);
    // Steps per episode: 3, 2, 3, 1, 2, 2.
    expect(stats.steps).toEqual({ count: 6, mean: 2.17, p50: 2, p90: 3, min: 1, max: 3 });
    // Calls per episode (as episode.finished counts them): 2, 1, 1, 0, 1, 2; results: 7, one a 401.
    expect(stats.calls).toEqual({ count: 6, mean: 1.17, p50: 1, p90: 2, min: 0, max: 2, total: 7, ok: 6, failed: 1, invalid: 0, unknownTool: 0 });
    // Messages of the corpus dialogues: 6, 4, 6, 2 (the instruction and the unanswered call), 4, 5.
    expect(stats.turns).toEqual({ count: 6, mean: 4.5, p50: 4, p90: 6, min: 2, max: 6 });
  });

  it("measures the instructions and finds the repeated one", () => {
    // The password the login call sends is redacted wherever it appears in the journal, the instruction included.
    const texts = [DUNE_INSTRUCTION, DUNE_INSTRUCTION, "Sign me in as ann@example.com please.", "Look up the book b2.", "Log me in: ann@example.com, password [redacted-1].", HOSTILE_TEXT];
    const chars = texts.map((t) => t.length);
    expect(stats.instructions.count).toBe(6);
    expect(stats.instructions.chars.mean).toBeCloseTo(chars.reduce((a, b) => a + b, 0) / 6, 2);
    expect(stats.instructions.chars.max).toBe(Math.max(...chars));
    expect(stats.instructions.words.p50).toBe([...texts.map(wordCount)].sort((a, b) => a - b)[2]);
    expect(wordCount(DUNE_INSTRUCTION)).toBe(10);
    expect(stats.nearDuplicates).toMatchObject({ threshold: 0.8, duplicates: 1, rate: 0.1667 });
    expect(stats.nearDuplicates.examples).toEqual([{ text: DUNE_INSTRUCTION, similarTo: DUNE_INSTRUCTION, similarity: 1 }]);
  });

  it("counts tools, toolsets, categories and coverage", () => {
    expect(stats.tools).toEqual({
      called: 3,
      succeeded: 3,
      offered: 3,
      top: [
        { tool: "bookshop/getBook", calls: 4 },
        { tool: "bookshop/login", calls: 2 },
        { tool: "bookshop/searchBooks", calls: 2 },
      ],
    });
    expect(stats.toolsets).toEqual({ bookshop: 6 });
    expect(stats.categories).toEqual({ Shopping: 6 });
    expect(stats.coverage).toMatchObject({ covered: 3, total: 3, rate: 1 });
  });

  it("matches the run's summary.json", () => {
    expectMatchesSummary(stats, summaryOf(dir));
    expect(stats.funnel.stages.plan?.discarded).toBe(1);
    expect(stats.funnel.stages.execution?.discarded).toBe(1);
  });

  it("prints text and JSON from the CLI, without secrets", async () => {
    const text = await cli(["stats", dir]);
    expect(text.code).toBe(0);
    expect(text.out).toContain("episodes 6: accepted 3 (50.0%), rejected 2, errors 1");
    expect(text.out).toContain("near-duplicate instructions: 1 of 6 (16.7%");
    expect(text.out).toContain("spec coverage (operations with a successful call in an accepted episode): 3/3 (100.0%)");
    expect(text.out).toContain("  plan           1  (16.7%; 4 reached it, 1 failed it)");
    const json = await cli(["stats", dir, "--json"]);
    expect(JSON.parse(json.out)).toEqual(stats);
    for (const s of FIXTURE_SECRETS) expect(text.out + json.out).not.toContain(s);
    const bad = await cli(["stats", join(root, "nope")]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/is not a run folder/);
  });
});

describe("stats of a generated run", () => {
  it("match its summary.json", async () => {
    const dir = join(root, "generated");
    const toolsets = ["bookstore", "weather", "recipes", "news"].map((n) => join(bundledToolsetsDir(), `${n}.yaml`));
    expect(await main(["generate", "--episodes", "24", "--toolsets", ...toolsets, "--out", dir], { out: () => undefined, err: () => undefined, isTTY: false })).toBe(0);
    const stats = await runStats(dir);
    expectMatchesSummary(stats, summaryOf(dir));
    expect(stats.instructions.count).toBeGreaterThanOrEqual(24);
    expect(Object.keys(stats.categories).length).toBe(4);
  });
});

describe("building blocks", () => {
  it("takes nearest-rank percentiles from a histogram", () => {
    const h = new Histogram();
    for (const v of [5, 1, 3, 2, 4, 10, 7, 8, 6, 9]) h.add(v);
    expect(h.summary()).toEqual({ count: 10, mean: 5.5, p50: 5, p90: 9, min: 1, max: 10 });
    expect(new Histogram().summary()).toEqual({ count: 0, mean: 0, p50: 0, p90: 0, min: 0, max: 0 });
  });

  it("finds near-duplicates within the window and forgets older texts", () => {
    const w = new NearDuplicateWindow({ window: 2 });
    expect(w.check("What is the weather in Paris tomorrow?")).toBeUndefined();
    expect(w.check("what's the weather in paris tomorrow")?.similarity).toBeGreaterThanOrEqual(0.8);
    expect(w.check("Book a flight to Oslo on Friday")).toBeUndefined();
    expect(w.check("Find vegan recipes with tofu")).toBeUndefined();
    // The Paris texts have left the window of 2.
    expect(w.check("What is the weather in Paris tomorrow?")).toBeUndefined();
  });
});
