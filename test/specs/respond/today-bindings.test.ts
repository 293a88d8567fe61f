import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { isPlausible } from "../../../specs/value-kinds.js";
import { loadSpec } from "../../../specs/load/load-spec.js";
import { buildCatalog, type Catalog } from "../../../specs/catalog/catalog.js";
import { bindingsOf, type Binding } from "../../../specs/respond/bindings/bindings.js";
import { checkBindings } from "../../../specs/respond/bindings/binding-check.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { SIMULATED_TODAY } from "../../../specs/synthesize/world/simulated-today.js";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import type { LoadedToolset } from "../../../toolsets/toolset.js";

// Answers dated by the simulated today: an "upcoming" list comes after it, a "recent" one before it, a "today"
// answer says it; a date argument takes over when given. A day check answers as the world's calendar says.

type Json = Record<string, any>;

const event = (id: string, title: string, startsAt: string, endsAt: string): Json => ({ id, title, startsAt, endsAt });
const EVENT = {
  type: "object",
  required: ["id", "title", "startsAt", "endsAt"],
  properties: { id: { type: "string" }, title: { type: "string" }, startsAt: { type: "string", format: "date-time" }, endsAt: { type: "string", format: "date-time" } },
};
const ok = (schema: Json, example: unknown): Json => ({ "200": { description: "ok", content: { "application/json": { schema, example } } } });

let events: Catalog;
let holidays: LoadedToolset;
beforeAll(async () => {
  const spec = await loadSpec({
    openapi: "3.0.3",
    info: { title: "Events", version: "1" },
    paths: {
      "/events/upcoming": {
        get: {
          operationId: "listUpcomingEvents",
          summary: "Upcoming events, soonest first.",
          parameters: [
            { name: "since", in: "query", schema: { type: "string", format: "date" } },
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 50, default: 20 } },
          ],
          responses: ok({ type: "array", items: EVENT }, [
            event("e1", "Spring fair", "2024-03-02T10:00:00Z", "2024-03-02T18:00:00Z"),
            event("e2", "Summer concert", "2024-07-20T19:00:00Z", "2024-07-20T23:00:00Z"),
            event("e3", "Winter market", "2024-12-01T09:00:00Z", "2024-12-03T17:00:00Z"),
          ]),
        },
      },
      "/events/recent": {
        get: {
          operationId: "getRecentEvents",
          summary: "Events that took place recently.",
          responses: ok({ type: "object", required: ["events"], properties: { events: { type: "array", items: EVENT } } }, {
            events: [event("e7", "Book launch", "2026-02-11T18:00:00Z", "2026-02-11T20:00:00Z")],
          }),
        },
      },
      "/calendar/today": {
        get: {
          operationId: "getToday",
          summary: "What day it is today.",
          responses: ok({ type: "object", required: ["date", "weekday"], properties: { date: { type: "string", format: "date" }, weekday: { type: "string" } } }, { date: "2024-02-02", weekday: "Friday" }),
        },
      },
      "/conditions/current": {
        get: {
          operationId: "getCurrentConditions",
          summary: "The current conditions, as observed now.",
          responses: ok(
            { type: "object", required: ["observedAt", "temperature"], properties: { observedAt: { type: "string", format: "date-time" }, temperature: { type: "number" } } },
            { observedAt: "2024-02-02T13:20:00Z", temperature: 21.5 },
          ),
        },
      },
      "/events/{id}": {
        get: {
          operationId: "getEvent",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: ok(EVENT, event("e1", "Spring fair", "2024-03-02T10:00:00Z", "2024-03-02T18:00:00Z")),
        },
      },
    },
  });
  if (!spec.ok) throw new Error("spec");
  events = buildCatalog(spec.value);
  const loaded = await loadToolset(fileURLToPath(new URL("../../../toolsets/bundled/holidays.yaml", import.meta.url)));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  holidays = loaded.value;
});

function bindings(catalog: Catalog, tool: string): Binding[] {
  const t = catalog.get(tool);
  if (!t) throw new Error(`no tool ${tool}`);
  return [...bindingsOf(catalog, t)];
}

