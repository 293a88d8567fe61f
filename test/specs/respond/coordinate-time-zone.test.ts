import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { MAX_KM, pointZone } from "../../../specs/respond/world/coordinate-time-zone.js";
import { cityNear } from "../../../specs/synthesize/world/world-data.js";
import { entityContradictions } from "../../../agents/tester/entity-contradictions.js";
import { answerOf, inlineCatalog, type Json } from "./inline-catalog.js";

// The time zone of a coordinate is the zone of the place there, with its offset, abbreviation, DST flag and local
// time on the simulated today; the tester drops an answer that puts Rome on Los Angeles' clock.

let catalog: Catalog;
beforeAll(async () => {
  catalog = await inlineCatalog(
    {
      "/timezone": {
        get: {
          operationId: "getTimezone",
          parameters: [
            { name: "lat", in: "query", required: true, schema: { type: "number" } },
            { name: "lng", in: "query", required: true, schema: { type: "number" } },
          ],
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      zoneName: { type: "string" },
                      abbreviation: { type: "string" },
                      gmtOffset: { type: "integer" },
                      dst: { type: "boolean" },
                      formatted: { type: "string" },
                    },
                  },
                  example: { zoneName: "America/Los_Angeles", abbreviation: "PDT", gmtOffset: -25200, dst: true, formatted: "2025-07-01T05:00:00-07:00" },
                },
              },
            },
          },
        },
      },
    },
    "Zones",
  );
});

const zoneAt = (lat: number, lng: number): Promise<Json> => answerOf(catalog, "getTimezone", { lat, lng });

describe("the time zone of a coordinate", () => {
  it("is the zone of the known city there, on that zone's clock today", async () => {
    expect(await zoneAt(41.9028, 12.4964)).toEqual({ zoneName: "Europe/Rome", abbreviation: "CEST", gmtOffset: 7200, dst: true, formatted: "2025-06-01T14:00:00+02:00" });
    expect(await zoneAt(35.68, 139.69)).toMatchObject({ zoneName: "Asia/Tokyo", abbreviation: "JST", gmtOffset: 32400, dst: false });
    expect(await zoneAt(-33.87, 151.21)).toMatchObject({ zoneName: "Australia/Sydney", abbreviation: "AEST", gmtOffset: 36000, dst: false });
  });

  it("is left as it is far from every known city (the open Pacific)", async () => {
    expect(cityNear(0, -140, MAX_KM)).toBeUndefined();
    expect((await zoneAt(0, -140))["zoneName"]).toBe("America/Los_Angeles");
  });

  it("is checked by the tester: another clock contradicts the point, another name for the same clock does not", () => {
    const call = (zoneName: string): Parameters<typeof entityContradictions>[0] => ({ toolset: "t", tool: "getTimezone", method: "get", path: "/timezone", args: { lat: 41.9, lng: 12.5 }, bodyArgs: new Set(), status: 200, body: { zoneName } });
    expect(entityContradictions(call("America/Los_Angeles")).map((c) => c.expected)).toEqual(["Europe/Rome"]);
    expect(entityContradictions(call("Europe/Vatican"))).toEqual([]);
    expect(pointZone({ lat: 41.9, lng: 12.5 }, { zoneName: "UTC+2" })).toBeUndefined();
  });
});
