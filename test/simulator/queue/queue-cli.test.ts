/**
 * The queue's command-line mistakes and the parts that need no Redis: URLs, job ids, the state log's order, the
 * toolset content hash. Every mistake is one clear line with the right exit code, never a stack trace.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import { jobIdOf, parseJobId } from "../../../simulator/queue/protocol.js";
import { parseRedisUrl } from "../../../simulator/queue/redis-url.js";
import { toolsetHash } from "../../../simulator/queue/run-description.js";
import { compareIds } from "../../../simulator/queue/state-log.js";
import { workerLlmSettings } from "../../../simulator/queue/run-context.js";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import { capture } from "../../support/llm-roles.js";

const root = mkdtempSync(join(tmpdir(), "toolsim-queue-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("queue URLs", () => {
  it("reads redis://[user:password@]host[:port][/db] and shows it without the password", () => {
    const r = parseRedisUrl("redis://worker:s3cret@10.0.0.5:6380/2");
    expect(r).toEqual({ ok: true, value: { host: "10.0.0.5", port: 6380, db: 2, username: "worker", password: "s3cret", tls: false, display: "redis://10.0.0.5:6380/2" } });
    const d = parseRedisUrl("rediss://cache.example.com");
    expect(d.ok && d.value).toMatchObject({ host: "cache.example.com", port: 6379, db: 0, tls: true, display: "rediss://cache.example.com:6379/0" });
  });

  it("refuses other schemes, paths that are not a database and ports out of range, saying which", () => {
    const errors = (u: string): string => {
      const r = parseRedisUrl(u);
      return r.ok ? "" : r.errors.join("; ");
    };
    expect(errors("http://127.0.0.1:6379")).toContain("must start with redis://");
    expect(errors("redis://127.0.0.1:6379/queue")).toContain("must be a database number");
    expect(errors("redis://127.0.0.1:99999")).toMatch(/not a Redis URL|out of range/);
    expect(errors("127.0.0.1:6379")).not.toBe("");
  });
});

describe("job ids and the state log's order", () => {
  it("numbers jobs per epoch and index, and reads them back", () => {
    expect(jobIdOf(3, 41)).toBe("e3-41");
    expect(parseJobId("e3-41")).toEqual({ epoch: 3, index: 41 });
    expect(parseJobId("41")).toBeUndefined();
  });

  it("orders stream ids by time, then sequence (not as text)", () => {
    expect(compareIds("999-5", "1000-0")).toBeLessThan(0);
    expect(compareIds("1000-10", "1000-9")).toBeGreaterThan(0);
    expect(compareIds("1000-1", "1000-1")).toBe(0);
  });
});

describe("what a worker takes from a run", () => {
  it("matches toolsets by content, not by name or path", async () => {
    const a = await loadToolset("toolsets/bundled/weather.yaml");
    const b = await loadToolset("toolsets/bundled/holidays.yaml");
    if (!a.ok || !b.ok) throw new Error("bundled toolsets did not load");
    expect(toolsetHash({ ...a.value, name: "other-name" })).toBe(toolsetHash(a.value));
    expect(toolsetHash(a.value)).not.toBe(toolsetHash(b.value));
    expect(toolsetHash({ ...a.value, description: `${a.value.description}.` })).not.toBe(toolsetHash(a.value));
  });

  it("uses the worker's endpoint over the run's, inline URLs included, and keeps the run's models", () => {
    const s = workerLlmSettings({ model: "openai:gpt-4o-mini@http://10.0.0.1:8000/v1", userModel: "openai:small", baseUrl: "http://10.0.0.1:8000/v1", runCache: true }, { baseUrl: "http://127.0.0.1:9000/v1", llmConcurrency: 32 });
    expect(s).toEqual({ model: "openai:gpt-4o-mini", userModel: "openai:small", baseUrl: "http://127.0.0.1:9000/v1", runCache: true, llmConcurrency: 32 });
    expect(workerLlmSettings({ model: "openai:m@http://10.0.0.1/v1" }, {})).toEqual({ model: "openai:m@http://10.0.0.1/v1" });
  });
});

describe("loading", () => {
  it("the CLI and the library load BullMQ and ioredis only when a queue is used", () => {
    const hook = join("test", "fixtures", "simulator", "record-packages.mjs");
    const script = `await import("./simulator/cli/main.ts"); await import("./simulator/library.ts"); console.log("imported");`;
    const r = spawnSync(process.execPath, ["--no-warnings", "--import", "tsx", "--experimental-loader", `./${hook}`, "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
    expect(r.stdout, r.stderr).toContain("imported");
    const packages = r.stderr.split("\n").filter((l) => l.startsWith("PKG ")).map((l) => l.slice(4));
    expect(packages).toContain("commander");
    expect(packages.filter((p) => p === "bullmq" || p === "ioredis")).toEqual([]);
  });
});

describe("queue command-line mistakes", () => {
  it("worker: a URL that is not redis:// is a usage error (exit 2), in one line", async () => {
    const io = capture();
    expect(await main(["worker", "--queue", "http://127.0.0.1:6379"], io)).toBe(2);
    expect(io.stderr.trim().split("\n")).toEqual(['toolsim: --queue: "http://127.0.0.1:6379": the queue URL must start with redis:// (or rediss:// for TLS), not http://']);
  });

  it("worker: --queue is required; a toolset path that does not exist is refused at start", async () => {
    const none = capture();
    expect(await main(["worker"], none)).toBe(2);
    expect(none.stderr).toContain("required option '--queue <url>' not specified");
    const io = capture();
    expect(await main(["worker", "--queue", "redis://127.0.0.1:1", "--toolsets", join(root, "missing")], io)).toBe(1);
    expect(io.stderr).toBe(`toolsim: no such toolset file or folder: ${join(root, "missing")}\n`);
  });

  it("generate --queue: an unreachable Redis is one line (exit 1) and leaves no run folder", async () => {
    const io = capture();
    const out = join(root, "never");
    expect(await main(["generate", "--episodes", "2", "--queue", "redis://127.0.0.1:1/0", "--out", out], io)).toBe(1);
    expect(io.stderr).toMatch(/toolsim: cannot reach Redis at redis:\/\/127\.0\.0\.1:1\/0: .*ECONNREFUSED.* \(is redis-server running there\?\)\n$/);
    expect(io.stderr).not.toContain("    at ");
    const { existsSync } = await import("node:fs");
    expect(existsSync(out)).toBe(false);
  });

  it("generate --queue: a bad URL is a user error before anything runs", async () => {
    const io = capture();
    expect(await main(["generate", "--episodes", "2", "--queue", "redis://127.0.0.1:6379/x", "--out", join(root, "bad")], io)).toBe(1);
    expect(io.stderr).toContain("the path must be a database number");
  });
});
