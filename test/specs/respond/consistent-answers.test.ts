import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { loadCatalog } from "../../../specs/catalog/load-catalog.js";
import { ResourceStore, type Fixtures } from "../../../specs/respond/resource-store.js";
import { simulateCall, type SimulateOptions } from "../../../specs/call/simulate-call.js";
import { formatProblem } from "../../../specs/load/spec-problem.js";
import { exchangeRate, roundMoney } from "../../../specs/synthesize/world/world-money.js";
import type { ToolResult } from "../../../specs/call/tool-result.js";

// Answers that must agree with the call that asked for them (test/fixtures/specs/state/consistency.yaml).

type Json = Record<string, any>;

let spec: Catalog;
beforeAll(async () => {
  const loaded = await loadCatalog(fileURLToPath(new URL("../../fixtures/specs/state/consistency.yaml", import.meta.url)));
  if (!loaded.ok) throw new Error(loaded.errors.map(formatProblem).join("\n"));
  spec = loaded.value;
});

const FIXTURES: Fixtures = {
  "/reminders": [
    { id: "rem-2001", text: "Renew the car insurance", priority: "high", done: false, eventId: null },
    { id: "rem-2002", text: "Prepare slides", priority: "normal", done: false, eventId: null },
    { id: "rem-2003", text: "Buy flowers", priority: "low", done: true, eventId: null },
  ],
  "/books": [
    { id: "bk-1001", title: "The Lighthouse at Varden Point", price: 14.99, genre: "fiction" },
    { id: "bk-1002", title: "Orbit of Small Things", price: 18.5, genre: "science-fiction" },
    { id: "bk-1004", title: "The Cartographer's Daughter", price: 11.99, genre: "fantasy" },
  ],
};

/** One episode over the fixture spec: every call valid, every answer valid against its response schema. */
function episode(state = ResourceStore.fromFixtures(FIXTURES), seed = 7) {
  return {
    state,
    call: async (name: string, args: unknown, options: SimulateOptions = {}): Promise<ToolResult> => {
      const result = await simulateCall(spec, { name, arguments: args }, { seed, state, ...options });
      expect(result.errors, `${name} request errors`).toEqual([]);
      expect(result.responseErrors, `${name} response errors: ${JSON.stringify(result.body)}`).toEqual([]);
      return result;
    },
  };
}

describe("created resources get fresh ids that fit the id's schema", () => {
  it("a second create gets the next patterned id, and updates reach the resource they name", async () => {
    const { call } = episode();
    const first = await call("createReminder", { text: "Call the plumber" });
    const second = await call("createReminder", { text: "Water the plants" });
    expect((first.body as Json)["id"]).toBe("rem-2004");
    expect((second.body as Json)["id"]).toBe("rem-2005");
    expect(second.notes).toEqual(["created /reminders/rem-2005"]);
    const updated = await call("updateReminder", { reminderId: "rem-2005", done: true });
    expect(updated.body).toMatchObject({ id: "rem-2005", text: "Water the plants", done: true });
    expect(((await call("getReminder", { reminderId: "rem-2004" })).body as Json)["done"]).toBe(false);
  });

  it("numbers after the largest id of the collection, deleted ids included", async () => {
    const state = ResourceStore.fromFixtures({ "/reminders": [{ id: "rem-0042", text: "x", priority: "low", done: false }] });
    const { call } = episode(state);
    expect(((await call("createReminder", { text: "a" })).body as Json)["id"]).toBe("rem-0043");
    state.delete("/reminders", "rem-0043", "id");
    expect(((await call("createReminder", { text: "b" })).body as Json)["id"]).toBe("rem-0044");
  });

  it("uuid ids: a new seeded uuid for each create, the same ones for the same seed", async () => {
    const ids = async (): Promise<string[]> => {
      const { call } = episode(new ResourceStore());
      const out: string[] = [];
      // The same request three times: the same call seed, yet three resources.
      for (let i = 0; i < 3; i++) out.push(((await call("createTicket", { subject: "Printer on fire" })).body as Json)["id"]);
      return out;
    };
    const first = await ids();
    expect(new Set(first).size).toBe(3);
    for (const id of first) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await ids()).toEqual(first);
  });
});