/** The answer to a call, which breaks none of its bindings by the independent check. */
async function answer(catalog: Catalog, tool: string, args: Json, seed = 1): Promise<any> {
  const result = await simulateCall(catalog, { name: tool, arguments: args }, { seed });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  expect(result.responseErrors).toEqual([]);
  expect(checkBindings(bindings(catalog, tool), args, result.body).map((v) => v.message)).toEqual([]);
  return result.body;
}

describe("answers dated by the simulated today", () => {
  it("are inferred from the operation's words, with the argument that names another day", () => {
    expect(bindings(events, "listUpcomingEvents")).toContainEqual(expect.objectContaining({ kind: "today", field: "[].startsAt", bound: "min", arg: "since" }));
    expect(bindings(events, "getRecentEvents")).toContainEqual(expect.objectContaining({ kind: "today", field: "events[].startsAt", bound: "max" }));
    expect(bindings(events, "getToday")).toContainEqual(expect.objectContaining({ kind: "today", field: "date", bound: "equals" }));
    expect(bindings(events, "getEvent").filter((b) => b.kind === "today")).toEqual([]);
  });

  it("upcoming items come on or after today, in date order, each keeping its length; a `since` takes over", async () => {
    for (const seed of [1, 2, 3]) {
      const list = (await answer(events, "listUpcomingEvents", {}, seed)) as Json[];
      expect(list.length).toBeGreaterThan(0);
      for (const e of list) {
        expect(e["startsAt"].slice(0, 10) >= SIMULATED_TODAY).toBe(true);
        expect(e["endsAt"] >= e["startsAt"]).toBe(true);
      }
      expect(list.map((e) => e["startsAt"])).toEqual([...list.map((e) => e["startsAt"])].sort());
      const winter = list.find((e) => e["title"] === "Winter market");
      if (winter) expect(Date.parse(winter["endsAt"]) - Date.parse(winter["startsAt"])).toBe(Date.parse("2024-12-03T17:00:00Z") - Date.parse("2024-12-01T09:00:00Z"));
    }
    // A page size given bounds the list: the example's three events, two asked.
    const two = (await answer(events, "listUpcomingEvents", { limit: 2 })) as Json[];
    expect(two.map((e) => e["title"])).toEqual(["Spring fair", "Summer concert"]);
    const later = (await answer(events, "listUpcomingEvents", { since: "2026-03-01" })) as Json[];
    for (const e of later) expect(e["startsAt"].slice(0, 10) >= "2026-03-01").toBe(true);
  });

  it("recent items come on or before today; a today answer says today", async () => {
    const recent = await answer(events, "getRecentEvents", {});
    for (const e of recent["events"]) expect(e["startsAt"].slice(0, 10) <= SIMULATED_TODAY).toBe(true);
    expect((await answer(events, "getToday", {}))["date"]).toBe(SIMULATED_TODAY);
  });

  it("what was observed today was observed by the simulated now, not later today", async () => {
    expect(bindings(events, "getCurrentConditions")).toContainEqual(expect.objectContaining({ kind: "today", field: "observedAt", bound: "equals" }));
    const observed = (await answer(events, "getCurrentConditions", {}))["observedAt"] as string;
    expect(observed).toBe(`${SIMULATED_TODAY}T11:20:00Z`);
    expect(isPlausible("stamp", observed)).toBe(true);
  });

  it("leaves a day no calendar has as it is (an example's 2024-13-45), and answers", async () => {
    const spec = await loadSpec({
      openapi: "3.0.3",
      info: { title: "Odd", version: "1" },
      paths: { "/events/upcoming": { get: { operationId: "listUpcomingEvents", responses: ok({ type: "array", items: { type: "object", properties: { title: { type: "string" }, startsAt: { type: "string" } } } }, [{ title: "Nowhen", startsAt: "2024-13-45T10:00:00Z" }, { title: "Spring fair", startsAt: "2024-03-02T10:00:00Z" }]) } } },
    });
    if (!spec.ok) throw new Error("spec");
    const result = await simulateCall(buildCatalog(spec.value), { name: "listUpcomingEvents", arguments: {} }, { seed: 1 });
    expect(result.status).toBe(200);
    expect((result.body as Json[]).map((e) => e["startsAt"])).toContain("2024-13-45T10:00:00Z");
  });

  it("the check catches an upcoming item dated before today, and a today answer of another day", () => {
    const upcoming = bindings(events, "listUpcomingEvents");
    const stale = checkBindings(upcoming, {}, [event("e1", "Spring fair", "2024-03-02T10:00:00Z", "2024-03-02T18:00:00Z")]);
    expect(stale.map((v) => v.message)).toEqual([`field [].startsAt is "2024-03-02T10:00:00Z" where the answer is dated on or after today (${SIMULATED_TODAY})`]);
    expect(checkBindings(upcoming, { since: "2024-01-01" }, [event("e1", "Spring fair", "2024-03-02T10:00:00Z", "2024-03-02T18:00:00Z")])).toEqual([]);
    expect(checkBindings(bindings(events, "getToday"), {}, { date: "2024-02-02", weekday: "Friday" })).toHaveLength(1);
  });
});

