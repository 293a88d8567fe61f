import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIO } from "../../../simulator/cli/cli-io.js";
import { main } from "../../../simulator/cli/main.js";
import type { SimEvent } from "../../../simulator/core/events.js";
import { RunStore } from "../../../simulator/runs/run-store.js";
import { createSimulation } from "../../../simulator/core/simulation.js";
import { bundledToolsetsDir, loadToolsets } from "../../../toolsets/load-toolset.js";
import { fixtureEpisodes, fixtureRunInfo, writeFixtureRun } from "../../fixtures/export-run.js";
import { startOpenAIServer } from "../../support/openai-server.js";

const root = mkdtempSync(join(tmpdir(), "toolsim-eval-runs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function capture(): CliIO & { stdout: string; stderr: string } {
  const io = { stdout: "", stderr: "", isTTY: false, out: (t: string) => void (io.stdout += t), err: (t: string) => void (io.stderr += t) };
  return io;
}

/** The fixture episodes at the given positions, renumbered 0.. as a run of their own. */
async function runOf(dir: string, picks: number[]): Promise<string> {
  const all = fixtureEpisodes();
  const store = await RunStore.create(dir, await fixtureRunInfo());
  picks.forEach((p, i) => {
    const id = `ep-${String(i).padStart(6, "0")}`;
    store.appendEpisode((all[p] as SimEvent[]).map((e) => ({ ...e, episodeId: id, ...(e.type === "episode.started" ? { index: i } : {}) }) as SimEvent));
  });
  store.close();
  return dir;
}

interface RunJson {
  targets: Array<{ kind: string; scores: { episodes: number; toolalpaca: { tasks: number; process: number; response: number; overall: number; judgedBy: string }; rougeL: null; rougeLNote: string } }>;
  pass?: { tasks: number; trials: number; passRate: number; passHat: Record<string, number>; skipped: number };
}

let fixture: string;
let simulated: string;

beforeAll(async () => {
  fixture = await writeFixtureRun(join(root, "fixture"));
  const { toolsets } = await loadToolsets(["weather", "agenda"].map((t) => join(bundledToolsetsDir(), `${t}.yaml`)));
  simulated = join(root, "simulated");
  await createSimulation({ toolsets, episodes: 4, seed: 5, level: "call", out: simulated }).run();
});

describe("eval RUN: ToolAlpaca procedure, response and overall", () => {
  it("judges every episode by rules from the plan and the tester's stages (hand-checked) and says ROUGE-L is n/a", async () => {
    // The response by evidence: what the planned tools returned (not given by the instruction or the call, not an
    // identifier or a secret, not a lookup that only fed a later call) stated in the answer.
    // 0: plan made; the search only found the id getBook used; the answer states Frank Herbert (getBook) -> Yes/Yes;
    // 1: getBook never called (plan stage failed); the search returned only the id b1 and "Dune" (asked) -> No/n/a;
    // 2: login made; it returned a token (a secret) and the e-mail given -> Yes/n/a; 3: broke off, no answer -> No/No;
    // 4: login failed, gave up -> No/No; 5: both getBook calls, "Dune" and "Dune Messiah" stated -> Yes/Yes.
    // Procedure 3/6; response 2/4 and overall 2/4 (episodes 1 and 2 have nothing to check).
    const io = capture();
    expect(await main(["eval", fixture], io)).toBe(0);
    expect(io.stdout).toContain(
      "ToolAlpaca, 6 tasks: procedure 50.0% (rules: golden steps with their values), response 50.0% of 4 (rules: facts the calls returned, stated in the answer; n/a for 2: nothing to check), overall 50.0% of 4 (rules); --judge-model for the paper's LLM judge\n",
    );
    expect(io.stdout).toContain("ROUGE-L: n/a (no reference responses)\n");
    const json = capture();
    expect(await main(["eval", fixture, "--json"], json)).toBe(0);
    const r = JSON.parse(json.stdout) as RunJson;
    expect(r.targets[0]?.scores.toolalpaca).toEqual({ tasks: 6, process: 0.5, response: 0.5, overall: 0.5, judgedBy: "rules", responseJudged: 4, uncertain: 0, notRun: 0 });
    expect(r.targets[0]?.scores.rougeL).toBeNull();
    expect(r.targets[0]?.scores.rougeLNote).toBe("n/a (no reference responses)");
  });

  it("--judge-model judges every episode of a run with ToolAlpaca's prompt (the plan as the standard answer)", async () => {
    const server = await startOpenAIServer(() => ({ kind: "text", content: "## Analysis\nok\n## Results\nProcess Correctness: Yes\nFinal Response Correctness: No" }));
    const saved = process.env["OPENAI_API_KEY"];
    process.env["OPENAI_API_KEY"] = "sk-test-JUDGE-0123456789abcdef";
    try {
      const io = capture();
      expect(await main(["eval", fixture, "--judge-model", `openai:judge@${server.baseURL}`, "--json"], io)).toBe(0);
      const r = JSON.parse(io.stdout) as RunJson;
      expect(r.targets[0]?.scores.toolalpaca).toEqual({ tasks: 6, process: 1, response: 0, overall: 0, judgedBy: "llm", judge: "openai:judge", responseJudged: 6, uncertain: 0, notRun: 0 });
      expect(server.requests).toHaveLength(6);
      const first = JSON.stringify(server.requests[0]?.body ?? {});
      expect(first).toContain("Process Correctness: one of [Yes, No, Uncertain]");
      expect(first).toContain('1. Function: searchBooks\\nParameters: {\\"q\\":\\"Dune\\"}');
      // The solution as ToolAlpaca's evaluation.py writes it: numbered functions with what each returned.
      expect(first).toContain('1. Function: searchBooks\\nParameters: {\\"q\\":\\"Dune\\",\\"limit\\":2}\\nRetruns: Status Code: 200. Response: {');
      expect(first).toContain("3. Final Response: Dune (b1) is by Frank Herbert.");
      expect(first).toContain("Find books about Dune and show me the first one.");
    } finally {
      await server.close();
      if (saved === undefined) delete process.env["OPENAI_API_KEY"];
      else process.env["OPENAI_API_KEY"] = saved;
    }
  });

  it("refuses flags that would be ignored, with exit 2 and what they are for", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["eval", fixture, "--assistant", "openai:gpt-4o-mini"], /--assistant only applies with --tasks .*fork the run with it \(toolsim replay RUN --from-episode all --from-turn 1 --assistant openai:gpt-4o-mini/],
      [["eval", fixture, "--out", join(root, "x")], /--out only applies with --tasks/],
      [["eval", fixture, "--seed", "3", "--limit", "2"], /--seed, --limit only apply with --tasks/],
      [["eval", fixture, "--model", "openai:m"], /--model does not apply to eval/],
      [["eval", fixture, "--timeout", "5000"], /--timeout configures model calls, and this eval calls no model/],
      [["eval", fixture, "--dfsdt"], /--dfsdt shapes the assistant of --tasks/],
      [["eval", join(fixture, "run.json"), "--judge-model", "openai:judge"], /--judge-model judges the episodes of runs .* none of these targets is a run/],
      [["eval", fixture, "--tasks", "x.jsonl"], /give either targets to score or --tasks/],
    ];
    for (const [argv, message] of cases) {
      const io = capture();
      expect(await main(argv, io), argv.join(" ")).toBe(2);
      expect(io.stderr).toMatch(message);
    }
  });
});

