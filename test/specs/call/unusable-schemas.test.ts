import { describe, expect, it } from "vitest";
import { buildCatalog, type Catalog } from "../../../specs/catalog/catalog.js";
import { checkSchemasCompile } from "../../../specs/load/check-schemas-compile.js";
import { validateHttpCall } from "../../../specs/call/http-call.js";
import type { LoadedSpec, OpenApiDocument } from "../../../specs/load/loaded-spec.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import { UNUSABLE_SCHEMA, unusableReason } from "../../../specs/catalog/schema-registry.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { synthesize } from "../../../specs/synthesize/synthesize.js";
import { synthesizeArguments } from "../../../specs/synthesize/synthesize-call.js";
import { validateCall } from "../../../specs/call/validate-call.js";

// `loadSpec` repairs or rejects the schemas ajv cannot use (see load-spec.test.ts). These documents skip it, as a
// catalog built from a hand-made LoadedSpec would: validation, synthesis and simulation must still never throw.

type Json = Record<string, unknown>;

function rawCatalog(paths: Json, schemas: Json = {}): Catalog {
  const document = { openapi: "3.0.3", info: { title: "raw", version: "1" }, paths, components: { schemas } } as unknown as OpenApiDocument;
  const spec: LoadedSpec = { file: "<raw>", sourceVersion: "3.0", dialect: "3.0", document, hash: "", warnings: [] };
  return buildCatalog(spec);
}

const json = (schema: unknown): Json => ({ content: { "application/json": { schema } } });

const catalog = rawCatalog(
  {
    "/regex": { get: { operationId: "badRegex", parameters: [{ name: "q", in: "query", required: true, schema: { type: "string", pattern: "(?i)^abc$" } }], responses: { "200": { description: "ok", ...json({ type: "string" }) } } } },
    "/enum": { get: { operationId: "badEnum", responses: { "200": { description: "ok", ...json({ type: "string", enum: "x" }) } } } },
    "/minimum": { post: { operationId: "badMinimum", requestBody: { required: true, ...json({ type: "object", properties: { n: { type: "integer", minimum: "abc" } } }) }, responses: { "201": { description: "ok" } } } },
    "/cycle": { get: { operationId: "refCycle", responses: { "200": { description: "ok", ...json({ $ref: "#/components/schemas/A" }) } } } },
    "/allof": { get: { operationId: "allOfCycle", responses: { "200": { description: "ok", ...json({ $ref: "#/components/schemas/Wide" }) } } } },
    "/wide": { post: { operationId: "allOfCycleBody", requestBody: { required: true, ...json({ $ref: "#/components/schemas/Wide" }) }, responses: { "204": { description: "ok" } } } },
    "/fine": { get: { operationId: "fine", responses: { "200": { description: "ok", ...json({ type: "object", required: ["ok"], properties: { ok: { type: "boolean" } } }) } } } },
  },
  { A: { $ref: "#/components/schemas/B" }, B: { $ref: "#/components/schemas/A" }, Wide: { allOf: [{ $ref: "#/components/schemas/Wide" }, { type: "object" }] } },
);

describe("schemas ajv cannot use", () => {
  it("compile to validators that reject everything and say why, instead of throwing", () => {
    const registry = catalog.registry;
    const pointer = "/paths/~1enum/get/responses/200/content/application~1json/schema";
    const validate = registry.validatorAt("response", pointer);
    expect(validate("x")).toBe(false);
    expect(validate.errors).toEqual([expect.objectContaining({ keyword: UNUSABLE_SCHEMA, message: expect.stringContaining(`the schema at #${pointer} cannot be used: enum value must be`) })]);
    expect(registry.compileError("response", pointer)).toBe(unusableReason(validate));
    expect(registry.compileError("response", "/paths/~1cycle/get/responses/200/content/application~1json/schema")).toContain("a $ref cycle");
    expect(registry.compileError("response", "/paths/~1fine/get/responses/200/content/application~1json/schema")).toBeUndefined();
  });

  it("a validator whose schema recurses forever at validation time answers false with the reason", () => {
    const validate = catalog.registry.validatorAt("response", "/components/schemas/Wide");
    expect(validate({})).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: UNUSABLE_SCHEMA, message: expect.stringContaining("a $ref cycle") });
  });

  it("a call whose parameter schema is unusable is a 500 problem naming the schema, not the caller's fault", () => {
    const result = validateCall(catalog, "badRegex", { q: "abc" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toMatchObject({ status: 500, title: "Unusable operation" });
    expect(result.errors).toEqual([
      expect.objectContaining({ code: UNUSABLE_SCHEMA, message: expect.stringContaining("#/paths/~1regex/get/parameters/0/schema cannot be used: pattern \"(?i)^abc$\" is not a valid regular expression") }),
    ]);
  });

  it("synthesis, argument synthesis and simulation survive every such operation", async () => {
    for (const tool of catalog.tools) {
      const args = synthesizeArguments(catalog, tool, { seed: 1 });
      const result = await simulateCall(catalog, { name: tool.name, arguments: args }, { seed: 1, state: new ResourceStore() });
      if (tool.name === "fine") {
        expect(result.errors).toEqual([]);
        expect(result.responseErrors).toEqual([]);
        continue;
      }
      const issues = [...result.errors, ...result.responseErrors];
      expect(issues.map((i) => i.code), tool.name).toContain(UNUSABLE_SCHEMA);
    }
    expect(synthesize(catalog.registry, "response", "/components/schemas/A", { seed: 3 }).valid).toBe(false);
  });

  it("the HTTP entry of serve (validateHttpCall) answers the same 500 problem", () => {
    const tool = catalog.get("badRegex");
    if (!tool) throw new Error("no tool");
    const result = validateHttpCall(catalog, tool, { pathParams: {}, query: new URLSearchParams("q=abc"), header: () => undefined });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatchObject({ status: 500, title: "Unusable operation" });
  });

  it("checkSchemasCompile reports each unusable schema once, at its pointer, with the operation", () => {
    const problems = checkSchemasCompile(catalog);
    expect(problems.map((p) => `${p.code} @ ${p.pointer}`)).toEqual([
      "schema-unusable @ /paths/~1regex/get/parameters/0/schema",
      "schema-unusable @ /paths/~1enum/get/responses/200/content/application~1json/schema",
      "schema-unusable @ /paths/~1minimum/post/requestBody/content/application~1json/schema",
      "schema-unusable @ /paths/~1cycle/get/responses/200/content/application~1json/schema",
    ]);
    for (const p of problems) expect(p).toMatchObject({ file: "<raw>", severity: "error", message: expect.stringMatching(/cannot be used: .+ \(operation \w+ cannot be validated or simulated\)$/) });
  });
});
