import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import { EXIT_CODES, operationalFailure } from "../../../simulator/cli/operational-error.js";
import { RUN_FILES } from "../../../simulator/runs/run-info.js";

/**
 * Operational errors (a missing file, a closed pipe, a file-size limit or a full disk) end the CLI with one
 * clear line and a documented exit code, never a stack trace; a run stopped by a write failure resumes.
 * The CLI runs as a child process, as a user runs it (`ulimit -f` in a bash wrapper gives EFBIG).
 */

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const ENTRY = fileURLToPath(new URL("../../fixtures/cli-entry.ts", import.meta.url));
const BOOKSTORE = join(ROOT, "toolsets", "bundled", "bookstore.yaml");
const STACK = /\n\s+at /;
const root = mkdtempSync(join(tmpdir(), "toolsim-operational-"));
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

interface Exit {
  code: number | null;
  out: string;
  err: string;
}

/**
 * Runs the CLI in a child, optionally under `ulimit -f <blocks>` (1 KiB blocks); tsx's cache is off so that only
 * toolsim writes files. `closeStdout` closes the reading end of the child's stdout at once (a reader that went away).
 */
function cli(args: string[], options: { fileLimitKb?: number; closeStdout?: boolean; stdoutFile?: string } = {}): Promise<Exit> {
  const node = [process.execPath, "--import", "tsx", ENTRY, ...args];
  const redirect = options.stdoutFile !== undefined ? ' > "$TOOLSIM_STDOUT"' : "";
  const command = options.fileLimitKb !== undefined || redirect !== "" ? ["bash", "-c", `${options.fileLimitKb !== undefined ? `ulimit -f ${options.fileLimitKb}; ` : ""}exec "$0" "$@"${redirect}`, ...node] : node;
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...(options.fileLimitKb !== undefined ? { TSX_DISABLE_CACHE: "1" } : {}), ...(options.stdoutFile !== undefined ? { TOOLSIM_STDOUT: options.stdoutFile } : {}) },
  });
  running.add(child);
  if (options.closeStdout) child.stdout?.destroy();
  let out = "";
  let err = "";
  child.stdout?.on("data", (d: Buffer) => void (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => void (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      running.delete(child);
      resolve({ code, out, err });
    });
  });
}

/** Asserts that stderr is exactly one line (after the progress lines a command prints) and no stack trace. */
function lastLine(err: string): string {
  expect(err).not.toMatch(STACK);
  expect(err).not.toContain("internal error");
  const lines = err.trim().split("\n");
  return lines[lines.length - 1] as string;
}

