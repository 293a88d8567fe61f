import { describe, expect, it } from "vitest";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { catalogOf } from "../../support/inline-catalog.js";
import { isProblemMap } from "../../../specs/problem-maps.js";
import { typedValues } from "../../../specs/value-kinds.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";

// What an answer's envelope says agrees with the call and the answer itself: a map of problems by field
// (journy.io's `rejected: {created_at: "Expected a date but found a boolean."}`) names only what the call sent, and
// a status the answer echoes (`meta.status`) is the status it is sent with, not `264.07`.

type Json = Record<string, unknown>;

const meta = { type: "object", required: ["requestId", "status"], properties: { requestId: { type: "string" }, status: { type: "number" } } };
const rejected = { type: "object", additionalProperties: { type: "string" }, description: "If validation fails, specifies the property name and error message", example: { created_at: "Expected a date but found a boolean." } };
const upsert = {
  type: "object",
  required: ["identification"],
  properties: { identification: { type: "object", properties: { email: { type: "string" }, userId: { type: "string" } } }, properties: { type: "object", additionalProperties: true } },
};

function catalog(): Promise<Catalog> {
  return catalogOf("Journy", {
      "/users/upsert": {
        post: {
          operationId: "upsertUser",
          requestBody: { required: true, content: { "application/json": { schema: upsert } } },
          responses: { "201": { description: "User will be created", content: { "application/json": { schema: { type: "object", required: ["meta"], properties: { meta, message: { type: "string" }, rejected } } } } } },
        },
      },
      "/accounts/upsert": {
        post: {
          operationId: "upsertAccount",
          requestBody: { required: true, content: { "application/json": { schema: upsert } } },
          responses: {
            "201": {
              description: "Account will be created",
              content: { "application/json": { schema: { type: "object", properties: { meta, rejected } }, example: { meta: { requestId: "r-1", status: 200 }, rejected: { created_at: "Expected a date but found a boolean.", plan: "Unknown plan." } } } },
            },
          },
        },
      },
      "/reverse": {
        post: {
          operationId: "reverse",
          requestBody: { content: { "application/json": { schema: { type: "object", properties: { coordinates: { type: "string" } } } } } },
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { query: { type: "string", example: "42 avenue Champs Elysees Paris" }, results: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } } } }, example: { query: "42 avenue Champs Elysees Paris", results: [{ name: "Champs Élysées" }] } } } } },
        },
      },
      "/search": {
        post: {
          operationId: "search",
          requestBody: { content: { "application/json": { schema: { type: "object", properties: { query: { type: "string" }, coordinates: { type: "string" } } } } } },
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", required: ["query"], properties: { query: { type: "string" }, results: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } } } } } } } },
        },
      },
      "/validity": {
        get: {
          operationId: "getValidity",
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": {
                  schema: { type: "object", properties: { status: { type: "integer", enum: [0, 1] }, message: { type: "string" }, errors: { type: "object", properties: { code: { type: "string" }, message: { type: "string" } } } } },
                  example: { status: 1, message: "Key is valid", errors: { code: "E0", message: "None" } },
                },
              },
            },
          },
        },
      },
  });
}

