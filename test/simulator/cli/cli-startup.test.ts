import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuiltCli, ROOT, TOOLSIM_BIN } from "../../support/built-cli.js";

// A command loads what it uses: `toolsim --version` no dependency beyond the CLI parser, an offline `generate`
// neither the LLM clients, nor the HTTP server, nor MCP, nor the queue.

/** A module hook that writes the name of every package the process loads to stderr. */
const RECORD_PACKAGES = `data:text/javascript,${encodeURIComponent(`
import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const m = /node_modules\\\\/((?:@[^/]+\\\\/)?[^/]+)/.exec(result.url);
  if (m) process.stderr.write("package " + m[1] + "\\\\n");
  return result;
}\`));
`)}`;

function packagesLoaded(args: string[]): { status: number | null; packages: Set<string>; stderr: string } {
  const result = spawnSync(process.execPath, ["--import", RECORD_PACKAGES, TOOLSIM_BIN, ...args], { cwd: ROOT, encoding: "utf8" });
  const packages = new Set([...result.stderr.matchAll(/^package (\S+)$/gm)].map((m) => m[1]!));
  return { status: result.status, packages, stderr: result.stderr };
}

let dir: string;
beforeAll(() => {
  ensureBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "toolsim-startup-"));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("CLI startup", () => {
  it("--version loads nothing but the CLI parser", () => {
    const { status, packages } = packagesLoaded(["--version"]);
    expect(status).toBe(0);
    expect([...packages].filter((p) => p !== "commander")).toEqual([]);
  });

  it("an offline generate loads neither LLM clients, HTTP server, MCP nor queue", () => {
    const { status, packages, stderr } = packagesLoaded(["generate", "--episodes", "2", "--out", join(dir, "run")]);
    expect(status, stderr).toBe(0);
    expect(packages.has("compromise")).toBe(true);
    for (const heavy of ["@langchain/openai", "@langchain/core", "hono", "@hono/node-server", "@modelcontextprotocol/sdk", "bullmq", "ioredis"]) expect(packages, heavy).not.toContain(heavy);
  });

  it("--help still lists every command", () => {
    const result = spawnSync(process.execPath, [TOOLSIM_BIN, "--help"], { cwd: ROOT, encoding: "utf8" });
    expect(result.status).toBe(0);
    for (const name of ["generate", "runs", "doctor", "spec", "call", "toolset", "serve", "export", "stats", "report", "replay", "diff", "tasks", "eval", "worker"]) expect(result.stdout).toMatch(new RegExp(`^  ${name}\\b`, "m"));
  });
});
