import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { loadCatalog } from "../../../specs/catalog/load-catalog.js";
import { formatProblem } from "../../../specs/load/spec-problem.js";
import { validateResponse } from "../../../specs/call/validate-response.js";
import { runCli as run } from "../../support/cli-in-process.js";

/**
 * Golden tests of the spec commands (Prism's test-harness style): each case is a command line and the
 * expected exit code, stdout and stderr, stored in test/fixtures/cli/<command>/<case>.txt with absolute paths
 * replaced by placeholders. `UPDATE_GOLDEN=1 npx vitest run test/simulator/cli/cli-spec.test.ts` rewrites them.
 */

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SPECS = fileURLToPath(new URL("../../fixtures/specs/core", import.meta.url));
const GOLDEN = fileURLToPath(new URL("../../fixtures/cli", import.meta.url));
const UPDATE = process.env["UPDATE_GOLDEN"] === "1";

interface Run {
  code: number;
  out: string;
  err: string;
}

const spec = (name: string): string => path.join(SPECS, name);

/** Absolute paths -> placeholders, so goldens hold on any machine. */
function normalize(text: string): string {
  const specs = SPECS.replace(/\/$/, "");
  const root = ROOT.replace(/\/$/, "");
  return text.split(specs).join("<SPECS>").split(root).join("<ROOT>");
}

function render(argv: string[], result: Run): string {
  return normalize(`$ toolsim ${argv.map((a) => (/[\s"'{}]/.test(a) ? `'${a}'` : a)).join(" ")}\nexit: ${result.code}\n--- stdout\n${result.out}--- stderr\n${result.err}`);
}

async function expectGolden(name: string, argv: string[], result: Run): Promise<void> {
  const file = path.join(GOLDEN, `${name}.txt`);
  const actual = render(argv, result);
  if (UPDATE) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, actual);
    return;
  }
  const expected = await fs.readFile(file, "utf8").catch(() => undefined);
  if (expected === undefined) throw new Error(`golden file ${file} is missing: run with UPDATE_GOLDEN=1 to create it`);
  expect(actual).toBe(expected);
}

