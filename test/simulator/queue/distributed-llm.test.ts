/**
 * Distributed LLM runs on a real Redis with worker processes: the run-wide memories whose use depends on the
 * order of episodes (the LLM user's earlier instructions, the executor's run cache) keep their promise across
 * workers; budgets hold over all workers; a worker with other toolsets refuses the run. A local OpenAI-protocol
 * server plays every role (test/support/llm-roles.ts), with a latency that varies per request.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import { startQueueWorker } from "../../../simulator/queue/queue-worker.js";
import { startCli, stopAll, type CliChild } from "../../support/cli-children.js";
import { capture, countIn, journalWithoutTimes, startRoleServer, summaryOf } from "../../support/llm-roles.js";
import type { OpenAIServer } from "../../support/openai-server.js";
import { redisMissing, startRedis, type TestRedis } from "../../support/redis-server.js";

const TOOLSETS = ["toolsets/bundled/holidays.yaml", "toolsets/bundled/weather.yaml", "toolsets/bundled/currency.yaml"];
const BASE = ["generate", "--toolsets", ...TOOLSETS, "--episodes", "12", "--seed", "5"];
const missing = redisMissing();

describe.skipIf(missing !== undefined)(`distributed LLM runs over 2 worker processes${missing !== undefined ? ` (skipped: ${missing})` : ""}`, () => {
  const root = mkdtempSync(join(tmpdir(), "toolsim-queue-llm-"));
  let redis: TestRedis;
  let server: OpenAIServer | undefined;
  const workers: CliChild[] = [];
  /** The one-process run against the deterministic server (test "same journal as one process"), reused by the budget test. */
  let oneProcess = "";

  beforeAll(async () => {
    redis = await startRedis();
    for (const name of ["a", "b"]) workers.push(startCli(["worker", "--queue", redis.url, "--concurrency", "3", "--lock-ms", "5000", "--name", name]));
    await Promise.all(workers.map((w) => w.waitFor("waiting for runs")));
  }, 60_000);

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  afterAll(async () => {
    await Promise.all(workers.map(async (w) => {
      w.child.kill("SIGTERM");
      await w.exit;
    }));
    stopAll();
    await redis?.stop();
    rmSync(root, { recursive: true, force: true });
  }, 30_000);

  const perWorker = (stderr: string): Record<string, number> => {
    const line = stderr.split("\n").reverse().find((l) => l.startsWith("toolsim: episodes per worker: ")) ?? "";
    return Object.fromEntries(line.replace("toolsim: episodes per worker: ", "").split(", ").filter((x) => x !== "").map((x) => [x.split(" ")[0], Number(x.split(" ")[1])]));
  };

  it("records an LLM run over 2 workers (every role a model, --run-cache, sampling answers) that replays exactly, in one process and over the workers", async () => {
    server = await startRoleServer({ sampling: true, flaky: true });
    const recorded = join(root, "recorded");
    const io = capture();
    const code = await main([...BASE, "--concurrency", "6", "--model", "openai:test-model", "--base-url", server.baseURL, "--retries", "6", "--run-cache", "--queue", redis.url, "--out", recorded], io);
    expect(code, io.stderr).toBe(0);
    const s = summaryOf(recorded);
    expect(s.episodes).toBe(12);
    expect(Object.keys(s.llm.byRole).sort()).toEqual(["assistant", "executor", "tester", "user"]);
    // Both workers ran episodes, and the run cache shared answers between episodes (across workers).
    const counts = perWorker(io.stderr);
    // Which worker took how many is the queue's to decide: only workers of this run took episodes.
    expect(Object.keys(counts).every((w) => w === "a" || w === "b")).toBe(true);
    // Nothing was retried nor rebuilt on the way (no worker lost a job it was running).
    expect(io.stderr).not.toContain("stopped answering");
    for (const w of workers) expect(w.output()).not.toContain("abandoning");
    expect(countIn(recorded, "llm cache hit")).toBeGreaterThan(0);
    expect(readFileSync(join(recorded, "executor-cache.jsonl"), "utf8").trim().split("\n")).toHaveLength(12);
    await server.close();
    server = undefined;

    // In one process, with no endpoint: the same journal.
    const replayed = join(root, "replayed");
    const r1 = capture();
    expect(await main([...BASE, "--concurrency", "6", "--run-cache", "--replay", recorded, "--out", replayed], r1), r1.stderr).toBe(0);
    expect(countIn(replayed, "cassette has no answer")).toBe(0);
    expect(journalWithoutTimes(replayed)).toEqual(journalWithoutTimes(recorded));
    expect(readFileSync(join(replayed, "corpus.jsonl"), "utf8")).toBe(readFileSync(join(recorded, "corpus.jsonl"), "utf8"));
    expect(r1.stdout).toContain(`replayed: ${s.llm.calls} of ${s.llm.calls} model calls answered from the cassette`);

    // Over the workers, with no endpoint: the same journal again.
    const distributed = join(root, "replayed-distributed");
    const r2 = capture();
    expect(await main([...BASE, "--concurrency", "6", "--run-cache", "--replay", recorded, "--queue", redis.url, "--out", distributed], r2), r2.stderr).toBe(0);
    expect(journalWithoutTimes(distributed)).toEqual(journalWithoutTimes(recorded));
    expect(r2.stdout).toContain(`replayed: ${s.llm.calls} of ${s.llm.calls} model calls answered from the cassette`);
  });

  it("gives the journal of one process at concurrency 1 (answers a function of the request, latency varying)", async () => {
    server = await startRoleServer({ sampling: false, chatty: true });
    const args = ["--model", "openai:test-model", "--base-url", server.baseURL, "--run-cache"];
    oneProcess = join(root, "one-process");
    const one = capture();
    expect(await main([...BASE, "--concurrency", "1", ...args, "--out", oneProcess], one), one.stderr).toBe(0);
    const distributed = join(root, "distributed");
    const io = capture();
    expect(await main([...BASE, "--concurrency", "8", ...args, "--queue", redis.url, "--out", distributed], io), io.stderr).toBe(0);
    // The chatty user's candidates share long preambles: which one is chosen depends on the earlier episodes' choices.
    expect(countIn(oneProcess, "Context note")).toBeGreaterThan(0);
    expect(readFileSync(join(distributed, "corpus.jsonl"), "utf8")).toBe(readFileSync(join(oneProcess, "corpus.jsonl"), "utf8"));
    expect(journalWithoutTimes(distributed)).toEqual(journalWithoutTimes(oneProcess));
  });

  it("holds --max-calls over all workers (exit 3, resumable with --queue into the same journal)", async () => {
    server = await startRoleServer({ sampling: false, chatty: true });
    const args = ["--model", "openai:test-model", "--base-url", server.baseURL, "--run-cache"];
    const dir = join(root, "budget");
    const first = capture();
    expect(await main([...BASE, "--concurrency", "4", ...args, "--max-calls", "40", "--queue", redis.url, "--out", dir], first), first.stderr).toBe(3);
    const partial = summaryOf(dir);
    expect(partial.episodes).toBeGreaterThan(0);
    expect(partial.episodes).toBeLessThan(12);
    expect(partial.llm.calls).toBeGreaterThanOrEqual(40);
    expect(partial.llm.calls).toBeLessThan(summaryOf(oneProcess).llm.calls);
    expect(first.stdout).toContain(`--queue ${redis.url}`);
    const rest = capture();
    expect(await main(["generate", "--resume", "--out", dir, "--base-url", server.baseURL, "--max-calls", "100000", "--queue", redis.url], rest), rest.stderr).toBe(0);
    expect(journalWithoutTimes(dir)).toEqual(journalWithoutTimes(oneProcess));
  });

  it("a worker with other toolsets refuses the run, says why, and takes none of its episodes", async () => {
    const mine = join(root, "stale-toolsets");
    rmSync(mine, { recursive: true, force: true });
    const { mkdirSync } = await import("node:fs");
    mkdirSync(mine, { recursive: true });
    for (const t of TOOLSETS) copyFileSync(t, join(mine, t.split("/").pop() as string));
    const holidays = join(mine, "holidays.yaml");
    writeFileSync(holidays, readFileSync(holidays, "utf8").replace("about a hundred countries", "about ninety countries"));
    const lines: string[] = [];
    const stale = await startQueueWorker({ url: redis.url, toolsets: [mine], name: "stale", concurrency: 2, pollMs: 200, log: (l) => lines.push(l) });
    try {
      const dir = join(root, "refused");
      const io = capture();
      expect(await main(["generate", "--toolsets", ...TOOLSETS, "--episodes", "40", "--seed", "5", "--queue", redis.url, "--out", dir], io), io.stderr).toBe(0);
      expect(io.stderr).toMatch(/worker stale refuses this run: toolset holidays: the run has [0-9a-f]{12}, this worker's .*holidays\.yaml has [0-9a-f]{12} \(another version\)/);
      expect(lines.join("\n")).toMatch(/refusing run run-[0-9a-f]+ \(queue [^)]+\): toolset holidays/);
      // The episodes went to the workers that serve the run (which of the two took how many is up to the queue).
      const counts = perWorker(io.stderr);
      expect(Object.keys(counts).every((w) => w === "a" || w === "b")).toBe(true);
      expect(Object.keys(counts).length).toBeGreaterThan(0);
      expect(stale.done()).toBe(0);
    } finally {
      await stale.stop();
    }
  });
});
