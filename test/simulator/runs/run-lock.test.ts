import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { acquireRunLock, LOCK_FILE, lockHolder } from "../../../simulator/runs/run-lock.js";
import { RUN_FILES, type RunInfo } from "../../../simulator/runs/run-info.js";
import { RunStore } from "../../../simulator/runs/run-store.js";
import { ToolsimError } from "../../../specs/toolsim-error.js";
import { startScript, stopAll } from "../../support/cli-children.js";
import { sized } from "../../support/test-mode.js";

/**
 * One writer per run folder: a second process (two `generate --resume` on one folder) refuses with the holder's
 * pid and what to do, a dead holder's lock is taken over, and what the folder holds afterwards is one run, with
 * nothing duplicated, that `export` and `replay` read as usual.
 */

const ENTRY = fileURLToPath(new URL("../../fixtures/cli-entry.ts", import.meta.url));
const HOLDER = fileURLToPath(new URL("../../fixtures/runs/lock-holder.ts", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "toolsim-lock-"));
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  stopAll();
  rmSync(root, { recursive: true, force: true });
});

const start = (script: string, args: string[], stdin: "ignore" | "pipe" = "ignore"): ReturnType<typeof startScript> => startScript(args, { script, stdin });

async function waitFor(condition: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The pid of a process that has exited (and been reaped): a dead holder. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  const pid = child.pid as number;
  await new Promise((r) => child.on("close", r));
  return pid;
}

function writeLock(dir: string, holder: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ startedAt: "2025-01-01T00:00:00.000Z", command: "generate", ...holder }));
}

const INFO: RunInfo = { id: "lock-test", createdAt: "2025-01-01T00:00:00.000Z", seed: 1, config: {}, versions: { toolsim: "0", node: "20", dependencies: {} }, specHashes: {} };

