import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog } from "../../../specs/catalog/catalog.js";
import { checkSchemasCompile } from "../../../specs/load/check-schemas-compile.js";
import { findSpecFiles } from "../../../specs/load/find-spec-files.js";
import { getAt } from "../../../specs/json-pointer.js";
import type { LoadedSpec, LoadOptions } from "../../../specs/load/loaded-spec.js";
import { loadSpec } from "../../../specs/load/load-spec.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { formatProblem, type SpecProblem } from "../../../specs/load/spec-problem.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/specs", import.meta.url));
const fixture = (name: string): string => path.join(FIXTURES, name);

async function loaded(source: string | object, options?: LoadOptions): Promise<LoadedSpec> {
  const result = await loadSpec(typeof source === "string" ? fixture(source) : source, options);
  if (!result.ok) throw new Error(`expected ${String(typeof source === "string" ? source : "object")} to load:\n${result.errors.map(formatProblem).join("\n")}`);
  return result.value;
}

async function problems(source: string | object, options?: LoadOptions): Promise<SpecProblem[]> {
  const result = await loadSpec(typeof source === "string" ? fixture(source) : source, options);
  if (result.ok) throw new Error(`expected ${String(source)} to fail, it loaded with ${result.value.warnings.length} warnings`);
  return result.errors;
}

/** `code @ pointer` of each error problem, for compact assertions. */
const errorsOf = (list: SpecProblem[]): string[] => list.filter((p) => p.severity === "error").map((p) => `${p.code} @ ${p.pointer}`);
const warningsOf = (spec: LoadedSpec): string[] => spec.warnings.map((p) => `${p.code} @ ${p.pointer}`);

/** Every `$ref` in a document, with where it is. */
function refsIn(node: unknown, at = ""): Array<{ at: string; ref: string }> {
  if (Array.isArray(node)) return node.flatMap((item, i) => refsIn(item, `${at}/${i}`));
  if (typeof node !== "object" || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === "$ref" && typeof value === "string" ? [{ at, ref: value }] : refsIn(value, `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`),
  );
}

const sha256 = (data: string | Buffer): string => createHash("sha256").update(data).digest("hex");

describe("loadSpec: versions and formats", () => {
  it("loads an OpenAPI 3.0 YAML file as is", async () => {
    const spec = await loaded("petstore-3.0.yaml");
    expect(spec.file).toBe(fixture("petstore-3.0.yaml"));
    expect(spec).toMatchObject({ sourceVersion: "3.0", dialect: "3.0", warnings: [] });
    expect(spec.hash).toBe(sha256(await fs.readFile(fixture("petstore-3.0.yaml"))));
    expect(getAt(spec.document, "/paths/~1pets/get/operationId")).toBe("listPets");
    expect(getAt(spec.document, "/paths/~1pets~1{petId}/get/responses/default")).toEqual({ $ref: "#/components/responses/Error" });
    expect(getAt(spec.document, "/components/schemas/NewPet/properties/tag")).toEqual({ type: "string", nullable: true });
  });

  it("loads an OpenAPI 3.1 JSON file with 3.1 schemas untouched", async () => {
    const spec = await loaded("petstore-3.1.json");
    expect(spec).toMatchObject({ sourceVersion: "3.1", dialect: "3.1", warnings: [] });
    expect(getAt(spec.document, "/components/schemas/Pet/properties/tag/type")).toEqual(["string", "null"]);
    expect(getAt(spec.document, "/components/schemas/Pet/properties/id/exclusiveMinimum")).toBe(0);
    expect(getAt(spec.document, "/webhooks/newPet/post/responses/200/description")).toBe("Received");
  });

  it("converts Swagger 2.0 to OpenAPI 3.0", async () => {
    const spec = await loaded("petstore-swagger2.yaml");
    expect(spec).toMatchObject({ sourceVersion: "2.0", dialect: "3.0", warnings: [] });
    const doc = spec.document as unknown as Record<string, unknown>;
    expect(doc["openapi"]).toMatch(/^3\.0\./);
    expect(doc["swagger"]).toBeUndefined();
    expect(doc["definitions"]).toBeUndefined();
    expect(getAt(doc, "/servers/0/url")).toBe("https://petstore.example.com/v2");
    expect(getAt(doc, "/components/schemas/Pet/required")).toEqual(["name"]);
    expect(getAt(doc, "/paths/~1pets/get/responses/200/content/application~1json/schema/items")).toEqual({ $ref: "#/components/schemas/Pet" });
    expect(getAt(doc, "/paths/~1pets/post/requestBody")).toEqual({ required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } });
    expect(getAt(doc, "/paths/~1pets~1{petId}~1photo/post/requestBody/content/multipart~1form-data/schema/properties/file")).toEqual({ type: "string", format: "binary" });
    expect(getAt(doc, "/paths/~1pets/get/parameters/0/schema")).toEqual({ type: "array", items: { type: "string" } });
  });

  it("reports what the Swagger 2.0 converter patched", async () => {
    const spec = await loaded("defects/document/swagger2-patches.yaml");
    expect(warningsOf(spec)).toEqual(["swagger2-patched @ ", "swagger2-conversion @ /paths/~1pets/get/parameters/0"]);
    expect(JSON.stringify(spec.document)).not.toContain("x-s2o-warning");
  });

  it("loads an already-parsed object, hashing its JSON and leaving it untouched", async () => {
    const source = { openapi: "3.0.3", info: { title: "Inline", version: 2 }, paths: { pets: { get: { operationId: "listPets" } } } };
    const before = structuredClone(source);
    const spec = await loaded(source, { label: "inline-pets" });
    expect(spec.file).toBe("inline-pets");
    expect(spec.hash).toBe(sha256(JSON.stringify(before)));
    expect(source).toEqual(before);
    expect(warningsOf(spec)).toEqual(["info-version-type @ /info/version", "path-leading-slash @ /paths/pets", "operation-without-responses @ /paths/~1pets/get"]);
    expect(spec.warnings.every((w) => w.file === "inline-pets" && w.severity === "warning")).toBe(true);
    const unlabelled = await loaded({ openapi: "3.1.0", info: { title: "x", version: "1" }, paths: {} });
    expect(unlabelled.file).toBe("<inline>");
  });

  it("keeps recursive schemas as internal $refs (bundled, never dereferenced)", async () => {
    const spec = await loaded("recursive.yaml");
    expect(spec.warnings).toEqual([]);
    expect(getAt(spec.document, "/components/schemas/Node/properties/children/items")).toEqual({ $ref: "#/components/schemas/Node" });
    expect(getAt(spec.document, "/components/schemas/Person/properties/garden")).toEqual({ $ref: "#/components/schemas/Node" });
    expect(() => JSON.stringify(spec.document)).not.toThrow();
  });
});

