import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { auditRun, formatAudit } from "../../../simulator/stats/world-audit.js";
import { callContradictions, stateContradictions, type ObservedCall } from "../../../simulator/stats/call-contradictions.js";
import { isPlausible, typedValues, valueKindOf } from "../../../specs/value-kinds.js";
import { fabricateEpisode, type FakeCall } from "../../fixtures/episode-events.js";
import { main } from "../../../simulator/cli/main.js";

// The audit of a run's world: judged from the journal alone (names and values), independent of the simulator.

function observed(tool: string, args: Record<string, unknown>, body: unknown, extra: Partial<ObservedCall> = {}): ObservedCall {
  return { toolset: "t", tool, method: "get", path: `/${tool}`, args, bodyArgs: new Set(), status: 200, body, ...extra };
}

describe("contradictions between a call and its answer", () => {
  it("finds each rule's contradiction and passes agreeing answers", () => {
    const rule = (c: ObservedCall) => callContradictions(c).map((x) => `${x.rule} ${x.field}`);
    expect(rule(observed("getForecast", { city: "Amsterdam" }, { location: { name: "Lisbon", country: "PT" } }))).toEqual(["equality location.name"]);
    expect(rule(observed("getForecast", { city: "Amsterdam" }, { location: { name: "Amsterdam", country: "NL" } }))).toEqual([]);
    expect(rule(observed("login", { email: "a.b@example.com" }, { user: { email: "sam@example.com" } }, { method: "post" }))).toEqual(["equality user.email"]);
    expect(rule(observed("listCountries", { region: "Asia" }, [{ name: "Germany", region: "Europe" }]))).toEqual(["filter [].region"]);
    expect(rule(observed("getHolidays", { year: 2024 }, { holidays: [{ date: "2025-01-01" }] }))).toEqual(["filter holidays[].date"]);
    expect(rule(observed("next", { from: "2025-09-30" }, [{ date: "2025-04-01" }]))).toEqual(["range [].date"]);
    expect(rule(observed("search", { q: "airbus" }, { results: [{ name: "Northwind Robotics" }] }))).toEqual(["search results[]"]);
    expect(rule(observed("flights", { origin: "LIS", destination: "BCN" }, { offers: [{ segments: [{ from: "LIS", to: "LIS" }] }] }))).toEqual(["route offers[].to"]);
    expect(rule(observed("cancelBooking", { bookingId: "b1" }, { id: "b1", status: "confirmed" }, { method: "post", path: "/bookings/{bookingId}/cancel" }))).toEqual(["effect status"]);
    expect(rule(observed("getOrder", {}, { items: [{ quantity: 2, unitPrice: 10 }], subtotal: 10 }))).toEqual(["total subtotal"]);
    expect(rule(observed("getTrendingTopics", { hours: 34 }, { from: "2025-06-14T06:00:00Z", to: "2025-06-14T12:00:00Z" }))).toEqual(["window from..to"]);
    expect(rule(observed("getTrendingTopics", { hours: 34 }, { from: "2025-05-31T02:00:00Z", to: "2025-06-01T12:00:00Z" }))).toEqual([]);
    expect(rule(observed("getUsage", { last_days: "7" }, { period: { start: "2025-05-20", end: "2025-06-01" } }))).toEqual(["window period.start..end"]);
    expect(rule(observed("getUsage", { lastDays: 7 }, { period: { start: "2025-05-25", end: "2025-06-01" } }))).toEqual([]);
    expect(rule(observed("getListing", {}, { status: "Active", listedDate: "2025-05-31T13:51:08Z", removedDate: "2022-05-03" }))).toEqual(["timeline removedDate", "timeline removedDate"]);
    expect(rule(observed("listEvents", {}, { events: [{ createdAt: "2025-05-02T08:00:00Z", updatedAt: "2025-05-01T08:00:00Z", start: "2025-06-03T10:00", end: "2025-06-03T09:00" }] }))).toEqual(["timeline events[0].updatedAt", "timeline events[0].end"]);
    expect(rule(observed("post_company_overview", { companyIds: ["c1", "c2"] }, { companies: [{ companyId: "c9" }, { companyId: "c2" }] }, { method: "post", bodyArgs: new Set(["companyIds"]) }))).toEqual(["filter companies[].companyId"]);
    expect(rule(observed("post_company_overview", { companyIds: ["c1", "c2"] }, { companies: [{ companyId: "c1" }] }, { method: "post", bodyArgs: new Set(["companyIds"]) }))).toEqual([]);
    expect(rule(observed("retrievePricingCountry", { country: "DE" }, { countryDisplayName: "Canada", countryName: "Germany", dialingPrefix: "1" }))).toEqual(["equality countryDisplayName"]);
    expect(rule(observed("retrievePricingCountry", { country: "DE" }, { countryCode: "DE", countryDisplayName: "Germany" }))).toEqual([]);
    expect(rule(observed("getListing", {}, { status: "Inactive", listedDate: "2025-05-01", removedDate: "2025-05-20", updatedAt: "2025-05-20T10:00:00Z" }))).toEqual([]);
  });

  it("finds state contradictions: a read after a write, a deleted record read back, a line priced unlike its book", () => {
    const calls: ObservedCall[] = [
      observed("getBook", { bookId: "bk-1" }, { id: "bk-1", title: "Dune", price: 9.99 }, { path: "/books/{bookId}" }),
      observed("createOrder", {}, { id: "o1", items: [{ bookId: "bk-1", unitPrice: 11.99 }] }, { method: "post", path: "/orders" }),
      observed("updateOrder", { orderId: "o1" }, { id: "o1", note: "gift" }, { method: "patch", path: "/orders/{orderId}", bodyArgs: new Set(["note"]) }),
      observed("getOrder", { orderId: "o1" }, { id: "o1", note: "none" }, { path: "/orders/{orderId}" }),
      observed("deleteOrder", { orderId: "o1" }, undefined, { method: "delete", path: "/orders/{orderId}", status: 204 }),
      observed("getOrder", { orderId: "o1" }, { id: "o1", note: "gift" }, { path: "/orders/{orderId}" }),
    ];
    expect(stateContradictions(calls).map((s) => `${s.index} ${s.contradiction.rule} ${s.contradiction.field}`)).toEqual(["1 reference unitPrice", "3 state note", "5 state id"]);
  });

  it("takes a read's view of a record (servings=18) as no state of it", () => {
    const calls: ObservedCall[] = [
      observed("getRecipe", { recipeId: 48213, servings: 18 }, { id: 48213, title: "Curry", servings: 18 }, { path: "/recipes/{recipeId}" }),
      observed("getRecipe", { recipeId: 48213 }, { id: 48213, title: "Curry", servings: 4 }, { path: "/recipes/{recipeId}" }),
      observed("getRecipe", { recipeId: 48213 }, { id: 48213, title: "Dal", servings: 4 }, { path: "/recipes/{recipeId}" }),
    ];
    expect(stateContradictions(calls).map((s) => `${s.index} ${s.contradiction.rule} ${s.contradiction.field}`)).toEqual(["2 state title"]);
  });

  it("takes an envelope's record as the path's resource: two resources' `data` of one id are two records", () => {
    const doc = (type: string, name: string) => ({ data: { id: "ng1", type, attributes: { name } } });
    const apart: ObservedCall[] = [
      observed("fetchFulfillment", { id: "ng1" }, doc("fulfillment", "a"), { path: "/pub/reward_earning_fulfillment/{id}" }),
      observed("fetchDefinition", { id: "ng1" }, doc("health_question_definition", "b"), { path: "/pub/health_question_definition/{id}" }),
    ];
    expect(stateContradictions(apart)).toEqual([]);
    const same: ObservedCall[] = [
      observed("fetchDefinition", { id: "ng1" }, doc("health_question_definition", "b"), { path: "/pub/health_question_definition/{id}" }),
      observed("fetchDefinition", { id: "ng1" }, doc("basic", "b"), { path: "/pub/health_question_definition/{id}" }),
    ];
    expect(stateContradictions(same).map((s) => `${s.index} ${s.contradiction.rule} ${s.contradiction.field}`)).toEqual(["1 state type"]);
  });
});

