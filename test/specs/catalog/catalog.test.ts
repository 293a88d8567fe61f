import { describe, expect, it } from "vitest";
import { buildCatalog, toolNameFor, type Catalog } from "../../../specs/catalog/catalog.js";
import { loadCatalog } from "../../../specs/catalog/load-catalog.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { formatProblem } from "../../../specs/load/spec-problem.js";
import { toOpenAIFunctions, toolArgumentsSchema } from "../../../specs/catalog/tool-schema.js";
import type { Tool } from "../../../specs/catalog/tool.js";
import { coreCatalog as catalogOf } from "../../support/core-catalog.js";

function tool(catalog: Catalog, name: string): Tool {
  const t = catalog.get(name);
  if (!t) throw new Error(`no tool ${name} in ${catalog.tools.map((x) => x.name).join(", ")}`);
  return t;
}

/** Every `$ref` anywhere in a value. */
function refsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (typeof node !== "object" || node === null) return [];
  return Object.entries(node).flatMap(([k, v]) => (k === "$ref" ? [String(v)] : refsIn(v)));
}

/** How deep objects nest in a value. */
function depth(node: unknown): number {
  if (typeof node !== "object" || node === null) return 0;
  return 1 + Math.max(0, ...Object.values(node).map(depth));
}

const MODEL_SAFE = /^[a-zA-Z0-9_-]{1,64}$/;

