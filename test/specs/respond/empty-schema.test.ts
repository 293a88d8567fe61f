import { describe, expect, it } from "vitest";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { isUnconstrained } from "../../../specs/catalog/unconstrained-schema.js";
import { loadSpec } from "../../../specs/load/load-spec.js";
import { buildCatalog } from "../../../specs/catalog/catalog.js";

// A response schema that says nothing of the answer's shape (`{}`) gets null, not a random token, and an
// example the spec gives is answered as before.

describe("an empty response schema", () => {
  it("is one that constrains nothing: annotations and vendor keys aside", () => {
    expect(isUnconstrained({})).toBe(true);
    expect(isUnconstrained(true)).toBe(true);
    expect(isUnconstrained({ description: "Default response", "x-internal": true })).toBe(true);
    expect(isUnconstrained({ type: "string" })).toBe(false);
    expect(isUnconstrained({ properties: {} })).toBe(false);
  });

  it("answers null (valid, and nothing to report), unless the spec gives an example", async () => {
    const spec = await loadSpec({
      openapi: "3.0.3",
      info: { title: "iPlayer", version: "1" },
      paths: {
        "/status": { get: { operationId: "getStatus", responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/ibl" } } } } } } },
        "/channels": { get: { operationId: "getChannels", responses: { "200": { description: "ok", content: { "application/json": { schema: {}, example: { channels: ["bbc_one"] } } } } } } },
      },
      components: { schemas: { ibl: {} } },
    });
    if (!spec.ok) throw new Error(JSON.stringify(spec.errors));
    const catalog = buildCatalog(spec.value);
    for (const seed of [1, 2, 3]) {
      const r = await simulateCall(catalog, { name: "getStatus", arguments: {} }, { seed });
      expect(r.status).toBe(200);
      expect(r.body).toBeNull();
      expect(r.responseErrors).toEqual([]);
    }
    expect((await simulateCall(catalog, { name: "getChannels", arguments: {} }, { seed: 1 })).body).toEqual({ channels: ["bbc_one"] });
  });
});
