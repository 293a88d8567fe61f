import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { getAt } from "../../specs/json-pointer.js";
import type { LoadedSpec } from "../../specs/load/loaded-spec.js";
import { loadSpec } from "../../specs/load/load-spec.js";
import type { Result } from "../../specs/result.js";
import type { SpecProblem } from "../../specs/load/spec-problem.js";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CORPORA = path.resolve(REPO_ROOT, process.env["TOOLSIM_CORPORA"] ?? "../shared/corpora");
const OPENAPI_FOLDERS = ["openapi/oas3", "openapi/swagger2"];
const TOOLALPACA = path.join(CORPORA, "toolalpaca", "eval_simulated.json");

function specFiles(folder: string): string[] {
  const dir = path.join(CORPORA, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.(json|ya?ml)$/i.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

interface Tally {
  loaded: number;
  withWarnings: number;
  failed: number;
  ms: number;
  codes: Map<string, number>;
  failures: string[];
}
const tallies = new Map<string, Tally>();
function tally(group: string, result: Result<LoadedSpec, SpecProblem>, label: string, ms: number): void {
  const t = tallies.get(group) ?? { loaded: 0, withWarnings: 0, failed: 0, ms: 0, codes: new Map<string, number>(), failures: [] };
  tallies.set(group, t);
  t.ms += ms;
  const list = result.ok ? result.value.warnings : result.errors;
  if (result.ok) t.loaded++;
  else {
    t.failed++;
    t.failures.push(`${label}: ${result.errors.map((p) => `${p.code} @ ${p.pointer}`).slice(0, 3).join("; ")}`);
  }
  if (result.ok && list.length > 0) t.withWarnings++;
  for (const p of list) t.codes.set(p.code, (t.codes.get(p.code) ?? 0) + 1);
}

/** A problem anyone can act on: a stable code, a message, a JSON pointer. */
function expectClear(p: SpecProblem): void {
  expect(p.code).toMatch(/^[a-z0-9.-]+$/);
  expect(p.code).not.toBe("load-failed"); // an unexpected exception turned into a problem: a loader bug
  expect(p.message.length).toBeGreaterThan(0);
  expect(p.pointer === "" || p.pointer.startsWith("/")).toBe(true);
  expect(["error", "warning"]).toContain(p.severity);
}

/** What every loaded document promises: OpenAPI 3.x, JSON-serialisable, only internal $refs that resolve. */
function expectUsable(spec: LoadedSpec): void {
  expect(spec.document.openapi).toMatch(/^3\.[01]\./);
  const json = JSON.stringify(spec.document);
  for (const m of json.matchAll(/"\$ref":"((?:[^"\\]|\\.)*)"/g)) {
    const ref = JSON.parse(`"${m[1] ?? ""}"`) as string;
    expect(ref.startsWith("#")).toBe(true);
    expect(getAt(spec.document, ref), ref).toBeDefined();
  }
}

async function timedLoad(source: string | object, label?: string): Promise<{ result: Result<LoadedSpec, SpecProblem>; ms: number }> {
  const start = performance.now();
  const result = await loadSpec(source, label === undefined ? {} : { label });
  return { result, ms: performance.now() - start };
}

// Without the shared corpora the per-file tests cannot be listed: one skipped test per corpus says so (counted).
describe.skipIf(existsSync(CORPORA))(`load corpora (not found at ${CORPORA}; set TOOLSIM_CORPORA)`, () => {
  for (const name of [...OPENAPI_FOLDERS, "toolalpaca/eval_simulated.json"]) it(`${name}: every spec loads or reports clear problems`, () => undefined);
});

describe.skipIf(!existsSync(CORPORA))(`load corpora in ${CORPORA}`, () => {
  afterAll(() => {
    for (const [group, t] of tallies) {
      const codes = [...t.codes].map(([c, n]) => `${c}×${n}`).join(", ") || "none";
      console.log(
        `[load-corpora] ${group}: ${t.loaded} loaded (${t.withWarnings} with warnings), ${t.failed} failed, ${t.ms.toFixed(0)} ms; problem codes: ${codes}` +
          (t.failures.length > 0 ? `\n  ${t.failures.join("\n  ")}` : ""),
      );
    }
  });

  for (const folder of OPENAPI_FOLDERS) {
    const files = specFiles(folder);
    describe.skipIf(files.length === 0)(folder, () => {
      it.each(files.map((f) => [path.basename(f), f] as const))("%s loads or reports clear problems", async (_name, file) => {
        const { result, ms } = await timedLoad(file);
        tally(folder, result, path.basename(file), ms);
        if (result.ok) {
          expect(result.value.sourceVersion).toBe(folder.endsWith("swagger2") ? "2.0" : result.value.dialect);
          result.value.warnings.forEach(expectClear);
          expectUsable(result.value);
        } else {
          expect(result.errors.length).toBeGreaterThan(0);
          result.errors.forEach(expectClear);
        }
      });
    });
  }

  const entries: Array<{ Name: string; Documentation: string }> = existsSync(TOOLALPACA) ? (JSON.parse(readFileSync(TOOLALPACA, "utf8")) as Array<{ Name: string; Documentation: string }>) : [];
  describe.skipIf(entries.length === 0)("toolalpaca/eval_simulated.json", () => {
    it.each(entries.map((e) => [e.Name, e] as const))("%s loads", async (name, entry) => {
      const { result, ms } = await timedLoad(JSON.parse(entry.Documentation) as object, `toolalpaca:${name}`);
      tally("toolalpaca", result, name, ms);
      if (!result.ok) throw new Error(result.errors.map((p) => `${p.code} @ ${p.pointer}: ${p.message}`).join("\n"));
      expect(result.value.file).toBe(`toolalpaca:${name}`);
      result.value.warnings.forEach(expectClear);
      expectUsable(result.value);
    });
  });
});
