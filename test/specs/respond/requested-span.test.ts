import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { bindingsOf, describeBinding } from "../../../specs/respond/bindings/bindings.js";
import { checkBindings } from "../../../specs/respond/bindings/binding-check.js";
import { shiftTime } from "../../../specs/respond/bindings/requested-span.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { SIMULATED_TODAY } from "../../../specs/synthesize/world/simulated-today.js";
import { answerOf, inlineCatalog, ok, type Json } from "./inline-catalog.js";

// A span the call asks for (`days=5`, `hours=12`) is the length of the answer's dated list: an example of one day
// grows to five, one step apart, with numbers that drift without crossing (a minimum stays below its maximum).

const DAY = {
  type: "object",
  required: ["date", "low", "high", "rainChance"],
  properties: {
    date: { type: "string", format: "date" },
    low: { type: "number" },
    high: { type: "number" },
    rainChance: { type: "integer", minimum: 0, maximum: 100 },
    sunrise: { type: "string", format: "date-time" },
    summary: { type: "string", enum: ["sunny", "cloudy", "rain"] },
  },
};
const HOUR = { type: "object", required: ["at", "temp"], properties: { at: { type: "string", format: "date-time" }, temp: { type: "number" } } };

let catalog: Catalog;
beforeAll(async () => {
  catalog = await inlineCatalog(
    {
      "/outlook/daily": {
        get: {
          operationId: "getDailyOutlook",
          summary: "Daily outlook for a town, from today.",
          parameters: [
            { name: "town", in: "query", required: true, schema: { type: "string" } },
            { name: "numDays", in: "query", description: "How far ahead.", schema: { type: "integer", minimum: 1, maximum: 30, default: 3 } },
          ],
          responses: ok(
            { type: "object", required: ["town", "issuedAt", "days"], properties: { town: { type: "string" }, issuedAt: { type: "string", format: "date-time" }, days: { type: "array", maxItems: 10, items: DAY } } },
            { town: "Porto", issuedAt: "2024-09-30T06:00:00Z", days: [{ date: "2024-10-01", low: 14.5, high: 22.5, rainChance: 98, sunrise: "2024-10-01T07:31:00+01:00", summary: "rain" }] },
          ),
        },
      },
      "/outlook/hourly": {
        get: {
          operationId: "hourlyOutlook",
          parameters: [{ name: "span", in: "query", description: "Number of hours to cover.", schema: { type: "integer" } }],
          responses: ok(
            { type: "object", required: ["hours"], properties: { hours: { type: "array", items: HOUR } } },
            { hours: [{ at: "2024-10-01T22:00:00+02:00", temp: 12 }, { at: "2024-10-01T23:00:00+02:00", temp: 11 }] },
          ),
        },
      },
      "/rooms": {
        get: {
          operationId: "listRooms",
          parameters: [{ name: "days", in: "query", schema: { type: "string" } }],
          responses: ok({ type: "object", properties: { rooms: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } } } }, { rooms: [{ name: "A" }] }),
        },
      },
    },
    "Outlook",
  );
});

const call = (tool: string, args: Json, seed = 5): Promise<Json> => answerOf(catalog, tool, args, seed);