describe("loadSpec: $ref policy", () => {
  it("bundles file $refs in a subfolder into internal $refs, recursion included", async () => {
    const spec = await loaded("external/api.yaml");
    expect(spec.warnings).toEqual([]);
    const refs = refsIn(spec.document);
    expect(refs.length).toBeGreaterThan(0);
    for (const { ref } of refs) {
      expect(ref.startsWith("#/")).toBe(true);
      expect(getAt(spec.document, ref)).toBeDefined();
    }
    expect(getAt(spec.document, "/paths/~1pets~1{id}/get/parameters/0/name")).toBe("id");
    expect(getAt(spec.document, "/paths/~1pets~1{id}/get/responses/200/content/application~1json/schema/required")).toEqual(["id", "name"]);
    const folder = "/paths/~1folders/get/responses/200/content/application~1json/schema";
    expect(getAt(spec.document, `${folder}/properties/subfolders/items`)).toEqual({ $ref: `#${folder}` });
  });

  it("rejects a file $ref that leaves the spec's folder", async () => {
    const errors = await problems("escape/api.yaml");
    expect(errorsOf(errors)).toEqual(["ref-outside-root @ /paths/~1secrets/get/responses/200/content/application~1json/schema"]);
    expect(errors[0]?.file).toBe(fixture("escape/api.yaml"));
    expect(errors[0]?.message).toContain("/etc/passwd");
  });

  it("rejects an escaping $ref inside a referenced file, located in that file", async () => {
    const errors = await problems("escape-nested/api.yaml");
    expect(errorsOf(errors)).toEqual(["ref-outside-root @ /properties/stolen"]);
    expect(errors[0]?.file).toBe(fixture("escape-nested/inner.yaml"));
  });

  it("confines file $refs to options.root, which may be wider or narrower than the spec's folder", async () => {
    expect(errorsOf(await problems("up/api.yaml"))).toEqual(["ref-outside-root @ /paths/~1things/get/responses/200/content/application~1json/schema"]);
    const wider = await loaded("up/api.yaml", { root: FIXTURES });
    expect(getAt(wider.document, "/paths/~1things/get/responses/200/content/application~1json/schema/properties/id")).toEqual({ type: "string" });
    const narrower = await problems("external/api.yaml", { root: fixture("shared") });
    expect(narrower.length).toBeGreaterThan(0);
    expect(new Set(narrower.map((p) => p.code))).toEqual(new Set(["ref-outside-root"]));
  });

  describe("symlinks", () => {
    let dir = "";
    beforeAll(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), "toolsim-load-spec-"));
      await fs.mkdir(path.join(dir, "spec"));
      await fs.writeFile(path.join(dir, "secret.yaml"), "type: string\n");
      await fs.symlink(path.join(dir, "secret.yaml"), path.join(dir, "spec", "innocent.yaml"));
      await fs.writeFile(
        path.join(dir, "spec", "api.yaml"),
        'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200": {description: x, content: {application/json: {schema: {$ref: "./innocent.yaml"}}}}\n',
      );
    });
    afterAll(async () => {
      if (dir !== "") await fs.rm(dir, { recursive: true, force: true });
    });
    it("rejects a file $ref that leaves the root through a symlink", async () => {
      const result = await loadSpec(path.join(dir, "spec", "api.yaml"));
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(errorsOf(result.errors)).toEqual(["ref-outside-root @ /paths/~1a/get/responses/200/content/application~1json/schema"]);
      expect(result.errors[0]?.message).toContain("link");
    });
  });

  it("resolves file $refs of an object source against options.root, and confines them to it", async () => {
    const source = {
      openapi: "3.0.3",
      info: { title: "Inline", version: "1" },
      paths: { "/pets": { get: { responses: { "200": { description: "Pets", content: { "application/json": { schema: { $ref: "./petstore-3.0.yaml#/components/schemas/NewPet" } } } } } } } },
    };
    const spec = await loaded(source, { root: FIXTURES, label: "inline" });
    expect(getAt(spec.document, "/paths/~1pets/get/responses/200/content/application~1json/schema/required")).toEqual(["name"]);
    const escaping = { ...source, components: { schemas: { Secret: { $ref: "file:///etc/passwd" } } } };
    const errors = await problems(escaping, { root: FIXTURES, label: "inline" });
    expect(errorsOf(errors)).toEqual(["ref-outside-root @ /components/schemas/Secret"]);
    expect(errors[0]?.file).toBe("inline");
  });

  it("refuses $refs over http by default", async () => {
    const errors = await problems("http-ref.yaml");
    expect(errorsOf(errors)).toEqual(["ref-http-disabled @ /paths/~1pets/get/responses/200/content/application~1json/schema"]);
    expect(errors[0]?.message).toContain("https://schemas.example.com/pet.json");
  });

  it("passes http $refs to swagger-parser when allowed (a private address is still refused, without network)", async () => {
    expect(errorsOf(await problems("http-ref-local.yaml"))).toEqual(["ref-http-disabled @ /paths/~1pets/get/responses/200/content/application~1json/schema"]);
    const allowed = await problems("http-ref-local.yaml", { allowHttpRefs: true });
    expect(errorsOf(allowed)).toEqual(["ref-unresolved @ /paths/~1pets/get/responses/200/content/application~1json/schema"]);
  });

  it("reports a dangling $ref with the pointer of the $ref", async () => {
    const errors = await problems("dangling.yaml");
    expect(errorsOf(errors)).toEqual(["ref-unresolved @ /paths/~1pets/get/responses/200/content/application~1json/schema"]);
    expect(errors[0]?.message).toContain("#/components/schemas/Missing");
  });
});

