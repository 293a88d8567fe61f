import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { isPlausible, valueKindOf } from "../../../specs/value-kinds.js";
import { isAfterNow, notAfterNow, SIMULATED_TODAY } from "../../../specs/synthesize/world/simulated-today.js";
import { keepStampsPast } from "../../../specs/synthesize/world/dated-examples.js";
import { answerOf, inlineCatalog, ok, type Json } from "./inline-catalog.js";

// What already happened happened by the simulated today: an example's `submittedAt` two weeks ahead moves back,
// with the record's other dates, and a list's items move together.

const ORDER = {
  type: "object",
  properties: {
    id: { type: "string" },
    createdAt: { type: "string", format: "date-time" },
    estimatedDelivery: { type: "string", format: "date" },
    pickupOn: { type: "string", format: "date" },
  },
};

let catalog: Catalog;
beforeAll(async () => {
  catalog = await inlineCatalog(
    {
      "/orders/{id}": {
        get: {
          operationId: "getOrder",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: ok(ORDER, { id: "o-1", createdAt: "2025-06-14T10:03:12Z", estimatedDelivery: "2025-06-17" }),
        },
      },
      "/orders": {
        get: {
          operationId: "listOrders",
          responses: ok({ type: "object", properties: { orders: { type: "array", items: ORDER } } }, {
            orders: [
              { id: "o-1", createdAt: "2025-06-14T10:03:12Z", estimatedDelivery: "2025-06-17" },
              { id: "o-2", createdAt: "2025-06-10T08:00:00Z", estimatedDelivery: "2025-06-12" },
              { id: "o-3", createdAt: "2025-05-02T08:00:00Z" },
            ],
          }),
        },
      },
      "/pickups": {
        get: {
          operationId: "listPickups",
          parameters: [{ name: "pickupOn", in: "query", schema: { type: "string", format: "date" } }],
          responses: ok({ type: "object", properties: { orders: { type: "array", items: ORDER } } }, {
            orders: [{ id: "o-9", createdAt: "2025-06-20T10:00:00Z", pickupOn: "2025-06-25" }],
          }),
        },
      },
    },
    "Shop",
  );
});

const body = (tool: string, args: Json): Promise<Json> => answerOf(catalog, tool, args, 3);

describe("past stamps", () => {
  it("are named by what already happened, and plausible on or before today only", () => {
    expect(["createdAt", "submitted_at", "measuredAt", "lastLoginAt", "updated", "lastActivatedAt", "last_triggered_at", "lastRunAt"].map(valueKindOf)).toEqual(Array(8).fill("stamp"));
    expect(["expiresAt", "startsAt", "estimatedDelivery", "dueDate", "runAt", "nextRunAt"].map(valueKindOf)).not.toContain("stamp");
    // Today, up to the simulated now (noon UTC): a stamp later today has not happened yet.
    expect(isPlausible("stamp", `${SIMULATED_TODAY}T11:59:00Z`)).toBe(true);
    expect(isPlausible("stamp", `${SIMULATED_TODAY}T20:30:12Z`)).toBe(false);
    expect(isPlausible("stamp", `${SIMULATED_TODAY}T20:30:12+09:00`)).toBe(true);
    expect(isPlausible("stamp", `${SIMULATED_TODAY}T20:30:12`)).toBe(true);
    // A number under a bare name (a day's `Sent: 21` e-mails) is a count, not judged as a stamp; under `sentAt` it is judged.
    expect(isPlausible("stamp", 21, "Sent")).toBeUndefined();
    expect(isPlausible("stamp", 21, "sentAt")).toBe(false);
    expect(isPlausible("stamp", "2025-06-02T00:00:00Z")).toBe(false);
    expect(isPlausible("stamp", "not a date")).toBe(false);
    // A filter's "any" is a real option of a language or country list, not a wrong value.
    expect(["Any language", "All", "all countries"].map((v, i) => isPlausible(i === 2 ? "country" : "language", v))).toEqual([true, true, true]);
    expect(isPlausible("language", "Any day")).toBe(false);
    // Other names of a language (Faeroese for Faroese, Flemish for Dutch).
    expect(["Faeroese", "Flemish", "Castilian"].every((v) => isPlausible("language", v))).toBe(true);
  });

  it("have happened by the simulated now: a time later today is moved back, by days for records and by hours for today's", () => {
    expect(isAfterNow(`${SIMULATED_TODAY}T13:20:00Z`)).toBe(true);
    expect(isAfterNow(`${SIMULATED_TODAY}T11:20:00Z`)).toBe(false);
    expect(isAfterNow(`${SIMULATED_TODAY}`)).toBe(false);
    expect(notAfterNow(`${SIMULATED_TODAY}T13:20:00Z`)).toBe(`${SIMULATED_TODAY}T11:20:00Z`);
    expect(notAfterNow(`${SIMULATED_TODAY}T23:05:09.250+02:00`)).toBe(`${SIMULATED_TODAY}T13:05:09.250+02:00`);
    expect(notAfterNow(`${SIMULATED_TODAY}T09:00:00Z`)).toBe(`${SIMULATED_TODAY}T09:00:00Z`);
    // A record whose stamp is a week ahead at 20:30 lands on the day before today (today at 20:30 has not come yet).
    const scenes = [{ id: "s1", lastActivatedAt: "2025-06-07T20:30:12Z" }, { id: "s2", lastActivatedAt: "2025-06-03T08:00:00Z" }];
    keepStampsPast(scenes, SIMULATED_TODAY);
    expect(scenes.map((x) => x.lastActivatedAt)).toEqual(["2025-05-31T20:30:12Z", "2025-05-27T08:00:00Z"]);
    expect(scenes.every((x) => isPlausible("stamp", x.lastActivatedAt))).toBe(true);
  });

  it("move a record back to today, its other dates by the same days", async () => {
    const order = await body("getOrder", { id: "o-1" });
    expect(order["createdAt"]).toBe(`${SIMULATED_TODAY}T10:03:12Z`);
    expect(order["estimatedDelivery"]).toBe("2025-06-04");
  });

  it("move a list's items together, keeping their order and spacing", async () => {
    const orders = (await body("listOrders", {}))["orders"] as Json[];
    expect(orders.map((o) => o["createdAt"])).toEqual([`${SIMULATED_TODAY}T10:03:12Z`, "2025-05-28T08:00:00Z", "2025-04-19T08:00:00Z"]);
    expect(orders.map((o) => o["estimatedDelivery"])).toEqual(["2025-06-04", "2025-05-30", undefined]);
  });

  it("leave a date the call set where it is", async () => {
    const orders = (await body("listPickups", { pickupOn: "2025-07-01" }))["orders"] as Json[];
    expect(orders[0]?.["pickupOn"]).toBe("2025-07-01");
    expect(orders[0]?.["createdAt"]).toBe(`${SIMULATED_TODAY}T10:00:00Z`);
  });
});

