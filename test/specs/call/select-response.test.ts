import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { isJsonMediaType, selectResponse } from "../../../specs/call/select-response.js";
import type { Tool } from "../../../specs/catalog/tool.js";
import { validateResponse } from "../../../specs/call/validate-response.js";
import { coreCatalog as catalogOf } from "../../support/core-catalog.js";

let catalog: Catalog;
const tool = (name: string): Tool => {
  const t = catalog.get(name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
};
beforeAll(async () => {
  catalog = await catalogOf("responses.yaml");
});

describe("selectResponse: by default", () => {
  it("picks the lowest declared 2xx, whatever the order of the keys, and prefers JSON content", () => {
    expect(selectResponse(catalog, tool("lowest2xx"))).toEqual({
      status: 200,
      key: "200",
      pointer: "/paths/~1lowest/get/responses/200",
      mediaType: "application/json",
      mediaPointer: "/paths/~1lowest/get/responses/200/content/application~1json",
      schemaPointer: "/paths/~1lowest/get/responses/200/content/application~1json/schema",
    });
  });

  it("takes a 2XX range as 200, before default", () => {
    expect(selectResponse(catalog, tool("rangeOnly"))).toMatchObject({ status: 200, key: "2XX", mediaType: "application/json" });
  });

  it("takes default as 200 when nothing else succeeds", () => {
    expect(selectResponse(catalog, tool("defaultOnly"))).toMatchObject({ status: 200, key: "default", pointer: "/paths/~1fallback/get/responses/default" });
  });

  it("answers 204 without content: no media type, no schema", () => {
    expect(selectResponse(catalog, tool("deleteItem"))).toEqual({ status: 204, key: "204", pointer: "/paths/~1items~1{itemId}/delete/responses/204" });
  });

  it("follows $ref'd responses to their content", async () => {
    const pets = await catalogOf("petstore.yaml");
    const selected = selectResponse(pets, pets.get("listPets") as Tool, 500);
    expect(selected).toMatchObject({ status: 500, key: "default", pointer: "/components/responses/Error", mediaType: "application/json" });
    expect(selected.schemaPointer).toBe("/components/responses/Error/content/application~1json/schema");
  });
});

describe("selectResponse: operations without a success response", () => {
  let statuses: Catalog;
  beforeAll(async () => {
    statuses = await catalogOf("statuses.yaml");
  });

  it("takes the lowest declared 3xx (a redirect is that operation's answer)", () => {
    expect(selectResponse(statuses, statuses.get("redirectOnly") as Tool)).toMatchObject({ status: 301, key: "301", mediaType: "application/json" });
  });

  it("answers a bare 200/204 of its own when only errors are declared, and never reports that status as undeclared", () => {
    const errorsOnly = statuses.get("errorsOnly") as Tool;
    const deleteThing = statuses.get("deleteThing") as Tool;
    expect(selectResponse(statuses, errorsOnly)).toEqual({ status: 200 });
    expect(selectResponse(statuses, deleteThing)).toEqual({ status: 204 });
    expect(validateResponse(statuses, errorsOnly, 200, undefined)).toEqual([]);
    expect(validateResponse(statuses, deleteThing, 204, undefined)).toEqual([]);
    // Other statuses are still checked against what is declared.
    expect(validateResponse(statuses, errorsOnly, 500, undefined)).toEqual([
      { location: ["response", "status"], code: "status", message: "status 500 is not declared for errorsOnly (declared: 400, 403)", severity: "Error" },
    ]);
    expect(validateResponse(statuses, errorsOnly, 400, {})).toEqual([{ location: ["response", "body", "message"], code: "required", message: "must have required property 'message'", severity: "Error" }]);
    // With a success declared, an undeclared 2xx is still reported.
    expect(validateResponse(catalog, tool("deleteItem"), 200, {})).toHaveLength(1);
  });
});

describe("selectResponse: a requested status", () => {
  it("takes the exact code when declared", () => {
    expect(selectResponse(catalog, tool("lowest2xx"), 201)).toMatchObject({ status: 201, key: "201" });
    expect(selectResponse(catalog, tool("lowest2xx"), 404)).toMatchObject({ status: 404, key: "404", mediaType: "application/json" });
    expect(selectResponse(catalog, tool("deleteItem"), 409)).toMatchObject({ status: 409, key: "409" });
  });

  it("takes a range that covers it, keeping the requested code", () => {
    expect(selectResponse(catalog, tool("rangeOnly"), 204)).toMatchObject({ status: 204, key: "2XX" });
    expect(selectResponse(catalog, tool("rangeOnly"), 418)).toMatchObject({ status: 418, key: "4XX", mediaType: "application/problem+json" });
  });

  it("falls back to default with the requested code", () => {
    expect(selectResponse(catalog, tool("rangeOnly"), 503)).toMatchObject({ status: 503, key: "default" });
    expect(selectResponse(catalog, tool("defaultOnly"), 503)).toMatchObject({ status: 503, key: "default" });
  });

  it("has no key when nothing covers the code", () => {
    expect(selectResponse(catalog, tool("lowest2xx"), 500)).toEqual({ status: 500 });
    expect(selectResponse(catalog, tool("deleteItem"), 200)).toEqual({ status: 200 });
  });
});

describe("validateResponse", () => {
  it("accepts a body that matches the selected response's schema", () => {
    expect(validateResponse(catalog, tool("getWeather"), 200, { city: "Lyon", temperatureC: 20, conditions: "sunny" })).toEqual([]);
    expect(validateResponse(catalog, tool("deleteItem"), 204, undefined)).toEqual([]);
  });

  it("reports every body error at a response location", () => {
    expect(validateResponse(catalog, tool("getWeather"), 200, { city: 3, temperatureC: 99, conditions: "fog" })).toEqual([
      { location: ["response", "body", "city"], code: "type", message: "must be string", severity: "Error" },
      { location: ["response", "body", "temperatureC"], code: "maximum", message: "must be <= 60", severity: "Error" },
      { location: ["response", "body", "conditions"], code: "enum", message: 'must be one of: "sunny", "cloudy", "rain", "snow"', severity: "Error" },
    ]);
    expect(validateResponse(catalog, tool("getWeather"), 200, undefined)).toEqual([{ location: ["response", "body"], code: "required", message: "response body is missing", severity: "Error" }]);
  });

  it("reports an undeclared status, and does not check non-JSON bodies", () => {
    expect(validateResponse(catalog, tool("deleteItem"), 200, {})).toEqual([
      { location: ["response", "status"], code: "status", message: "status 200 is not declared for deleteItem (declared: 204, 409)", severity: "Error" },
    ]);
    expect(validateResponse(catalog, tool("lowest2xx"), 200, "plain text", "text/plain")).toEqual([]);
  });

  it("knows JSON media types", () => {
    expect(["application/json", "application/problem+json", "application/vnd.api+json; charset=utf-8"].map(isJsonMediaType)).toEqual([true, true, true]);
    expect(["text/plain", "application/xml", undefined].map(isJsonMediaType)).toEqual([false, false, false]);
  });
});

describe("validateResponse: statuses HTTP gives no body", () => {
  it("accepts a 204 without a body even where the spec declares a schema for it (journy.io), and still wants a 200's", async () => {
    const { loadCatalog } = await import("../../../specs/catalog/load-catalog.js");
    const body = { content: { "application/json": { schema: { type: "object", required: ["message"], properties: { message: { type: "string" } } } } } };
    const loaded = await loadCatalog({ openapi: "3.0.3", info: { title: "t", version: "1" }, paths: { "/remove": { post: { operationId: "remove", responses: { "204": { description: "No content", ...body } } } }, "/read": { get: { operationId: "read", responses: { "200": { description: "ok", ...body } } } } } });
    if (!loaded.ok) throw new Error("spec");
    const c = loaded.value;
    expect(validateResponse(c, c.get("remove") as Tool, 204, undefined)).toEqual([]);
    expect(validateResponse(c, c.get("read") as Tool, 200, undefined).map((i) => i.message)).toEqual(["response body is missing"]);
  });
});
