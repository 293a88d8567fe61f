import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { greatCircleKm } from "../../../specs/synthesize/world/great-circle.js";
import { answerOf, inlineCatalog, ok, type Json } from "./inline-catalog.js";

// What a call asks for near a point is near it; what a binding settles, and what other reads list, stays.

const LOCATION = { type: "object", properties: { lat: { type: "number" }, lng: { type: "number" } } };
const POINT = [
  { name: "lat", in: "query", required: true, schema: { type: "number" } },
  { name: "lng", in: "query", required: true, schema: { type: "number" } },
];

let catalog: Catalog;
beforeAll(async () => {
  catalog = await inlineCatalog({
    "/drivers": {
      get: {
        operationId: "listDrivers",
        description: "The drivers nearby a given location.",
        parameters: POINT,
        responses: ok(
          { type: "object", properties: { drivers: { type: "array", items: { type: "object", properties: { id: { type: "string" }, location: LOCATION } } } } },
          { drivers: [{ id: "d1", location: { lat: 36.9442175, lng: -123.8679133 } }, { id: "d2", location: { lat: 37.7749, lng: -122.4194 } }] },
        ),
      },
    },
    "/stations": {
      get: {
        operationId: "searchStations",
        parameters: [...POINT, { name: "radius", in: "query", schema: { type: "integer", description: "metres" } }],
        responses: ok({ type: "array", items: { type: "object", properties: { name: { type: "string" }, latitude: { type: "string" }, longitude: { type: "string" } } } }, [
          { name: "Central", latitude: "51.5308", longitude: "-0.1238" },
        ]),
      },
    },
    "/airspace/query": {
      post: {
        operationId: "aerodromesByDistanceQuery",
        requestBody: {
          content: { "application/json": { schema: { type: "object", required: ["latitude", "longitude"], properties: { latitude: { type: "number" }, longitude: { type: "number" }, distance: { type: "number" } } } } },
        },
        responses: ok(
          {
            type: "object",
            properties: { found: { type: "object", properties: { type: { type: "string" }, features: { type: "array", items: { type: "object", properties: { type: { type: "string" }, geometry: { type: "object" }, properties: { type: "object" } } } } } } },
          },
          {
            found: {
              type: "FeatureCollection",
              features: [
                { type: "Feature", geometry: { type: "Point", coordinates: [-82.997126, 39.95534] }, properties: { name: "Joseph Skilken & Company" } },
                { type: "Feature", geometry: { type: "Polygon", coordinates: [[[-77.39, 39.43], [-77.38, 39.43], [-77.38, 39.44], [-77.39, 39.43]]] }, properties: { name: "Fort Detrick" } },
              ],
            },
          },
        ),
      },
    },
    "/flights/from": {
      get: {
        operationId: "listDepartures",
        description: "Flights leaving the airport at a location.",
        parameters: POINT,
        responses: ok({ type: "array", items: { type: "object", properties: { to: { type: "string" }, arrival: LOCATION } } }, [{ to: "JFK", arrival: { lat: 40.6413, lng: -73.7781 } }]),
      },
    },
  });
});

const locations = (body: Json): Array<{ lat: number; lng: number }> => (body["drivers"] as Json[]).map((d) => d["location"] as { lat: number; lng: number });

describe("things asked for near a point", () => {
  it("are near the point, each at its own spot, written with the example's precision", async () => {
    const body = await answerOf(catalog, "listDrivers", { lat: 48.2082, lng: 16.3738 });
    const spots = locations(body);
    expect(spots).toHaveLength(2);
    for (const s of spots) {
      expect(greatCircleKm(48.2082, 16.3738, s.lat, s.lng)).toBeLessThanOrEqual(2.01);
      expect(String(s.lat).split(".")[1]?.length ?? 0).toBeLessThanOrEqual(7);
    }
    expect(spots[0]).not.toEqual(spots[1]);
    // The same call, the same spots.
    expect(locations(await answerOf(catalog, "listDrivers", { lat: 48.2082, lng: 16.3738 }))).toEqual(spots);
  });

  it("stay within a radius the call gives (metres), as strings where the schema has strings", async () => {
    const [station] = (await answerOf(catalog, "searchStations", { lat: 38.7223, lng: -9.1393, radius: 800 })) as unknown as Json[];
    expect(typeof station?.["latitude"]).toBe("string");
    expect(greatCircleKm(38.7223, -9.1393, Number(station?.["latitude"]), Number(station?.["longitude"]))).toBeLessThanOrEqual(0.8);
  });

  it("move GeoJSON features whole, a polygon keeping its shape, for a search sent by POST", async () => {
    const body = await answerOf(catalog, "aerodromesByDistanceQuery", { latitude: 45.764, longitude: 4.8357, distance: 3 });
    const [point, area] = (body["found"] as Json)["features"] as Json[];
    const [lon, lat] = (point?.["geometry"] as Json)["coordinates"] as number[];
    expect(greatCircleKm(45.764, 4.8357, lat as number, lon as number)).toBeLessThanOrEqual(2.01);
    const ring = ((area?.["geometry"] as Json)["coordinates"] as number[][][])[0] as number[][];
    expect(greatCircleKm(45.764, 4.8357, ring[0]?.[1] as number, ring[0]?.[0] as number)).toBeLessThanOrEqual(2.01);
    // The shape is kept: the ring's sides are as long as before, and it still closes.
    expect((ring[1]?.[0] as number) - (ring[0]?.[0] as number)).toBeCloseTo(0.01, 5);
    expect(ring[3]).toEqual(ring[0]);
  });

  it("leaves things already near the point, and what a read that is not about nearness lists", async () => {
    const near = await answerOf(catalog, "listDrivers", { lat: 37.7749, lng: -122.4194 });
    expect(locations(near)[1]).toEqual({ lat: 37.7749, lng: -122.4194 });
    const [flight] = (await answerOf(catalog, "listDepartures", { lat: 38.7223, lng: -9.1393 })) as unknown as Json[];
    expect(flight).toEqual({ to: "JFK", arrival: { lat: 40.6413, lng: -73.7781 } });
  });
});
