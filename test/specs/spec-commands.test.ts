import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "../../simulator/cli/main.js";

// The spec commands on specs that used to crash them (see also test/simulator/cli-spec.test.ts for the goldens).

const FIXTURES = fileURLToPath(new URL("../fixtures/specs/", import.meta.url));
const fixture = (name: string): string => path.join(FIXTURES, name);
const STACK_TRACE = /\n\s+at .+[(:]\d+/;

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => void (out += s), err: (s) => void (err += s), isTTY: false });
  expect(out + err).not.toMatch(STACK_TRACE);
  expect(err).not.toMatch(/internal error/);
  return { code, out, err };
}

describe("toolsim on schemas ajv cannot compile as written", () => {
  it("spec check reports bad patterns and keyword values as warnings with pointers, and $ref cycles as errors", async () => {
    const result = await run(["spec", "check", fixture("defects/schema-pattern-invalid.yaml"), fixture("defects/schema-keyword-type.yaml"), fixture("ref-cycle.yaml")]);
    expect(result.code).toBe(1);
    expect(result.out).toContain(`ok   ${fixture("defects/schema-pattern-invalid.yaml")} (OpenAPI 3.0, 1 operation, 4 warnings)`);
    expect(result.out).toContain(`${fixture("defects/schema-pattern-invalid.yaml")}#/paths/~1users/get/parameters/0/schema/pattern: warning: pattern "(?i)^[a-z]+$"`);
    expect(result.out).toContain(`${fixture("defects/schema-keyword-type.yaml")}#/paths/~1items/get/parameters/0/schema/minimum: warning: \`minimum: "abc"\` is not a number: removed [schema-keyword-type]`);
    expect(result.out).toContain(`FAIL ${fixture("ref-cycle.yaml")}\n  ${fixture("ref-cycle.yaml")}#/components/schemas/A: error: $ref cycle`);
    expect(result.out.trimEnd().split("\n").at(-1)).toBe("3 specs: 2 loaded (2 with warnings), 1 failed");
  });

  it("call and sample work on the repaired specs, and fail cleanly (exit 1, the problem) on a $ref cycle", async () => {
    const call = await run(["call", fixture("defects/schema-pattern-invalid.yaml"), "listUsers", "--args", '{"name": "ALICE"}', "--json"]);
    expect(call.code).toBe(0);
    expect(JSON.parse(call.out)).toMatchObject({ status: 200, errors: [] });
    const sample = await run(["spec", "sample", "--json", fixture("defects/schema-keyword-type.yaml")]);
    expect(sample.code).toBe(0);
    for (const mode of [["call", fixture("ref-cycle.yaml"), "postA"], ["spec", "sample", fixture("ref-cycle.yaml")]]) {
      const failed = await run(mode);
      expect(failed.code).toBe(1);
      expect(failed.out).toBe("");
      expect(failed.err).toContain(`${fixture("ref-cycle.yaml")}#/components/schemas/A: error: $ref cycle`);
    }
  });
});
