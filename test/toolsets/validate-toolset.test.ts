import { promises as fs } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { SpecProblem } from "../../specs/load/spec-problem.js";
import { findToolsetFiles, loadToolset } from "../../toolsets/load-toolset.js";
import { bundledToolsetsDir } from "../../toolsets/load-toolset.js";
import { renderDocumentation, toolsetDocumentation } from "../../toolsets/toolset-documentation.js";
import { checkToolsetSchema, TOOLSET_SCHEMA } from "../../toolsets/toolset-schema.js";
import { checkToolsetData, validateToolsetFile } from "../../toolsets/validate-toolset.js";
import { runCli as run } from "../support/cli-in-process.js";

/**
 * The toolset validator on toolsets written for these tests: a good one, ones with warnings only, and
 * defective ones. CLI output is compared with golden files (test/fixtures/cli/toolset/*.txt, absolute paths
 * replaced); `UPDATE_GOLDEN=1` rewrites them.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../fixtures/toolsets/", import.meta.url));
const GOLDEN = fileURLToPath(new URL("../fixtures/cli/", import.meta.url));
const UPDATE = process.env["UPDATE_GOLDEN"] === "1";
const fixture = (...parts: string[]): string => path.join(FIXTURES, ...parts);

function normalize(text: string): string {
  return text.split(FIXTURES.replace(/\/$/, "")).join("<TOOLSETS>").split(ROOT.replace(/\/$/, "")).join("<ROOT>");
}

async function expectGolden(name: string, argv: string[]): Promise<{ code: number; out: string }> {
  const result = await run(argv);
  const actual = normalize(`$ toolsim ${argv.join(" ")}\nexit: ${result.code}\n--- stdout\n${result.out}--- stderr\n${result.err}`);
  const file = path.join(GOLDEN, `${name}.txt`);
  if (UPDATE) await fs.writeFile(file, actual);
  else expect(actual).toBe(await fs.readFile(file, "utf8"));
  return result;
}

const codes = (problems: readonly SpecProblem[]): string[] => problems.map((p) => `${p.severity}:${p.code}`);

describe("toolset validation", () => {
  it("passes a complete toolset without a warning", async () => {
    const r = await validateToolsetFile(fixture("good", "tides.yaml"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.name).toBe("Tide Tables");
    expect(r.value.catalog.tools.map((t) => t.name)).toEqual(["searchStations", "getStation", "getTides"]);
    expect(r.value.warnings).toEqual([]);
  });

  it("passes every bundled toolset without a warning (the bundled README's claims hold)", async () => {
    const files = await findToolsetFiles([bundledToolsetsDir()]);
    expect(files.length).toBe(15);
    for (const file of files) {
      const r = await validateToolsetFile(file);
      expect(r.ok ? r.value.warnings : r.errors, file).toEqual([]);
    }
  });

  it("reports missing documentation: no introduction, an empty description, no functions, operations without summary", async () => {
    const r = await validateToolsetFile(fixture("defects", "missing-docs.yaml"));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(codes(r.errors)).toEqual(["error:toolset-schema", "error:toolset-schema", "warning:operation-undocumented", "warning:functions-missing"]);
    expect(r.errors.map((p) => p.pointer)).toEqual(["/introduction", "/description", "/openapi/paths/~1things/get", "/functions"]);
  });

  it("reports spec problems with the toolset file and a JSON pointer into its inline spec", async () => {
    const r = await validateToolsetFile(fixture("defects", "bad-spec.yaml"));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toMatchObject({
      file: fixture("defects", "bad-spec.yaml"),
      pointer: "/openapi/paths/~1report/get/responses/200/content/application~1json/schema",
      severity: "error",
      code: "ref-unresolved",
    });
  });

  it("does not stop at a spec error: with an unresolved $ref it still reports what the other checks find", async () => {
    const r = await validateToolsetFile(fixture("defects", "broken-ref-and-more.yaml"));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(codes(r.errors)).toEqual([
      "error:ref-unresolved",
      "warning:checked-partially",
      "warning:operation-undocumented",
      "warning:no-response-schema",
      "warning:functions-missing",
      "warning:id-not-returned",
      "warning:id-not-returned",
    ]);
    expect(r.errors[0]?.pointer).toBe("/openapi/paths/~1orders/get/responses/200/content/application~1json/schema");
    expect(r.errors.filter((p) => p.code === "id-not-returned").map((p) => p.pointer)).toEqual(["/openapi/paths/~1orders~1{orderId}/get", "/openapi/paths/~1invoices~1{invoiceId}/get"]);
    // A spec that does not even parse as a document still gets the toolset-level checks.
    const unusable = await checkToolsetData({ name: "x", introduction: "y", description: "z", openapi: { openapi: "3.0.3", paths: 7 } }, fixture("t.yaml"));
    expect(!unusable.ok && codes(unusable.errors)).toContain("warning:functions-missing");
  });

  it("loads a toolset without function documentation, deriving it from the spec, and validate warns clearly", async () => {
    const data = await readYaml(fixture("good", "tides.yaml"));
    delete data["functions"];
    const dir = await fs.mkdtemp(path.join((await import("node:os")).tmpdir(), "toolsim-nofunctions-"));
    const file = path.join(dir, "tides.yaml");
    await fs.writeFile(file, (await import("yaml")).stringify(data));
    const loaded = await loadToolset(file);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.value.functionsDerived).toBe(true);
    expect(loaded.value.functions).toMatch(/^1\. Name: searchStations\n {3}Description: .+\n {3}Input: \{/);
    expect(loaded.value.functions).toContain("3. Name: getTides");
    expect(renderDocumentation(toolsetDocumentation(loaded.value))).toContain("## Functions (derived from the spec: the toolset has none of its own)\n1. Name: searchStations");
    const written = await loadToolset(fixture("good", "tides.yaml"));
    expect(written.ok && written.value.functionsDerived).toBeUndefined();
    const v = await validateToolsetFile(file);
    expect(v.ok && v.value.warnings.map((w) => [w.code, w.pointer])).toEqual([["functions-missing", "/functions"]]);
    expect(v.ok && v.value.warnings[0]?.message).toMatch(/derives it from the spec/);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("reports problems of a spec in its own file with the spec file's pointer", async () => {
    const r = await validateToolsetFile(fixture("external-spec", "external.yaml"));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toMatchObject({ file: fixture("external-spec", "external.openapi.yaml"), code: "ref-unresolved" });
    expect(r.errors[0]?.pointer).toMatch(/^\/paths\/~1items~1\{itemId\}\/get\/responses\/200/);
  });

  it("warns about operations without a response schema", async () => {
    const r = await validateToolsetFile(fixture("warnings", "no-response-schema.yaml"));
    expect(r.ok && codes(r.value.warnings)).toEqual(["warning:no-response-schema"]);
  });

  it("warns about function documentation and operations that do not match, both ways, and about inputs that differ", async () => {
    const r = await validateToolsetFile(fixture("warnings", "functions-mismatch.yaml"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(codes(r.value.warnings)).toEqual(["warning:function-input-mismatch", "warning:function-not-in-spec", "warning:operation-not-in-functions"]);
    expect(r.value.warnings[0]?.message).toContain('"query", "color"');
    expect(r.value.warnings[0]?.message).toContain('required "q"');
    expect(r.value.warnings[1]?.message).toContain("getGadgetPrice");
    expect(r.value.warnings[2]?.message).toContain("getGadgetStock");
  });

  it("warns when an id an operation needs is returned by no other operation (ToolAlpaca's rule), not for enumerated values", async () => {
    const r = await validateToolsetFile(fixture("warnings", "id-not-returned.yaml"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const ids = r.value.warnings.filter((w) => w.code === "id-not-returned");
    expect(ids.map((w) => w.message.split(" needs ")[0])).toEqual(["getOrder", "getInvoice"]);
    expect(ids.every((w) => w.message.includes('"orderId"'))).toBe(true);
  });

  it("accepts an id that a list returns as `id` of its items, or under the same name", async () => {
    const r = await validateToolsetFile(fixture("good", "tides.yaml"));
    expect(r.ok && r.value.warnings.filter((w) => w.code === "id-not-returned")).toEqual([]);
  });

  it("treats unknown fields as warnings and bad values as errors; broken YAML as an error with its line", async () => {
    const r = await validateToolsetFile(fixture("defects", "unknown-field.yaml"));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(codes(r.errors)).toEqual(["warning:toolset-unknown-field", "error:toolset-schema", "warning:auth-unused"]);
    expect(r.errors[1]?.pointer).toBe("/auth/type");
    const y = await validateToolsetFile(fixture("defects", "not-yaml.yaml"));
    expect(!y.ok && y.errors[0]?.code).toBe("yaml-syntax");
    expect(!y.ok && y.errors[0]?.message).toMatch(/line \d+/);
  });

  it("checks the reference calls of tasks against the spec", async () => {
    const good = await checkToolsetData({ ...(await readYaml(fixture("good", "tides.yaml"))), tasks: [{ instruction: "x", calls: [{ tool: "getTides", arguments: { stationId: 42, extra: 1 } }, { tool: "nope", arguments: {} }] }] }, fixture("good", "t.yaml"));
    expect(good.ok && codes(good.value.warnings)).toEqual(["warning:task-call-invalid", "warning:task-unknown-tool"]);
  });

  it("has a JSON Schema that rejects a file without a spec and accepts both spec forms", () => {
    expect(TOOLSET_SCHEMA["$schema"]).toContain("json-schema.org");
    expect(checkToolsetSchema({ name: "a", introduction: "b", description: "c" }, "f").map((p) => p.pointer)).toEqual(["/openapi"]);
    expect(checkToolsetSchema({ name: "a", introduction: "b", description: "c", openapi: "spec.yaml" }, "f")).toEqual([]);
    expect(checkToolsetSchema({ name: "a", introduction: "b", description: "c", openapi: { openapi: "3.0.3" } }, "f")).toEqual([]);
    expect(checkToolsetSchema({ name: "a", introduction: "b", description: "c", openapi: { paths: {} } }, "f").map((p) => p.message)[0]).toContain('"openapi" must be');
    expect(checkToolsetSchema({ name: "a", introduction: "b", description: "c", openapi: "s", fixtures: { books: [{}] } }, "f")[0]?.message).toContain("start with /");
    // functions: in the quintuple, but optional; the schema says what happens without it.
    expect(TOOLSET_SCHEMA["required"]).not.toContain("functions");
    const functions = (TOOLSET_SCHEMA["properties"] as Record<string, { description: string }>)["functions"];
    expect(functions?.description).toMatch(/derives it from the spec .*functions-missing/);
  });
});

async function readYaml(file: string): Promise<Record<string, unknown>> {
  const { parse } = await import("yaml");
  return parse(await fs.readFile(file, "utf8")) as Record<string, unknown>;
}

describe("npx toolsim toolset validate (golden)", () => {
  it("exits 0 on a good toolset", async () => {
    const r = await expectGolden("toolset/validate-good", ["toolset", "validate", fixture("good")]);
    expect(r.code).toBe(0);
  });

  it("exits 0 with warnings only", async () => {
    const r = await expectGolden("toolset/validate-warnings", ["toolset", "validate", fixture("warnings")]);
    expect(r.code).toBe(0);
  });

  it("exits 1 on errors, listing every problem as file#pointer", async () => {
    const r = await expectGolden("toolset/validate-defects", ["toolset", "validate", fixture("defects"), fixture("external-spec", "external.yaml")]);
    expect(r.code).toBe(1);
  });

  it("writes one JSON object per toolset with --json", async () => {
    const r = await run(["toolset", "validate", "--json", fixture("warnings"), fixture("defects", "bad-spec.yaml")]);
    expect(r.code).toBe(1);
    const lines = r.out.trim().split("\n").map((l) => JSON.parse(l) as { ok: boolean; problems: SpecProblem[]; operations?: number });
    expect(lines.map((l) => l.ok)).toEqual([true, true, true, false]);
    expect(lines[0]?.operations).toBe(2);
    expect(lines[3]?.problems[0]?.code).toBe("ref-unresolved");
  });

  it("fails cleanly on a missing path", async () => {
    const r = await run(["toolset", "validate", fixture("nope.yaml")]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no such file|ENOENT/);
    expect(r.err).not.toMatch(/\n\s+at /);
  });
});