describe("a day check answers as the world's calendar says", () => {
  it("today: its own date, a weekend when it is one, a holiday only on the country's holiday", async () => {
    const weekday = new Date(`${SIMULATED_TODAY}T00:00:00Z`).getUTCDay();
    for (const countryCode of ["PT", "DE", "FR", "US"]) {
      const check = await answer(holidays.catalog, "isTodayHoliday", { countryCode });
      expect(check).toMatchObject({ countryCode, date: SIMULATED_TODAY, isWeekend: weekday === 0 || weekday === 6 });
      if (check["isHoliday"] === false) expect(check["holiday"]).toBeUndefined();
      if (check["holiday"] !== undefined) expect(check["holiday"]).toMatchObject({ countryCode, date: SIMULATED_TODAY });
    }
  });

  it("a date asked: the country's holiday on it, named as the country names it", async () => {
    const bastille = await answer(holidays.catalog, "isTodayHoliday", { countryCode: "FR", date: "2025-07-14" });
    expect(bastille).toMatchObject({ countryCode: "FR", date: "2025-07-14", isHoliday: true, isWeekend: false, holiday: { date: "2025-07-14", countryCode: "FR", name: "Bastille Day" } });
    const ordinary = await answer(holidays.catalog, "isTodayHoliday", { countryCode: "DE", date: "2025-10-02" });
    expect(ordinary).toMatchObject({ countryCode: "DE", date: "2025-10-02", isHoliday: false });
    expect(ordinary["holiday"]).toBeUndefined();
  });

  it("the next holidays are the country's, from today on", async () => {
    for (const countryCode of ["DK", "FR", "US"]) {
      const next = (await answer(holidays.catalog, "getNextHolidays", { countryCode })) as Json[];
      for (const h of next) {
        expect(h["countryCode"]).toBe(countryCode);
        expect(h["date"] >= SIMULATED_TODAY).toBe(true);
      }
    }
  });
});

describe("what is in force now", () => {
  it("started by today: active alerts move back so that the latest has begun, each with its end", async () => {
    const { inlineCatalog, ok, answerOf } = await import("./inline-catalog.js");
    const ALERT = { type: "object", properties: { event: { type: "string" }, start: { type: "string", format: "date-time" }, end: { type: "string", format: "date-time" } } };
    const catalog = await inlineCatalog({
      "/alerts": {
        get: {
          operationId: "getActiveAlerts",
          summary: "Active alerts in force for a city.",
          responses: ok({ type: "object", properties: { alerts: { type: "array", items: ALERT } } }, { alerts: [{ event: "Heat Advisory", start: "2025-07-21T12:00:00Z", end: "2025-07-22T00:00:00Z" }] }),
        },
      },
    });
    expect(bindingsOf(catalog, catalog.get("getActiveAlerts")!).map((b) => (b.kind === "today" ? `${b.field} ${b.bound}` : b.kind))).toContain("alerts[].start max");
    const [alert] = (await answerOf(catalog, "getActiveAlerts", {}))["alerts"] as Json[];
    expect(alert).toMatchObject({ start: `${SIMULATED_TODAY}T12:00:00Z`, end: "2025-06-02T00:00:00Z" });
  });
});
