import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli as run } from "../../support/cli-in-process.js";

/** `toolsim call`, `spec sample` and `spec check` on the schemas that froze them (issue 14). */

const HOSTILE = fileURLToPath(new URL("../../fixtures/specs/hostile/hostile.yaml", import.meta.url));

describe("toolsim on hostile specs", () => {
  it("call: validates a ReDoS pattern on a 100,000-character argument at once", async () => {
    const miss = await run(["call", HOSTILE, "listCodes", "--json", "--args", JSON.stringify({ code: `${"a".repeat(100_000)}!` })]);
    expect(miss.code).toBe(1);
    const result = JSON.parse(miss.out) as { status: number; errors: Array<{ location: string[]; code: string }> };
    expect(result.status).toBe(422);
    expect(result.errors).toEqual([expect.objectContaining({ location: ["query", "code"], code: "pattern" })]);
    const hit = await run(["call", HOSTILE, "createCode", "--json", "--args", JSON.stringify({ code: "a".repeat(100_000) })]);
    expect(hit.code).toBe(0);
    expect(JSON.parse(hit.out)).toMatchObject({ status: 201, errors: [] });
  });

  it("call: huge minimums give a bounded answer with the caps named, and the caps are options", async () => {
    const r = await run(["call", HOSTILE, "getHuge", "--json", "--max-items", "4", "--max-string-length", "10"]);
    expect(r.code).toBe(1); // the answer cannot satisfy the schema: said, not hidden
    const result = JSON.parse(r.out) as { status: number; body: { items: unknown[]; text: string }; warnings: string[]; responseErrors: unknown[] };
    expect(result.status).toBe(200);
    expect(result.body.items).toHaveLength(4);
    expect(result.body.text).toHaveLength(10);
    expect(result.warnings).toEqual([expect.stringContaining("maxItems (4, --max-items)"), expect.stringContaining("maxStringLength (10, --max-string-length)")]);
    expect(r.err).toContain("does not validate against its schema");
    const bad = await run(["call", HOSTILE, "getHuge", "--request-budget-ms", "soon"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--request-budget-ms must be an integer");
  });

  it("spec sample: finishes every operation, and says which answers the caps cut", async () => {
    const r = await run(["spec", "sample", HOSTILE, "--json"]);
    const lines = r.out.trim().split("\n").map((l) => JSON.parse(l) as { operation: { operationId: string }; response: { status: number; body: unknown } });
    expect(lines.map((l) => l.operation.operationId)).toEqual(["listCodes", "createCode", "putTags", "getTree", "getEndlessTree", "getHuge", "checkPassword"]);
    expect(r.err).toContain("getEndlessTree: the schema at #/paths/~1endless-tree/get/responses/200/content/application~1json/schema has no finite value");
    expect(r.err).toContain("getHuge: synthesis cap maxItems (1000, --max-items) reached");
    expect(r.err).toContain("2 of 7 responses did not validate");
    expect(r.code).toBe(1);
    const codes = lines.find((l) => l.operation.operationId === "listCodes")?.response.body as { code: string };
    expect(/^a+$/.test(codes.code)).toBe(true);
  });

  it("spec check: reports the patterns it translated and the ones it could not accept, with their pointers", async () => {
    const r = await run(["spec", "check", HOSTILE]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("#/paths/~1passwords/get/parameters/0/schema/pattern: warning: pattern \"^(?=.*[A-Z])(?=.*\\\\d)[A-Za-z\\\\d]{8,}$\" runs on the linear-time engine as translated: lookahead (?=...) checked separately");
    expect(r.out).toContain("#/paths/~1passwords/get/parameters/1/schema/pattern: warning: pattern \"^(\\\\w+)-\\\\1$\" is not runnable in linear time (a backreference needs backtracking): removed, any string of the type is allowed [schema-pattern-unsupported]");
    expect(r.out).toContain("[schema-pattern-translated]");
  });
});
