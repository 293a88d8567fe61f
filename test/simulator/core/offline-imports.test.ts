import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * An offline run (the simulation with its default agents, and the bundled toolsets) loads no LangChain and no
 * OpenAI client: they cost tens of MB of memory and a fraction of a second of start-up, for nothing offline.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const HOOK = join(ROOT, "test", "fixtures", "simulator", "record-packages.mjs");

function packagesLoadedBy(modules: readonly string[]): string[] {
  const script = `${modules.map((m) => `await import(${JSON.stringify(m)});`).join(" ")} console.log("imported");`;
  const r = spawnSync(process.execPath, ["--no-warnings", "--import", "tsx", "--experimental-loader", HOOK, "--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(r.stdout, r.stderr).toContain("imported");
  return [...new Set(r.stderr.split("\n").filter((l) => l.startsWith("PKG ")).map((l) => l.slice(4)))].sort();
}

describe("offline imports", () => {
  it("the simulation and the toolset loader load no LangChain, OpenAI or LangSmith package", () => {
    const packages = packagesLoadedBy(["./simulator/core/simulation.ts", "./toolsets/load-toolset.ts", "./agents/assistant/offline/offline-assistant.ts"]);
    expect(packages).toContain("minisearch");
    expect(packages.filter((p) => /^(@langchain\/|langchain$|openai$|langsmith$)/.test(p))).toEqual([]);
  });
});
