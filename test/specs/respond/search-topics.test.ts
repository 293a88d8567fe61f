import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { bindingsOf, describeBinding } from "../../../specs/respond/bindings/bindings.js";
import { answerOf, inlineCatalog, ok, type Json } from "./inline-catalog.js";

// A search hit that leaves out the field the search reads (an optional title) names the search in its subjects.

let catalog: Catalog;
beforeAll(async () => {
  const journal = { type: "object", properties: { title: { type: "string" }, publisher: { type: "string" }, language: { type: "string" }, subjects: { type: "array", items: { type: "string" } } } };
  catalog = await inlineCatalog({
    "/journals/search/{query}": {
      get: {
        operationId: "searchJournals",
        summary: "Search journals",
        parameters: [{ name: "query", in: "path", required: true, schema: { type: "string" } }],
        responses: ok(
          { type: "object", properties: { data: { type: "array", items: journal }, totalHits: { type: "integer" } } },
          { data: [{ publisher: "Green, Hills and Moen", language: "Georgian", subjects: ["Mathematics"] }, { publisher: "Shields and Jacobs", language: "Slovak", subjects: [] }], totalHits: 18 },
        ),
      },
    },
  });
});

describe("search hits without the searched field", () => {
  it("name what was searched in their subjects, each keeping its own", async () => {
    const tool = catalog.get("searchJournals");
    expect(tool && bindingsOf(catalog, tool).map(describeBinding)).toEqual(["query -> data[].title (search)"]);
    const body = await answerOf(catalog, "searchJournals", { query: "solvency" });
    const data = body["data"] as Json[];
    expect(data.map((j) => j["subjects"])).toEqual([["Solvency", "Mathematics"], ["Solvency"]]);
    expect(data.map((j) => j["publisher"])).toEqual(["Green, Hills and Moen", "Shields and Jacobs"]);
  });
});
