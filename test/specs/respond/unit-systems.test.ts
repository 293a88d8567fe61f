import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { unitSystemOf } from "../../../specs/respond/world/unit-systems.js";
import { answerOf, inlineCatalog, ok, type Json } from "./inline-catalog.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";

// Measurements follow the unit system the answer is in: an example written in metric, asked in imperial, gives
// °F and mph; in standard, kelvin. Coordinates near the ones asked are echoed as asked.

const UNITS = { name: "units", in: "query", schema: { type: "string", enum: ["metric", "imperial", "standard"], default: "metric" } };

let catalog: Catalog;
beforeAll(async () => {
  catalog = await inlineCatalog(
    {
      "/current": {
        get: {
          operationId: "getCurrentWeather",
          parameters: [{ name: "city", in: "query", required: true, schema: { type: "string" } }, UNITS],
          responses: ok(
            {
              type: "object",
              properties: {
                city: { type: "string" },
                units: { type: "string", enum: ["metric", "imperial", "standard"] },
                temperature: { type: "number" },
                feelsLike: { type: "number" },
                humidity: { type: "integer" },
                windSpeed: { type: "number" },
                daily: { type: "object", properties: { temp: { type: "object", properties: { min: { type: "number" }, max: { type: "number" } } } } },
              },
            },
            { city: "Lisbon", units: "metric", temperature: 25, feelsLike: 26.5, humidity: 40, windSpeed: 4.5, daily: { temp: { min: 18, max: 29 } } },
          ),
        },
      },
      "/air": {
        get: {
          operationId: "getAirQuality",
          parameters: [
            { name: "lat", in: "query", required: true, schema: { type: "number" } },
            { name: "lon", in: "query", required: true, schema: { type: "number" } },
            UNITS,
          ],
          responses: ok({ type: "object", properties: { latitude: { type: "number" }, longitude: { type: "number" }, temperature: { type: "number" } } }, { latitude: 41.1496, longitude: -8.611, temperature: 20 }),
        },
      },
      "/forecast": {
        get: {
          operationId: "getForecast",
          parameters: [{ name: "city", in: "query", required: true, schema: { type: "string" } }, UNITS],
          // No example of the whole answer: it is synthesized, its numbers drawn near the fields' examples (metric).
          responses: ok({
            type: "object",
            required: ["units", "days"],
            properties: {
              units: { type: "string", enum: ["metric", "imperial", "standard"] },
              days: {
                type: "array",
                minItems: 3,
                maxItems: 3,
                items: { type: "object", required: ["tempMin", "tempMax"], properties: { tempMin: { type: "number", example: 17.2 }, tempMax: { type: "number", example: 27.8 } } },
              },
            },
          }, undefined),
        },
      },
    },
    "Weather",
  );
});

const body = (tool: string, args: Json): Promise<Json> => answerOf(catalog, tool, args, 2);

describe("unit systems", () => {
  it("are named as APIs name them", () => {
    expect(["metric", "SI", "imperial", "Fahrenheit", "standard", "kelvin", "km"].map(unitSystemOf)).toEqual(["metric", "metric", "imperial", "imperial", "standard", "standard", undefined]);
  });

  it("convert temperatures and wind from the example's system to the one asked", async () => {
    const f = await body("getCurrentWeather", { city: "Lisbon", units: "imperial" });
    expect(f).toMatchObject({ units: "imperial", temperature: 77, feelsLike: 79.7, humidity: 40, windSpeed: 10.1, daily: { temp: { min: 64, max: 84 } } });
    const k = await body("getCurrentWeather", { city: "Lisbon", units: "standard" });
    expect(k).toMatchObject({ units: "standard", temperature: 298, feelsLike: 299.6, windSpeed: 4.5 });
    expect(await body("getCurrentWeather", { city: "Lisbon", units: "metric" })).toMatchObject({ temperature: 25, windSpeed: 4.5 });
  });

  it("of a synthesized answer are the spec's, whatever unit label synthesis drew (no frost in Lisbon in June)", async () => {
    const ranges = { metric: [5, 40], imperial: [41, 104], standard: [278, 313] } as const;
    for (let seed = 1; seed <= 12; seed++) {
      for (const asked of [undefined, "metric", "imperial", "standard"] as const) {
        const r = await simulateCall(catalog, { name: "getForecast", arguments: { city: "Lisbon", ...(asked ? { units: asked } : {}) } }, { seed });
        expect(r.source).toBe("schema");
        const answer = r.body as { units: keyof typeof ranges; days: Array<{ tempMin: number; tempMax: number }> };
        expect(answer.units).toBe(asked ?? "metric");
        const [low, high] = ranges[answer.units];
        for (const d of answer.days) for (const t of [d.tempMin, d.tempMax]) expect(t, `seed ${seed}, ${asked}: ${t}`).toSatisfy((v: number) => v >= low && v <= high);
      }
    }
  });

  it("take the parameter's default as the example's system when the answer does not say", async () => {
    expect((await body("getAirQuality", { lat: 41.15, lon: -8.61, units: "imperial" }))["temperature"]).toBe(68);
  });

  it("leave coordinates as asked, even when the example's were near them", async () => {
    expect(await body("getAirQuality", { lat: 41.15, lon: -8.61 })).toMatchObject({ latitude: 41.15, longitude: -8.61, temperature: 20 });
  });
});