const STACK_TRACE = /\n\s+at .+[(:]\d+/;

interface GoldenCase {
  name: string;
  argv: string[];
  exit: number;
}

const goldenCases: GoldenCase[] = [
  { name: "spec/check-folder", argv: ["spec", "check", spec("check")], exit: 1 },
  { name: "spec/check-folder-json", argv: ["spec", "check", "--json", spec("check")], exit: 1 },
  { name: "spec/check-good", argv: ["spec", "check", spec("check/good.yaml"), spec("petstore-swagger2.json")], exit: 0 },
  { name: "spec/check-missing-file", argv: ["spec", "check", spec("check/nope.yaml")], exit: 1 },
  { name: "spec/tools", argv: ["spec", "tools", spec("petstore.yaml")], exit: 0 },
  { name: "spec/tools-json", argv: ["spec", "tools", "--json", spec("naming.yaml")], exit: 0 },
  { name: "spec/tools-bad-spec", argv: ["spec", "tools", spec("check/dangling-ref.yaml")], exit: 1 },
  { name: "call/valid-example", argv: ["call", spec("responses.yaml"), "getWeather", "--args", '{"city": "Lyon"}'], exit: 0 },
  { name: "call/valid-no-content", argv: ["call", spec("responses.yaml"), "deleteItem", "--args", '{"itemId": "7"}', "--json"], exit: 0 },
  { name: "call/invalid", argv: ["call", spec("petstore.yaml"), "createPet", "--args", '{"name": "", "status": "lost", "weightKg": "5"}'], exit: 1 },
  { name: "call/invalid-json", argv: ["call", spec("petstore.yaml"), "getPet", "--args", '{"petId": "x"}', "--json"], exit: 1 },
  { name: "call/unknown-tool", argv: ["call", spec("petstore.yaml"), "listPet", "--json"], exit: 1 },
  { name: "call/broken-args", argv: ["call", spec("petstore.yaml"), "getPet", "--args", '{"petId":'], exit: 2 },
  { name: "call/bad-seed", argv: ["call", spec("petstore.yaml"), "getPet", "--seed", "abc"], exit: 2 },
  { name: "call/missing-spec", argv: ["call", spec("nope.yaml"), "getPet"], exit: 1 },
  { name: "call/missing-argument", argv: ["call", spec("petstore.yaml")], exit: 2 },
  { name: "usage/unknown-command", argv: ["frobnicate"], exit: 2 },
  { name: "usage/unknown-option", argv: ["spec", "tools", "--yaml", spec("petstore.yaml")], exit: 2 },
];

describe("toolsim CLI: golden outputs", () => {
  for (const c of goldenCases) {
    it(`${c.name}: toolsim ${c.argv.map((a) => normalize(a)).join(" ")}`, async () => {
      const result = await run(c.argv);
      expect(result.code, `${result.out}\n${result.err}`).toBe(c.exit);
      expect(result.out + result.err).not.toMatch(STACK_TRACE);
      expect(result.err).not.toMatch(/internal error/);
      await expectGolden(c.name, c.argv, result);
    });
  }
});

describe("toolsim spec check", () => {
  it("reports every spec of a folder: good, repaired and bad, with file#pointer and no crash", async () => {
    const result = await run(["spec", "check", spec("check")]);
    expect(result.code).toBe(1);
    const out = normalize(result.out);
    expect(out).toContain("ok   <SPECS>/check/good.yaml (OpenAPI 3.0, 1 operation)");
    expect(out).toContain("ok   <SPECS>/check/repaired.yaml (OpenAPI 3.0, 2 operations, 2 warnings)");
    expect(out).toContain("  <SPECS>/check/repaired.yaml#/paths/status: warning: ");
    expect(out).toContain("FAIL <SPECS>/check/broken.yaml\n  <SPECS>/check/broken.yaml: error: YAML syntax error at line 8, column 3: ");
    expect(out).toContain("FAIL <SPECS>/check/dangling-ref.yaml\n  <SPECS>/check/dangling-ref.yaml#/paths/~1a/get/responses/200/content/application~1json/schema: error: ");
    expect(out).toContain("[not-openapi]");
    expect(out.trimEnd().split("\n").at(-1)).toBe("5 specs: 2 loaded (1 with warnings), 3 failed");
  });

  it("--json prints one parseable object per spec", async () => {
    const result = await run(["spec", "check", "--json", spec("check")]);
    const lines = result.out.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [path.basename(String(l["file"])), l["ok"]])).toEqual([
      ["broken.yaml", false],
      ["dangling-ref.yaml", false],
      ["good.yaml", true],
      ["not-openapi.json", false],
      ["repaired.yaml", true],
    ]);
    expect(lines[2]).toEqual({ file: spec("check/good.yaml"), ok: true, version: "3.0", operations: 1, problems: [] });
    for (const l of lines) {
      for (const p of l["problems"] as Array<Record<string, unknown>>) {
        expect(Object.keys(p).sort()).toEqual(["code", "file", "message", "pointer", "severity"]);
        expect(p["severity"]).toBe(l["ok"] ? "warning" : "error");
      }
    }
  });

  it("an empty folder is a user error, not a crash", async () => {
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), "toolsim-empty-"));
    try {
      const result = await run(["spec", "check", empty]);
      expect(result.code).toBe(1);
      expect(result.err).toBe(`toolsim: no spec files found in: ${empty}\n`);
    } finally {
      await fs.rm(empty, { recursive: true, force: true });
    }
  });
});

describe("toolsim spec tools", () => {
  it("--json is exactly the OpenAI tools form; --with-operations adds each tool's operation beside it", async () => {
    const result = await run(["spec", "tools", "--json", spec("petstore.yaml")]);
    expect(result.code).toBe(0);
    const tools = JSON.parse(result.out) as Array<Record<string, unknown>>;
    expect(tools).toHaveLength(17);
    expect(tools[0]).toEqual({ type: "function", function: expect.objectContaining({ name: "listPets" }) });
    expect(result.out).not.toContain("$ref");
    const withOps = JSON.parse((await run(["spec", "tools", "--json", "--with-operations", spec("petstore.yaml")])).out) as Record<string, any>;
    expect(withOps["operations"]["listPets"]).toMatchObject({ operationId: "listPets", method: "get", path: "/pets" });
    // Each operation's bindings beside it: what a request says about its answer.
    expect(Array.isArray(withOps["operations"]["listPets"]["bindings"])).toBe(true);
  });
});

