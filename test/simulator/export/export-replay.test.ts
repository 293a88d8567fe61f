import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import { EXPORT_FORMATS } from "../../../simulator/export/export-format.js";
import { exportRun } from "../../../simulator/export/export-run.js";
import { replayRun } from "../../../simulator/replay/replay.js";
import { bundledToolsetsDir } from "../../../toolsets/load-toolset.js";

const root = mkdtempSync(join(tmpdir(), "toolsim-export-replay-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const quiet = { out: () => undefined, err: () => undefined, isTTY: false };
const toolsets = ["bookstore", "weather", "accounts", "agenda"].map((n) => join(bundledToolsetsDir(), `${n}.yaml`));

async function generate(out: string): Promise<void> {
  const code = await main(["generate", "--episodes", "16", "--seed", "11", "--toolsets", ...toolsets, "--out", out], quiet);
  expect(code).toBe(0);
}

/** Every format of a run, as text (rejected episodes included, with meta and a split, so nothing is left out). */
async function exportsOf(dir: string, tag: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const format of EXPORT_FORMATS) {
    const base = join(root, `${tag}-${format}.jsonl`);
    const r = await exportRun({ dir, format, out: base, includeRejected: true, meta: true, split: { train: 0.75, seed: 5 } });
    out[format] = r.files.map((f) => readFileSync(f.path, "utf8")).join("\n--\n");
  }
  return out;
}

describe("exports of a replayed run", () => {
  const original = join(root, "original");
  const replayed = join(root, "replayed");
  beforeAll(async () => {
    await generate(original);
    const report = await replayRun({ source: original, out: replayed });
    expect(report.equal).toBe(true);
  });

  it("equal the exports of the original, byte for byte, in every format", async () => {
    const a = await exportsOf(original, "original");
    const b = await exportsOf(replayed, "replayed");
    for (const format of EXPORT_FORMATS) {
      if (format !== "dpo") expect(a[format]?.length, format).toBeGreaterThan(10);
      expect(b[format], format).toBe(a[format]);
    }
  });
});

describe("exports of two runs with the same seed", () => {
  it("are equal (the journal differs only in times, which no format exports)", async () => {
    const a = join(root, "seed-a");
    const b = join(root, "seed-b");
    await generate(a);
    await generate(b);
    expect(readFileSync(join(a, "events.jsonl"), "utf8")).not.toBe("");
    const ea = await exportsOf(a, "a");
    const eb = await exportsOf(b, "b");
    for (const format of EXPORT_FORMATS) expect(eb[format], format).toBe(ea[format]);
  });
});
