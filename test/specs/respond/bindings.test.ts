import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import type { LoadedToolset } from "../../../toolsets/toolset.js";
import { bindingsOf, declareBindings, describeBinding, mergeBindings, type Binding } from "../../../specs/respond/bindings/bindings.js";
import { checkBindings } from "../../../specs/respond/bindings/binding-check.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { buildCatalog } from "../../../specs/catalog/catalog.js";
import { loadSpec } from "../../../specs/load/load-spec.js";

// Bindings (what a request says about its response) on test/fixtures/serve/world-shop.yaml: each kind is
// inferred as data, and every answer obeys it (checked by the independent binding check).

type Json = Record<string, any>;

let shop: LoadedToolset;
beforeAll(async () => {
  const loaded = await loadToolset(fileURLToPath(new URL("../../fixtures/serve/world-shop.yaml", import.meta.url)));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  shop = loaded.value;
});

function bindings(tool: string): Binding[] {
  const t = shop.catalog.get(tool);
  if (!t) throw new Error(`no tool ${tool}`);
  return [...bindingsOf(shop.catalog, t)];
}

async function call(tool: string, args: Json, seed = 3, state = ResourceStore.fromFixtures(shop.fixtures ?? {})) {
  const result = await simulateCall(shop.catalog, { name: tool, arguments: args }, { seed, state });
  expect(result.errors, `${tool} request errors`).toEqual([]);
  expect(result.responseErrors, `${tool} response errors: ${JSON.stringify(result.body)}`).toEqual([]);
  return result;
}

/** The answer to a call, checked against the call's own bindings (none may be violated). */
async function obeyed(tool: string, args: Json, seed = 3, state?: ResourceStore): Promise<any> {
  const result = await call(tool, args, seed, state);
  const lookup = (collection: string, id: string) => state?.get(collection, id);
  expect(checkBindings(bindings(tool), args, result.body, lookup).map((v) => v.message)).toEqual([]);
  return result.body;
}

describe("bindings are inferred per operation, as data", () => {
  it("equality with the same or an equivalent name: city -> location.name, email -> user.email, the id parameter -> id", () => {
    expect(bindings("getWeather")).toContainEqual(expect.objectContaining({ kind: "equals", arg: "city", field: "location.name" }));
    expect(bindings("login")).toContainEqual(expect.objectContaining({ kind: "equals", arg: "email", field: "user.email" }));
    expect(bindings("getOrder")).toContainEqual(expect.objectContaining({ kind: "equals", arg: "orderId", field: "id" }));
    expect(bindings("createOrder")).toContainEqual(expect.objectContaining({ kind: "equals", arg: "email", field: "email" }));
  });

  it("filters, ranges and searches over list items", () => {
    expect(bindings("listCountries")).toContainEqual(expect.objectContaining({ kind: "filter", arg: "region", field: "[].region" }));
    expect(bindings("getHolidays")).toContainEqual(expect.objectContaining({ kind: "filter", arg: "year", field: "[].date", match: "year" }));
    expect(bindings("getHolidays")).toContainEqual(expect.objectContaining({ kind: "range", arg: "from", field: "[].date", bound: "min" }));
    expect(bindings("listPrices")).toContainEqual(expect.objectContaining({ kind: "range", arg: "minPrice", field: "results[].price", bound: "min" }));
    expect(bindings("listPrices")).toContainEqual(expect.objectContaining({ kind: "search", arg: "search", fields: ["results[].name"] }));
    expect(bindings("listOrders")).toContainEqual(expect.objectContaining({ kind: "filter", arg: "status", field: "items[].status" }));
  });

  it("route ends, references, action effects and totals", () => {
    expect(bindings("searchFlights")).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "route", arg: "origin", field: "offers[].segments[0].from" }),
        expect.objectContaining({ kind: "route", arg: "destination", field: "offers[].segments[-1].to" }),
        expect.objectContaining({ kind: "equals", arg: "departureDate", field: "offers[].segments[0].departure", match: "day" }),
      ]),
    );
    expect(bindings("createOrder")).toContainEqual(
      expect.objectContaining({ kind: "reference", arg: "items[].bookId", collection: "/books", fields: { "items[].title": "title", "items[].unitPrice": "price" } }),
    );
    expect(bindings("cancelOrder")).toContainEqual(expect.objectContaining({ kind: "effect", field: "status", value: "cancelled" }));
    expect(bindings("cancelOrder")).toContainEqual(expect.objectContaining({ kind: "equals", arg: "orderId", field: "id" }));
    expect(bindings("createOrder")).toContainEqual(expect.objectContaining({ kind: "total", field: "subtotal", items: "items[]", price: "unitPrice", quantity: "quantity" }));
  });

  it("a toolset declares bindings (the stock here) and overrides or removes inferred ones", () => {
    const stock = bindings("createOrder").find((b) => b.kind === "stock");
    expect(stock).toMatchObject({ arg: "items[].bookId", collection: "/books", field: "stock", source: "declared" });
    expect(describeBinding(stock as Binding)).toBe("items[].bookId -> /books.stock covers items[].quantity (stock, declared)");
    const inferred: Binding[] = [
      { kind: "equals", arg: "city", field: "location.name", source: "inferred" },
      { kind: "filter", arg: "region", field: "[].region", source: "inferred" },
    ];
    const merged = mergeBindings(inferred, [
      { kind: "equals", arg: "town", field: "location.name" },
      { kind: "none", arg: "region" },
    ]);
    expect(merged).toEqual([{ kind: "equals", arg: "town", field: "location.name", source: "declared" }]);
  });

  it("declared bindings are attached to a catalog and take effect there", async () => {
    const spec = await loadSpec({
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {
        "/status": {
          get: {
            operationId: "getStatus",
            parameters: [{ name: "zone", in: "query", schema: { type: "string" } }],
            responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { area: { type: "string" } }, required: ["area"] }, example: { area: "north" } } } } },
          },
        },
      },
    });
    if (!spec.ok) throw new Error("spec");
    const catalog = buildCatalog(spec.value);
    const tool = catalog.get("getStatus");
    if (!tool) throw new Error("tool");
    expect(bindingsOf(catalog, tool)).toEqual([]); // nothing says zone is the area
    declareBindings(catalog, { getStatus: [{ kind: "equals", arg: "zone", field: "area" }] });
    expect(bindingsOf(catalog, tool)).toEqual([{ kind: "equals", arg: "zone", field: "area", source: "declared" }]);
    const answer = await simulateCall(catalog, { name: "getStatus", arguments: { zone: "south" } }, { seed: 1 });
    expect(answer.body).toEqual({ area: "south" });
  });
});

