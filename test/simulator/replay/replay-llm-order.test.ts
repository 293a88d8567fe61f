/**
 * Replays and forks of LLM runs use the run-wide rules of generate: the LLM user's near-duplicate check sees
 * what the run's earlier episodes decided up to the same request (RunInstructions), the executor shares
 * answers through the run cache when the run did, and calls are priced with the configured prices. A fork
 * that plays every turn anew with the recorded run's own models must then make exactly the recorded calls
 * (every one answered from the cassette) and write the recorded journal, whatever the concurrency the run
 * was recorded at; a replay of a --run-cache or configured-price run is equal to it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import { capture, llmRunScope, countIn, journalWithoutTimes, startRoleServer, summaryOf } from "../../support/llm-roles.js";

const TOOLSETS = ["toolsets/bundled/holidays.yaml", "toolsets/bundled/weather.yaml", "toolsets/bundled/currency.yaml"];
const KEY = "sk-test-replay-order-0123456789";

describe("replay and fork of LLM runs follow the run's order-independent rules", () => {
  const scope = llmRunScope("toolsim-replay-llm-");
  const tmp = scope.tmp;

  const base = ["--toolsets", ...TOOLSETS, "--episodes", "12", "--seed", "5"];

  async function generate(concurrency: number, extra: string[] = []): Promise<string> {
    const dir = join(tmp(), `c${concurrency}`);
    const io = capture();
    const code = await main(["generate", ...base, "--concurrency", String(concurrency), "--model", "openai:test-model", "--base-url", scope.server?.baseURL ?? "", ...extra, "--out", dir], io);
    expect(io.stderr).not.toContain("internal error");
    expect(code, io.stderr).toBe(0);
    return dir;
  }

  async function replay(run: string, extra: string[] = []): Promise<{ out: string; code: number; stdout: string }> {
    const out = join(tmp(), "replayed");
    const io = capture();
    const code = await main(["replay", run, ...extra, "--out", out], io);
    expect(io.stderr).not.toContain("internal error");
    return { out, code, stdout: io.stdout };
  }

  it("forks with the run's own LLM user and assistant (from turn 0, and from turn 3 with the kept instructions) make only the recorded calls and write the recorded journal, for a run recorded at concurrency 6 as at 1", async () => {
    process.env["OPENAI_API_KEY"] = KEY;
    // Answers a function of the request; latency varying per request, so that at concurrency 6 episodes overtake each other.
    scope.server = await startRoleServer({ sampling: false, chatty: true });
    const six = await generate(6);
    const one = await generate(1);
    expect(summaryOf(six).episodes).toBe(12);
    expect(Object.keys(summaryOf(six).llm.byRole)).toContain("user");
    expect(journalWithoutTimes(six)).toEqual(journalWithoutTimes(one));
    const recorded = journalWithoutTimes(six);
    // From turn 3 on, the new user sees the instructions kept as recorded (its own earlier ones, earlier episodes').
    for (const [run, turn] of [[six, 0], [one, 0], [six, 3]] as const) {
      const asked = scope.server.requests.length;
      // The endpoint stays up: a call the cassette cannot answer would go to it (and be counted).
      const fork = await replay(run, ["--from-episode", "all", "--from-turn", String(turn)]);
      expect(fork.code, fork.stdout).toBe(0);
      expect(fork.stdout).toContain(`12 forked at turn ${turn}`);
      expect(scope.server.requests.length - asked, `fork of ${run} at turn ${turn}`).toBe(0);
      expect(countIn(fork.out, "cassette has no answer")).toBe(0);
      expect(journalWithoutTimes(fork.out), `fork of ${run} at turn ${turn}`).toEqual(recorded);
    }
  });

  it("replays a --run-cache run recorded at concurrency 6 into the same journal (answers shared across episodes as recorded)", async () => {
    process.env["OPENAI_API_KEY"] = KEY;
    scope.server = await startRoleServer({ sampling: true, chatty: true });
    const recorded = await generate(6, ["--run-cache"]);
    // The cache did share a model answer between episodes (a call's key in two episodes' records).
    const episodesOfKey = new Map<string, Set<number>>();
    for (const line of readFileSync(join(recorded, "executor-cache.jsonl"), "utf8").trim().split("\n")) {
      const { episode, answers } = JSON.parse(line) as { episode: number; answers: { key: string }[] };
      for (const a of answers) episodesOfKey.set(a.key, (episodesOfKey.get(a.key) ?? new Set()).add(episode));
    }
    expect([...episodesOfKey.values()].some((e) => e.size > 1)).toBe(true);
    await scope.server.close();
    scope.server = undefined;
    delete process.env["OPENAI_API_KEY"];
    const replayed = await replay(recorded);
    expect(replayed.stdout).toContain("equal");
    expect(replayed.code, replayed.stdout).toBe(0);
    expect(journalWithoutTimes(replayed.out)).toEqual(journalWithoutTimes(recorded));
  });

  it("replays a run priced with a configured price on a local endpoint into the same journal (costs included)", async () => {
    process.env["OPENAI_API_KEY"] = KEY;
    scope.server = await startRoleServer({ sampling: true });
    const root = tmp();
    const config = join(root, "toolsim.config.yaml");
    writeFileSync(config, "llm:\n  prices:\n    test-model: {input: 100000, output: 100000}\n");
    const dir = join(root, "priced");
    const io = capture();
    const code = await main(["generate", "--toolsets", TOOLSETS[1]!, "--episodes", "3", "--concurrency", "2", "--seed", "5", "--model", "openai:test-model", "--base-url", scope.server.baseURL, "--config", config, "--out", dir], io);
    expect(code, io.stderr).toBe(0);
    const costs = readFileSync(join(dir, "events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; from: string; cost?: number })
      .filter((e) => e.type === "llm.call");
    // The executor and tester, whose calls a replay makes again, were priced.
    expect(costs.some((e) => (e.from === "executor" || e.from === "tester") && (e.cost ?? 0) > 0)).toBe(true);
    await scope.server.close();
    scope.server = undefined;
    delete process.env["OPENAI_API_KEY"];
    const replayed = await replay(dir);
    expect(replayed.code, replayed.stdout).toBe(0);
    expect(journalWithoutTimes(replayed.out)).toEqual(journalWithoutTimes(dir));
  });
});
