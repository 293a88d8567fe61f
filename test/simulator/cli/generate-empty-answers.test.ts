import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { RUN_FILES } from "../../../simulator/runs/run-info.js";
import { answersNothing, onlyEmptyReads } from "../../../specs/respond/empty-answer.js";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import { runCli as cli } from "../../support/cli-in-process.js";

// A toolset whose every operation is a read its spec gives no content (no body, a schema that says nothing) can give
// no episode worth keeping when answers are made from the specs: it is left out, and said so.

const BLANK = fileURLToPath(new URL("../../fixtures/toolsets/empty-answers/blank-feeds.yaml", import.meta.url));
const TIDES = fileURLToPath(new URL("../../fixtures/toolsets/good/tides.yaml", import.meta.url));
const STACK = /\n\s+at .+:\d+:\d+/;
const root = mkdtempSync(join(tmpdir(), "toolsim-empty-answers-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("operations that answer nothing", () => {
  it("are told from those whose answer holds something: no content, no schema, a schema of nothing", async () => {
    const blank = await loadToolset(BLANK);
    const tides = await loadToolset(TIDES);
    if (!blank.ok || !tides.ok) throw new Error("fixtures do not load");
    const of = (name: string) => blank.value.catalog.tools.find((t) => t.name === name)!;
    expect(["listFeeds", "getFeed", "listFeedItems"].map((n) => answersNothing(blank.value.catalog, of(n)))).toEqual([true, true, true]);
    expect(onlyEmptyReads(blank.value.catalog)).toBe(true);
    expect(tides.value.catalog.tools.some((t) => answersNothing(tides.value.catalog, t))).toBe(false);
    expect(onlyEmptyReads(tides.value.catalog)).toBe(false);
  });

  it("generate leaves such a toolset out, says so on one line, and plays the others", async () => {
    const out = join(root, "mixed");
    const ran = await cli(["generate", "--toolsets", BLANK, TIDES, "--episodes", "6", "--seed", "3", "--out", out]);
    expect(ran.err).not.toMatch(STACK);
    expect(ran.code).toBe(0);
    expect(ran.err).toMatch(/note: blank-feeds left out: every one of its operations is a read whose spec gives its answer no content/);
    const records = ["corpus", "rejected"].flatMap((f) =>
      readFileSync(join(out, RUN_FILES[f as "corpus" | "rejected"]), "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as { toolsets: string[] }),
    );
    expect(records).toHaveLength(6);
    expect(records.every((r) => r.toolsets.join() === "tides")).toBe(true);
  });

  it("generate with nothing else to play exits 1 with one line saying why, and writes no run", async () => {
    const out = join(root, "blank-only");
    const ran = await cli(["generate", "--toolsets", BLANK, "--episodes", "3", "--out", out]);
    expect(ran.err).not.toMatch(STACK);
    expect(ran.code).toBe(1);
    expect(ran.err.trim().split("\n")).toEqual([expect.stringMatching(/^toolsim: no toolset left to play: every operation of blank-feeds is a read/)]);
    expect(existsSync(join(out, RUN_FILES.run))).toBe(false);
  });
});