describe("fixtures", () => {
  it("are the world as of today when a toolset loads: no record was made or changed after it", async () => {
    const { loadToolset } = await import("../../../toolsets/load-toolset.js");
    const { fileURLToPath } = await import("node:url");
    const stamps: string[] = [];
    const walk = (v: unknown, key = ""): void => {
      if (Array.isArray(v)) v.forEach((x) => walk(x));
      else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, k);
      else if (typeof v === "string" && valueKindOf(key) === "stamp") stamps.push(v);
    };
    for (const name of ["agenda", "jobs", "bookstore"]) {
      const loaded = await loadToolset(fileURLToPath(new URL(`../../../toolsets/bundled/${name}.yaml`, import.meta.url)));
      if (!loaded.ok) throw new Error(name);
      walk(loaded.value.fixtures);
    }
    expect(stamps.length).toBeGreaterThan(10);
    expect(stamps.filter((s) => s.slice(0, 10) > SIMULATED_TODAY)).toEqual([]);
  });
});

describe("a spec's examples", () => {
  it("are restated as of today: a schema's property examples together, an example value with what it holds", async () => {
    const { restateExamples } = await import("../../../specs/synthesize/world/dated-examples.js");
    const doc: Json = {
      components: {
        schemas: {
          Order: {
            type: "object",
            properties: {
              createdAt: { type: "string", example: "2025-06-14T10:00:00Z" },
              deliverBy: { type: "string", example: "2025-06-17" },
              apiVersion: { type: "string", example: "2025-06-20" },
            },
          },
          Old: { type: "object", properties: { createdAt: { type: "string", example: "2024-01-02T00:00:00Z" } } },
        },
      },
      example: { issuedAt: "2025-06-11T08:00:00Z", items: [{ day: "2025-06-12" }] },
    };
    restateExamples(doc);
    expect(doc["components"].schemas.Order.properties).toMatchObject({ createdAt: { example: "2025-06-01T10:00:00Z" }, deliverBy: { example: "2025-06-04" }, apiVersion: { example: "2025-06-20" } });
    expect(doc["components"].schemas.Old.properties.createdAt.example).toBe("2024-01-02T00:00:00Z");
    expect(doc["example"]).toEqual({ issuedAt: "2025-06-01T08:00:00Z", items: [{ day: "2025-06-02" }] });
  });
});