describe("the lock of a folder", () => {
  it("refuses a lock held by a live process on this host, naming its pid and what to do", async () => {
    const dir = join(root, "live");
    const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    running.add(sleeper);
    try {
      writeLock(dir, { pid: sleeper.pid, hostname: hostname() });
      let error: unknown;
      try {
        acquireRunLock(dir, "generate");
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ToolsimError);
      expect((error as ToolsimError).code).toBe("run.locked");
      expect((error as Error).message).toContain(`pid ${sleeper.pid} on ${hostname()}`);
      expect((error as Error).message).toContain(`kill ${sleeper.pid}`);
      expect(lockHolder(dir)?.pid).toBe(sleeper.pid);
    } finally {
      sleeper.kill("SIGKILL");
    }
  });

  it("takes over the lock of a dead process, and releases it", async () => {
    const dir = join(root, "stale");
    writeLock(dir, { pid: await deadPid(), hostname: hostname() });
    expect(lockHolder(dir)).toBeUndefined();
    const lock = acquireRunLock(dir, "generate");
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8"))).toMatchObject({ pid: process.pid, hostname: hostname(), command: "generate" });
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it("refuses a lock of another host (its process cannot be checked) and says which file to remove", () => {
    const dir = join(root, "remote");
    writeLock(dir, { pid: 4242, hostname: "another-host.example" });
    expect(() => acquireRunLock(dir, "generate")).toThrow(/pid 4242 on another-host\.example.*remove .*\.toolsim\.lock/);
  });

  it("is re-entrant for one command, but two run stores of one process cannot write one folder", async () => {
    const dir = join(root, "reentrant");
    const command = acquireRunLock(dir, "generate");
    const store = await RunStore.create(dir, INFO);
    await expect(RunStore.open(dir)).rejects.toMatchObject({ code: "run.locked" });
    store.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    command.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    expect(existsSync(join(dir, RUN_FILES.events))).toBe(true);
  });

  it("of processes racing for one stale lock, exactly one wins; the others name it", { timeout: 120_000 }, async () => {
    const dir = join(root, "race");
    writeLock(dir, { pid: await deadPid(), hostname: hostname() });
    const racers = Array.from({ length: 4 }, () => start(HOLDER, [dir], "pipe"));
    await waitFor(() => racers.every((r) => r.output().includes("\n")), "every racer's outcome");
    const winners = racers.filter((r) => r.output().startsWith("locked "));
    expect(winners).toHaveLength(1);
    const winner = winners[0] as (typeof racers)[number];
    for (const r of racers.filter((x) => x !== winner)) expect(r.output()).toContain(`refused ${dir} is in use by another toolsim process (pid ${winner.child.pid} `);
    winner.child.stdin?.end();
    const exits = await Promise.all(racers.map((r) => r.exit));
    expect(exits.map((e) => e.code).sort()).toEqual([0, 3, 3, 3]);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });
});

describe("the other commands that write a folder hold its lock too", () => {
  it("replay --out and toolset build refuse a folder another process holds (exit 75, its pid named), and write nothing there", { timeout: 120_000 }, async () => {
    const { main } = await import("../../../simulator/cli/main.js");
    const io = () => {
      const o = { out: "", err: "" };
      return { o, io: { out: (t: string) => void (o.out += t), err: (t: string) => void (o.err += t), isTTY: false } };
    };
    const run = join(root, "source-run");
    expect(await main(["generate", "--episodes", "3", "--out", run], io().io)).toBe(0);
    const held = join(root, "held");
    const holder = start(HOLDER, [held], "pipe");
    await waitFor(() => holder.output().startsWith("locked "), "the holder's lock");
    try {
      const replay = io();
      expect(await main(["replay", run, "--out", held], replay.io)).toBe(75);
      expect(replay.o.err).toContain(`${held} is in use by another toolsim process (pid ${holder.child.pid} `);
      const list = join(root, "public_apis.json");
      writeFileSync(list, JSON.stringify({ entries: [{ API: "Cat Facts", Description: "Daily cat facts", Auth: "", HTTPS: true, Cors: "no", Link: "https://catfacts.example.com", Category: "Animals" }] }));
      const build = io();
      expect(await main(["toolset", "build", "--from", list, "--out", held, "--model", "openai:test-model@http://127.0.0.1:9/v1"], build.io)).toBe(75);
      expect(build.o.err).toContain(`pid ${holder.child.pid}`);
      expect(readdirSync(held).filter((f) => !f.startsWith(LOCK_FILE))).toEqual([]);
    } finally {
      holder.child.stdin?.end();
      await holder.exit;
    }
  });
});

describe("two generate --resume on one folder", () => {
  // The first run is frozen (SIGSTOP) after its first episode, so a few dozen episodes leave most of the run to
  // the process that takes the stale lock over.
  const EPISODES = sized(40, 200);

  it("the second refuses (exit 75, one line with the holder's pid); after a kill -9 the stale lock is taken over; nothing is duplicated and export and replay read the run", { timeout: 300_000 }, async () => {
    const dir = join(root, "run");
    const first = start(ENTRY, ["generate", "--episodes", String(EPISODES), "--seed", "5", "--resume", "--out", dir]);
    const pid = first.child.pid as number;
    await waitFor(() => existsSync(join(dir, LOCK_FILE)) && existsSync(join(dir, RUN_FILES.events)) && readFileSync(join(dir, RUN_FILES.events), "utf8").includes('"episode.finished"'), "the first run's first episode");
    // Freeze the first run mid-way: it still holds the folder.
    first.child.kill("SIGSTOP");
    const second = await start(ENTRY, ["generate", "--resume", "--out", dir]).exit;
    expect(second.code).toBe(75);
    expect(second.err.trim().split("\n")).toHaveLength(1);
    expect(second.err).toContain(`toolsim: ${dir} is in use by another toolsim process (pid ${pid} on ${hostname()}, generate --resume since `);
    expect(second.err).toContain(`kill ${pid}`);
    expect(second.err).not.toMatch(/\n\s+at /);

    // The holder dies without releasing: its lock is stale and the next resume takes it over.
    first.child.kill("SIGKILL");
    await first.exit;
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    const third = await start(ENTRY, ["generate", "--resume", "--out", dir]).exit;
    expect(third.err).not.toMatch(/\n\s+at /);
    expect(third.code).toBe(0);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);

    const events = readFileSync(join(dir, RUN_FILES.events), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { type: string; index?: number });
    const started = events.filter((e) => e.type === "episode.started").map((e) => e.index);
    expect(started).toEqual(Array.from({ length: EPISODES }, (_, i) => i));
    const count = (file: string): number => readFileSync(join(dir, file), "utf8").split("\n").filter((l) => l !== "").length;
    const accepted = count(RUN_FILES.corpus);
    expect(accepted + count(RUN_FILES.rejected)).toBe(EPISODES);

    const out = join(root, "export.jsonl");
    const exported = await start(ENTRY, ["export", dir, "--format", "openai", "--out", out]).exit;
    expect(exported.err).not.toMatch(/\n\s+at /);
    expect(exported.code).toBe(0);
    expect(readFileSync(out, "utf8").split("\n").filter((l) => l !== "")).toHaveLength(accepted);
    const replayed = await start(ENTRY, ["replay", dir]).exit;
    expect(replayed.err).not.toMatch(/\n\s+at /);
    expect(replayed.code).toBe(0);
  });
});
