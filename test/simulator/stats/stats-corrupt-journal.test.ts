import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimEvent } from "../../../simulator/core/events.js";
import { readEpisodesSkippingCorrupt } from "../../../simulator/export/run-folder.js";
import { RUN_FILES } from "../../../simulator/runs/run-info.js";
import { writeFixtureRun } from "../../fixtures/export-run.js";
import { runCli as cli } from "../../support/cli-in-process.js";

const root = mkdtempSync(join(tmpdir(), "toolsim-corrupt-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes the fixture run and replaces one journal line (1-based) chosen by `pick` with garbage; returns the run and the line. */
async function damagedRun(name: string, pick: (events: SimEvent[]) => number): Promise<{ dir: string; line: number; path: string }> {
  const dir = await writeFixtureRun(join(root, name));
  const path = join(dir, RUN_FILES.events);
  const lines = readFileSync(path, "utf8").split("\n");
  const events = lines.filter((l) => l !== "").map((l) => JSON.parse(l) as SimEvent);
  const index = pick(events);
  lines[index] = '{"type": "tool.result", "episodeId": "ep-0000'; // a torn write
  writeFileSync(path, lines.join("\n"));
  return { dir, line: index + 1, path };
}

let mid: { dir: string; line: number; path: string };
let between: { dir: string; line: number; path: string };

beforeAll(async () => {
  // Inside episode 2: its tool result.
  mid = await damagedRun("mid", (events) => events.findIndex((e) => e.episodeId === "ep-000002" && e.type === "tool.result"));
  // Between episodes: the episode.started of episode 3.
  between = await damagedRun("between", (events) => events.findIndex((e) => e.episodeId === "ep-000003" && e.type === "episode.started"));
});

describe("a journal with a corrupt line", () => {
  it("the lenient reader skips the damaged episode (in it, or starting after it) and names the line", async () => {
    for (const [run, skipped] of [[mid, "ep-000002"], [between, "ep-000003"]] as const) {
      const warnings: string[] = [];
      const ids: string[] = [];
      for await (const events of readEpisodesSkippingCorrupt(run.dir, { warn: (m) => warnings.push(m) })) ids.push(events[0]?.episodeId ?? "");
      expect(ids).toEqual(["ep-000000", "ep-000001", "ep-000002", "ep-000003", "ep-000004", "ep-000005"].filter((id) => id !== skipped));
      expect(warnings).toEqual([`${run.path}:${run.line}: not a journal event; episode ${skipped} skipped`]);
    }
  });

  it("stats, report, export and eval skip that episode with a warning naming the line, and go on (exit 0)", async () => {
    const warning = `toolsim: warning: ${mid.path}:${mid.line}: not a journal event; episode ep-000002 skipped\n`;
    const stats = await cli(["stats", mid.dir, "--json"]);
    expect(stats.code).toBe(0);
    expect(stats.err).toBe(warning);
    expect((JSON.parse(stats.out) as { episodes: number; accepted: number }).episodes).toBe(5);
    const report = await cli(["report", mid.dir, "--out", join(root, "report.html")]);
    expect(report.code).toBe(0);
    expect(report.err).toBe(warning);
    const exported = await cli(["export", mid.dir, "--format", "openai", "--out", join(root, "out.jsonl")]);
    expect(exported.code).toBe(0);
    expect(exported.err).toBe(warning);
    expect(exported.out).toContain("exported 2 episodes as openai from 5 episodes");
    const dpo = await cli(["export", mid.dir, "--format", "dpo", "--out", join(root, "pairs.jsonl")]);
    expect(dpo.code).toBe(0);
    expect(dpo.err).toBe(warning);
    const scored = await cli(["eval", mid.dir, "--json"]);
    expect(scored.code).toBe(0);
    expect(scored.err).toBe(warning);
    expect((JSON.parse(scored.out) as { targets: Array<{ scores: { episodes: number } }> }).targets[0]?.scores.episodes).toBe(5);
  });

  it("replay and diff still refuse the run, naming the line (exactness matters there)", async () => {
    const replay = await cli(["replay", mid.dir]);
    expect(replay.code).toBe(1);
    expect(replay.err).toContain(`${mid.path}:${mid.line}: not a journal event`);
    expect(replay.err).not.toMatch(/\n\s+at /);
    const diff = await cli(["diff", mid.dir, mid.dir]);
    expect(diff.code).toBe(1);
    expect(diff.err).toContain(`${mid.path}:${mid.line}: not a journal event`);
  });
});
