/**
 * Distributed generation of offline episodes on a real Redis (Debian's redis-server, started here on a free
 * loopback port) with worker processes: the run folder equals a one-process run of the same seed (except times),
 * whatever happens to a worker, the coordinator or Redis on the way.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import { sized } from "../../support/test-mode.js";
import { finishedEpisodes, startCli, stopAll, until, type CliChild } from "../../support/cli-children.js";
import { capture, journalWithoutTimes } from "../../support/llm-roles.js";
import { redisMissing, requireRedis, startRedis, UNDER_CI, type TestRedis } from "../../support/redis-server.js";

/** The run over 3 workers (300 in the full sweep); the runs of the fault tests are shorter (each compared with its own one-process run). */
const FULL = sized(100, 300);
const SHORT = 150;
const args = (episodes: number): string[] => ["generate", "--episodes", String(episodes), "--seed", "21"];
const missing = redisMissing();

if (missing !== undefined && UNDER_CI) {
  describe("distributed generation, under CI", () => {
    it("has redis-server to run against", () => {
      expect(() => requireRedis()).not.toThrow();
    });
  });
}

describe.skipIf(missing !== undefined)(`distributed generation over worker processes${missing !== undefined ? ` (skipped: ${missing})` : ""}`, () => {
  const root = mkdtempSync(join(tmpdir(), "toolsim-queue-"));
  let redis: TestRedis;
  const references = new Map<number, string>();
  const workers = new Map<string, CliChild>();

  const startWorker = async (name: string): Promise<void> => {
    const w = startCli(["worker", "--queue", redis.url, "--concurrency", "4", "--lock-ms", "3000", "--name", name]);
    workers.set(name, w);
    await w.waitFor("waiting for runs");
  };

  beforeAll(async () => {
    redis = await startRedis();
    await Promise.all(["w1", "w2", "w3"].map(startWorker));
    for (const n of [FULL, SHORT]) {
      const dir = join(root, `reference-${n}`);
      const io = capture();
      expect(await main([...args(n), "--concurrency", "4", "--out", dir], io), io.stderr).toBe(0);
      references.set(n, dir);
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...workers.values()].map(async (w) => {
      w.child.kill("SIGTERM");
      await w.exit;
    }));
    stopAll();
    await redis?.stop();
    rmSync(root, { recursive: true, force: true });
  }, 30_000);

  /** The run folder equals the one-process run: journal except times, corpus and rejected byte for byte. */
  const expectSameRun = (dir: string, episodes: number): void => {
    const reference = references.get(episodes) as string;
    expect(finishedEpisodes(dir)).toBe(episodes);
    expect(readFileSync(join(dir, "corpus.jsonl"), "utf8")).toBe(readFileSync(join(reference, "corpus.jsonl"), "utf8"));
    expect(readFileSync(join(dir, "rejected.jsonl"), "utf8")).toBe(readFileSync(join(reference, "rejected.jsonl"), "utf8"));
    expect(journalWithoutTimes(dir)).toEqual(journalWithoutTimes(reference));
  };

  /** Episodes per worker from the coordinator's last line. */
  const perWorker = (stderr: string): Record<string, number> => {
    const line = stderr.split("\n").reverse().find((l) => l.startsWith("toolsim: episodes per worker: ")) ?? "";
    return Object.fromEntries(line.replace("toolsim: episodes per worker: ", "").split(", ").filter((x) => x !== "").map((x) => [x.split(" ")[0], Number(x.split(" ")[1])]));
  };

  const redisKeys = async (): Promise<string[]> => {
    const r = new Redis({ host: "127.0.0.1", port: redis.port, lazyConnect: true });
    await r.connect();
    const keys = await r.keys("toolsim:*");
    r.disconnect();
    return keys.filter((k) => k !== "toolsim:workers");
  };

  const expectNoKeys = async (): Promise<void> => {
    let keys = await redisKeys();
    for (let i = 0; i < 50 && keys.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      keys = await redisKeys();
    }
    expect(keys).toEqual([]);
  };

  it(`runs ${FULL} offline episodes over 3 worker processes into the corpus of one process (same seed)`, async () => {
    const dir = join(root, "three");
    const io = capture();
    expect(await main([...args(FULL), "--queue", redis.url, "--out", dir], io), io.stderr).toBe(0);
    expectSameRun(dir, FULL);
    const counts = perWorker(io.stderr);
    // Which worker took how many is the queue's to decide: only this run's workers took episodes, every one once.
    expect(Object.keys(counts).every((w) => ["w1", "w2", "w3"].includes(w))).toBe(true);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(FULL);
    expect(io.stderr).toMatch(new RegExp(`episodes \\d+/${FULL} .* ep/s .*\\|\\s+3 workers \\(12 slots\\)`));
    // A finished run leaves nothing in Redis (the workers drop their side of it within a second or two).
    await expectNoKeys();
  });

  it("loses and duplicates nothing when a worker is killed with kill -9 mid-run", async () => {
    const dir = join(root, "worker-killed");
    const io = capture();
    const run = main([...args(SHORT), "--queue", redis.url, "--out", dir], io);
    await until(() => finishedEpisodes(dir) >= 30, "30 episodes written");
    const victim = workers.get("w3") as CliChild;
    victim.child.kill("SIGKILL");
    expect((await victim.exit).signal).toBe("SIGKILL");
    workers.delete("w3");
    expect(await run, io.stderr).toBe(0);
    expectSameRun(dir, SHORT);
    // Whatever it had in flight (the queue decides whether it had any when it died) ran again elsewhere and was
    // written once: the run equals one process's. Every stalled episode it names is one the run wrote.
    for (const m of io.stderr.matchAll(/episode (ep-\d+): its worker stopped answering; it runs again on another worker/g)) {
      expect(readFileSync(join(dir, "events.jsonl"), "utf8")).toContain(`"episodeId":"${m[1] as string}"`);
    }
  });

  it("goes on after the coordinator is killed with kill -9: generate --resume --queue takes the folder and the queue", async () => {
    const dir = join(root, "coordinator-killed");
    const first = startCli([...args(SHORT), "--queue", redis.url, "--out", dir]);
    await until(() => finishedEpisodes(dir) >= 30, "30 episodes written");
    // runs show works on the folder while the coordinator writes it.
    const show = capture();
    expect(await main(["runs", "show", dir], show), show.stderr).toBe(0);
    expect(show.stdout).toMatch(/^run run-[0-9a-f]+ /);
    expect(show.stderr).toMatch(/the run is unfinished: \d+ of 150 episodes \(distributed on queue run-[0-9a-f]+-[0-9a-f]+ at redis:\/\/127\.0\.0\.1:\d+\/0: it may still be running\)/);
    first.child.kill("SIGKILL");
    expect((await first.exit).signal).toBe("SIGKILL");
    const written = finishedEpisodes(dir);
    expect(written).toBeLessThan(SHORT);
    // The queue outlives its coordinator: the workers finish what was queued.
    expect((await redisKeys()).length).toBeGreaterThan(0);
    const io = capture();
    expect(await main(["generate", "--resume", "--out", dir, "--queue", redis.url], io), io.stderr).toBe(0);
    expect(io.stderr).toContain("episodes already queued or done on the workers are taken as they are");
    expectSameRun(dir, SHORT);
    await expectNoKeys();
  });

  it("survives a Redis restart (without persistence): both sides reconnect, the run goes on in a new epoch", async () => {
    const dir = join(root, "redis-restarted");
    // The queue from toolsim.config.yaml this time.
    const config = join(root, "queue.config.yaml");
    writeFileSync(config, `episodes: ${SHORT}\nseed: 21\nqueue: ${redis.url}\n`);
    const io = capture();
    const run = main(["generate", "--config", config, "--out", dir], io);
    await until(() => finishedEpisodes(dir) >= 30, "30 episodes written");
    await redis.restart();
    expect(await run, io.stderr).toBe(0);
    expect(io.stderr).toContain("started epoch 2 of the run from the run folder");
    expectSameRun(dir, SHORT);
  });
});