describe("pass^k over runs: trials matched by task, not by position", () => {
  it("two runs of the same tasks: every episode is a task tried twice", async () => {
    const copy = await writeFixtureRun(join(root, "copy"));
    const io = capture();
    expect(await main(["eval", fixture, copy, "--json"], io)).toBe(0);
    const r = JSON.parse(io.stdout) as RunJson;
    expect(r.pass).toMatchObject({ tasks: 6, trials: 2, passRate: 0.5, skipped: 0 });
    expect(r.pass?.passHat["2"]).toBeCloseTo(0.5);
  });

  it("the same tasks in another order pair up by task; tasks missing from a run are left out with a warning", async () => {
    // Episodes 5 and 0 of the fixture, in that order: by position they would meet episodes 0 and 1.
    const other = await runOf(join(root, "reordered"), [5, 0]);
    const io = capture();
    expect(await main(["eval", fixture, other, "--json"], io)).toBe(0);
    const r = JSON.parse(io.stdout) as RunJson;
    expect(r.pass).toMatchObject({ tasks: 2, trials: 2, passRate: 1, skipped: 4 });
    expect(r.pass?.passHat["2"]).toBe(1);
    expect(io.stderr).toContain(`toolsim: warning: pass^k: 4 episode(s) of ${fixture} hold a task that is not in every target; left out`);
  });

  it("refuses runs that hold different tasks (other seeds or toolsets)", async () => {
    const io = capture();
    expect(await main(["eval", fixture, simulated], io)).toBe(1);
    expect(io.stderr).toContain(`pass^k needs the same tasks in every target, and ${fixture}, ${simulated} have none in common`);
    expect(io.stdout).toBe("");
  });
});