describe("singletons keep state: a path without an id that is read and updated (/me)", () => {
  it("PATCH merges into what was read; later reads return the update", async () => {
    const { call } = episode();
    const before = (await call("getProfile", {})).body as Json;
    expect(before).toMatchObject({ displayName: "Sam Okonkwo", timezone: "Europe/London", marketingOptIn: false });
    const patched = await call("updateProfile", { timezone: "America/Toronto", marketingOptIn: true });
    expect(patched.source).toBe("state");
    expect(patched.body).toEqual({ ...before, timezone: "America/Toronto", marketingOptIn: true });
    expect((await call("getProfile", {})).body).toEqual(patched.body);
    await call("updateProfile", { displayName: "Sam O." });
    expect((await call("getProfile", {})).body).toEqual({ ...before, displayName: "Sam O.", timezone: "America/Toronto", marketingOptIn: true });
  });

  it("an update before any read starts from what the first read would have been", async () => {
    const { call } = episode();
    const patched = (await call("updateProfile", { marketingOptIn: true })).body as Json;
    expect(patched).toMatchObject({ id: "0c7d2f5e-8a41-4b6e-a3d9-5f1e2b7c9a64", displayName: "Sam Okonkwo", marketingOptIn: true });
    expect((await call("getProfile", {})).body).toEqual(patched);
  });

  it("PUT replaces what a client can send and keeps what it cannot (the id)", async () => {
    const { call } = episode();
    const before = (await call("getProfile", {})).body as Json;
    const replaced = (await call("replaceProfile", { displayName: "Ada" })).body as Json;
    expect(replaced).toEqual({ id: before["id"], displayName: "Ada" });
    expect((await call("getProfile", {})).body).toEqual(replaced);
  });

  it("starts from fixtures when the toolset gives the singleton, and each state keeps its own", async () => {
    const state = ResourceStore.fromFixtures({ "/me": [{ id: "5b1c8a1e-0f3e-4c55-9d5e-2a7b6c4d8e90", displayName: "Ines", timezone: "Europe/Lisbon" }] });
    const { call } = episode(state);
    expect((await call("getProfile", {})).body).toEqual({ id: "5b1c8a1e-0f3e-4c55-9d5e-2a7b6c4d8e90", displayName: "Ines", timezone: "Europe/Lisbon" });
    await call("updateProfile", { timezone: "Asia/Tokyo" });
    expect(state.snapshot()["/me"]).toEqual([{ id: "5b1c8a1e-0f3e-4c55-9d5e-2a7b6c4d8e90", displayName: "Ines", timezone: "Asia/Tokyo" }]);
    const other = episode();
    expect(((await other.call("getProfile", {})).body as Json)["timezone"]).toBe("Europe/London");
  });
});

describe("a created resource is made of the request", () => {
  const order = {
    items: [
      { bookId: "bk-1001", quantity: 2 },
      { bookId: "bk-1004", quantity: 1 },
    ],
    shippingAddress: { name: "Ada Lovelace", line1: "12 St James's Square", city: "London" },
  };

  it("keeps nested objects as given (no invented line2) and lines as ordered, titled and priced from the referenced books", async () => {
    const { call } = episode();
    const created = (await call("createOrder", order)).body as Json;
    expect(created["shippingAddress"]).toEqual(order.shippingAddress);
    // The line's unitPrice is the book's price (a reference binding), not the example's 11.99.
    expect(created["items"]).toEqual([
      { bookId: "bk-1001", quantity: 2, title: "The Lighthouse at Varden Point", unitPrice: 14.99 },
      { bookId: "bk-1004", quantity: 1, title: "The Cartographer's Daughter", unitPrice: 11.99 },
    ]);
    expect((await call("getOrder", { orderId: created["id"] })).body).toEqual(created);
  });

  it("starts a new resource's status at the start of its enum, not at the example's (shipped)", async () => {
    const { call } = episode();
    expect(((await call("createOrder", order)).body as Json)["status"]).toBe("pending");
  });

  it("fields the client could have sent and did not: the request default, else null, never the example's value", async () => {
    const { call } = episode();
    const created = (await call("createOrder", order)).body as Json;
    expect(created["shippingMethod"]).toBe("standard"); // the request schema's default, not the example's express
    expect(created["giftNote"]).toBeNull(); // nullable, not the example's "Happy birthday!"
    const reminder = (await call("createReminder", { text: "Call the plumber" })).body as Json;
    expect(reminder["eventId"]).toBeNull();
    expect(reminder["priority"]).toBe("normal");
    const given = (await call("createOrder", { ...order, shippingMethod: "express", giftNote: "Enjoy" })).body as Json;
    expect(given).toMatchObject({ shippingMethod: "express", giftNote: "Enjoy" });
  });

  it("takes no referenced data from items the state does not hold (open world: the answer's value stays)", async () => {
    const { call } = episode(ResourceStore.fromFixtures({}));
    const created = (await call("createOrder", { ...order, items: [{ bookId: "bk-7777", quantity: 1 }] })).body as Json;
    expect(created["items"]).toEqual([{ bookId: "bk-7777", quantity: 1, title: "The Cartographer's Daughter", unitPrice: 11.99 }]);
  });
});