describe("loadSpec: bad input is a problem, never an exception", () => {
  it("reports a missing file", async () => {
    const errors = await problems("no-such-spec.yaml");
    expect(errors).toEqual([expect.objectContaining({ code: "file-not-found", file: fixture("no-such-spec.yaml"), pointer: "", severity: "error" })]);
  });

  it("reports broken YAML with line and column", async () => {
    const errors = await problems("broken.yaml");
    expect(errorsOf(errors)).toEqual(["yaml-syntax @ "]);
    expect(errors[0]?.message).toMatch(/line 9, column 3/);
  });

  it("reports broken JSON with line and column", async () => {
    const errors = await problems("broken.json");
    expect(errorsOf(errors)).toEqual(["json-syntax @ "]);
    expect(errors[0]?.message).toMatch(/line 6, column 3/);
  });

  it("reports documents that are not OpenAPI", async () => {
    expect(errorsOf(await problems("not-openapi.yaml"))).toEqual(["not-openapi @ "]);
    expect(errorsOf(await problems("external/schemas/pet.yaml"))).toEqual(["not-openapi @ "]);
    expect(errorsOf(await problems([1, 2, 3]))).toEqual(["not-openapi @ "]);
    expect(errorsOf(await problems({ openapi: { major: 3 } }))).toEqual(["not-openapi @ /openapi"]);
  });

  it("reports unsupported versions", async () => {
    expect(errorsOf(await problems({ swagger: "1.2", paths: {} }))).toEqual(["unsupported-version @ /swagger"]);
    expect(errorsOf(await problems({ openapi: "4.0.0", paths: {} }))).toEqual(["unsupported-version @ /openapi"]);
  });

  it("reports a structure toolsim cannot use, all problems at once", async () => {
    expect(errorsOf(await problems("defects/document/invalid-structure.yaml"))).toEqual([
      "parameter-invalid @ /paths/~1pets/get/parameters/0",
      "parameter-invalid @ /paths/~1pets/get/parameters/1",
      "response-invalid @ /paths/~1pets/get/responses/200",
      "path-item-invalid @ /paths/~1owners",
    ]);
    expect(errorsOf(await problems({ openapi: "3.0.3", info: { title: "t", version: "1" }, paths: ["/pets"] }))).toEqual(["paths-invalid @ /paths"]);
    expect(errorsOf(await problems({ openapi: "3.0.3", info: { title: "t", version: "1" }, paths: {}, components: { schemas: { A: "string" } } }))).toEqual([
      "schema-invalid @ /components/schemas/A",
    ]);
  });

  it("reports $ref cycles that never step into the value (pure chains, self references, allOf), not recursive schemas", async () => {
    const found = await problems("ref-cycle.yaml");
    expect(errorsOf(found)).toEqual(["ref-cycle @ /components/schemas/A", "ref-cycle @ /components/schemas/Self", "ref-cycle @ /components/schemas/Wide"]);
    expect(found[0]?.message).toContain("#/components/schemas/A -> #/components/schemas/B -> #/components/schemas/A");
    expect(found[2]?.message).toContain("#/components/schemas/Wide -> #/components/schemas/Wide/allOf/0 -> #/components/schemas/Wide");
    // The same chain among parameters: a parameter that is only itself.
    const params = { openapi: "3.0.3", info: { title: "t", version: "1" }, paths: { "/a": { get: { parameters: [{ $ref: "#/components/parameters/P" }], responses: { "200": { description: "ok" } } } } }, components: { parameters: { P: { $ref: "#/components/parameters/P" } } } };
    expect(errorsOf(await problems(params))).toEqual(["ref-cycle @ /components/parameters/P"]);
  });

  it("reports $refs that are not strings before bundling", async () => {
    const source = { swagger: "2.0", info: { title: "t", version: "1" }, paths: { "/a": { get: { parameters: [{ name: "q", in: "query", type: { $ref: 5 } }], responses: { "200": { description: "x" } } } } } };
    expect(errorsOf(await problems(source))).toEqual(["ref-invalid @ /paths/~1a/get/parameters/0/type"]);
  });

  it("reports objects that are not JSON data", async () => {
    const cyclic: Record<string, unknown> = { openapi: "3.0.3" };
    cyclic["self"] = cyclic;
    expect(errorsOf(await problems(cyclic))).toEqual(["not-json @ "]);
  });
});