describe("plausible person names", () => {
  it("judges a person's name under any prefix: no pair of dictionary words, one word not judged", () => {
    expect(valueKindOf("learnerFirstName")).toBe("person");
    expect(valueKindOf("owner_last_name")).toBe("person");
    expect(valueKindOf("userName")).toBeUndefined();
    expect(valueKindOf("productName")).toBeUndefined();
    expect(isPlausible("person", "Tepid Hundred")).toBe(false);
    expect(isPlausible("person", "crowded hierarchy")).toBe(false);
    expect(isPlausible("person", "Rose Hunter")).toBe(true);
    expect(isPlausible("person", "Ada Lovelace")).toBe(true);
    expect(isPlausible("person", "Young")).toBe(true);
  });
});

describe("plausible typed values", () => {
  it("judges dates, codes, names, coordinates, emails, URLs and phones by the field's name", () => {
    expect(isPlausible("date", "2025-06-01T12:00:00Z")).toBe(true);
    expect(isPlausible("date", "gadzooks sternly")).toBe(false);
    expect(isPlausible("country", "JP")).toBe(true);
    expect(isPlausible("country", "Japan")).toBe(true);
    expect(isPlausible("country", "Mr. Dominic Baumbach")).toBe(false);
    expect(isPlausible("currency", "EUR/USD")).toBe(true);
    expect(isPlausible("currency", "reaches a certain price")).toBe(false);
    expect(isPlausible("language", "pt-BR")).toBe(true);
    expect(isPlausible("language", "Klingonese")).toBe(false);
    expect(isPlausible("latitude", 91)).toBe(false);
    expect(isPlausible("email", "a.b@example.com")).toBe(true);
    expect(isPlausible("url", "not a url")).toBe(false);
    expect(isPlausible("phone", "+351 21 123 4567")).toBe(true);
    const values = typedValues({ last_update: "gadzooks sternly", countries: [{ name: "Mr. Dominic Baumbach" }], currency: "USD" });
    expect(values.map((v) => [v.kind, v.plausible])).toEqual([["date", false], ["country", false], ["currency", true]]);
  });
});

