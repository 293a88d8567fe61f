import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { applyHeapPolicy, HEAP_GROWING_PERCENT } from "../../../simulator/core/heap-policy.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

describe("applyHeapPolicy", () => {
  it("takes a positive whole percent, 50 by default", () => {
    expect(HEAP_GROWING_PERCENT).toBe(50);
    for (const bad of [0, -10, 1.5, Number.NaN]) expect(() => applyHeapPolicy(bad)).toThrow(RangeError);
  });

  it("sets a flag V8 knows (no 'unrecognized flag' from this Node)", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", `(await import("./simulator/core/heap-policy.ts")).applyHeapPolicy(); console.log("ok")`], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    expect(r.stdout).toContain("ok");
    expect(r.stderr).not.toMatch(/unrecognized flag/i);
  });
});
