import { describe, expect, it } from "vitest";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { catalogOf, okJson } from "../../support/inline-catalog.js";
import { bindingsOf } from "../../../specs/respond/bindings/bindings.js";
import { callContradictions } from "../../../simulator/stats/call-contradictions.js";

// Which records a call's arguments speak of: `?doctor=75` on one message is the message's doctor, not its
// attachments'; the competitors of company 31163 are other companies, each with its own `company_id`; a company
// found by a search for its name is renamed to mention it even though its head office is in a city the world knows,
// and so is a repository whose `repositoryLocation` has coordinates (it is somewhere; it is not a place).
// The executor, the tester's bindings and the run audit read them alike.

type Json = Record<string, unknown>;
const company = { type: "object", properties: { company_id: { type: "integer" }, name: { type: "string" }, website: { type: "string" } } };

function catalog(): Promise<Catalog> {
  return catalogOf("Records", {
      "/api/patient_messages/{id}": {
        get: {
          operationId: "readMessage",
          parameters: [
            { in: "path", name: "id", required: true, schema: { type: "string" } },
            { in: "query", name: "doctor", schema: { type: "integer" } },
          ],
          responses: okJson({ type: "object", properties: { id: { type: "integer" }, doctor: { type: "integer" }, attachments: { type: "array", minItems: 2, items: { type: "object", properties: { attachment: { type: "string" }, doctor: { type: "integer" } } } } } }),
        },
      },
      "/v1/company/competitor/id/{companyId}": {
        get: { operationId: "competitors", parameters: [{ in: "path", name: "companyId", required: true, schema: { type: "string" } }], responses: okJson({ type: "object", properties: { competitor: { type: "array", items: company } } }) },
      },
      "/authors/{authorId}": {
        get: {
          operationId: "author",
          parameters: [{ in: "path", name: "authorId", required: true, schema: { type: "integer" } }],
          responses: okJson({ type: "object", properties: { books: { type: "array", items: { type: "object", properties: { id: { type: "integer" }, authorId: { type: "integer" }, title: { type: "string" } } } } } }),
        },
      },
      "/repositories/search/{query}": {
        get: {
          operationId: "searchRepositories",
          parameters: [{ in: "path", name: "query", required: true, schema: { type: "string" } }],
          responses: okJson({
            type: "object",
            properties: {
              data: {
                type: "array",
                minItems: 1,
                items: {
                  type: "object",
                  required: ["id", "name", "repositoryLocation"],
                  properties: {
                    id: { type: "integer" },
                    name: { type: "string" },
                    uri: { type: "string", format: "uri" },
                    repositoryLocation: { type: "object", required: ["latitude", "longitude"], properties: { countryCode: { type: "string" }, latitude: { type: "number" }, longitude: { type: "number" } } },
                  },
                },
              },
            },
          }),
        },
      },
      "/v1/company/basicsearch": {
        get: {
          operationId: "searchCompanies",
          parameters: [{ in: "query", name: "q", required: true, schema: { type: "string" } }],
          responses: okJson(
            { type: "object", properties: { company: { type: "array", items: { type: "object", properties: { company_id: { type: "integer" }, name: { type: "string" }, hq_address: { type: "object", properties: { city: { type: "string" }, street1: { type: "string" } } } } } } } },
            { company: [{ company_id: 9823, name: "Beier, Lemke and Toy", hq_address: { city: "Helsinki", street1: "Mannerheimintie 1" } }] },
          ),
        },
      },
  });
}

const bindings = (c: Catalog, name: string) => bindingsOf(c, c.get(name) ?? (() => { throw new Error(name); })()).map((b) => `${b.kind} ${"field" in b ? b.field : ""} <- ${"arg" in b ? b.arg : ""}`);

describe("a record's arguments and its parts", () => {
  it("a query filter the one record read has itself binds the record, not its parts' own fields", async () => {
    const c = await catalog();
    expect(bindings(c, "readMessage")).toContain("equals doctor <- doctor");
    expect(bindings(c, "readMessage").some((b) => b.includes("attachments"))).toBe(false);
    const r = await simulateCall(c, { name: "readMessage", arguments: { id: "17369", doctor: 75 } }, { seed: 3 });
    expect((r.body as Json)["doctor"]).toBe(75);
    const call = { toolset: "t", tool: "readMessage", method: "GET", path: "/api/patient_messages/{id}", args: { id: "17369", doctor: 75 }, bodyArgs: new Set<string>(), status: 200, body: { id: 17369, doctor: 75, attachments: [{ doctor: 35 }, { doctor: 90 }] } };
    expect(callContradictions(call)).toEqual([]);
    // (a list read answers what it was asked: a doctor's messages are that doctor's)
    expect(callContradictions({ ...call, path: "/api/patient_messages", body: { doctor: 75, messages: [{ doctor: 35 }] } }).map((x) => x.field)).toEqual(["messages[].doctor"]);
  });

  it("items of another noun under the one id the path names are other records, not filtered by it; parts naming it are", async () => {
    const c = await catalog();
    expect(bindings(c, "competitors").filter((b) => b.includes("company_id"))).toEqual([]);
    expect(bindings(c, "author")).toContain("filter books[].authorId <- authorId");
    const call = { toolset: "t", tool: "competitors", method: "GET", path: "/v1/company/competitor/id/{companyId}", args: { companyId: "31163" }, bodyArgs: new Set<string>(), status: 200, body: { competitor: [{ company_id: 35355, name: "Rival" }] } };
    expect(callContradictions(call)).toEqual([]);
    const books = { toolset: "t", tool: "author", method: "GET", path: "/authors/{authorId}", args: { authorId: 7 }, bodyArgs: new Set<string>(), status: 200, body: { books: [{ id: 1, authorId: 8, title: "X" }] } };
    expect(callContradictions(books).map((x) => x.rule)).toEqual(["filter"]);
  });

  it("a company with a head office in a known city, found by a search for a word that is no place, mentions the word", async () => {
    const c = await catalog();
    for (const q of ["PermID", "Siemens", "lighthouse"]) {
      const r = await simulateCall(c, { name: "searchCompanies", arguments: { q } }, { seed: 1 });
      const names = ((r.body as Json)["company"] as Json[]).map((x) => String(x["name"]));
      expect(names.length).toBeGreaterThan(0);
      for (const n of names) expect(n.toLowerCase()).toContain(q.toLowerCase());
    }
  });

  it("a record with the location of what it is (a repository's `repositoryLocation`) is no place: a search by a word names it", async () => {
    const cat = await catalog();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const r = await simulateCall(cat, { name: "searchRepositories", arguments: { query: "grandson" } }, { seed, useExamples: false });
      expect(r.responseErrors).toEqual([]);
      const items = (r.body as Json)["data"] as Json[];
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(String(item["name"]).toLowerCase(), `seed ${seed}`).toContain("grandson");
    }
  });
});
