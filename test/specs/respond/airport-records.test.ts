import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { answerOf, inlineCatalog, ok, type Json } from "./inline-catalog.js";

// An airport named by other names than the world's (`airport_name`, `gps_code`, `location`, coordinates as strings)
// is still one airport: the one the call names, or the one nearest the point it asks about.

const AIRPORT = {
  type: "object",
  properties: {
    airport_name: { type: "string" },
    gps_code: { type: "string" },
    iata_code: { type: "string" },
    location: { type: "string" },
    latitude: { type: "string" },
    longitude: { type: "string" },
  },
};
const LIST = { type: "object", properties: { airport_list: { type: "array", items: AIRPORT } } };
const EXAMPLE = { airport_list: [{ airport_name: "Incheon International Airport", gps_code: "RKSI", iata_code: "ICN", location: "Seoul", latitude: "37.46", longitude: "126.44" }] };

let catalog: Catalog;
beforeAll(async () => {
  catalog = await inlineCatalog(
    {
      "/airports/search": {
        get: { operationId: "searchByName", parameters: [{ name: "airport_name", in: "query", required: true, schema: { type: "string" } }], responses: ok(LIST, EXAMPLE) },
      },
      "/airports/nearest/{latitude}/{longitude}": {
        get: {
          operationId: "nearest",
          parameters: [
            { name: "latitude", in: "path", required: true, schema: { type: "string" } },
            { name: "longitude", in: "path", required: true, schema: { type: "string" } },
          ],
          responses: ok(LIST, EXAMPLE),
        },
      },
    },
    "Airports",
  );
});

describe("an airport under other names", () => {
  it("is the airport the call names, with its codes and city", async () => {
    const [a] = (await answerOf(catalog, "searchByName", { airport_name: "John F. Kennedy International Airport" }))["airport_list"] as Json[];
    expect(a).toMatchObject({ airport_name: "John F. Kennedy International Airport", gps_code: "KJFK", iata_code: "JFK", location: "New York" });
  });

  it("is the airport nearest the point asked", async () => {
    const [a] = (await answerOf(catalog, "nearest", { latitude: "41.1496", longitude: "-8.611" }))["airport_list"] as Json[];
    expect(a).toMatchObject({ iata_code: "OPO", gps_code: "LPPR", location: "Porto", latitude: "41.1496", longitude: "-8.611" });
  });
});
