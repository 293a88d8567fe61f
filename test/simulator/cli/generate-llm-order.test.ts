/**
 * LLM runs whose episodes finish in another order than they start: the journal must not depend on it.
 * A local OpenAI-protocol server answers every role plausibly after a scripted latency that varies per
 * request, so episodes overtake each other; the user's near-duplicate check and the executor's run cache
 * are the run-wide memory whose use must not depend on completion order.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import { capture, llmRunScope, countIn, journalWithoutTimes, startRoleServer as startServer, summaryOf } from "../../support/llm-roles.js";

const TOOLSETS = ["toolsets/bundled/holidays.yaml", "toolsets/bundled/weather.yaml", "toolsets/bundled/currency.yaml"];

describe("LLM runs do not depend on the order episodes finish in", () => {
  const scope = llmRunScope("toolsim-llm-order-");
  const tmp = scope.tmp;

  const base = ["generate", "--toolsets", ...TOOLSETS, "--episodes", "12", "--seed", "5"];

  /** Records a run at concurrency 6 against a sampling, flaky server with variable latency; replays it with the server closed. */
  async function recordThenReplay(extra: string[]): Promise<{ recorded: string; replayed: string; replayOut: string }> {
    process.env["OPENAI_API_KEY"] = "sk-test-order-0123456789";
    scope.server = await startServer({ sampling: true, flaky: true });
    const recorded = join(tmp(), "recorded");
    const io = capture();
    const code = await main([...base, "--concurrency", "6", "--model", "openai:test-model", "--base-url", scope.server.baseURL, "--retries", "6", ...extra, "--out", recorded], io);
    expect(io.stderr).not.toContain("internal error");
    expect(code, io.stderr).toBe(0);
    await scope.server.close();
    scope.server = undefined;
    delete process.env["OPENAI_API_KEY"];
    // No --model, no --base-url: the models come from the recorded run.json, and the run id is the same.
    const replayed = join(tmp(), "replayed");
    const replayIO = capture();
    const replayCode = await main([...base, "--concurrency", "6", ...extra, "--replay", recorded, "--out", replayed], replayIO);
    expect(replayIO.stderr).not.toContain("internal error");
    expect(replayCode).toBe(0);
    return { recorded, replayed, replayOut: replayIO.stdout };
  }

  it("replays a run recorded at concurrency 6 (all four roles LLM, latency varying per request) into the same journal", async () => {
    const { recorded, replayed, replayOut } = await recordThenReplay([]);
    const s = summaryOf(recorded);
    expect(s.episodes).toBe(12);
    expect(s.accepted).toBeGreaterThan(0); // so the LLM judge ran too
    expect(Object.keys(s.llm.byRole).sort()).toEqual(["assistant", "executor", "tester", "user"]);
    expect(journalWithoutTimes(replayed)).toEqual(journalWithoutTimes(recorded));
    expect(readFileSync(join(replayed, "corpus.jsonl"), "utf8")).toBe(readFileSync(join(recorded, "corpus.jsonl"), "utf8"));
    expect(countIn(replayed, "cassette has no answer")).toBe(0);
    expect(replayOut).toContain(`replayed: ${s.llm.calls} of ${s.llm.calls} model calls answered from the cassette`);
  });

  it("replays a --run-cache run recorded at concurrency 6 into the same journal, answers shared across episodes", async () => {
    const { recorded, replayed } = await recordThenReplay(["--run-cache"]);
    expect(summaryOf(recorded).episodes).toBe(12);
    // The cache did share answers between episodes (else this test would prove nothing about it).
    expect(countIn(recorded, "llm cache hit")).toBeGreaterThan(0);
    expect(existsSync(join(recorded, "executor-cache.jsonl"))).toBe(true);
    expect(journalWithoutTimes(replayed)).toEqual(journalWithoutTimes(recorded));
    expect(readFileSync(join(replayed, "corpus.jsonl"), "utf8")).toBe(readFileSync(join(recorded, "corpus.jsonl"), "utf8"));
    expect(countIn(replayed, "cassette has no answer")).toBe(0);
  });

  it("gives the same journal and corpus at concurrency 1 and 8 (answers a function of the request, latency varying)", async () => {
    process.env["OPENAI_API_KEY"] = "sk-test-order-0123456789";
    scope.server = await startServer({ sampling: false });
    const run = async (concurrency: number): Promise<string> => {
      const dir = join(tmp(), `c${concurrency}`);
      const io = capture();
      const code = await main([...base, "--concurrency", String(concurrency), "--model", "openai:test-model", "--base-url", scope.server?.baseURL ?? "", "--run-cache", "--out", dir], io);
      expect(io.stderr).not.toContain("internal error");
      expect(code, io.stderr).toBe(0);
      return dir;
    };
    const one = await run(1);
    const eight = await run(8);
    expect(summaryOf(one).episodes).toBe(12);
    expect(readFileSync(join(eight, "corpus.jsonl"), "utf8")).toBe(readFileSync(join(one, "corpus.jsonl"), "utf8"));
    expect(journalWithoutTimes(eight)).toEqual(journalWithoutTimes(one));
  });

  it("resumes an interrupted --run-cache run as the uninterrupted one goes on: its replay is the same journal", async () => {
    process.env["OPENAI_API_KEY"] = "sk-test-order-0123456789";
    scope.server = await startServer({ sampling: true });
    const dir = join(tmp(), "interrupted");
    const args = [...base, "--concurrency", "4", "--model", "openai:test-model", "--base-url", scope.server.baseURL, "--run-cache", "--out", dir];
    const first = capture();
    expect(await main([...args, "--max-calls", "40"], first), first.stderr).toBe(3);
    const partial = summaryOf(dir).episodes;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(12);
    const resumed = capture();
    expect(await main(["generate", "--resume", "--out", dir, "--base-url", scope.server.baseURL, "--max-calls", "100000"], resumed)).toBe(0);
    expect(summaryOf(dir).episodes).toBe(12);
    await scope.server.close();
    scope.server = undefined;
    delete process.env["OPENAI_API_KEY"];
    // The replay runs all 12 episodes in one go: equal only if the resumed part saw what the first part decided.
    const replayed = join(tmp(), "replayed");
    const io = capture();
    expect(await main([...base, "--concurrency", "4", "--run-cache", "--replay", dir, "--out", replayed], io)).toBe(0);
    expect(countIn(replayed, "cassette has no answer")).toBe(0);
    expect(journalWithoutTimes(replayed)).toEqual(journalWithoutTimes(dir));
  });
});
