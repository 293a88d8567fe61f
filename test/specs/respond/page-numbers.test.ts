import { describe, expect, it } from "vitest";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { entityContradictions } from "../../../agents/tester/entity-contradictions.js";
import { catalogOf, okJson } from "../../support/inline-catalog.js";

// A page of results is one of the pages it counts: an axolotl image search answered `current_page: 20` beside
// `total_pages: 13`, and the tester accepted it. The executor makes the count of pages at least the page's number,
// and the tester reads a page beyond the count as a contradiction.

type Json = Record<string, unknown>;

describe("page numbers", () => {
  it("a synthesized page is never beyond the count of pages beside it (any seed)", async () => {
    const catalog = await catalogOf("Images", {
      "/images/search": {
        get: {
          operationId: "searchImages",
          parameters: [{ in: "query", name: "color", schema: { type: "string" } }],
          responses: okJson({
            type: "object",
            properties: {
              results: { type: "array", items: { type: "object", properties: { url: { type: "string", format: "uri" } } } },
              pagination: { type: "object", required: ["current_page", "total_pages"], properties: { current_page: { type: "integer", minimum: 1 }, total_pages: { type: "integer", minimum: 1 }, total_results: { type: "integer" } } },
            },
            required: ["pagination"],
          }),
        },
      },
    });
    let beyond = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const r = await simulateCall(catalog, { name: "searchImages", arguments: { color: "wild" } }, { seed, useExamples: false });
      expect(r.responseErrors).toEqual([]);
      const page = (r.body as Json)["pagination"] as Json;
      if ((page["current_page"] as number) > (page["total_pages"] as number)) beyond++;
    }
    expect(beyond).toBe(0);
  });

  it("the tester reads page 20 of 13 as a contradiction, and page 4 of 12 as none", () => {
    const call = (pagination: Json) => ({ toolset: "images", tool: "searchImages", method: "GET", path: "/images/search", args: {}, bodyArgs: new Set<string>(), status: 200, body: { results: [], pagination } });
    expect(entityContradictions(call({ current_page: 20, total_pages: 13 })).map((c) => c.field)).toEqual(["pagination.total_pages"]);
    expect(entityContradictions(call({ current_page: 4, total_pages: 12 }))).toEqual([]);
  });
});
