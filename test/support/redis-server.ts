/**
 * A throwaway `redis-server` for tests (Debian's package): on a free loopback port, without persistence
 * (`--save '' --appendonly no`), in a temporary folder. Tests that need it skip with a clear message when the
 * binary is absent, except under CI=true, where its absence fails them (CI installs it, see .ci/run).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where Debian installs the server; `TOOLSIM_REDIS_SERVER` overrides. */
export const REDIS_SERVER = process.env["TOOLSIM_REDIS_SERVER"] ?? "/usr/bin/redis-server";

/** Whether tests run under CI (where a missing redis-server is a failure, not a skip). */
export const UNDER_CI = /^(true|1|yes)$/i.test(process.env["CI"] ?? "");

/** Why Redis tests cannot run here (undefined: they can). Under CI this is a failure, said by {@link requireRedis}. */
export function redisMissing(): string | undefined {
  if (existsSync(REDIS_SERVER)) return undefined;
  const found = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).stdout.trim();
  return found === "" ? `redis-server is not installed (${REDIS_SERVER}; apt-get install redis-server): the distributed-generation tests are skipped` : undefined;
}

/** The server binary to start (the Debian path, else the one on PATH). */
function serverBinary(): string {
  if (existsSync(REDIS_SERVER)) return REDIS_SERVER;
  return spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).stdout.trim() || REDIS_SERVER;
}

/** Throws under CI when redis-server is missing (the suite must not pass by skipping). */
export function requireRedis(): void {
  const missing = redisMissing();
  if (missing !== undefined && UNDER_CI) throw new Error(`CI=true but ${missing.replace(/: the .*$/, "")}: install it (see .ci/run)`);
}

/** A free TCP port on 127.0.0.1 (the OS picks it; closed again at once). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      const port = typeof address === "object" && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** A running test Redis. */
export interface TestRedis {
  port: number;
  url: string;
  /** The server's process id (CPU accounting in benches). */
  readonly pid: number | undefined;
  /** Kills the server (SIGKILL) and starts a new, empty one on the same port (a restart without persistence). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(serverBinary(), ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--protected-mode", "yes"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`redis-server did not start on port ${port}: ${out.slice(-500)}`)), 10_000);
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr?.on("data", (d: Buffer) => void (out += d.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${out.slice(-500)}`));
    });
  });
}

/** Starts a test Redis on a free loopback port. */
export async function startRedis(): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), "toolsim-redis-"));
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 0; attempt < 5 && !child; attempt++) {
    port = await freePort();
    child = await launch(port, dir).catch(() => undefined);
  }
  if (!child) throw new Error("could not start redis-server on a free port");
  const stopChild = async (c: ChildProcess): Promise<void> => {
    if (c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((r) => c.once("exit", () => r()));
    c.kill("SIGKILL");
    await exited;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    get pid() {
      return child?.pid;
    },
    restart: async () => {
      if (child) await stopChild(child);
      child = await launch(port, dir);
    },
    stop: async () => {
      if (child) await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