describe("span bindings", () => {
  it("are inferred from a number of days or hours, by name or by description, over the dated list", () => {
    expect(bindingsOf(catalog, catalog.get("getDailyOutlook")!).filter((b) => b.kind === "span").map(describeBinding)).toEqual(["numDays -> length of days[], one day apart (span)"]);
    expect(bindingsOf(catalog, catalog.get("hourlyOutlook")!).filter((b) => b.kind === "span").map(describeBinding)).toEqual(["span -> length of hours[], one hour apart (span)"]);
    // Not a number, and not over dated items.
    expect(bindingsOf(catalog, catalog.get("listRooms")!).some((b) => b.kind === "span")).toBe(false);
  });

  it("grow a one-day example to the days asked for, one day apart, with its other dates along", async () => {
    const body = await call("getDailyOutlook", { town: "Porto", numDays: 5 });
    const days = body["days"] as Json[];
    expect(days).toHaveLength(5);
    const dates = days.map((d) => d["date"] as string);
    // The outlook starts today ("from today" is not said as a forecast: the example's first day is kept).
    for (let i = 1; i < 5; i++) expect(Date.parse(dates[i]!) - Date.parse(dates[i - 1]!)).toBe(86_400_000);
    days.forEach((d, i) => expect(d["sunrise"]).toBe(`${dates[i]}T07:31:00+01:00`));
    for (const d of days) {
      expect(d["low"]).toBeLessThan(d["high"]);
      expect(d["rainChance"]).toBeLessThanOrEqual(100);
      expect(d["summary"]).toBe("rain");
    }
    // The numbers move from day to day, and stay near the example's.
    expect(new Set(days.map((d) => d["high"])).size).toBeGreaterThan(2);
    for (const d of days) expect(Math.abs(d["high"] - 22.5)).toBeLessThan(5);
  });

  it("take the parameter's default when the call leaves it out, and stop at the list's maxItems", async () => {
    expect((await call("getDailyOutlook", { town: "Porto" }))["days"]).toHaveLength(3);
    expect((await call("getDailyOutlook", { town: "Porto", numDays: 30 }))["days"]).toHaveLength(10);
    expect((await call("getDailyOutlook", { town: "Porto", numDays: 1 }))["days"]).toHaveLength(1);
  });

  it("continue a list at its own step, in its own offset, across midnight", async () => {
    const hours = (await call("hourlyOutlook", { span: 4 }))["hours"] as Json[];
    expect(hours.map((h) => h["at"])).toEqual(["2024-10-01T22:00:00+02:00", "2024-10-01T23:00:00+02:00", "2024-10-02T00:00:00+02:00", "2024-10-02T01:00:00+02:00"]);
  });

  it("are the same answer for the same seed", async () => {
    expect(await call("getDailyOutlook", { town: "Porto", numDays: 6 }, 9)).toEqual(await call("getDailyOutlook", { town: "Porto", numDays: 6 }, 9));
  });

  it("are checked: a shorter run than asked contradicts the call, an empty list does not", () => {
    const spans = bindingsOf(catalog, catalog.get("getDailyOutlook")!).filter((b) => b.kind === "span");
    const one = { days: [{ date: "2024-10-01", low: 1, high: 2, rainChance: 0 }] };
    expect(checkBindings(spans, { numDays: 4 }, one).map((v) => v.message)).toEqual(["field days[] lists 1 item(s) where argument numDays asks for 4 day(s)"]);
    expect(checkBindings(spans, { numDays: 1 }, one)).toEqual([]);
    expect(checkBindings(spans, { numDays: 4 }, { days: [] })).toEqual([]);
  });
});

describe("a forecast", () => {
  it("starts today, its issue time moved along with its days", async () => {
    const weather = await inlineCatalog(
      {
        "/forecast": {
          get: {
            operationId: "getForecast",
            parameters: [{ name: "days", in: "query", schema: { type: "integer", minimum: 1, maximum: 14 } }],
            responses: ok(
              { type: "object", required: ["generatedAt", "days"], properties: { generatedAt: { type: "string", format: "date-time" }, days: { type: "array", items: DAY } } },
              { generatedAt: "2025-06-14T12:00:00Z", days: [{ date: "2025-06-15", low: 17, high: 27, rainChance: 10 }] },
            ),
          },
        },
      },
      "Weather",
    );
    const described = bindingsOf(weather, weather.get("getForecast")!).map(describeBinding);
    expect(described).toContain("days[].date starts today (today)");
    const r = await simulateCall(weather, { name: "getForecast", arguments: { days: 3 } }, { seed: 1 });
    const body = r.body as Json;
    expect((body["days"] as Json[]).map((d) => d["date"])).toEqual([SIMULATED_TODAY, "2025-06-02", "2025-06-03"]);
    expect(body["generatedAt"]).toBe("2025-05-31T12:00:00Z");
    // A forecast that starts later than today is a contradiction.
    const today = bindingsOf(weather, weather.get("getForecast")!).filter((b) => b.kind === "today");
    expect(checkBindings(today, {}, { days: [{ date: "2025-06-15" }] }).map((v) => v.message)).toEqual([`field days[].date starts "2025-06-15" where the answer starts today (${SIMULATED_TODAY})`]);
  });
});