describe("toolsim call", () => {
  it("prints {status, body, errors, source, request} and is stable for a seed", async () => {
    const argv = ["call", spec("petstore.yaml"), "getPet", "--args", '{"petId": "3"}', "--seed", "7"];
    const a = await run(argv);
    expect(a.code).toBe(0);
    const out = JSON.parse(a.out) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["status", "body", "errors", "source", "request"]);
    expect(out).toMatchObject({ status: 200, errors: [], request: { method: "GET", path: "/pets/3", query: {}, headers: {} } });
    expect((out["body"] as Record<string, unknown>)["id"]).toBe(3);
    expect((await run(argv)).out).toBe(a.out);
    const other = await run(["call", spec("petstore.yaml"), "getPet", "--args", '{"petId": "3"}', "--seed", "8"]);
    expect(other.out).not.toBe(a.out);
  });

  it("--status asks for another response", async () => {
    const result = await run(["call", spec("petstore.yaml"), "getPet", "--args", '{"petId": 3}', "--status", "404", "--json"]);
    expect(result.code).toBe(0);
    const out = JSON.parse(result.out) as Record<string, unknown>;
    expect(out["status"]).toBe(404);
    expect(Object.keys(out["body"] as object).sort()).toEqual(["code", "message"]);
  });
});

describe("toolsim spec sample", () => {
  async function catalogOf(name: string): Promise<Catalog> {
    const loaded = await loadCatalog(spec(name));
    if (!loaded.ok) throw new Error(loaded.errors.map(formatProblem).join("\n"));
    return loaded.value;
  }

  for (const name of ["petstore.yaml", "petstore-3.1.yaml", "petstore-swagger2.json", "responses.yaml", "serialization.yaml", "naming.yaml"]) {
    it(`--json: one line per operation, each call valid and each response valid (${name})`, async () => {
      const catalog = await catalogOf(name);
      const result = await run(["spec", "sample", "--json", "--seed", "3", spec(name)]);
      expect(result.code).toBe(0);
      expect(result.err).toBe("");
      const lines = result.out.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, any>);
      expect(lines).toHaveLength(catalog.tools.length);
      lines.forEach((line, i) => {
        const tool = catalog.tools[i];
        if (!tool) throw new Error("more lines than tools");
        expect(Object.keys(line)).toEqual(["operation", "request", "response"]);
        expect(line["operation"]).toEqual({ operationId: tool.operation.operationId ?? null, method: tool.operation.method, path: tool.operation.path });
        expect(Object.keys(line["request"]).slice(0, 4)).toEqual(["method", "path", "query", "headers"]);
        expect(line["request"]["method"]).toBe(tool.operation.method.toUpperCase());
        expect(line["request"]["path"]).not.toMatch(/[{}]/);
        expect(Object.keys(line["response"])).toEqual(["status", "contentType", "body"]);
        const { status, contentType, body } = line["response"];
        // A synthesized call is valid: never a 4xx problem from validation.
        expect(status, `${tool.name}: ${JSON.stringify(body)}`).toBeLessThan(300);
        expect(validateResponse(catalog, tool, status, body === null ? undefined : body, contentType ?? undefined), tool.name).toEqual([]);
      });
    });
  }

  it("--seed: same seed, same lines; another seed, other lines", async () => {
    const a = await run(["spec", "sample", "--json", "--seed", "11", spec("petstore.yaml")]);
    const b = await run(["spec", "sample", "--json", "--seed", "11", spec("petstore.yaml")]);
    const c = await run(["spec", "sample", "--json", "--seed", "12", spec("petstore.yaml")]);
    expect(b.out).toBe(a.out);
    expect(c.out).not.toBe(a.out);
    const text = await run(["spec", "sample", "--seed", "11", spec("petstore.yaml")]);
    expect(text.code).toBe(0);
    expect(text.out).toContain("### listPets\nGET /pets");
  });
});
