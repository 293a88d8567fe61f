import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { instantLike, instantOf } from "../../../specs/synthesize/world/day-arithmetic.js";
import { answerOf, inlineCatalog, ok } from "./inline-catalog.js";

// A call asking for the last N hours or days gets an answer whose window spans them, ending by now when it
// looks back (the simulated now is 2025-06-01T12:00:00Z); a forecast's window ahead keeps its start.

const stamp = { type: "string", format: "date-time" };
const window = { type: "object", properties: { from: stamp, to: stamp, topics: { type: "array", items: { type: "string" } } } };

let catalog: Catalog;
beforeAll(async () => {
  catalog = await inlineCatalog({
    "/trending": {
      get: {
        operationId: "getTrendingTopics",
        parameters: [{ name: "hours", in: "query", schema: { type: "integer", minimum: 1, maximum: 72, default: 6 } }],
        // An example written for another day: its window lies two weeks ahead of the simulated now.
        responses: ok(window, { from: "2025-06-14T06:00:00Z", to: "2025-06-14T12:00:00Z", topics: ["heat wave"] }),
      },
    },
    "/usage": {
      get: {
        operationId: "getUsage",
        parameters: [{ name: "last_days", in: "query", schema: { type: "integer" } }],
        responses: ok({ type: "object", properties: { period: { type: "object", properties: { start: { type: "string", format: "date" }, end: { type: "string", format: "date" } } }, calls: { type: "integer" } } }, { period: { start: "2025-05-20", end: "2025-06-01" }, calls: 12 }),
      },
    },
    "/forecast": {
      get: {
        operationId: "getForecastWindow",
        parameters: [{ name: "hours", in: "query", schema: { type: "integer" } }],
        responses: ok(window, { from: "2025-06-01T12:00:00+02:00", to: "2025-06-02T12:00:00+02:00", topics: [] }),
      },
    },
  });
});

const hoursOf = (w: Record<string, unknown>): number => ((instantOf(w["to"]) as number) - (instantOf(w["from"]) as number)) / 3_600_000;

describe("a window asked for", () => {
  it("spans the hours asked and ends now when it looks back (the default when none is asked)", async () => {
    for (const hours of [1, 6, 34, 72]) {
      const w = await answerOf(catalog, "getTrendingTopics", { hours });
      expect(w).toMatchObject({ to: "2025-06-01T12:00:00Z", topics: ["heat wave"] });
      expect(hoursOf(w)).toBe(hours);
    }
    expect(await answerOf(catalog, "getTrendingTopics", {})).toMatchObject({ from: "2025-06-01T06:00:00Z", to: "2025-06-01T12:00:00Z" });
  });

  it("of days counts its days either way, and one of more days is made as long", async () => {
    expect((await answerOf(catalog, "getUsage", { last_days: 12 }))["period"]).toEqual({ start: "2025-05-20", end: "2025-06-01" });
    expect((await answerOf(catalog, "getUsage", { last_days: 7 }))["period"]).toEqual({ start: "2025-05-25", end: "2025-06-01" });
  });

  it("ahead keeps its start and its form (a forecast's)", async () => {
    const w = await answerOf(catalog, "getForecastWindow", { hours: 48 });
    expect(w).toMatchObject({ from: "2025-06-01T12:00:00+02:00", to: "2025-06-03T12:00:00+02:00" });
  });

  it("is written in the form of the value it replaces", () => {
    const t = Date.parse("2025-05-31T02:00:00Z");
    expect([instantLike(t, "2025-06-14T06:00:00Z"), instantLike(t, "2025-06-14T06:00:00.000+02:00"), instantLike(t, "2025-06-14"), instantLike(t, 1749880800)]).toEqual(["2025-05-31T02:00:00Z", "2025-05-31T04:00:00.000+02:00", "2025-05-31", 1748656800]);
    expect([instantOf("2025-05-31T04:00:00+02:00"), instantOf("2025-05-31"), instantOf("soon")]).toEqual([t, Date.parse("2025-05-31T00:00:00Z"), undefined]);
  });
});
