import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { bindingsOf, describeBinding } from "../../../specs/respond/bindings/bindings.js";
import { answerOf, inlineCatalog, ok, type Json } from "./inline-catalog.js";

// A read by id of a JSON:API document names its `data.id`; a record made another one carries its links along.

let catalog: Catalog;
beforeAll(async () => {
  catalog = await inlineCatalog({
    "/pub/questions/{id}": {
      get: {
        operationId: "fetchQuestion",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: ok(
          {
            type: "object",
            required: ["data"],
            properties: {
              data: { type: "object", required: ["id", "type"], properties: { id: { type: "string" }, type: { type: "string" }, attributes: { type: "object" }, links: { type: "object", properties: { self: { type: "string" } } } } },
              links: { type: "object", properties: { self: { type: "string" } } },
            },
          },
          { data: { id: "21", type: "question", attributes: { text: "When was your last check-up?" }, links: { self: "/pub/questions/21" } }, links: { self: "https://api.example.com/pub/questions/21?include=format" } },
        ),
      },
    },
    "/items/{itemId}": {
      get: {
        operationId: "getItem",
        parameters: [{ name: "itemId", in: "path", required: true, schema: { type: "integer" } }],
        responses: ok(
          { type: "object", properties: { id: { type: "integer" }, source_url: { type: "string" }, image: { type: "string" }, note: { type: "string" } } },
          { id: 1788754, source_url: "https://api.example.org/records/1788754/source", image: "https://cdn.example.org/img/17887540.jpg", note: "see /archive/1788754-old" },
        ),
      },
    },
  });
});

describe("a record's links follow its id", () => {
  it("a JSON:API read by id names the document's data.id, and its links name it too", async () => {
    const tool = catalog.get("fetchQuestion");
    expect(tool && bindingsOf(catalog, tool).map(describeBinding)).toEqual(["id -> data.id (equals)"]);
    const body = await answerOf(catalog, "fetchQuestion", { id: "26v184c2q4ui" });
    expect(body["data"]).toMatchObject({ id: "26v184c2q4ui", links: { self: "/pub/questions/26v184c2q4ui" } });
    expect(body["links"]).toEqual({ self: "https://api.example.com/pub/questions/26v184c2q4ui?include=format" });
  });

  it("a JSON:API record read from state gets no root id its schema does not declare", async () => {
    const { simulateCall } = await import("../../../specs/call/simulate-call.js");
    const { ResourceStore } = await import("../../../specs/respond/resource-store.js");
    const state = new ResourceStore();
    for (let i = 0; i < 2; i++) {
      const r = await simulateCall(catalog, { name: "fetchQuestion", arguments: { id: "q-77" } }, { seed: 3, state });
      expect(Object.keys(r.body as Json).sort()).toEqual(["data", "links"]);
      expect((r.body as Json)["data"]).toMatchObject({ id: "q-77" });
    }
  });

  it("rewrites the old id only where it stands as a whole path segment", async () => {
    const body = await answerOf(catalog, "getItem", { itemId: 555 });
    expect(body).toMatchObject({ id: 555, source_url: "https://api.example.org/records/555/source" });
    expect((body as Json)["image"]).toBe("https://cdn.example.org/img/17887540.jpg");
    expect((body as Json)["note"]).toBe("see /archive/1788754-old");
  });
});

describe("followLinks: the old id where it ends a path segment", () => {
  it("replaces /21 before the end, /, ?, # and ., never inside a longer segment", async () => {
    const { followLinks } = await import("../../../specs/respond/bindings/record-links.js");
    const { Edits } = await import("../../../specs/respond/bindings/answer-edits.js");
    const record: Json = {
      id: "21",
      self: "/q/21",
      next: "/q/21/21?x=/21#/21.json",
      other: "/q/210/121/21x",
      nested: { href: "https://h.example/21/a" },
    };
    followLinks(new Edits(), record, "", "/id", "21", "a b");
    expect(record).toEqual({
      id: "21",
      self: "/q/a%20b",
      next: "/q/a%20b/a%20b?x=/a%20b#/a%20b.json",
      other: "/q/210/121/21x",
      nested: { href: "https://h.example/a%20b/a" },
    });
  });
});
