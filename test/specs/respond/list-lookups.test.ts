import { describe, expect, it } from "vitest";
import { bindingsOf } from "../../../specs/respond/bindings/bindings.js";
import { checkBindings } from "../../../specs/respond/bindings/binding-check.js";
import { loadSpec } from "../../../specs/load/load-spec.js";
import { buildCatalog, type Catalog } from "../../../specs/catalog/catalog.js";
import { answerOf, inlineCatalog, ok, type Json } from "./inline-catalog.js";

/**
 * A list answered for a key: the parameter named after the items' noun (`airport_iata`) filters their field
 * (`iata_code`), every item says it (an item without the field gets it), one record's own key answers one
 * record, and the answer's own list is there even where the schema makes it optional.
 */

const airport: Json = {
  type: "object",
  properties: {
    airport_name: { type: "string" },
    iata_code: { type: "string" },
    gps_code: { type: "string" },
    location: { type: "string" },
    latitude: { type: "string" },
    longitude: { type: "string" },
    Country: { $ref: "#/components/schemas/Country" },
    Runway: { type: "array", items: { $ref: "#/components/schemas/Runway" } },
  },
};
const listAnswer: Json = {
  type: "object",
  properties: { airport_list: { type: "array", items: { $ref: "#/components/schemas/Airport" } }, message: { type: "string" }, status_code: { type: "string" } },
};

describe("lists looked up by a key", () => {
  it("a parameter named after the items' noun filters their field", async () => {
    const catalog = await withComponents();
    const filters = (tool: string): string[] => bindingsOf(catalog, catalog.get(tool)!).filter((b) => b.kind === "filter").map((b) => `${(b as { arg: string }).arg}->${(b as { field: string }).field}`);
    expect(filters("searchByIata")).toEqual(["airport_iata->airport_list[].iata_code"]);
    expect(filters("searchByCity")).toEqual(["airport_location->airport_list[].location"]);
  });

  it("an IATA search answers that airport, once, whatever the seed; one the world does not know keeps its code", async () => {
    const catalog = await withComponents();
    for (let seed = 1; seed <= 15; seed++) {
      const body = await answerOf(catalog, "searchByIata", { airport_iata: "LYS" }, seed);
      const list = body["airport_list"] as Json[];
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ iata_code: "LYS" });
      if (list[0]?.["airport_name"] !== undefined) expect(list[0]["airport_name"]).toMatch(/Lyon/);
      if (list[0]?.["location"] !== undefined) expect(list[0]["location"]).toBe("Lyon");
      if (list[0]?.["gps_code"] !== undefined) expect(list[0]["gps_code"], `seed ${seed}: ${JSON.stringify(list[0])}`).toBe("LFLL");
      // Its country is the airport's; nested records deep in the answer are not empty objects; angles are numbers.
      const country = list[0]?.["Country"] as Json | undefined;
      if (country !== undefined) {
        expect(Object.keys(country).length, `seed ${seed}`).toBeGreaterThan(0);
        if (country["country_code"] !== undefined) expect(country["country_code"]).toBe("FR");
        if (country["name"] !== undefined) expect(country["name"]).toBe("France");
      }
      for (const runway of (list[0]?.["Runway"] as Json[] | undefined) ?? []) {
        expect(Object.keys(runway).length).toBeGreaterThan(0);
        if (runway["le_heading_deg"] !== undefined) expect(Number(runway["le_heading_deg"])).toBeLessThan(360);
      }
      const unknown = (await answerOf(catalog, "searchByIata", { airport_iata: "QQX" }, seed))["airport_list"] as Json[];
      expect(unknown.every((a) => a["iata_code"] === "QQX")).toBe(true);
    }
  });

  it("a search sent by POST filters by its body, a write by POST does not", async () => {
    const place = { type: "object", properties: { name: { type: "string" }, city: { type: "string" } } };
    const catalog = await inlineCatalog({
      "/places/search": {
        post: {
          operationId: "searchPlaces",
          requestBody: { content: { "application/json": { schema: { type: "object", properties: { query: { type: "string" } } } } } },
          responses: ok({ type: "object", properties: { results: { type: "array", items: place } } }, { results: [{ name: "Louvre", city: "Paris" }] }),
        },
      },
      "/places": {
        post: {
          operationId: "addPlaces",
          requestBody: { content: { "application/json": { schema: { type: "object", properties: { query: { type: "string" } } } } } },
          responses: ok({ type: "object", properties: { results: { type: "array", items: place } } }, { results: [{ name: "Louvre", city: "Paris" }] }),
        },
      },
    });
    const kinds = (tool: string): string[] => bindingsOf(catalog, catalog.get(tool)!).map((b) => b.kind);
    expect(kinds("searchPlaces")).toContain("search");
    expect(kinds("addPlaces")).not.toContain("search");
    const results = (await answerOf(catalog, "searchPlaces", { query: "Lisbon" }))["results"] as Json[];
    expect(results.every((r) => `${r["name"]} ${r["city"]}`.includes("Lisbon"))).toBe(true);
  });

  it("a list of values asked (`countries: [SE, PT]`) is one of them for every item, by GET or by a search's POST", async () => {
    const hotel = { type: "object", required: ["name", "country"], properties: { name: { type: "string" }, country: { type: "string", maxLength: 2 } } };
    const catalog = await inlineCatalog({
      "/hotels": {
        get: {
          operationId: "listHotels",
          parameters: [{ name: "countries", in: "query", schema: { type: "array", items: { type: "string" } } }],
          responses: ok({ type: "object", properties: { hotels: { type: "array", minItems: 3, items: hotel } } }, { hotels: [{ name: "Ritz", country: "FR" }, { name: "Savoy", country: "GB" }, { name: "Adlon", country: "DE" }] }),
        },
      },
    });
    const filters = bindingsOf(catalog, catalog.get("listHotels")!).filter((b) => b.kind === "filter");
    expect(filters).toEqual([expect.objectContaining({ arg: "countries", field: "hotels[].country", match: "oneOf" })]);
    for (let seed = 1; seed <= 6; seed++) {
      const hotels = (await answerOf(catalog, "listHotels", { countries: ["SE", "PT"] }, seed))["hotels"] as Json[];
      expect(hotels.length).toBeGreaterThan(0);
      expect(hotels.every((h) => ["SE", "PT"].includes(String(h["country"])))).toBe(true);
    }
    expect(checkBindings(filters, { countries: ["SE", "PT"] }, { hotels: [{ name: "Ritz", country: "FR" }] }).map((v) => v.field)).toEqual(["hotels[].country"]);
    expect(checkBindings(filters, { countries: ["SE", "PT"] }, { hotels: [{ name: "Grand", country: "SE" }] })).toEqual([]);
  });

  it("an answer's own list is there even when the schema makes it optional", async () => {
    const catalog = await withComponents();
    for (let seed = 1; seed <= 15; seed++) {
      const body = await answerOf(catalog, "listAirports", {}, seed);
      expect(Array.isArray(body["airport_list"])).toBe(true);
    }
  });
});

