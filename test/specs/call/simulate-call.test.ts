import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import type { Responder, ResponseContext } from "../../../specs/respond/responder.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import { defaultStages, simulateCall } from "../../../specs/call/simulate-call.js";
import { coreCatalog as catalogOf } from "../../support/core-catalog.js";

type Json = Record<string, any>;

let pets: Catalog;
let responses: Catalog;
beforeAll(async () => {
  pets = await catalogOf("petstore.yaml");
  responses = await catalogOf("responses.yaml");
});

describe("simulateCall: seeds", () => {
  it("same seed, same result, byte for byte", async () => {
    for (const [name, args] of [["listPets", { status: "sold" }], ["getPet", { petId: 3 }], ["createPet", { name: "Rex", status: "available" }], ["translateText", { text: "chien", target: "fr" }]] as const) {
      const a = await simulateCall(pets, { name, arguments: args }, { seed: 42 });
      const b = await simulateCall(pets, { name, arguments: args }, { seed: 42, state: new ResourceStore() });
      expect(JSON.stringify(b), name).toBe(JSON.stringify(a));
      expect(a.responseErrors, name).toEqual([]);
    }
  });

  it("a different seed synthesizes a different body", async () => {
    const bodies = new Set<string>();
    for (const seed of [1, 2, 3]) {
      const result = await simulateCall(pets, { name: "translateText", arguments: { text: "chien", target: "en" } }, { seed });
      expect(result.source).toBe("schema");
      expect(result.responseErrors).toEqual([]);
      bodies.add(JSON.stringify(result.body));
    }
    expect(bodies.size).toBe(3);
  });

  it("the call's own seed depends on its arguments, not on the way they were written", async () => {
    const a = await simulateCall(pets, { name: "getPet", arguments: { petId: 3 } }, { seed: 5 });
    const b = await simulateCall(pets, { name: "getPet", arguments: '{"petId":"3"}' }, { seed: 5 });
    expect(b.body).toEqual(a.body);
    const c = await simulateCall(pets, { name: "getPet", arguments: { petId: 4 } }, { seed: 5 });
    expect({ ...(c.body as Json), id: 3 }).not.toEqual(a.body);
  });

  it("uses a fresh state when none is given", async () => {
    const first = await simulateCall(pets, { name: "createPet", arguments: { name: "Rex", status: "available" } });
    const second = await simulateCall(pets, { name: "createPet", arguments: { name: "Mia", status: "available" } });
    expect((first.body as Json)["id"]).toBe(1);
    expect((second.body as Json)["id"]).toBe(1);
  });
});

describe("simulateCall: the result", () => {
  it("records the tool, operation, request, source and content type of a valid call", async () => {
    const result = await simulateCall(pets, { name: "listUserPosts", arguments: { userId: "ana", limit: "2" }, id: "call_1" }, { seed: 1 });
    expect(result).toMatchObject({
      tool: "listUserPosts",
      status: 200,
      contentType: "application/json",
      errors: [],
      responseErrors: [],
      operation: { operationId: "listUserPosts", method: "get", path: "/users/{userId}/posts", pointer: "/paths/~1users~1{userId}~1posts/get" },
      request: { method: "GET", path: "/users/ana/posts", query: { limit: "2" }, headers: {} },
    });
    expect((result.body as Json)["data"].length).toBeLessThanOrEqual(2);
  });

  it("answers an unknown tool with route problem details, never a throw", async () => {
    const result = await simulateCall(pets, { name: "fetchPets", arguments: {} });
    expect(result).toMatchObject({ tool: "fetchPets", status: 404, contentType: "application/problem+json", source: "route", responseErrors: [], notes: [] });
    expect(result.operation).toBeUndefined();
    expect(result.request).toBeUndefined();
    expect((result.body as Json)["title"]).toBe("Unknown tool");
    expect(result.errors.map((e) => e.code)).toEqual(["unknown-tool"]);
  });

  it("answers an invalid call with validation problem details and the request it stood for", async () => {
    const result = await simulateCall(pets, { name: "listPets", arguments: { limit: "500", status: "lost" } });
    expect(result.status).toBe(422);
    expect(result.source).toBe("validation");
    expect(result.contentType).toBe("application/problem+json");
    expect(result.body).toMatchObject({ status: 422, title: "Invalid request", validation: result.errors });
    expect(result.errors.map((e) => e.location.join("."))).toEqual(["query.limit", "query.status"]);
    expect(result.request).toEqual({ method: "GET", path: "/pets", query: { limit: "500", status: "lost" }, headers: {} });
    expect(result.operation?.operationId).toBe("listPets");
    const broken = await simulateCall(pets, { name: "listPets", arguments: "{limit: 5}" });
    expect(broken).toMatchObject({ status: 400, source: "validation", contentType: "application/problem+json" });
  });
});