describe("answers echo the arguments they were asked with", () => {
  it("a top-level field named like a query parameter holds its value (the example's EUR becomes GBP)", async () => {
    const { call } = episode();
    const converted = await call("convertCurrency", { from: "GBP", to: "JPY", amount: 250 });
    expect(converted.source).toBe("example");
    // (and its result is the amount at the world's rate, not the example's 108.5)
    expect(converted.body).toEqual({ from: "GBP", to: "JPY", amount: 250, result: roundMoney(250 * (exchangeRate("GBP", "JPY") as number), "JPY") });
  });

  it("an object that repeats the request (all its fields named like parameters) agrees; other objects are left alone", async () => {
    const { call } = episode();
    const body = (await call("exchangeAmount", { from: "GBP", to: "JPY", amount: 250 })).body as Json;
    expect(body).toEqual({ query: { from: "GBP", to: "JPY", amount: 250 }, info: { rate: 1.085, from: "ECB" }, result: roundMoney(250 * (exchangeRate("GBP", "JPY") as number), "JPY") });
  });

  it("path parameters scope lists: each item's field of the same name agrees too", async () => {
    const { call } = episode();
    const body = (await call("getPublicHolidays", { year: 1997, countryCode: "BN" })).body as Json;
    expect(body["countryCode"]).toBe("BN");
    expect(body["year"]).toBe(1997);
    expect(body["holidays"].map((h: Json) => h["countryCode"])).toEqual(["BN", "BN"]);
  });

  it("query filters apply to the items of a list body; a value the schema rejects is not echoed", async () => {
    const { call } = episode();
    const countries = (await call("listCountries", { region: "Oceania", tags: "g20" })).body as Json[];
    expect(countries.map((c) => [c["region"], c["tags"]])).toEqual([["Oceania", ["g20"]], ["Oceania", ["g20"]]]);
    // `bank` is outside the items' enum (public, optional): no item can be a bank holiday, so none is listed; `optional` is echoed.
    const bank = (await call("getPublicHolidays", { year: 2025, countryCode: "DE", type: "bank" })).body as Json;
    expect(bank["holidays"]).toEqual([]);
    const optional = (await call("getPublicHolidays", { year: 2025, countryCode: "DE", type: "optional" })).body as Json;
    expect(optional["holidays"].map((h: Json) => h["type"])).toEqual(["optional", "optional"]);
  });

  it("body fields echo at the top level only: a glossary's entries keep their own source and target", async () => {
    const { call } = episode();
    const body = (await call("createGlossary", { source: "de", target: "pt-BR", entries: [{ source: "Haus", target: "casa" }] })).body as Json;
    expect(body).toEqual({ source: "de", target: "pt-BR", entries: [{ source: "Haus", target: "casa" }] });
  });

  it("credentials are issued, not echoed; the last path parameter fills the answer's field of that name", async () => {
    const { call } = episode();
    expect((await call("refreshToken", { refreshToken: "rt_old_0123456789" })).body).toEqual({ accessToken: "at_new", refreshToken: "rt_new" });
    expect((await call("activateScene", { sceneId: "scn-movie-night" })).body).toEqual({ sceneId: "scn-movie-night", activated: true });
  });

  it("is deterministic: the same call and seed give the same body", async () => {
    const a = await episode().call("getPublicHolidays", { year: 2001, countryCode: "NO" });
    const b = await episode().call("getPublicHolidays", { year: 2001, countryCode: "NO" });
    expect(JSON.stringify(a.body)).toBe(JSON.stringify(b.body));
  });
});

describe("lists from state agree with their filters", () => {
  it("an enum filter matches the whole value (fiction is not science-fiction); a text filter a part", async () => {
    const { call } = episode();
    expect(((await call("listBooks", { genre: "fiction" })).body as Json[]).map((b) => b["id"])).toEqual(["bk-1001"]);
    expect(((await call("listBooks", { title: "the" })).body as Json[]).map((b) => b["id"])).toEqual(["bk-1001", "bk-1004"]);
  });
});

describe("error bodies from examples name the requested id, not the example's", () => {
  it("a 404 from state: a shared example's message about another resource is written for this one", async () => {
    const { call } = episode();
    const missing = await call("getReminder", { reminderId: "rem-9999" });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "not_found", message: "Reminder rem-9999 not found" });
    expect(((await call("getBook", { bookId: "bk-2000" })).body as Json)["message"]).toBe("Book bk-2000 not found");
  });

  it("a 404 asked for (Prefer: code=404), and a synthesized 404 message", async () => {
    const { call } = episode();
    expect((await call("getOrder", { orderId: "ord-50002" }, { status: 404 })).body).toEqual({ error: "not_found", message: "Order ord-50002 not found" });
    const id = "5b1c8a1e-0f3e-4c55-9d5e-2a7b6c4d8e90";
    expect((await call("getTicket", { ticketId: id }, { status: 404 })).body).toEqual({ message: `Ticket ${id} not found` });
  });

  it("ids shaped like the requested one count as other ids; a field holding only an id is left as it is", async () => {
    const { call } = episode();
    const body = (await call("getBooking", { bookingId: "QX7K2P" }, { status: 404 })).body as Json;
    expect(body).toEqual({ code: "NOT_FOUND", message: "Booking QX7K2P not found", deviceId: "dev-lamp-99" });
  });

  it("another error: the one id shaped like the requested one is replaced, other ids and words stay", async () => {
    const { call } = episode();
    const conflict = await call("updateReminder", { reminderId: "rem-2002", done: true }, { status: 409 });
    expect(conflict.body).toEqual({ error: "conflict", message: "Reminder rem-2002 is already done; see evt-1001" });
  });
});
