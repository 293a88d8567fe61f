import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Level } from "../../../../agents/roles/agent-context.js";
import { rankToolsFor } from "../../../../agents/assistant/offline/offline-decision.js";
import { Toolbox } from "../../../../agents/roles/toolbox.js";
import { PlanRecoveryCounter, type PlanRecovery } from "../../../../simulator/stats/plan-recovery.js";
import { bundledToolsets, offlineEpisodes } from "../../../support/offline-corpus.js";

/*
 * The regression corpus of the offline agents' English heuristics: per bundled toolset and level, episodes made by
 * the offline user at a fixed seed, and the figures the offline assistant reaches on them: plan recovery (the
 * planned first tool is the assistant's first call) and the tester's plan-stage pass rate. Goldens in
 * test/fixtures/regression/offline-plan-goldens.json; a change to a rule that moves a figure by more than the
 * tolerance fails here. `npm test` runs the small corpus (12 episodes per cell), `npm run test:full` the large one
 * (40); `UPDATE_GOLDENS=1` rewrites the goldens of the size run (after a deliberate change, with the diff reviewed).
 */

const GOLDENS = fileURLToPath(new URL("../../../fixtures/regression/offline-plan-goldens.json", import.meta.url));
const LEVELS: readonly Level[] = ["call", "retrieve", "plan"];
const SEED = 7;
/** The corpus sizes checked: the quick run the small corpus, the full sweep both. */
const SIZES = process.env["TOOLSIM_FULL"] === "1" ? [12, 40] : [12];
/**
 * The tolerance: in one cell (a toolset at a level) each count may move by one (a request or an episode), and over
 * all cells of a level each rate by one point. The figures are deterministic: anything more is a change to review.
 */
const CELL_TOLERANCE = 1;
const LEVEL_TOLERANCE = 0.01;

type Cell = Pick<PlanRecovery, "requests" | "recovered" | "argumentsMatched" | "planJudged" | "planPassed">;
/** The ranking of one instruction: its toolset, the first two tools and their scores. */
type Ranking = { toolset: string; text: string; top: Array<[string, number]> };
type Goldens = { seed: number; sizes: Record<string, Record<string, Cell>>; rankings?: Record<string, Ranking[]> };
/** Ranking goldens: the best tool may change for at most this share of instructions, scores by this much on average. */
const RANKING_TOLERANCE = { topChanged: 0.01, meanScoreChange: 0.01 };

function readGoldens(): Goldens {
  return existsSync(GOLDENS) ? (JSON.parse(readFileSync(GOLDENS, "utf8")) as Goldens) : { seed: SEED, sizes: {} };
}

function rate(n: number, d: number): number {
  return d > 0 ? n / d : 0;
}

describe.each(SIZES)(`regression corpus of the offline agents (%i episodes per toolset and level, seed ${SEED})`, (SIZE) => {
  it("keeps plan recovery and the plan-stage pass rate at their goldens, per toolset and level and in total", async () => {
    const toolsets = await bundledToolsets();
    expect(toolsets.length).toBeGreaterThanOrEqual(15);
    const measured: Record<string, Cell> = {};
    const rankings: Ranking[] = [];
    for (const level of LEVELS) {
      for (const toolset of toolsets) {
        const counter = new PlanRecoveryCounter();
        const tools = new Toolbox([toolset]).tools().map((t) => ({ name: t.name, description: t.description, parameters: t.parameters as Record<string, unknown> }));
        for (const events of await offlineEpisodes([toolset], { episodes: SIZE, seed: SEED, level })) {
          counter.add(events);
          // The ranking of each first instruction at the call level: every weight of the ranking shows in its scores.
          const first = events.find((e) => e.type === "user.instruction");
          if (level === "call" && first?.type === "user.instruction") {
            rankings.push({ toolset: toolset.name, text: first.text, top: rankToolsFor(first.text, tools).slice(0, 2).map((r) => [r.name, r.score]) });
          }
        }
        const r = counter.result();
        measured[`${level}/${toolset.name}`] = { requests: r.requests, recovered: r.recovered, argumentsMatched: r.argumentsMatched, planJudged: r.planJudged, planPassed: r.planPassed };
      }
    }
    const goldens = readGoldens();
    if (process.env["UPDATE_GOLDENS"] === "1") {
      goldens.sizes[String(SIZE)] = measured;
      goldens.rankings = { ...goldens.rankings, [String(SIZE)]: rankings };
      writeFileSync(GOLDENS, `${JSON.stringify(goldens, null, 2)}\n`);
      return;
    }
    const golden = goldens.sizes[String(SIZE)];
    expect(golden, `no goldens for ${SIZE} episodes: run with UPDATE_GOLDENS=1`).toBeDefined();
    if (!golden) return;
    const problems: string[] = [];
    for (const [cell, got] of Object.entries(measured)) {
      const want = golden[cell];
      if (!want) {
        problems.push(`${cell}: no golden (a new toolset? run with UPDATE_GOLDENS=1)`);
        continue;
      }
      for (const k of ["requests", "recovered", "argumentsMatched", "planJudged", "planPassed"] as const) {
        if (Math.abs(got[k] - want[k]) > CELL_TOLERANCE) problems.push(`${cell}: ${k} ${got[k]}, golden ${want[k]}`);
      }
    }
    for (const level of LEVELS) {
      const sum = (cells: Record<string, Cell>, k: keyof Cell): number => Object.entries(cells).filter(([c]) => c.startsWith(`${level}/`)).reduce((a, [, v]) => a + v[k], 0);
      const rates: Array<[string, keyof Cell, keyof Cell]> = [
        ["plan recovery", "recovered", "requests"],
        ["planned arguments", "argumentsMatched", "requests"],
        ["plan-stage pass rate", "planPassed", "planJudged"],
      ];
      for (const [name, n, d] of rates) {
        const got = rate(sum(measured, n), sum(measured, d));
        const want = rate(sum(golden, n), sum(golden, d));
        if (Math.abs(got - want) > LEVEL_TOLERANCE) problems.push(`${level}: ${name} ${got.toFixed(3)}, golden ${want.toFixed(3)}`);
      }
    }
    const wantRankings = goldens.rankings?.[String(SIZE)];
    expect(wantRankings, `no ranking goldens for ${SIZE} episodes: run with UPDATE_GOLDENS=1`).toBeDefined();
    if (wantRankings) {
      const byText = new Map(wantRankings.map((r) => [`${r.toolset}\u0000${r.text}`, r]));
      let compared = 0;
      let topChanged = 0;
      let scoreChange = 0;
      for (const r of rankings) {
        const want = byText.get(`${r.toolset}\u0000${r.text}`);
        if (!want) continue;
        compared++;
        if (want.top[0]?.[0] !== r.top[0]?.[0]) topChanged++;
        scoreChange += Math.abs((want.top[0]?.[1] ?? 0) - (r.top[0]?.[1] ?? 0));
      }
      if (compared < 0.9 * rankings.length) problems.push(`rankings: only ${compared} of ${rankings.length} instructions are in the goldens (the user's wording changed: UPDATE_GOLDENS=1)`);
      if (topChanged > RANKING_TOLERANCE.topChanged * compared) problems.push(`rankings: the best tool changed for ${topChanged} of ${compared} instructions`);
      if (scoreChange / Math.max(1, compared) > RANKING_TOLERANCE.meanScoreChange) problems.push(`rankings: the best tool's score moved by ${(scoreChange / compared).toFixed(3)} on average`);
    }
    expect(problems).toEqual([]);
  }, 600_000);
});