describe("shiftTime", () => {
  it("moves a date-time in its own form and offset, and a date by whole days only", () => {
    expect(shiftTime("2024-10-01T23:30:00+02:00", 3_600_000)).toBe("2024-10-02T00:30:00+02:00");
    expect(shiftTime("2024-10-01T23:30-05:00", 86_400_000)).toBe("2024-10-02T23:30-05:00");
    expect(shiftTime("2024-12-31T23:00:00.250Z", 3_600_000)).toBe("2025-01-01T00:00:00.250Z");
    expect(shiftTime("2024-10-01", 86_400_000 * 2)).toBe("2024-10-03");
    expect(shiftTime("2024-10-01", 3_600_000)).toBe("2024-10-01");
    expect(shiftTime("not a time", 1)).toBe("not a time");
  });
});

describe("what a generator makes", () => {
  const QUOTE = { type: "object", required: ["id", "text", "author"], properties: { id: { type: "integer", minimum: 1 }, text: { type: "string" }, author: { type: "string" } } };
  let generators: Catalog;
  beforeAll(async () => {
    generators = await inlineCatalog({
      "/uuids/generate": {
        get: {
          operationId: "generateUuids",
          parameters: [{ name: "count", in: "query", schema: { type: "integer", minimum: 1, maximum: 50, default: 1 } }],
          responses: ok({ type: "object", required: ["uuids"], properties: { uuids: { type: "array", items: { type: "string", format: "uuid" } } } }, { uuids: ["3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f"] }),
        },
      },
      "/quotes/random": {
        get: {
          operationId: "getRandomQuotes",
          parameters: [{ name: "n", in: "query", schema: { type: "integer", minimum: 1, maximum: 10 } }],
          responses: ok({ type: "array", maxItems: 10, items: QUOTE }, [
            { id: 1, text: "Simplicity is the soul of efficiency.", author: "Austin Freeman" },
            { id: 2, text: "Make it work, make it right, make it fast.", author: "Kent Beck" },
          ]),
        },
      },
      "/users": {
        get: {
          operationId: "listUsers",
          parameters: [{ name: "count", in: "query", description: "Size of the returned slice of users.", schema: { type: "integer" } }],
          responses: ok({ type: "array", items: { type: "object", properties: { id: { type: "integer" }, name: { type: "string" } } } }, [{ id: 1, name: "Ada" }]),
        },
      },
    });
  });

  it("is a span of items on a random or generated list, not on a plain list's page size", () => {
    const spans = (tool: string): string[] => bindingsOf(generators, generators.get(tool)!).filter((b) => b.kind === "span").map(describeBinding);
    expect(spans("generateUuids")).toEqual(["count -> length of uuids[] (span)"]);
    expect(spans("getRandomQuotes")).toEqual(["n -> length of [] (span)"]);
    expect(spans("listUsers")).toEqual([]);
  });

  it("makes as many as asked: new distinct items, a longer example cut, the default when left out", async () => {
    for (const seed of [1, 2, 3]) {
      const uuids = (await answerOf(generators, "generateUuids", { count: 5 }, seed))["uuids"] as string[];
      expect(uuids).toHaveLength(5);
      expect(new Set(uuids).size).toBe(5);
      expect((await answerOf(generators, "generateUuids", {}, seed))["uuids"]).toHaveLength(1);
      const quotes = (await simulateCall(generators, { name: "getRandomQuotes", arguments: { n: 6 } }, { seed })).body as Json[];
      expect(quotes).toHaveLength(6);
      expect(new Set(quotes.map((q) => q["id"])).size).toBe(6);
      expect(new Set(quotes.map((q) => q["text"])).size).toBe(6);
      expect((await simulateCall(generators, { name: "getRandomQuotes", arguments: { n: 1 } }, { seed })).body).toHaveLength(1);
    }
  });
});