describe("a successful answer's problems by field", () => {
  it("name only fields the call sent: an example's `created_at` is dropped for a call without it, kept for one with it", async () => {
    const c = await catalog();
    const without = await simulateCall(c, { name: "upsertAccount", arguments: { identification: { email: "a@example.org" } } }, { seed: 1 });
    expect(without.status).toBe(201);
    expect((without.body as Json)["rejected"]).toEqual({});
    const sent = await simulateCall(c, { name: "upsertAccount", arguments: { identification: { email: "a@example.org" }, properties: { created_at: true } } }, { seed: 1 });
    expect((sent.body as Json)["rejected"]).toEqual({ created_at: "Expected a date but found a boolean." });
    expect(sent.responseErrors).toEqual([]);
  });

  it("synthesized ones too, over many seeds, from state or schema", async () => {
    const c = await catalog();
    for (let seed = 1; seed <= 30; seed++) {
      for (const state of [undefined, new ResourceStore()]) {
        const r = await simulateCall(c, { name: "upsertUser", arguments: { identification: { userId: `u-${seed}` } } }, { seed, ...(state ? { state } : {}) });
        expect(r.status).toBe(201);
        const map = (r.body as Json)["rejected"];
        if (map !== undefined) expect(Object.keys(map as Json), JSON.stringify(r.body)).toEqual([]);
      }
    }
  });

  it("is told from one problem described (`{code, message}`) and from lists", () => {
    expect(isProblemMap("rejected", { created_at: "Expected a date" })).toBe(true);
    expect(isProblemMap("validation_errors", { email: ["is invalid", "is taken"] })).toBe(true);
    expect(isProblemMap("errors", { code: "E1", message: "Bad" })).toBe(false);
    expect(isProblemMap("errors", [{ field: "email" }])).toBe(false);
    expect(isProblemMap("error", { email: "is invalid" })).toBe(false);
    expect(isProblemMap("rejected", { count: 3 })).toBe(false);
    expect(isProblemMap("created", { created_at: "x" })).toBe(false);
  });

  it("is not read as typed values by the audit (its keys name fields; its values are messages)", () => {
    const values = typedValues({ rejected: { created_at: "Expected a date but found a boolean." }, created_at: "2025-01-02T10:00:00Z" });
    expect(values.map((v) => v.field)).toEqual(["created_at"]);
    expect(values.every((v) => v.plausible)).toBe(true);
  });
});

describe("a status the answer echoes", () => {
  it("is the status it is sent with (an example's 200 and a synthesized number alike)", async () => {
    const c = await catalog();
    const example = await simulateCall(c, { name: "upsertAccount", arguments: { identification: { email: "a@example.org" } } }, { seed: 1 });
    expect(((example.body as Json)["meta"] as Json)["status"]).toBe(201);
    for (let seed = 1; seed <= 20; seed++) {
      const r = await simulateCall(c, { name: "upsertUser", arguments: { identification: { userId: "u-1" } } }, { seed });
      expect(((r.body as Json)["meta"] as Json)["status"]).toBe(201);
      expect(r.responseErrors).toEqual([]);
    }
  });

  it("leaves a status that is a record's own code (an enum without the HTTP status) as the schema has it", async () => {
    const c = await catalog();
    const r = await simulateCall(c, { name: "getValidity", arguments: {} }, { seed: 1 });
    // (and one problem described under `errors` keeps its code and message)
    expect(r.body).toEqual({ status: 1, message: "Key is valid", errors: { code: "E0", message: "None" } });
    for (let seed = 1; seed <= 20; seed++) {
      const synthesized = await simulateCall(c, { name: "getValidity", arguments: {} }, { seed, useExamples: false });
      const status = (synthesized.body as Json)["status"];
      if (status !== undefined) expect([0, 1]).toContain(status);
      expect(synthesized.responseErrors).toEqual([]);
    }
  });
});

describe("an answer's echo of a search", () => {
  it("is left out when the call searched for nothing, kept when the schema requires it, and says what was searched when it did", async () => {
    const c = await catalog();
    for (const seed of [1, 2, 3]) {
      for (const useExamples of [true, false]) {
        const r = await simulateCall(c, { name: "reverse", arguments: { coordinates: "48.87,2.29" } }, { seed, useExamples });
        expect((r.body as Json)["query"], JSON.stringify(r.body)).toBeUndefined();
        expect(r.responseErrors).toEqual([]);
      }
      const asked = await simulateCall(c, { name: "search", arguments: { query: "Lisbon" } }, { seed });
      expect((asked.body as Json)["query"]).toBe("Lisbon");
      const required = await simulateCall(c, { name: "search", arguments: { coordinates: "48.87,2.29" } }, { seed });
      expect(typeof (required.body as Json)["query"]).toBe("string");
      expect(required.responseErrors).toEqual([]);
    }
  });
});