describe("simulateCall: response selection", () => {
  it("the status option picks that response", async () => {
    const notFound = await simulateCall(pets, { name: "getPet", arguments: { petId: 1 } }, { seed: 3, status: 404 });
    expect(notFound).toMatchObject({ status: 404, source: "schema", contentType: "application/json", responseErrors: [] });
    expect(Object.keys(notFound.body as Json).sort()).toEqual(["code", "message"]);
    const invalid = await simulateCall(pets, { name: "createPet", arguments: { name: "Rex", status: "sold" } }, { status: 422 });
    expect(invalid).toMatchObject({ status: 422, responseErrors: [] });
    const range = await simulateCall(responses, { name: "rangeOnly", arguments: {} }, { status: 429 });
    expect(range).toMatchObject({ status: 429, contentType: "application/problem+json", responseErrors: [] });
    expect(typeof (range.body as Json)["title"]).toBe("string");
  });

  it("refuses a status no answer can have, even where a range or `default` would take it", async () => {
    for (const status of [999, 100, 99, 600]) {
      const r = await simulateCall(responses, { name: "rangeOnly", arguments: {} }, { status });
      expect(r.status, String(status)).toBe(404);
      expect((r.body as Json)["detail"]).toContain(`status ${status}`);
    }
  });

  it("answers 204 without a body", async () => {
    const result = await simulateCall(responses, { name: "deleteItem", arguments: { itemId: 3 } });
    expect(result.status).toBe(204);
    expect(result.body).toBeUndefined();
    expect(result.contentType).toBeUndefined();
    expect(result.responseErrors).toEqual([]);
  });

  it("refuses a requested status the operation does not declare, naming the declared ones", async () => {
    const result = await simulateCall(responses, { name: "lowest2xx", arguments: {} }, { status: 500 });
    const message = "status 500 is not declared for lowest2xx (declared: 200, 201, 404)";
    expect(result).toMatchObject({ status: 404, source: "validation", contentType: "application/problem+json", responseErrors: [] });
    expect(result.errors).toEqual([{ location: ["status"], code: "status", message, severity: "Error" }]);
    expect(result.body).toMatchObject({ title: "Status not declared", status: 404, detail: message });
    // A range or `default` covers it.
    expect((await simulateCall(responses, { name: "rangeOnly", arguments: {} }, { status: 503 })).errors).toEqual([]);
  });

  it("answers an operation that declares only errors with a bare 2xx of its own, which its check accepts", async () => {
    const statuses = await catalogOf("statuses.yaml");
    const report = await simulateCall(statuses, { name: "errorsOnly", arguments: {} }, { seed: 1 });
    expect(report).toMatchObject({ status: 200, body: undefined, errors: [], responseErrors: [], source: "schema" });
    expect(report.notes).toEqual(["the spec declares no success response (only 400, 403): answered 200 without a body"]);
    const deleted = await simulateCall(statuses, { name: "deleteThing", arguments: { thingId: 4 } }, { seed: 1 });
    expect(deleted).toMatchObject({ status: 204, errors: [], responseErrors: [] });
    const redirect = await simulateCall(statuses, { name: "redirectOnly", arguments: {} }, { seed: 1 });
    expect(redirect).toMatchObject({ status: 301, errors: [], responseErrors: [], body: { moved: expect.any(Boolean) } });
  });
});

