import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli, type CliRun } from "../support/cli-in-process.js";

// The spec commands on specs that used to crash them (see also test/simulator/cli-spec.test.ts for the goldens).

const FIXTURES = fileURLToPath(new URL("../fixtures/specs/", import.meta.url));
const fixture = (name: string): string => path.join(FIXTURES, name);
const STACK_TRACE = /\n\s+at .+[(:]\d+/;

async function run(argv: string[]): Promise<CliRun> {
  const result = await runCli(argv);
  expect(result.out + result.err).not.toMatch(STACK_TRACE);
  expect(result.err).not.toMatch(/internal error/);
  return result;
}

describe("toolsim on schemas ajv cannot compile as written", () => {
  it("spec check reports bad patterns and keyword values as warnings with pointers, and $ref cycles as errors", async () => {
    const result = await run(["spec", "check", fixture("defects/schemas/schema-pattern-invalid.yaml"), fixture("defects/schemas/schema-keyword-type.yaml"), fixture("ref-cycle.yaml")]);
    expect(result.code).toBe(1);
    expect(result.out).toContain(`ok   ${fixture("defects/schemas/schema-pattern-invalid.yaml")} (OpenAPI 3.0, 1 operation, 4 warnings)`);
    expect(result.out).toContain(`${fixture("defects/schemas/schema-pattern-invalid.yaml")}#/paths/~1users/get/parameters/0/schema/pattern: warning: pattern "(?i)^[a-z]+$"`);
    expect(result.out).toContain(`${fixture("defects/schemas/schema-keyword-type.yaml")}#/paths/~1items/get/parameters/0/schema/minimum: warning: \`minimum: "abc"\` is not a number: removed [schema-keyword-type]`);
    expect(result.out).toContain(`FAIL ${fixture("ref-cycle.yaml")}\n  ${fixture("ref-cycle.yaml")}#/components/schemas/A: error: $ref cycle`);
    expect(result.out.trimEnd().split("\n").at(-1)).toBe("3 specs: 2 loaded (2 with warnings), 1 failed");
  });

  it("call and sample work on the repaired specs, and fail cleanly (exit 1, the problem) on a $ref cycle", async () => {
    const call = await run(["call", fixture("defects/schemas/schema-pattern-invalid.yaml"), "listUsers", "--args", '{"name": "ALICE"}', "--json"]);
    expect(call.code).toBe(0);
    expect(JSON.parse(call.out)).toMatchObject({ status: 200, errors: [] });
    const sample = await run(["spec", "sample", "--json", fixture("defects/schemas/schema-keyword-type.yaml")]);
    expect(sample.code).toBe(0);
    for (const mode of [["call", fixture("ref-cycle.yaml"), "postA"], ["spec", "sample", fixture("ref-cycle.yaml")]]) {
      const failed = await run(mode);
      expect(failed.code).toBe(1);
      expect(failed.out).toBe("");
      expect(failed.err).toContain(`${fixture("ref-cycle.yaml")}#/components/schemas/A: error: $ref cycle`);
    }
  });
});

describe("toolsim spec check compiles every schema the executor would use", () => {
  it("reports a schema ajv cannot compile as an error at its pointer (--no-compile skips that), and call answers 500", async () => {
    const file = fixture("schema-ref-to-parameter.yaml");
    const checked = await run(["spec", "check", file]);
    expect(checked.code).toBe(1);
    expect(checked.out).toContain(`FAIL ${file}\n  ${file}#/paths/~1items/get/parameters/0/schema: error: the schema at #/paths/~1items/get/parameters/0/schema cannot be used: required value must be ["array"] (operation listItems cannot be validated or simulated) [schema-unusable]`);
    const json = JSON.parse((await run(["spec", "check", "--json", file])).out) as Record<string, unknown>;
    expect(json).toMatchObject({ ok: false, version: "3.0", operations: 1, problems: [{ code: "schema-unusable", severity: "error", pointer: "/paths/~1items/get/parameters/0/schema" }] });
    const quick = await run(["spec", "check", "--no-compile", file]);
    expect(quick.code).toBe(0);
    const call = await run(["call", file, "listItems", "--args", '{"limit": 3}', "--json"]);
    expect(call.code).toBe(1);
    expect(JSON.parse(call.out)).toMatchObject({ status: 500, body: { title: "Unusable operation" }, errors: [{ code: "schema-unusable" }] });
  });
});

describe("toolsim spec tools --json", () => {
  it("is exactly the OpenAI tools form; --with-operations adds the operations beside it", async () => {
    const plain = await run(["spec", "tools", "--json", fixture("core/petstore.yaml")]);
    expect(plain.code).toBe(0);
    const tools = JSON.parse(plain.out) as Array<Record<string, unknown>>;
    expect(tools.length).toBeGreaterThan(0);
    for (const t of tools) {
      expect(Object.keys(t)).toEqual(["type", "function"]);
      expect(Object.keys(t["function"] as object)).toEqual(["name", "description", "parameters"]);
    }
    const withOps = await run(["spec", "tools", "--json", "--with-operations", fixture("core/petstore.yaml")]);
    const both = JSON.parse(withOps.out) as { tools: unknown[]; operations: Record<string, unknown> };
    expect(both.tools).toEqual(tools);
    expect(both.operations["listPets"]).toEqual({
      operationId: "listPets",
      method: "get",
      path: "/pets",
      // What the request says about its answer: the status filter holds for every listed pet, and each has one of the tags asked.
      bindings: [
        { kind: "filter", arg: "status", field: "[].status", match: "exact", source: "inferred" },
        { kind: "filter", arg: "tags", field: "[].tag", match: "oneOf", source: "inferred" },
      ],
    });
    expect(Object.keys(both.operations)).toHaveLength(tools.length);
    const misuse = await run(["spec", "tools", "--with-operations", fixture("core/petstore.yaml")]);
    expect(misuse.code).toBe(2);
    expect(misuse.err).toContain("--with-operations needs --json");
  });
});

describe("toolsim call and spec sample report what did not validate", () => {
  it("call --status with a status the operation does not declare: exit 1, naming the declared ones", async () => {
    const result = await run(["call", fixture("core/petstore.yaml"), "getPet", "--args", '{"petId": 3}', "--status", "418", "--json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out)).toMatchObject({ status: 404, errors: [{ location: ["status"], code: "status", message: "status 418 is not declared for getPet (declared: 200, 404)" }] });
  });

  it("call prints the response's validation errors when its body does not validate (exit 1)", async () => {
    const result = await run(["call", fixture("unsatisfiable.yaml"), "impossibleBody", "--json"]);
    expect(result.code).toBe(1);
    const out = JSON.parse(result.out) as Record<string, unknown>;
    expect(out["errors"]).toEqual([]);
    expect((out["responseErrors"] as unknown[]).length).toBeGreaterThan(0);
    expect(result.err).toMatch(/^toolsim: the response does not validate against its schema: response\.body /);
    const fine = await run(["call", fixture("unsatisfiable.yaml"), "fine", "--json"]);
    expect(fine.code).toBe(0);
    expect(Object.keys(JSON.parse(fine.out) as object)).toEqual(["status", "body", "errors", "source", "request"]);
  });

  it("spec sample exits 1 when a synthesized call was rejected or a response did not validate, with counts on stderr", async () => {
    const result = await run(["spec", "sample", "--json", fixture("unsatisfiable.yaml")]);
    expect(result.code).toBe(1);
    expect(result.out.trimEnd().split("\n")).toHaveLength(3);
    expect(result.err.split("\n")).toEqual([
      expect.stringMatching(/^toolsim: impossibleBody: the response does not validate: response\.body /),
      expect.stringMatching(/^toolsim: impossibleArgs: the synthesized call was rejected: query\.code must NOT have/),
      "toolsim: 1 of 3 synthesized calls were rejected",
      "toolsim: 1 of 3 responses did not validate",
      "",
    ]);
  });
});
