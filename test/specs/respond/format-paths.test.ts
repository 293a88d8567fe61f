import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import { bindingsOf, describeBinding } from "../../../specs/respond/bindings/bindings.js";
import { nounOfPath } from "../../../specs/respond/world/entity-memory.js";
import { inlineCatalog, ok, type Json } from "./inline-catalog.js";

// Paths that end with a format (`/records/{record_id}.{format}`, `/users.json`): the format names neither the
// record nor its id, so a search and a read by id speak of the same records.

const RECORD = {
  type: "object",
  properties: { id: { type: "integer" }, title: { type: "string" }, collection: { type: "string" }, year: { type: "integer" } },
};
const FORMAT = { name: "format", in: "path", required: true, schema: { type: "string", enum: ["json", "xml"] } };

let catalog: Catalog;
beforeAll(async () => {
  catalog = await inlineCatalog({
    "/records.{format}": {
      get: {
        operationId: "searchRecords",
        parameters: [FORMAT, { name: "text", in: "query", schema: { type: "string" } }],
        responses: ok({ type: "object", properties: { records: { type: "array", minItems: 2, items: { ...RECORD, required: ["id", "title", "collection"] } } } }, undefined),
      },
    },
    "/records/{record_id}.{format}": {
      get: {
        operationId: "getRecord",
        parameters: [{ name: "record_id", in: "path", required: true, schema: { type: "integer" } }, FORMAT],
        responses: ok({ ...RECORD, required: ["id", "title", "collection"] }, undefined),
      },
    },
    "/records/{record_id}/more_like_this.{format}": {
      get: {
        operationId: "getSimilarRecords",
        parameters: [{ name: "record_id", in: "path", required: true, schema: { type: "integer" } }, FORMAT],
        responses: ok({ type: "object", properties: { records: { type: "array", minItems: 2, items: { ...RECORD, required: ["id", "title"] } } } }, undefined),
      },
    },
  });
});

describe("a path that ends with a format", () => {
  it("names its records without the format", () => {
    expect(nounOfPath("/records.{format}")).toBe("record");
    expect(nounOfPath("/records/{record_id}.{format}")).toBe("record");
    expect(nounOfPath("/v1/users.json")).toBe("user");
    expect(nounOfPath("/records/{record_id}/more_like_this.{format}")).toBe("record");
  });

  it("reads the record its id names, not its format", () => {
    const tool = catalog.get("getRecord");
    expect(tool && bindingsOf(catalog, tool).map(describeBinding)).toEqual(["record_id -> id (equals)"]);
  });

  it("lists other records under a record the path names, not that record", async () => {
    const tool = catalog.get("getSimilarRecords");
    expect(tool && bindingsOf(catalog, tool).map(describeBinding)).toEqual([]);
    for (const seed of [1, 2, 3]) {
      const r = await simulateCall(catalog, { name: "getSimilarRecords", arguments: { record_id: 4242, format: "json" } }, { seed });
      expect((r.body as { records: Json[] }).records.map((x) => x["id"])).not.toContain(4242);
    }
  });

  it("answers a read by id with the record a search showed", async () => {
    for (const seed of [1, 2, 3, 4]) {
      const state = new ResourceStore();
      const found = await simulateCall(catalog, { name: "searchRecords", arguments: { format: "json", text: "election" } }, { seed, state });
      const hit = (found.body as { records: Json[] }).records[1] as Json;
      const read = await simulateCall(catalog, { name: "getRecord", arguments: { record_id: hit["id"], format: "xml" } }, { seed, state });
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: hit["id"], title: hit["title"], collection: hit["collection"] });
    }
  });
});
