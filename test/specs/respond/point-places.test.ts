import { describe, expect, it } from "vitest";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { catalogOf } from "../../support/inline-catalog.js";

// A place put at a point the call asks for is in the city there: a comparable listing whose example was in San
// Antonio ("7410 Adaja Riv, San Antonio, TX 78244") is, at Lisbon's coordinates, in Lisbon, its written address
// says so, and the old city's state, county and postcode are gone (empty where the schema takes no null).

type Json = Record<string, unknown>;
const listing = {
  type: "object",
  properties: {
    addressLine1: { type: "string", example: "7410 Adaja Riv" },
    city: { type: "string", example: "San Antonio" },
    county: { type: "string", example: "Bexar" },
    state: { type: "string", example: "TX" },
    zipCode: { type: "string", example: "78244" },
    formattedAddress: { type: "string", example: "7410 Adaja Riv, San Antonio, TX 78244" },
    latitude: { type: "number", example: 29.475 },
    longitude: { type: "number", example: -98.351 },
    price: { type: "number", example: 1850 },
  },
  required: ["city", "county", "state", "zipCode", "formattedAddress", "latitude", "longitude"],
};

describe("a place at a point asked for", () => {
  it("is in the city at that point, with its address and without the old city's parts", async () => {
    const catalog = await catalogOf("Estimates", {
      "/avm/rent/long-term": {
        get: {
          operationId: "rentEstimate",
          parameters: [
            { in: "query", name: "latitude", schema: { type: "number" } },
            { in: "query", name: "longitude", schema: { type: "number" } },
          ],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { rent: { type: "number" }, latitude: { type: "number" }, longitude: { type: "number" }, comparables: { type: "array", minItems: 1, maxItems: 1, items: listing } } } } } } },
        },
      },
    });
    let checked = 0;
    for (const seed of [1, 2, 3, 4]) {
      const r = await simulateCall(catalog, { name: "rentEstimate", arguments: { latitude: 38.7223, longitude: -9.1393 } }, { seed, useExamples: false });
      expect(r.responseErrors).toEqual([]);
      for (const c of ((r.body as Json)["comparables"] as Json[]) ?? []) {
        if (Math.abs(Number(c["latitude"]) - 38.7223) > 0.5) continue;
        checked++;
        expect(c["city"]).toBe("Lisbon");
        expect(String(c["formattedAddress"])).not.toContain("San Antonio");
        for (const k of ["state", "county", "zipCode"]) expect(["", null], `${k} of ${JSON.stringify(c)}`).toContain(c[k]);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(4);
  });

  it("listed things moved near the point of a nearby search are in the city there", async () => {
    const catalog = await catalogOf("Listings", {
      "/listings/sale": {
        get: {
          operationId: "saleListings",
          parameters: ["latitude", "longitude", "radius"].map((name) => ({ in: "query", name, schema: { type: "number" } })),
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "array", minItems: 2, maxItems: 2, items: listing } } } } },
        },
      },
    });
    let checked = 0;
    for (const seed of [1, 2, 3]) {
      const r = await simulateCall(catalog, { name: "saleListings", arguments: { latitude: 38.7223, longitude: -9.1393, radius: 5 } }, { seed, useExamples: false });
      expect(r.responseErrors).toEqual([]);
      for (const c of r.body as Json[]) {
        expect(Math.abs(Number(c["latitude"]) - 38.7223)).toBeLessThan(0.2);
        if (c["city"] === undefined) continue;
        checked++;
        expect(c["city"]).toBe("Lisbon");
      }
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  it("a default city is where a search looks when the call says nowhere, not around the point a call gives (RentCast: city=Austin)", async () => {
    const catalog = await catalogOf("Rentals", {
      "/listings/rental/long-term": {
        get: {
          operationId: "rentalListings",
          parameters: [
            { in: "query", name: "city", schema: { type: "string", default: "Austin" } },
            { in: "query", name: "state", schema: { type: "string", default: "TX" } },
            ...["latitude", "longitude", "radius"].map((name) => ({ in: "query", name, schema: { type: "number" } })),
          ],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "array", minItems: 2, maxItems: 2, items: listing } } } } },
        },
      },
    });
    for (const seed of [1, 2, 3]) {
      const atPoint = await simulateCall(catalog, { name: "rentalListings", arguments: { latitude: 38.7223, longitude: -9.1393 } }, { seed, useExamples: false });
      expect(atPoint.responseErrors).toEqual([]);
      for (const c of atPoint.body as Json[]) {
        expect(Math.abs(Number(c["latitude"]) - 38.7223)).toBeLessThan(0.2);
        expect(c["city"]).toBe("Lisbon");
        expect(String(c["formattedAddress"])).not.toMatch(/Austin|TX/);
      }
      const nowhere = await simulateCall(catalog, { name: "rentalListings", arguments: {} }, { seed, useExamples: false });
      for (const c of nowhere.body as Json[]) expect([c["city"], c["state"]]).toEqual(["Austin", "TX"]);
    }
  });

  it("a place in one of the countries asked for is a city of that country, by code and name alike, without the old region", async () => {
    const catalog = await catalogOf("Places", {
      "/reverse": {
        post: {
          operationId: "reverse",
          requestBody: { content: { "application/json": { schema: { type: "object", properties: { countries: { type: "array", items: { type: "string", pattern: "^[A-Z]{2}$" } } } } } } },
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      results: {
                        type: "array",
                        minItems: 1,
                        maxItems: 1,
                        items: { type: "object", required: ["city", "country", "countrycode", "administrative"], properties: { city: { type: "string", example: "Helsinki" }, country: { type: "string", example: "Finland" }, countrycode: { type: "string", example: "FI" }, administrative: { type: "string", example: "Uusimaa" }, lat: { type: "number" }, lng: { type: "number" } } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    });
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = await simulateCall(catalog, { name: "reverse", arguments: { countries: ["AU", "DK"] } }, { seed, useExamples: false });
      expect(r.responseErrors).toEqual([]);
      for (const place of (r.body as Json)["results"] as Json[]) {
        const code = place["countrycode"];
        expect(["AU", "DK"], JSON.stringify(place)).toContain(code);
        expect(place["country"], JSON.stringify(place)).toBe(code === "AU" ? "Australia" : "Denmark");
        expect(["Helsinki", "Uusimaa"]).not.toContain(place["city"]);
        expect(place["administrative"]).not.toBe("Uusimaa");
      }
    }
  });
});