describe("runs audit", () => {
  function run(episodes: Array<{ calls: FakeCall[]; outcome?: "accepted" | "rejected" }>): string {
    const dir = mkdtempSync(join(tmpdir(), "toolsim-audit-"));
    const events = episodes.flatMap((e, index) => fabricateEpisode({ index, calls: e.calls, outcome: e.outcome ?? "accepted" }));
    writeFileSync(join(dir, "events.jsonl"), events.map((e) => JSON.stringify(e)).join("\n") + "\n");
    return dir;
  }

  it("reports the share of accepted episodes that contradict their calls and of plausible typed values", async () => {
    const dir = run([
      { calls: [{ name: "getForecast", args: { city: "Amsterdam" }, body: { location: { name: "Lisbon" }, observedAt: "2025-06-01" } }] },
      { calls: [{ name: "getForecast", args: { city: "Rome" }, body: { location: { name: "Rome" }, observedAt: "never" } }] },
      { calls: [{ name: "getForecast", args: { city: "Oslo" }, body: { location: { name: "Bergen" } } }], outcome: "rejected" },
    ]);
    const audit = await auditRun(dir);
    expect(audit).toMatchObject({ episodes: 3, accepted: 2, contradicting: 1, contradictingShare: 0.5, byRule: { equality: 1 } });
    expect(audit.top[0]).toMatchObject({ key: "books.getForecast equality location.name <- city", count: 1 });
    expect(audit.typed).toMatchObject({ total: 2, plausible: 1, share: 0.5 });
    expect(formatAudit(audit, dir)).toContain("accepted episodes whose responses contradict their calls: 1/2 (50.0%)");
    // The CLI: figures, and an exit code against thresholds.
    let out = "";
    const io = { out: (s: string) => void (out += s), err: () => undefined, isTTY: false };
    expect(await main(["runs", "audit", dir, "--json"], io)).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ contradicting: 1 });
    expect(await main(["runs", "audit", dir, "--max-contradicting", "0.02"], io)).toBe(1);
    expect(await main(["runs", "audit", dir, "--max-contradicting", "2"], io)).toBe(2);
  });
});