describe("catalog: tool names", () => {
  it("uses operationIds, in path then method order, and keeps each tool's operation", async () => {
    const catalog = await catalogOf("petstore.yaml");
    expect(catalog.title).toBe("Pet Clinic Store");
    expect(catalog.tools.map((t) => t.name)).toEqual([
      "listPets", "createPet",
      "getPet", "replacePet", "deletePet", "updatePet",
      "listUsers", "createUser", "getUser",
      "listUserPosts", "createUserPost", "getUserPost", "deleteUserPost",
      "placeOrder", "tagPet", "admitPet", "translateText",
    ]);
    expect(tool(catalog, "updatePet").operation).toEqual({ operationId: "updatePet", method: "patch", path: "/pets/{petId}", pointer: "/paths/~1pets~1{petId}/patch" });
    expect(catalog.get("nope")).toBeUndefined();
  });

  it("sanitizes operationIds, falls back to method + path, makes duplicates unique and caps at 64 characters", async () => {
    const catalog = await catalogOf("naming.yaml");
    const names = catalog.tools.map((t) => `${t.operation.method} ${t.operation.path} -> ${t.name}`);
    expect(names).toEqual([
      "get /pets/findByTags -> pets_find-by_tag",
      "get /things/{thingId} -> getThing",
      "get /things/{thingId}/copy -> getThing_2",
      "get /stores/{storeId}/inventory-items -> get_stores_storeId_inventory_items",
      "get /reports/{reportId} -> retrieveTheQuarterlyFinancialReportForTheGivenReporting_95caa637",
      "delete /reports/{reportId} -> delete_reports_reportId",
      "put /notes/{title} -> saveNote",
      "post /notes -> createNote",
      "post /tree -> plantTree",
    ]);
    for (const t of catalog.tools) expect(t.name).toMatch(MODEL_SAFE);
    expect(new Set(catalog.tools.map((t) => t.name)).size).toBe(catalog.tools.length);
    // The operationId is kept as written, only the tool name is made safe.
    expect(tool(catalog, "pets_find-by_tag").operation.operationId).toBe("pets.find-by tag");
    expect(tool(catalog, "getThing_2").operation.operationId).toBe("getThing");
    expect(tool(catalog, "delete_reports_reportId").operation.operationId).toBe("...");
    expect(tool(catalog, "get_stores_storeId_inventory_items").operation.operationId).toBeUndefined();
  });

  it("names are stable: the same spec gives the same names, and a long name keeps a hash of its operation", async () => {
    const a = await catalogOf("naming.yaml");
    const b = buildCatalog(a.spec);
    expect(b.tools.map((t) => t.name)).toEqual(a.tools.map((t) => t.name));
    const long = toolNameFor("get", "/reports/{reportId}", "retrieveTheQuarterlyFinancialReportForTheGivenReportingPeriodAndRegionV2");
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^retrieveTheQuarterlyFinancialReportForTheGivenReporting_[0-9a-f]{8}$/);
    expect(toolNameFor("post", "/reports/{reportId}", "retrieveTheQuarterlyFinancialReportForTheGivenReportingPeriodAndRegionV2")).not.toBe(long);
    expect(toolNameFor("get", "/", undefined)).toBe("get");
    expect(toolNameFor("post", "/v1/chat/completions", "")).toBe("post_v1_chat_completions");
  });

  it("makes a fallback name unique against an operationId that already took it", async () => {
    const catalog = buildCatalog((await catalogOf("naming.yaml")).spec);
    const doc = structuredClone(catalog.spec.document) as unknown as { paths: Record<string, unknown> };
    doc.paths["/pets"] = { get: { operationId: "get_pets", responses: { "200": { description: "OK" } } } };
    doc.paths["/pets/"] = { get: { responses: { "200": { description: "OK" } } } };
    const loaded = await loadCatalog(doc);
    if (!loaded.ok) throw new Error(loaded.errors.map(formatProblem).join("\n"));
    const names = loaded.value.tools.map((t) => t.name);
    expect(names).toContain("get_pets");
    expect(names).toContain("get_pets_2");
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("catalog: $ref'd path items", () => {
  it("finds the operations, parameters and responses of a path item that is a $ref to another", async () => {
    const doc = {
      openapi: "3.0.3",
      info: { title: "aliases", version: "1" },
      paths: {
        "/a/{id}": {
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
          get: { operationId: "getA", responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", required: ["x"], properties: { x: { type: "integer" } } } } } } } },
        },
        "/b/{id}": { $ref: "#/paths/~1a~1{id}" },
      },
    };
    const loaded = await loadCatalog(doc);
    if (!loaded.ok) throw new Error(loaded.errors.map(formatProblem).join("\n"));
    const alias = tool(loaded.value, "getA_2");
    expect(alias.operation).toEqual({ operationId: "getA", method: "get", path: "/b/{id}", pointer: "/paths/~1a~1{id}/get" });
    expect(alias.responses).toEqual(["200"]);
    expect(alias.parameters.map((p) => p.schemaPointer)).toEqual(["/paths/~1a~1{id}/parameters/0/schema"]);
    const result = await simulateCall(loaded.value, { name: "getA_2", arguments: { id: 4 } }, { seed: 1 });
    expect(result).toMatchObject({ status: 200, errors: [], responseErrors: [], request: { path: "/b/4" } });
    expect(result.body).toMatchObject({ x: expect.any(Number) });
  });
});

describe("catalog: descriptions", () => {
  it("joins summary and description, collapses whitespace, and falls back to METHOD path", async () => {
    const naming = await catalogOf("naming.yaml");
    expect(tool(naming, "pets_find-by_tag").description).toBe("Find pets by tags. Multiple tags can be given.");
    expect(tool(naming, "getThing").description).toBe("Only a description here.");
    expect(tool(naming, "getThing_2").description).toBe("Same as the description");
    expect(tool(naming, "get_stores_storeId_inventory_items").description).toBe("GET /stores/{storeId}/inventory-items");
    const pets = await catalogOf("petstore.yaml");
    expect(tool(pets, "listPets").description).toBe("List pets. Pets in the store, newest first.");
    expect(tool(pets, "listPets").tags).toEqual(["pets"]);
  });

  it("gives a summary that ends its own sentence no second full stop", async () => {
    const naming = await catalogOf("naming.yaml");
    const document = structuredClone(naming.spec.document) as unknown as { paths: Record<string, { get: { summary: string } }> };
    const find = document.paths["/pets/findByTags"];
    if (!find) throw new Error("fixture changed");
    for (const [summary, want] of [
      ["Retrieve pets by tags.", "Retrieve pets by tags. Multiple tags can be given."],
      ["Which pets have these tags?", "Which pets have these tags? Multiple tags can be given."],
      ["Retrieve pets by tags", "Retrieve pets by tags. Multiple tags can be given."],
    ] as const) {
      find.get.summary = summary;
      const built = buildCatalog({ ...naming.spec, document: document as unknown as typeof naming.spec.document });
      expect(tool(built, "pets_find-by_tag").description).toBe(want);
    }
  });
});

describe("catalog: argument schema", () => {
  it("merges path, query, header and cookie parameters with their locations and required flags", async () => {
    const catalog = await catalogOf("petstore.yaml");
    const list = tool(catalog, "listPets");
    expect(list.parameters.map((p) => [p.arg, p.in, p.required, p.style, p.explode])).toEqual([
      ["limit", "query", false, "form", true],
      ["offset", "query", false, "form", true],
      ["status", "query", false, "form", true],
      ["tags", "query", false, "form", true],
      ["X-Request-ID", "header", false, "simple", false],
      ["session", "cookie", false, "form", true],
    ]);
    expect(list.required).toEqual([]);
    expect(list.body).toBeUndefined();
    const schema = toolArgumentsSchema(catalog, list);
    expect(schema).toEqual({
      type: "object",
      properties: {
        limit: { type: "integer", minimum: 1, maximum: 100, default: 20, description: "How many pets to return. (query parameter)" },
        offset: { type: "integer", minimum: 0, description: "(query parameter)" },
        status: { type: "string", enum: ["available", "pending", "sold"], description: "(query parameter)" },
        tags: { type: "array", items: { type: "string" }, description: "Only pets with all of these tags. (query parameter)" },
        "X-Request-ID": { type: "string", format: "uuid", description: "(header parameter)" },
        session: { type: "string", description: "(cookie parameter)" },
      },
    });
  });

  it("takes path-item parameters, makes path parameters required, and renames a second parameter of the same name", async () => {
    const catalog = await catalogOf("naming.yaml");
    const report = tool(catalog, "retrieveTheQuarterlyFinancialReportForTheGivenReporting_95caa637");
    // `Accept` is a content-negotiation header, not an argument.
    expect(report.parameters.map((p) => `${p.in}:${p.name} as ${p.arg}`)).toEqual([
      "path:reportId as reportId",
      "query:reportId as query_reportId",
      "header:X-Api-Version as X-Api-Version",
      "cookie:theme as theme",
    ]);
    expect(report.required).toEqual(["reportId", "X-Api-Version"]);
    const schema = toolArgumentsSchema(catalog, report);
    expect(Object.keys(schema["properties"] as object)).toEqual(["reportId", "query_reportId", "X-Api-Version", "theme"]);
    expect(schema["required"]).toEqual(["reportId", "X-Api-Version"]);

    const pets = await catalogOf("petstore.yaml");
    expect(tool(pets, "getPet").parameters).toEqual([
      { arg: "petId", name: "petId", in: "path", required: true, style: "simple", explode: false, description: "The pet's id.", schemaPointer: "/paths/~1pets~1{petId}/parameters/0/schema" },
    ]);
  });

  it("flattens an object body without collisions; readOnly properties are neither arguments nor required", async () => {
    const catalog = await catalogOf("petstore.yaml");
    const create = tool(catalog, "createPet");
    expect(create.body).toMatchObject({ mode: "flat", mediaType: "application/json", required: true, requiredProperties: ["name", "status"] });
    expect(create.required).toEqual(["name", "status"]);
    const schema = toolArgumentsSchema(catalog, create);
    const props = schema["properties"] as Record<string, Record<string, unknown>>;
    expect(Object.keys(props)).toEqual(["name", "status", "tag", "birthday", "ownerEmail", "microchipId", "weightKg", "photoUrls", "vaccinations", "parent"]);
    expect(props["id"]).toBeUndefined();
    expect(props["createdAt"]).toBeUndefined();
    expect(props["tag"]).toEqual({ type: ["string", "null"] }); // 3.0 nullable in JSON Schema form
    expect(props["weightKg"]).toEqual({ type: "number", exclusiveMinimum: 0, maximum: 200 }); // 3.0 boolean bound converted
    expect(props["vaccinations"]).toEqual({
      type: "array",
      items: { type: "object", properties: { vaccine: { type: "string", enum: ["rabies", "distemper", "parvovirus"] }, date: { type: "string", format: "date" } }, required: ["vaccine", "date"] },
    });
    expect(schema["required"]).toEqual(["name", "status"]);

    const replace = tool(catalog, "replacePet");
    expect(replace.required).toEqual(["petId", "name", "status"]);
    // An optional body contributes no required arguments.
    const patch = tool(catalog, "updatePet");
    expect(patch.body?.mode).toBe("flat");
    expect(patch.required).toEqual(["petId"]);
  });

  it("wraps the body under `body` when a property collides with a parameter, or the body is no plain object", async () => {
    const naming = await catalogOf("naming.yaml");
    const save = tool(naming, "saveNote");
    expect(save.body).toMatchObject({ mode: "wrapped", arg: "body", required: true });
    expect(save.required).toEqual(["title", "body"]);
    expect(toolArgumentsSchema(naming, save)).toEqual({
      type: "object",
      properties: {
        title: { type: "string", description: "(path parameter)" },
        body: { type: "object", properties: { title: { type: "string" }, text: { type: "string" } }, required: ["title", "text"], description: "Request body (application/json)" },
      },
      required: ["title", "body"],
    });
    // A parameter already called `body`: the body argument moves aside.
    const note = tool(naming, "createNote");
    expect(note.body).toMatchObject({ mode: "wrapped", arg: "request_body", mediaType: "text/plain", required: false });
    expect(note.required).toEqual([]);

    const pets = await catalogOf("petstore.yaml");
    expect(tool(pets, "tagPet").body).toMatchObject({ mode: "wrapped", arg: "body", required: true });
    expect(tool(pets, "tagPet").required).toEqual(["petId", "body"]);
    // Pet has an `id` property (readOnly) and the path has `{id}`: wrapped, and optional as the spec says.
    expect(tool(pets, "admitPet").body).toMatchObject({ mode: "wrapped", arg: "body", required: false });
    expect(tool(pets, "admitPet").required).toEqual(["id"]);
    // oneOf/anyOf inside properties do not prevent flattening of an object body.
    expect(tool(pets, "placeOrder").body?.mode).toBe("flat");
    expect(tool(pets, "placeOrder").required).toEqual(["items", "shippingAddress", "payment"]);
  });

  it("reads Swagger 2.0 body parameters and collectionFormat, and OpenAPI 3.1 type arrays and const", async () => {
    const legacy = await catalogOf("petstore-swagger2.json");
    expect(legacy.tools.map((t) => t.name)).toEqual(["findPets", "addPet", "getPetById"]);
    expect(tool(legacy, "addPet").body).toMatchObject({ mode: "flat", required: true, requiredProperties: ["name", "photoUrls"] });
    expect(tool(legacy, "findPets").required).toEqual(["api_key"]);
    expect(tool(legacy, "findPets").parameters.find((p) => p.name === "status")).toMatchObject({ style: "form", explode: false });

    const registry = await catalogOf("petstore-3.1.yaml");
    const register = tool(registry, "registerAnimal");
    expect(register.required).toEqual(["kind", "name", "nickname"]);
    const props = toolArgumentsSchema(registry, register)["properties"] as Record<string, unknown>;
    expect(props["nickname"]).toEqual({ type: ["string", "null"] });
    expect(props["kind"]).toEqual({ const: "animal" });
    expect(props["id"]).toBeUndefined();
  });
});

describe("catalog: OpenAI function form", () => {
  it("lists every tool as {type: function, function: {name, description, parameters}}", async () => {
    const catalog = await catalogOf("petstore.yaml");
    const functions = toOpenAIFunctions(catalog);
    expect(functions.map((f) => f.function.name)).toEqual(catalog.tools.map((t) => t.name));
    for (const f of functions) {
      expect(Object.keys(f)).toEqual(["type", "function"]);
      expect(f.type).toBe("function");
      expect(Object.keys(f.function)).toEqual(["name", "description", "parameters"]);
      expect(f.function.parameters["type"]).toBe("object");
    }
    expect(functions[0]).toMatchObject({ function: { name: "listPets", description: "List pets. Pets in the store, newest first." } });
  });

  it("is self-contained (no $ref anywhere) and JSON-serializable for every fixture", async () => {
    for (const name of ["petstore.yaml", "naming.yaml", "responses.yaml", "serialization.yaml", "petstore-3.1.yaml", "petstore-swagger2.json"]) {
      const functions = toOpenAIFunctions(await catalogOf(name));
      expect(refsIn(functions), name).toEqual([]);
      expect(JSON.parse(JSON.stringify(functions)), name).toEqual(functions);
    }
  });

  it("cuts recursive schemas after two levels with a marker", async () => {
    const catalog = await catalogOf("naming.yaml");
    const plant = toOpenAIFunctions(catalog).find((f) => f.function.name === "plantTree");
    const params = plant?.function.parameters as Record<string, any>;
    expect(params["required"]).toEqual(["label"]);
    const level1 = params["properties"]["children"]["items"];
    const level2 = level1["properties"]["children"]["items"];
    const cut = level2["properties"]["children"]["items"];
    expect(level1["required"]).toEqual(["label"]);
    expect(level2["required"]).toEqual(["label"]);
    expect(cut).toEqual({ type: "object", description: "(recursive; omitted)" });
    expect(level1["properties"]["id"]).toBeUndefined(); // readOnly, also when nested

    const pets = toOpenAIFunctions(await catalogOf("petstore.yaml"));
    const create = pets.find((f) => f.function.name === "createPet");
    expect(depth(create)).toBeLessThan(20);
    expect(JSON.stringify(create)).toContain("(recursive; omitted)");
  });
});