describe("loadSpec: repairs defects with warnings", () => {
  const cases: Array<[file: string, warnings: string[]]> = [
    ["paths/path-leading-slash.yaml", ["path-leading-slash @ /paths/pets"]],
    ["paths/path-template-colon.yaml", ["path-template-colon @ /paths/~1pets~1:petId"]],
    ["paths/path-param-required.yaml", ["path-param-required @ /paths/~1pets~1{petId}/get/parameters/0", "path-param-required @ /components/parameters/OwnerId"]],
    ["paths/path-param-undeclared.yaml", ["path-param-undeclared @ /paths/~1pets~1{petId}~1toys~1{toyId}/get"]],
    ["paths/path-param-renamed.yaml", ["path-param-renamed @ /paths/~1pets~1{petId}/get/parameters/0"]],
    ["paths/path-param-not-in-template.yaml", ["path-param-not-in-template @ /paths/~1pets/get/parameters/1"]],
    ["parameters/parameter-schema-missing.yaml", ["parameter-schema-missing @ /paths/~1pets/get/parameters/0", "parameter-schema-missing @ /paths/~1pets/get/parameters/1"]],
    ["parameters/parameter-name-empty.yaml", ["parameter-name-empty @ /paths/~1pets/get/parameters/1"]],
    ["parameters/parameter-in-body.yaml", ["parameter-in-body @ /paths/~1pets/post/parameters/0", "parameter-in-body @ /paths/~1pets~1{petId}~1photo/post/parameters"]],
    ["parameters/duplicate-parameter.yaml", ["duplicate-parameter @ /paths/~1pets/get/parameters/1"]],
    ["operations/response-schema-without-content.yaml", ["response-schema-without-content @ /paths/~1pets/get/responses/200"]],
    [
      "operations/request-body-schema-without-content.yaml",
      ["request-body-schema-without-content @ /paths/~1pets/post/requestBody", "request-body-without-content @ /paths/~1pets/put/requestBody"],
    ],
    ["parameters/root-parameters.yaml", ["root-parameters @ /parameters", "root-definitions @ /definitions"]],
    ["parameters/root-parameters-unused.yaml", ["root-parameters @ /parameters"]],
    ["paths/paths-components.yaml", ["paths-section @ /paths/components"]],
    ["operations/operation-without-responses.yaml", ["operation-without-responses @ /paths/~1pets/get", "operation-without-responses @ /paths/~1pets/delete"]],
    ["operations/duplicate-operation-id.yaml", ["duplicate-operation-id @ /paths/~1animals/get/operationId"]],
    ["operations/operation-id-invalid.yaml", ["operation-id-invalid @ /paths/~1pets/get/operationId"]],
    ["operations/response-description-missing.yaml", ["response-description-missing @ /paths/~1pets/get/responses/200", "response-description-missing @ /components/responses/NotFound"]],
    [
      "schemas/schema-type-array.yaml",
      [
        "schema-type-array @ /components/schemas/Single/type",
        "schema-type-array @ /components/schemas/Nullable/type",
        "schema-type-array @ /components/schemas/Union/type",
        "schema-type-array @ /components/schemas/Null/type",
      ],
    ],
    [
      "schemas/schema-type-alias.yaml",
      [
        "schema-type-alias @ /components/schemas/Pet/properties/age/type",
        "schema-type-alias @ /components/schemas/Pet/properties/weight/type",
        "schema-type-alias @ /components/schemas/Pet/properties/name/type",
        "schema-type-alias @ /components/schemas/Pet/properties/vaccinated/type",
        "schema-type-alias @ /components/schemas/Pet/properties/born/type",
        "schema-type-alias @ /components/schemas/Pet/properties/tags/type",
        "schema-type-alias @ /components/schemas/Pet/properties/tags/items/type",
        "schema-type-unknown @ /components/schemas/Pet/properties/misc/type",
      ],
    ],
    [
      "schemas/schema-required-boolean.yaml",
      ["schema-required-boolean @ /components/schemas/Pet/properties/name/required", "schema-required-boolean @ /components/schemas/Pet/properties/tag/required"],
    ],
    [
      "schemas/schema-exclusive-bound.yaml",
      ["schema-exclusive-bound @ /components/schemas/Positive/exclusiveMinimum", "schema-array-without-items @ /components/schemas/List"],
    ],
    [
      "schemas/schema-pattern-invalid.yaml",
      [
        "schema-pattern-invalid @ /paths/~1users/get/parameters/0/schema/pattern",
        "schema-pattern-invalid @ /components/schemas/User/properties/username/pattern",
        "schema-pattern-invalid @ /components/schemas/User/properties/code/pattern",
        "schema-pattern-invalid @ /components/schemas/User/properties/tags/patternProperties/(?i)^x-",
      ],
    ],
    [
      "schemas/schema-keyword-type.yaml",
      [
        "schema-keyword-type @ /paths/~1items/get/parameters/0/schema/minimum",
        "schema-keyword-type @ /paths/~1items/get/parameters/0/schema/maximum",
        "schema-keyword-type @ /paths/~1items/get/parameters/1/schema/enum",
        "schema-keyword-type @ /components/schemas/Item/required",
        "schema-keyword-type @ /components/schemas/Item/additionalProperties",
        "schema-keyword-type @ /components/schemas/Item/properties/id/maxLength",
        "schema-keyword-type @ /components/schemas/Item/properties/id/format",
        "schema-keyword-type @ /components/schemas/Item/properties/price/multipleOf",
        "schema-keyword-type @ /components/schemas/Item/properties/tags/minItems",
        "schema-keyword-type @ /components/schemas/Item/properties/tags/uniqueItems",
        "schema-keyword-type @ /components/schemas/Item/properties/kind/enum",
        "schema-keyword-type @ /components/schemas/Item/properties/parts/allOf",
      ],
    ],
    [
      "schemas/schema-keyword-type-3.1.yaml",
      [
        "schema-keyword-type @ /components/schemas/Pair/items",
        "schema-keyword-type @ /components/schemas/List/minItems",
        "schema-keyword-type @ /components/schemas/List/items",
        "schema-keyword-type @ /components/schemas/Price/exclusiveMinimum",
      ],
    ],
    [
      "schemas/schema-enum-type.yaml",
      ["schema-enum-type @ /components/schemas/Shards/enum", "schema-enum-type @ /components/schemas/Severity/enum", "schema-enum-type @ /components/schemas/Flag/enum"],
    ],
    ["schemas/schema-required-undeclared.yaml", ["schema-required-undeclared @ /components/schemas/EditTemplate/required"]],
    ["schemas/schema-null-type-alternatives.yaml", ["schema-null-type-alternatives @ /components/schemas/NamespaceId/type"]],
    ["schemas/schema-oneof-overlap.yaml", ["schema-oneof-overlap @ /paths/~1users~1{id}/get/responses/200/content/application~1json/schema/oneOf"]],
    ["schemas/schema-nullable-in-3.1.yaml", ["schema-nullable-in-3.1 @ /components/schemas/Tag/nullable", "schema-exclusive-bound @ /components/schemas/Flag/exclusiveMinimum"]],
    ["document/envelope.yaml", ["spec-version-format @ /openapi", "paths-missing @ /paths", "servers-shape @ /servers", "swagger2-fields @ "]],
    ["document/no-version.json", ["spec-version-missing @ "]],
  ];

  it.each(cases)("%s", async (file, expected) => {
    const spec = await loaded(`defects/${file}`);
    expect(warningsOf(spec)).toEqual(expected);
    for (const w of spec.warnings) {
      expect(w.severity).toBe("warning");
      expect(w.file).toBe(fixture(`defects/${file}`));
      expect(w.message.length).toBeGreaterThan(10);
    }
  });

  it("repairs paths and path parameters as announced", async () => {
    expect(Object.keys((await loaded("defects/paths/path-leading-slash.yaml")).document.paths ?? {})).toEqual(["/pets"]);
    expect(Object.keys((await loaded("defects/paths/path-template-colon.yaml")).document.paths ?? {})).toEqual(["/pets/{petId}"]);
    const required = (await loaded("defects/paths/path-param-required.yaml")).document;
    expect(getAt(required, "/paths/~1pets~1{petId}/get/parameters/0/required")).toBe(true);
    expect(getAt(required, "/components/parameters/OwnerId/required")).toBe(true);
    const undeclared = (await loaded("defects/paths/path-param-undeclared.yaml")).document;
    expect(getAt(undeclared, "/paths/~1pets~1{petId}~1toys~1{toyId}/get/parameters")).toEqual([{ name: "toyId", in: "path", required: true, schema: { type: "string" } }]);
    expect(getAt((await loaded("defects/paths/path-param-renamed.yaml")).document, "/paths/~1pets~1{petId}/get/parameters/0/name")).toBe("petId");
    expect(getAt((await loaded("defects/paths/path-param-not-in-template.yaml")).document, "/paths/~1pets/get/parameters")).toEqual([{ name: "limit", in: "query", schema: { type: "integer" } }]);
  });

  it("repairs parameters as announced", async () => {
    const schemaless = (await loaded("defects/parameters/parameter-schema-missing.yaml")).document;
    expect(getAt(schemaless, "/paths/~1pets/get/parameters")).toEqual([
      { name: "limit", in: "query", schema: { type: "integer", minimum: 1 } },
      { name: "q", in: "query", schema: { type: "string" } },
    ]);
    const body = (await loaded("defects/parameters/parameter-in-body.yaml")).document;
    expect(getAt(body, "/paths/~1pets/post/parameters")).toEqual([]);
    expect(getAt(body, "/paths/~1pets/post/requestBody")).toEqual({
      required: true,
      description: "The pet to create",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
    });
    expect(getAt(body, "/paths/~1pets~1{petId}~1photo/post/requestBody")).toEqual({
      required: true,
      content: {
        "multipart/form-data": {
          schema: { type: "object", properties: { caption: { type: "string" }, file: { type: "string", format: "binary" } }, required: ["caption"] },
        },
      },
    });
    expect(getAt(body, "/paths/~1pets~1{petId}~1photo/post/parameters")).toHaveLength(1);
    expect(getAt((await loaded("defects/parameters/duplicate-parameter.yaml")).document, "/paths/~1pets/get/parameters")).toEqual([{ name: "limit", in: "query", schema: { type: "integer" } }]);
    expect(getAt((await loaded("defects/parameters/parameter-name-empty.yaml")).document, "/paths/~1pets/get/parameters")).toHaveLength(1);
  });

  it("repairs responses, request bodies and root sections as announced", async () => {
    const response = (await loaded("defects/operations/response-schema-without-content.yaml")).document;
    expect(getAt(response, "/paths/~1pets/get/responses/200")).toEqual({
      description: "Pets",
      content: { "application/json": { schema: { type: "array", items: { type: "string" } }, example: ["rex", "tom"] } },
    });
    const bodies = (await loaded("defects/operations/request-body-schema-without-content.yaml")).document;
    expect(getAt(bodies, "/paths/~1pets/post/requestBody/content/application~1json/schema/type")).toBe("object");
    expect(getAt(bodies, "/paths/~1pets/put/requestBody/content")).toEqual({ "application/json": { schema: {} } });
    const root = (await loaded("defects/parameters/root-parameters.yaml")).document as unknown as Record<string, unknown>;
    expect(root["parameters"]).toBeUndefined();
    expect(root["definitions"]).toBeUndefined();
    expect(getAt(root, "/paths/~1pets/get/parameters/0")).toEqual({ $ref: "#/components/parameters/Limit" });
    expect(getAt(root, "/paths/~1pets/get/responses/200/content/application~1json/schema/items")).toEqual({ $ref: "#/components/schemas/Pet" });
    expect(Object.keys(getAt(root, "/components/parameters") as object)).toEqual(["Limit", "Unused"]);
    const nested = (await loaded("defects/paths/paths-components.yaml")).document;
    expect(Object.keys(getAt(nested, "/paths") as object)).toEqual(["/current"]);
    expect(getAt(nested, "/components/parameters/Query/name")).toBe("query");
    expect(getAt(nested, "/components/schemas/Weather/properties/temperature/type")).toBe("integer");
    // A name the root already defines keeps the root's definition.
    expect(getAt(nested, "/components/schemas/Place/properties/name/type")).toBe("string");
    const unused = (await loaded("defects/parameters/root-parameters-unused.yaml")).document as unknown as Record<string, unknown>;
    expect(unused["parameters"]).toBeUndefined();
    expect(unused["components"]).toBeUndefined();
    const noResponses = (await loaded("defects/operations/operation-without-responses.yaml")).document;
    expect(getAt(noResponses, "/paths/~1pets/get/responses")).toEqual({ default: { description: "Response" } });
    const described = (await loaded("defects/operations/response-description-missing.yaml")).document;
    expect(getAt(described, "/components/responses/NotFound/description")).toBe("Response");
    const ids = (await loaded("defects/operations/duplicate-operation-id.yaml")).document;
    expect(getAt(ids, "/paths/~1animals/get/operationId")).toBe("getPets");
  });

  it("repairs schemas as announced", async () => {
    const arrays = (await loaded("defects/schemas/schema-type-array.yaml")).document;
    expect(getAt(arrays, "/components/schemas")).toEqual({
      Single: { type: "string" },
      Nullable: { type: "string", nullable: true, maxLength: 10 },
      Union: { anyOf: [{ type: "string" }, { type: "integer" }] },
      Null: { nullable: true, enum: [null] },
    });
    const aliases = (await loaded("defects/schemas/schema-type-alias.yaml")).document;
    expect(getAt(aliases, "/components/schemas/Pet/properties")).toEqual({
      age: { type: "integer" },
      weight: { type: "number", format: "float" },
      name: { type: "string" },
      vaccinated: { type: "boolean" },
      born: { type: "string", format: "date-time" },
      tags: { type: "array", items: { type: "string" } },
      misc: {},
    });
    expect(getAt((await loaded("defects/schemas/schema-required-boolean.yaml")).document, "/components/schemas/Pet")).toEqual({
      type: "object",
      required: ["id", "name"],
      properties: { id: { type: "integer" }, name: { type: "string" }, tag: { type: "string" } },
    });
    const bounds = (await loaded("defects/schemas/schema-exclusive-bound.yaml")).document;
    expect(getAt(bounds, "/components/schemas")).toEqual({ Positive: { type: "number", minimum: 0, exclusiveMinimum: true }, List: { type: "array", items: {} } });
    const nullable31 = (await loaded("defects/schemas/schema-nullable-in-3.1.yaml")).document;
    expect(getAt(nullable31, "/components/schemas")).toEqual({ Tag: { type: ["string", "null"] }, Flag: { type: "number", exclusiveMinimum: 0 } });
  });

  it("repairs patterns JavaScript cannot compile as announced, and every schema then compiles", async () => {
    const spec = await loaded("defects/schemas/schema-pattern-invalid.yaml");
    expect(getAt(spec.document, "/paths/~1users/get/parameters/0/schema/pattern")).toBe("^[a-zA-Z]+$");
    expect(getAt(spec.document, "/components/schemas/User/properties")).toEqual({
      username: { type: "string", pattern: "^[a-z0-9._]+$" },
      code: { type: "string" },
      tags: { type: "object", patternProperties: { "^[xX]-": { type: "string" } } },
    });
    expect(checkSchemasCompile(buildCatalog(spec))).toEqual([]);
  });

  it("repairs keyword values of the wrong type as announced: converted when clear, else removed", async () => {
    const spec = await loaded("defects/schemas/schema-keyword-type.yaml");
    expect(getAt(spec.document, "/paths/~1items/get/parameters/0/schema")).toEqual({ type: "integer", maximum: 100 });
    expect(getAt(spec.document, "/paths/~1items/get/parameters/1/schema")).toEqual({ type: "string" });
    expect(getAt(spec.document, "/components/schemas/Item")).toEqual({
      type: "object",
      additionalProperties: false,
      required: ["id"],
      properties: {
        id: { type: "string", maxLength: 12 },
        price: { type: "number" },
        tags: { type: "array", items: { type: "string" }, uniqueItems: true },
        kind: {},
        parts: { allOf: [{ type: "object" }] },
      },
    });
    expect(checkSchemasCompile(buildCatalog(spec))).toEqual([]);
    const spec31 = await loaded("defects/schemas/schema-keyword-type-3.1.yaml");
    expect(getAt(spec31.document, "/components/schemas")).toEqual({
      Pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }] },
      List: { type: "array", items: { type: "string" }, minItems: 1 },
      Price: { type: "number", exclusiveMinimum: 0 },
    });
  });

  it("repairs schemas nothing could satisfy as announced", async () => {
    expect(getAt((await loaded("defects/schemas/schema-enum-type.yaml")).document, "/components/schemas")).toEqual({
      Shards: { type: "integer", enum: [1, 2, 4] },
      Severity: { type: "string", enum: ["10", "20", "30"] },
      Flag: { type: "boolean", enum: [true] },
      Fine: { type: "string", enum: ["a", "b"] },
    });
    const undeclared = (await loaded("defects/schemas/schema-required-undeclared.yaml")).document;
    expect(getAt(undeclared, "/components/schemas/EditTemplate/properties")).toEqual({ Name: { type: "string" }, Subject: { type: "string" }, TemplateId: {} });
    // Inside a composition another part may declare it: left alone.
    expect(getAt(undeclared, "/components/schemas/Derived/allOf/1/properties")).toEqual({ extra: { type: "string" } });
    expect(getAt((await loaded("defects/schemas/schema-null-type-alternatives.yaml")).document, "/components/schemas/NamespaceId")).toEqual({
      oneOf: [{ type: "string" }, { type: "number" }, { type: "null" }],
    });
    const overlap = await loaded("defects/schemas/schema-oneof-overlap.yaml");
    expect(getAt(overlap.document, "/paths/~1users~1{id}/get/responses/200/content/application~1json/schema")).toEqual({
      anyOf: [{ $ref: "#/components/schemas/User" }, { $ref: "#/components/schemas/UserWithStats" }],
    });
    expect(getAt(overlap.document, "/components/schemas/Pet/oneOf")).toHaveLength(2); // branches that differ stay oneOf
    const catalog = buildCatalog(overlap);
    const result = await simulateCall(catalog, { name: "getUser", arguments: { id: 3 } }, { seed: 1 });
    expect(result.responseErrors).toEqual([]);
  });

  it("repairs the envelope as announced", async () => {
    const spec = await loaded("defects/document/envelope.yaml");
    expect(spec.document).toMatchObject({ openapi: "3.0.3", info: { version: "1.2" }, paths: {}, servers: [{ url: "https://api.example.com" }] });
    expect((spec.document as unknown as Record<string, unknown>)["host"]).toBeUndefined();
  });
});

describe("findSpecFiles", () => {
  it("expands folders recursively to sorted JSON and YAML files", async () => {
    const files = await findSpecFiles([FIXTURES]);
    expect(files).toEqual([...files].sort());
    expect(files).toContain(fixture("petstore-3.0.yaml"));
    expect(files).toContain(fixture("petstore-3.1.json"));
    expect(files).toContain(fixture("external/schemas/pet.yaml"));
    expect(files).toContain(fixture("defects/document/no-version.json"));
    expect(files.every((f) => /\.(json|ya?ml)$/.test(f) && path.isAbsolute(f))).toBe(true);
  });

  it("keeps files as given, once, and paths that do not exist (so loading reports them)", async () => {
    const files = await findSpecFiles([fixture("escape"), fixture("petstore-3.0.yaml"), fixture("petstore-3.0.yaml"), fixture("missing.yaml")]);
    expect(files).toEqual([fixture("escape/api.yaml"), fixture("missing.yaml"), fixture("petstore-3.0.yaml")]);
  });
});