describe("operational errors are one line with a documented exit code", { timeout: 240_000 }, () => {
  it("a missing file: toolset validate missing.yaml -> exit 1, the path and what is wrong", async () => {
    let err = "";
    const code = await main(["toolset", "validate", join(root, "missing.yaml")], { out: () => undefined, err: (t) => void (err += t), isTTY: false });
    expect(code).toBe(EXIT_CODES.failed);
    expect(err).toBe(`toolsim: ${join(root, "missing.yaml")}: no such file or directory (ENOENT)\n`);
  });

  it("a broken pipe: spec sample whose reader went away (`| head`) -> exit 141, one line", async () => {
    const r = await cli(["spec", "sample", BOOKSTORE, "--json"], { closeStdout: true });
    expect(r.code).toBe(EXIT_CODES.brokenPipe);
    expect(r.err).toBe("toolsim: the output was closed before it was complete (broken pipe); stopped\n");
  });

  it("a broken pipe under generate (`generate | head -1`) -> exit 141, one line saying how to go on; the resumed run is whole", async () => {
    const dir = join(root, "piped");
    const r = await cli(["generate", "--episodes", "12", "--out", dir], { closeStdout: true });
    expect(r.code).toBe(EXIT_CODES.brokenPipe);
    expect(lastLine(r.err)).toBe(
      `toolsim: the output was closed before it was complete (broken pipe); stopped; the run in ${dir} stays resumable: continue with: npx toolsim generate --resume --out ${dir}`,
    );
    const resumed = await cli(["generate", "--resume", "--out", dir]);
    expect(resumed.code).toBe(0);
    const finished = readFileSync(join(dir, RUN_FILES.events), "utf8").split("\n").filter((l) => l.includes('"type":"episode.finished"'));
    expect(finished).toHaveLength(12);
    expect(new Set(finished.map((l) => (JSON.parse(l) as { episodeId: string }).episodeId)).size).toBe(12);
  });

  it("EFBIG on the standard output (spec sample > file under ulimit -f) -> exit 74, one line", async () => {
    const file = join(root, "sample.txt");
    const r = await cli(["spec", "sample", BOOKSTORE], { fileLimitKb: 2, stdoutFile: file });
    expect(r.code).toBe(EXIT_CODES.io);
    expect(lastLine(r.err)).toBe("toolsim: cannot write the standard output: file too large (a file-size limit such as `ulimit -f`, or the file system's) (EFBIG)");
    expect(readFileSync(file).length).toBe(2048);
  });

  describe("a run that hits a file-size limit", () => {
    const dir = join(root, "run");
    const EPISODES = 120;
    let first: Exit;
    beforeAll(async () => {
      first = await cli(["generate", "--episodes", String(EPISODES), "--seed", "3", "--out", dir], { fileLimitKb: 96 });
    });

    it("generate -> exit 74, one line naming the file, the cause and how to continue; the lock is released", () => {
      expect(first.code).toBe(EXIT_CODES.io);
      expect(lastLine(first.err)).toBe(
        `toolsim: cannot write ${join(dir, RUN_FILES.events)}: file too large (a file-size limit such as \`ulimit -f\`, or the file system's) (EFBIG); ` +
          `the run stays resumable: make room, then continue with: npx toolsim generate --resume --out ${dir}`,
      );
      expect(readdirSync(dir).filter((f) => f.startsWith(".toolsim.lock"))).toEqual([]);
    });

    it("generate --resume without the limit completes the run: nothing lost, nothing duplicated", async () => {
      const r = await cli(["generate", "--resume", "--out", dir]);
      expect(r.err).not.toMatch(STACK);
      expect(r.code).toBe(0);
      const starts = readFileSync(join(dir, RUN_FILES.events), "utf8").split("\n").filter((l) => l.includes('"type":"episode.started"'));
      expect(starts.map((l) => (JSON.parse(l) as { index: number }).index)).toEqual(Array.from({ length: EPISODES }, (_, i) => i));
      const projected = [RUN_FILES.corpus, RUN_FILES.rejected].map((f) => readFileSync(join(dir, f), "utf8").split("\n").filter((l) => l !== "").length);
      expect(projected[0]! + projected[1]!).toBe(EPISODES);
    });

    it("export under a file-size limit -> exit 74 naming the file, and no half-written file stays behind", async () => {
      const out = join(root, "export", "train.jsonl");
      const r = await cli(["export", dir, "--format", "openai", "--out", out], { fileLimitKb: 4 });
      expect(r.code).toBe(EXIT_CODES.io);
      expect(lastLine(r.err)).toBe(`toolsim: cannot write ${out}: file too large (a file-size limit such as \`ulimit -f\`, or the file system's) (EFBIG)`);
      expect(existsSync(out)).toBe(false);
      expect(existsSync(`${out}.partial`)).toBe(false);
    });

    it("report under a file-size limit -> exit 74 naming the file, and no half-written file stays behind", async () => {
      const out = join(root, "report.html");
      const r = await cli(["report", dir, "--out", out], { fileLimitKb: 4 });
      expect(r.code).toBe(EXIT_CODES.io);
      expect(lastLine(r.err)).toBe(`toolsim: cannot write ${out}: file too large (a file-size limit such as \`ulimit -f\`, or the file system's) (EFBIG)`);
      expect(existsSync(out)).toBe(false);
      expect(existsSync(`${out}.partial`)).toBe(false);
    });
  });

  it("a full disk (ENOSPC) and other system errors read as one line with exit 74", () => {
    const enospc = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write", path: "runs/x/events.jsonl" });
    expect(operationalFailure(enospc)).toEqual({ message: "cannot write runs/x/events.jsonl: no space left on the device (ENOSPC)", exitCode: 74 });
    expect(operationalFailure(Object.assign(new Error("x"), { code: "EROFS", syscall: "open", path: "/ro/run.json" }))?.exitCode).toBe(74);
    expect(operationalFailure(new TypeError("a bug"))).toBeUndefined();
  });
});