describe("a date range of a list bounds the date its items are about", () => {
  it("a ride's time, not when its record was generated or updated", async () => {
    const ride = { type: "object", properties: { generated_at: { type: "string", format: "date-time" }, updated_at: { type: "string", format: "date-time" }, requested_at: { type: "string", format: "date-time" } } };
    const trip = { type: "object", properties: { generated_at: { type: "string", format: "date-time" }, pickup_time: { type: "string", format: "date-time" } } };
    const list = (item: object) => ({ "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { history: { type: "array", items: item } } } } } } });
    const params = [{ name: "start_time", in: "query", schema: { type: "string", format: "date-time" } }, { name: "end_time", in: "query", schema: { type: "string", format: "date-time" } }];
    const spec = await loadSpec({ openapi: "3.0.3", info: { title: "t", version: "1" }, paths: { "/rides": { get: { operationId: "getRides", parameters: params, responses: list(ride) } }, "/trips": { get: { operationId: "getTrips", parameters: params, responses: list(trip) } } } });
    if (!spec.ok) throw new Error("spec");
    const catalog = buildCatalog(spec.value);
    const ranges = (name: string) => bindingsOf(catalog, catalog.get(name)!).filter((b) => b.kind === "range").map((b) => ("field" in b ? b.field : ""));
    expect(ranges("getRides")).toEqual(["history[].requested_at", "history[].requested_at"]);
    expect(ranges("getTrips")).toEqual(["history[].pickup_time", "history[].pickup_time"]);
  });
});

describe("every answer obeys its bindings", () => {
  it("equality: the weather of the city asked, its place coherent (country and coordinates follow the city)", async () => {
    const body = await obeyed("getWeather", { city: "Amsterdam" });
    expect(body.location).toMatchObject({ name: "Amsterdam", country: "NL" });
    expect(body.location.latitude).toBeCloseTo(52.37, 1);
    const atlantis = await obeyed("getWeather", { city: "Atlantis" });
    expect(atlantis.location.name).toBe("Atlantis");
  });

  it("equality: a login answers the user whose email was given, named after it", async () => {
    const body = await obeyed("login", { email: "loren.mueller@example.com", password: "pw-123456" });
    expect(body.user).toMatchObject({ email: "loren.mueller@example.com", name: "Loren Mueller" });
  });

  it("filters: countries of the region asked are countries of that region", async () => {
    for (const region of ["Asia", "Africa", "Americas"]) {
      const body = (await obeyed("listCountries", { region })) as Json[];
      expect(body.length).toBeGreaterThan(0);
      for (const c of body) expect(c.region).toBe(region);
      // Not Germany relabelled: a real country of the region, with its own capital.
      expect(body.map((c) => c.name)).not.toContain("Germany");
    }
  });

  it("filters and ranges on dates: holidays of the year asked, on or after the date asked", async () => {
    const body = (await obeyed("getHolidays", { year: 2024, from: "2024-06-01" })) as Json[];
    expect(body.length).toBeGreaterThan(0);
    for (const h of body) {
      expect(h.date.slice(0, 4)).toBe("2024");
      expect(h.date >= "2024-06-01").toBe(true);
    }
  });

  it("ranges on numbers and searches: prices at least the minimum, items that mention the query", async () => {
    const body = await obeyed("listPrices", { minPrice: 10, search: "kettle" });
    for (const r of body.results) {
      expect(r.price).toBeGreaterThanOrEqual(10);
      expect(r.name.toLowerCase()).toContain("kettle");
    }
  });

  it("routes: every offer leaves from the origin and arrives at the destination on the day asked", async () => {
    const body = await obeyed("searchFlights", { origin: "LIS", destination: "BCN", departureDate: "2025-09-02" });
    for (const offer of body.offers) {
      expect(offer.segments[0].from).toBe("LIS");
      expect(offer.segments[offer.segments.length - 1].to).toBe("BCN");
      expect(offer.segments[0].departure.slice(0, 10)).toBe("2025-09-02");
    }
  });
});