describe("simulateCall: examples first", () => {
  it("returns a valid media example, with source example, its field named like an argument holding the argument", async () => {
    const result = await simulateCall(responses, { name: "getWeather", arguments: { city: "Paris" } }, { seed: 9 });
    // The example is for Lyon; the call asked for Paris.
    expect(result).toMatchObject({ status: 200, source: "example", body: { city: "Paris", temperatureC: 21.5, conditions: "sunny" }, responseErrors: [], notes: [] });
  });

  it("follows $ref'd named examples", async () => {
    const result = await simulateCall(responses, { name: "getForecast", arguments: {} });
    expect(result).toMatchObject({ source: "example", body: { city: "Brest", temperatureC: 12, conditions: "rain" } });
  });

  it("uses a schema-level example (3.1 examples) as well", async () => {
    const registry31 = await catalogOf("petstore-3.1.yaml");
    const result = await simulateCall(registry31, { name: "registerAnimal", arguments: { kind: "animal", name: "Tom", nickname: null } }, { stages: { responders: [defaultStages.responders[1] as Responder] } });
    expect(result.source).toBe("example");
    expect(result.body).toEqual({ id: "0b6e5a0e-8f7e-4a3c-9d84-8a0b5f4b2f11", kind: "animal", name: "Tom", nickname: null });
  });

  it("falls back to synthesis, with a note, when the example does not match its schema", async () => {
    const result = await simulateCall(responses, { name: "getClimate", arguments: {} }, { seed: 9 });
    expect(result.source).toBe("schema");
    expect(result.notes).toContain("the spec's example does not match its schema; synthesized instead");
    expect(result.responseErrors).toEqual([]);
    expect((result.body as Json)["temperatureC"]).toEqual(expect.any(Number));
  });

  it("synthesizes instead of using examples when asked", async () => {
    const result = await simulateCall(responses, { name: "getWeather", arguments: { city: "Paris" } }, { seed: 9, useExamples: false });
    expect(result.source).toBe("schema");
    expect(result.body).not.toEqual({ city: "Lyon", temperatureC: 21.5, conditions: "sunny" });
    expect(result.responseErrors).toEqual([]);
  });
});

describe("simulateCall: swappable stages", () => {
  it("replaces the responders with a fake one that sees the validated call", async () => {
    const seen: ResponseContext[] = [];
    const fake: Responder = {
      name: "fake",
      respond: (ctx) => {
        seen.push(ctx);
        return { status: 200, body: [{ id: 1, name: "Fake", status: "sold" }], contentType: "application/json", source: "replay", notes: ["from the fake"] };
      },
    };
    const state = new ResourceStore();
    const result = await simulateCall(pets, { name: "listPets", arguments: { limit: "1" } }, { seed: 4, state, stages: { responders: [fake] } });
    expect(result).toMatchObject({ status: 200, source: "replay", body: [{ id: 1, name: "Fake", status: "sold" }], responseErrors: [], notes: ["from the fake"] });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.call.args).toEqual({ limit: 1 });
    expect(seen[0]?.state).toBe(state);
    expect(seen[0]?.catalog).toBe(pets);
    expect(state.snapshot()).toEqual({});
  });

  it("checks a fake answer against the response schema", async () => {
    const fake: Responder = { name: "bad", respond: () => ({ status: 200, body: [{ id: "one" }], contentType: "application/json", source: "llm" }) };
    const result = await simulateCall(pets, { name: "listPets", arguments: {} }, { stages: { responders: [fake] } });
    expect(result.source).toBe("llm");
    expect(result.responseErrors.map((e) => `${e.location.join(".")} ${e.code}`)).toEqual(["response.body.0.name required", "response.body.0.status required", "response.body.0.id type"]);
  });

  it("falls through responders that pass, to the schema responder at the end", async () => {
    const order: string[] = [];
    const pass = (name: string): Responder => ({ name, respond: () => void order.push(name) });
    const result = await simulateCall(pets, { name: "getPet", arguments: { petId: 1 } }, { stages: { responders: [pass("a"), pass("b")] } });
    expect(order).toEqual(["a", "b"]);
    expect(result.source).toBe("schema");
    expect(result.responseErrors).toEqual([]);
  });

  it("replaces validation and the response check", async () => {
    const result = await simulateCall(
      pets,
      { name: "anything", arguments: {} },
      {
        stages: {
          validate: (catalog) => {
            const tool = catalog.get("getPet");
            if (!tool) throw new Error("no getPet");
            return { ok: true, value: { tool, args: { petId: 9 }, body: undefined, request: { method: "GET", path: "/pets/9", query: {}, headers: {} } } };
          },
          check: () => [{ location: ["response"], code: "custom", message: "checked", severity: "Warning" }],
        },
      },
    );
    expect(result.tool).toBe("getPet");
    expect((result.body as Json)["id"]).toBe(9);
    expect(result.responseErrors).toEqual([{ location: ["response"], code: "custom", message: "checked", severity: "Warning" }]);
  });
});
