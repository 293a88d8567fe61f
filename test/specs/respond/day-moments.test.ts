import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { answerOf, inlineCatalog, ok } from "./inline-catalog.js";

// A day the call names is the record's day: the record's moments of that occasion move with it, keeping
// their times; moments of other occasions stay where they were.

let catalog: Catalog;
beforeAll(async () => {
  catalog = await inlineCatalog({
    "/trains/{trainId}/status": {
      get: {
        operationId: "getTrainStatus",
        summary: "Status of a train on a given day.",
        parameters: [
          { name: "trainId", in: "path", required: true, schema: { type: "string" } },
          { name: "date", in: "query", required: true, schema: { type: "string", format: "date" } },
        ],
        responses: ok(
          {
            type: "object",
            required: ["trainId", "date"],
            properties: {
              trainId: { type: "string" },
              date: { type: "string", format: "date" },
              departs: { type: "string", format: "date-time" },
              arrival: { type: "object", properties: { scheduled: { type: "string", format: "date-time" }, platform: { type: "string" } } },
              lineOpenedOn: { type: "string", format: "date" },
              stops: { type: "array", items: { type: "object", properties: { at: { type: "string", format: "date-time" } } } },
            },
          },
          {
            trainId: "ICE 594",
            date: "2024-05-10",
            departs: "2024-05-10T22:40:00+02:00",
            arrival: { scheduled: "2024-05-11T06:15:00+02:00", platform: "7" },
            lineOpenedOn: "1991-06-02",
            stops: [{ at: "2024-05-11T01:05:00+02:00" }],
          },
        ),
      },
    },
    "/long-weekends": {
      get: {
        operationId: "getLongWeekends",
        parameters: [{ name: "year", in: "query", required: true, schema: { type: "integer" } }],
        responses: ok(
          { type: "array", items: { type: "object", properties: { startDate: { type: "string", format: "date" }, endDate: { type: "string", format: "date" }, bridgeDays: { type: "array", items: { type: "string", format: "date" } } } } },
          [{ startDate: "2025-05-29", endDate: "2025-06-01", bridgeDays: ["2025-05-30"] }],
        ),
      },
    },
    "/rates/{day}": {
      get: {
        operationId: "getRatesOn",
        parameters: [{ name: "day", in: "path", required: true, schema: { type: "string", format: "date" } }],
        responses: ok(
          { type: "object", required: ["day", "asOf"], properties: { day: { type: "string", format: "date" }, asOf: { type: "string", format: "date-time" }, rate: { type: "number" } } },
          { day: "2024-03-14", asOf: "2024-03-14T16:00:00Z", rate: 1.0832 },
        ),
      },
    },
  });
});

describe("a day asked moves the record's own moments", () => {
  it("moves the times of that occasion, nested ones too, and keeps their times of day", async () => {
    const body = await answerOf(catalog, "getTrainStatus", { trainId: "ICE 594", date: "2024-11-03" });
    expect(body["date"]).toBe("2024-11-03");
    expect(body["departs"]).toBe("2024-11-03T22:40:00+02:00");
    // An overnight arrival stays the morning after the day asked.
    expect(body["arrival"]).toEqual({ scheduled: "2024-11-04T06:15:00+02:00", platform: "7" });
  });

  it("leaves moments of other occasions, and lists inside the record, as they were", async () => {
    const body = await answerOf(catalog, "getTrainStatus", { trainId: "ICE 594", date: "2024-11-03" });
    expect(body["lineOpenedOn"]).toBe("1991-06-02");
    expect(body["stops"]).toEqual([{ at: "2024-05-11T01:05:00+02:00" }]);
  });

  it("a year asked moves an item's lists of dates with its other dates", async () => {
    const body = (await answerOf(catalog, "getLongWeekends", { year: 2024 })) as unknown as Array<Record<string, unknown>>;
    expect(body[0]).toEqual({ startDate: "2024-05-29", endDate: "2024-06-01", bridgeDays: ["2024-05-30"] });
  });

  it("moves a stamp of the day named by a path parameter, and nothing when the day is the example's", async () => {
    const moved = await answerOf(catalog, "getRatesOn", { day: "2024-04-18" });
    expect(moved).toMatchObject({ day: "2024-04-18", asOf: "2024-04-18T16:00:00Z" });
    const same = await answerOf(catalog, "getRatesOn", { day: "2024-03-14" });
    expect(same).toMatchObject({ day: "2024-03-14", asOf: "2024-03-14T16:00:00Z" });
  });
});
