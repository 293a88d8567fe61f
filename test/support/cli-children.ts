/**
 * The toolsim CLI as child processes (`node --import tsx test/fixtures/cli-entry.ts ...`), as a user runs it on
 * other machines: workers and coordinators of distributed runs that tests can kill with SIGKILL.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ENTRY = fileURLToPath(new URL("../fixtures/cli-entry.ts", import.meta.url));

/** A CLI child: its output so far, and its exit. */
export interface CliChild {
  child: ChildProcess;
  output(): string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once the output contains `text` (rejects after `timeoutMs`). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
}

/** Children not yet exited: `stopAll` kills them, each by its own handle. */
const running = new Set<ChildProcess>();

/** Starts the CLI with these arguments. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = process.env): CliChild {
  const child = spawn(process.execPath, ["--import", "tsx", ENTRY, ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  let out = "";
  child.stdout?.on("data", (d: Buffer) => void (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => void (out += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  const waitFor = (text: string | RegExp, timeoutMs = 30_000): Promise<void> =>
    new Promise((resolve, reject) => {
      const started = Date.now();
      const check = (): void => {
        if (typeof text === "string" ? out.includes(text) : text.test(out)) resolve();
        else if (child.exitCode !== null || child.signalCode !== null) reject(new Error(`the child exited before "${String(text)}":\n${out.slice(-2000)}`));
        else if (Date.now() - started > timeoutMs) reject(new Error(`no "${String(text)}" within ${timeoutMs} ms:\n${out.slice(-2000)}`));
        else setTimeout(check, 50);
      };
      check();
    });
  return { child, output: () => out, exit, waitFor };
}

/** How a script child ended, with its stdout and stderr apart. */
export interface ScriptExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

/**
 * Starts a script as a child (`node --import tsx <script> ...args`; the CLI entry unless `script` says
 * otherwise), keeping its stdout and stderr apart; `output()` is its stdout so far.
 */
export function startScript(args: string[], options: { script?: string; stdin?: "ignore" | "pipe" } = {}): { child: ChildProcess; exit: Promise<ScriptExit>; output: () => string } {
  const child = spawn(process.execPath, ["--import", "tsx", options.script ?? ENTRY, ...args], { cwd: ROOT, stdio: [options.stdin ?? "ignore", "pipe", "pipe"] });
  running.add(child);
  let out = "";
  let err = "";
  child.stdout?.on("data", (d: Buffer) => void (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => void (err += d.toString()));
  const exit = new Promise<ScriptExit>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      running.delete(child);
      resolve({ code, signal, out, err });
    });
  });
  return { child, exit, output: () => out };
}

/** Kills every child still running (after a failed test). */
export function stopAll(): void {
  for (const child of running) child.kill("SIGKILL");
}

/** Episodes finished in a run folder's journal so far. */
export function finishedEpisodes(dir: string): number {
  const path = join(dir, "events.jsonl");
  if (!existsSync(path)) return 0;
  return readFileSync(path, "utf8").split('"type":"episode.finished"').length - 1;
}

/** Resolves once `check()` holds (polling), or rejects after `timeoutMs` with `what`. */
export async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