/** The airports catalog: three list operations answering the same schema (in components). */
async function withComponents(): Promise<Catalog> {
  const schemaOf = (): Json => ({ "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Answer" } } } } });
  const spec = await loadSpec({
    openapi: "3.0.3",
    info: { title: "Airports", version: "1" },
    paths: {
      "/airports/iata/{airport_iata}": {
        get: { operationId: "searchByIata", parameters: [{ name: "airport_iata", in: "path", required: true, schema: { type: "string" } }], responses: schemaOf() },
      },
      "/airports/city": {
        get: { operationId: "searchByCity", parameters: [{ name: "airport_location", in: "query", required: true, schema: { type: "string" } }], responses: schemaOf() },
      },
      "/airports": { get: { operationId: "listAirports", responses: schemaOf() } },
    },
    components: {
      schemas: {
        Airport: airport,
        Answer: listAnswer,
        Country: { type: "object", properties: { country_code: { type: "string" }, name: { type: "string" } } },
        Runway: { type: "object", properties: { le_heading_deg: { type: "string" }, length_ft: { type: "string" }, surface_type: { type: "string" } } },
      },
    },
  });
  if (!spec.ok) throw new Error(JSON.stringify(spec.errors));
  return buildCatalog(spec.value);
}

describe("records looked up by a list of ids", () => {
  it("a list of ids sent, even by POST, names the records answered (not the example's)", async () => {
    const company = { type: "object", properties: { companyId: { type: "string" }, name: { type: "string" } } };
    const catalog = await inlineCatalog({
      "/companies/overview": {
        post: {
          operationId: "postCompanyOverview",
          requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["companyIds"], properties: { companyIds: { type: "array", items: { type: "string" } }, country: { type: "string" } } } } } },
          responses: ok({ type: "object", properties: { companies: { type: "array", items: company } } }, { companies: [{ companyId: "5560125790", name: "Volvo" }, { companyId: "5565475489", name: "Spotify" }] }),
        },
      },
      "/companies": {
        post: {
          operationId: "createCompany",
          requestBody: { required: true, content: { "application/json": { schema: { type: "object", properties: { name: { type: "string" }, tags: { type: "array", items: { type: "string" } } } } } } },
          responses: ok(company, { companyId: "1", name: "x" }),
        },
      },
    });
    const tool = catalog.get("postCompanyOverview")!;
    expect(bindingsOf(catalog, tool).map((b) => `${b.kind} ${(b as { field?: string }).field} ${(b as { match?: string }).match}`)).toEqual(["filter companies[].companyId oneOf"]);
    // A write's list that is no list of ids binds nothing.
    expect(bindingsOf(catalog, catalog.get("createCompany")!).filter((b) => b.kind === "filter")).toEqual([]);
    for (let seed = 1; seed <= 5; seed++) {
      const ids = ["c-1", "c-2"];
      const body = await answerOf(catalog, "postCompanyOverview", { companyIds: ids }, seed);
      for (const c of body["companies"] as Json[]) expect(ids).toContain(c["companyId"]);
    }
  });
});

describe("a country asked", () => {
  it("is the answer's country under each of its names, and its calling code follows", async () => {
    const catalog = await inlineCatalog({
      "/pricing": {
        get: {
          operationId: "retrievePricingCountry",
          parameters: [{ name: "country", in: "query", required: true, schema: { type: "string", pattern: "^[A-Z]{2}$" } }],
          responses: ok(
            { type: "object", properties: { countryCode: { type: "string" }, countryName: { type: "string" }, countryDisplayName: { type: "string" }, dialingPrefix: { type: "string" }, currency: { type: "string" } } },
            { countryCode: "CA", countryName: "Canada", countryDisplayName: "Canada", dialingPrefix: "1", currency: "CAD" },
          ),
        },
      },
    });
    for (let seed = 1; seed <= 4; seed++) {
      expect(await answerOf(catalog, "retrievePricingCountry", { country: "DE" }, seed)).toEqual({ countryCode: "DE", countryName: "Germany", countryDisplayName: "Germany", dialingPrefix: "49", currency: "EUR" });
    }
  });
});
