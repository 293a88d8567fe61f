import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import { createSimulation } from "../../../simulator/core/simulation.js";
import type { SimEvent } from "../../../simulator/core/events.js";
import { RUN_FILES, type RunInfo } from "../../../simulator/runs/run-info.js";
import { loadToolsets } from "../../../toolsets/load-toolset.js";

/**
 * `generate` (and `replay`) on the hostile spec (issue 14): huge minimums and a recursive schema run within the
 * synthesis caps the flags set (or the defaults), the cap is named in a warning, and the caps are part of the run.
 */

const HOSTILE = fileURLToPath(new URL("../../fixtures/specs/hostile/hostile-toolset.yaml", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "toolsim-generate-budget-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const fresh = (): string => join(root, `out-${counter++}`);
const STACK = /\n\s+at .+:\d+:\d+/;

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => void (out += s), err: (s) => void (err += s), isTTY: false });
  return { code, out, err };
}

const events = (dir: string): SimEvent[] =>
  readFileSync(join(dir, RUN_FILES.events), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as SimEvent);

/** The bodies of the run's answers of one operation. */
function answers(list: readonly SimEvent[], tool: string): Array<{ body: unknown; notes: string[] }> {
  const out: Array<{ body: unknown; notes: string[] }> = [];
  for (const e of list) if (e.type === "tool.result" && e.name === tool) out.push({ body: e.result.body, notes: e.result.notes });
  return out;
}

const runInfo = (dir: string): RunInfo => JSON.parse(readFileSync(join(dir, RUN_FILES.run), "utf8")) as RunInfo;

describe("generate: synthesis budgets", () => {
  it("builds the huge minimums to the caps the flags set, names them in a warning and records them in run.json", async () => {
    const dir = fresh();
    const r = await cli(["generate", "--toolsets", HOSTILE, "--episodes", "14", "--out", dir, "--max-items", "4", "--max-string-length", "10", "--max-depth", "6"]);
    expect(r.err).not.toMatch(STACK);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/toolsim: warning: \d+ tool answers? reached a synthesis cap/);
    expect(r.err).toContain("synthesis cap maxItems (4, --max-items) reached");
    expect(r.err).toContain("synthesis cap maxStringLength (10, --max-string-length) reached");
    const list = events(dir);
    const huge = answers(list, "getHuge");
    expect(huge.length).toBeGreaterThan(0);
    for (const a of huge) {
      const body = a.body as { items: unknown[]; text: string };
      expect(body.items).toHaveLength(4);
      expect(body.text).toHaveLength(10);
      expect(a.notes).toEqual(expect.arrayContaining([expect.stringContaining("maxItems (4, --max-items)")]));
    }
    // The recursive schemas end within the depth cap.
    const depth = (v: unknown): number => (Array.isArray(v) ? 1 + Math.max(0, ...v.map(depth)) : v !== null && typeof v === "object" ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0);
    for (const a of [...answers(list, "getTree"), ...answers(list, "getEndlessTree")]) expect(depth(a.body)).toBeLessThanOrEqual(6);
    // Bounded work: the whole journal of 14 episodes stays small.
    expect(statSync(join(dir, RUN_FILES.events)).size).toBeLessThan(1_000_000);
    expect(runInfo(dir).config["synthesis"]).toEqual({ maxItems: 4, maxStringLength: 10, maxDepth: 6 });
    // A replay recomputes with the recorded caps: the same journal.
    const replay = await cli(["replay", dir]);
    expect(replay.out).toContain("equal:");
    expect(replay.code).toBe(0);
  });

  it("applies the default caps when no flag is given (and records nothing)", async () => {
    const dir = fresh();
    const r = await cli(["generate", "--toolsets", HOSTILE, "--episodes", "14", "--out", dir]);
    expect(r.err).not.toMatch(STACK);
    expect(r.code).toBe(0);
    expect(r.err).toContain("synthesis cap maxItems (1000, --max-items) reached");
    expect(r.err).toContain("synthesis cap maxStringLength (10000, --max-string-length) reached");
    const huge = answers(events(dir), "getHuge");
    expect(huge.length).toBeGreaterThan(0);
    for (const a of huge) expect((a.body as { items: unknown[] }).items).toHaveLength(1000);
    expect(runInfo(dir).config["synthesis"]).toBeUndefined();
  });

  it("refuses bad values with one line and exit 2, before any run folder is made", async () => {
    for (const [flag, value, message] of [
      ["--max-items", "0", "--max-items must be at least 1, got 0"],
      ["--max-depth", "deep", '--max-depth must be an integer, got "deep"'],
      ["--request-budget-ms", "-5", "--request-budget-ms must be at least 0, got -5"],
      ["--max-size", "1.5", '--max-size must be an integer, got "1.5"'],
    ] as const) {
      const dir = fresh();
      const r = await cli(["generate", "--toolsets", HOSTILE, "--episodes", "2", "--out", dir, flag, value]);
      expect(r.code).toBe(2);
      expect(r.err.trim()).toBe(`toolsim: ${message}`);
      expect(() => statSync(dir)).toThrow();
    }
    const replay = await cli(["replay", fresh(), "--max-items", "x"]);
    expect(replay.code).toBe(2);
    expect(replay.err.trim()).toBe('toolsim: --max-items must be an integer, got "x"');
  });

  it("resumes with the recorded caps, and refuses other caps clearly", async () => {
    const dir = fresh();
    const first = await cli(["generate", "--toolsets", HOSTILE, "--episodes", "14", "--out", dir, "--max-items", "3"]);
    expect(first.code).toBe(0);
    const again = await cli(["generate", "--resume", "--out", dir]);
    expect(again.code).toBe(0);
    expect(runInfo(dir).config["synthesis"]).toEqual({ maxItems: 3 });
    const other = await cli(["generate", "--resume", "--out", dir, "--max-items", "5"]);
    expect(other.code).toBe(1);
    expect(other.err).toMatch(/cannot resume .*synthesis \{"maxItems":3\} vs \{"maxItems":5\}/);
    expect(other.err).not.toMatch(STACK);
  });

  it("a simulation made from the run's config (as a queue worker makes it) applies the recorded caps", async () => {
    const { toolsets } = await loadToolsets([HOSTILE]);
    const sim = createSimulation({ toolsets, episodes: 14, config: { synthesis: { maxItems: 2, maxStringLength: 7 } } });
    const huge: Array<{ body: unknown; notes: string[] }> = [];
    for (let i = 0; i < 14; i++) huge.push(...answers(await sim.runOne(i), "getHuge"));
    expect(huge.length).toBeGreaterThan(0);
    for (const a of huge) {
      expect((a.body as { items: unknown[]; text: string }).items).toHaveLength(2);
      expect((a.body as { text: string }).text).toHaveLength(7);
      expect(a.notes).toEqual(expect.arrayContaining([expect.stringContaining("maxItems (2, --max-items)")]));
    }
    // The caps are part of the run's identity: a worker without them would compute another run id and refuse.
    expect(sim.runId).not.toBe(createSimulation({ toolsets, episodes: 14 }).runId);
  });
});
