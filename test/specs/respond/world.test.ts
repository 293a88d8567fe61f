import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import type { LoadedToolset } from "../../../toolsets/toolset.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { declareWorld } from "../../../specs/respond/world-settings.js";
import type { Catalog } from "../../../specs/catalog/catalog.js";

// State that behaves like a service (test/fixtures/serve/world-shop.yaml): a closed world of fixtures, an
// open world that remembers what it invents, actions that leave their effect, orders that take their books'
// titles and prices and consume stock, totals that add up, a bounded store, paging by the spec's parameters.

type Json = Record<string, any>;

const FILE = fileURLToPath(new URL("../../fixtures/serve/world-shop.yaml", import.meta.url));
let shop: LoadedToolset;
beforeAll(async () => {
  const loaded = await loadToolset(FILE);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  shop = loaded.value;
});

function world(catalog: Catalog = shop.catalog, state = ResourceStore.fromFixtures(shop.fixtures ?? {})) {
  return {
    state,
    call: async (tool: string, args: Json) => {
      const r = await simulateCall(catalog, { name: tool, arguments: args }, { seed: 5, state });
      expect(r.errors).toEqual([]);
      expect(r.responseErrors, JSON.stringify(r.body)).toEqual([]);
      return r;
    },
  };
}

const ORDER = { email: "kim.lee@example.com", items: [{ bookId: "bk-1", quantity: 2 }, { bookId: "bk-3", quantity: 1 }] };

describe("closed and open worlds", () => {
  it("a fixture collection is closed: an unknown id is the spec's 404, and reading it does not grow the state", async () => {
    const { call, state } = world();
    expect((await call("getBook", { bookId: "bk-3" })).body).toMatchObject({ id: "bk-3", title: "Salt and Saffron", price: 29 });
    const before = state.itemCount;
    for (let i = 0; i < 50; i++) expect((await call("getBook", { bookId: `bk-9${i}` })).status).toBe(404);
    expect(state.itemCount).toBe(before);
  });

  it("an open world invents an unknown record once and remembers it: a second read agrees", async () => {
    const loaded = await loadToolset(FILE);
    if (!loaded.ok) throw new Error("load");
    declareWorld(loaded.value.catalog, { open: true });
    const { call } = world(loaded.value.catalog);
    const first = await call("getBook", { bookId: "bk-77" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: "bk-77" });
    expect((await call("getBook", { bookId: "bk-77" })).body).toEqual(first.body);
  });

  it("records invented by reads are bounded (oldest dropped first), and a full store refuses creates visibly", async () => {
    const { call, state } = world(shop.catalog, new ResourceStore({ maxInvented: 3, maxItems: 6 }));
    for (let i = 0; i < 20; i++) expect((await call("getOrder", { orderId: `ord-${2000 + i}` })).status).toBe(200);
    expect(state.itemCount).toBe(3);
    const books = ResourceStore.fromFixtures(shop.fixtures ?? {}, { maxItems: 5 }); // 4 fixtures and room for one order
    const small = world(shop.catalog, books);
    expect((await small.call("createOrder", { email: "a@example.com", items: [{ bookId: "bk-1", quantity: 1 }] })).status).toBe(201);
    const refused = await small.call("createOrder", { email: "a@example.com", items: [{ bookId: "bk-1", quantity: 1 }] });
    expect(refused.status).toBe(507);
    expect(refused.body).toMatchObject({ status: 507, detail: expect.stringContaining("state is full") });
  });
});

describe("orders: references, totals, stock", () => {
  it("an order's lines take their books' titles and prices; the subtotal adds up; a later read agrees", async () => {
    const { call } = world();
    const created = await call("createOrder", ORDER);
    expect(created.status).toBe(201);
    const order = created.body as Json;
    expect(order.items).toEqual([
      { bookId: "bk-1", quantity: 2, title: "Harbour Lights", unitPrice: 14.99 },
      { bookId: "bk-3", quantity: 1, title: "Salt and Saffron", unitPrice: 29 },
    ]);
    expect(order.subtotal).toBe(58.98);
    expect(order.status).toBe("pending");
    expect((await call("getOrder", { orderId: order.id })).body).toEqual(order);
  });

  it("stock the toolset marks is honoured: an order beyond it is the spec's 409, and a good one takes from it", async () => {
    const { call } = world();
    const out = await call("createOrder", { email: "a@example.com", items: [{ bookId: "bk-2", quantity: 1 }] });
    expect(out.status).toBe(409);
    expect(out.body).toEqual({ message: "Book bk-2 is out of stock (0 left, 1 asked)" });
    expect((await call("createOrder", { email: "a@example.com", items: [{ bookId: "bk-1", quantity: 4 }] })).status).toBe(201);
    expect(((await call("getBook", { bookId: "bk-1" })).body as Json).stock).toBe(1);
    expect((await call("createOrder", { email: "a@example.com", items: [{ bookId: "bk-1", quantity: 2 }] })).status).toBe(409);
  });

  it("an order of a book the closed world does not have is refused", async () => {
    const { call } = world();
    const r = await call("createOrder", { email: "a@example.com", items: [{ bookId: "bk-404", quantity: 1 }] });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ message: "Book bk-404 does not exist" });
  });
});

describe("action effects", () => {
  it("cancel leaves the order cancelled, and a later read and list agree", async () => {
    const { call } = world();
    const order = (await call("createOrder", ORDER)).body as Json;
    const cancelled = await call("cancelOrder", { orderId: order.id });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: order.id, status: "cancelled", subtotal: 58.98 });
    expect(((await call("getOrder", { orderId: order.id })).body as Json).status).toBe("cancelled");
    const listed = (await call("listOrders", { status: "cancelled" })).body as Json;
    expect(listed.items.map((o: Json) => o.id)).toEqual([order.id]);
    expect(((await call("listOrders", { status: "pending" })).body as Json).items).toEqual([]);
  });

  it("cancelling an order the closed world does not have is a 404", async () => {
    const { call, state } = world();
    await call("createOrder", ORDER); // /orders now holds what this episode made
    state.markAuthoritative("/orders", "id");
    expect((await call("cancelOrder", { orderId: "ord-9999" })).status).toBe(404);
  });
});

describe("lists from state", () => {
  it("filter by the call's bindings (an enum filter is the whole value) and page by the spec's own parameters, counting every match", async () => {
    const { call } = world();
    const genre = (await call("listBooks", { genre: "cooking" })).body as Json;
    expect(genre.items.map((b: Json) => b.id)).toEqual(["bk-3"]);
    expect(genre.total).toBe(1);
    const search = (await call("listBooks", { q: "orbit" })).body as Json;
    expect(search.items.map((b: Json) => b.id)).toEqual(["bk-2"]);
    const page = (await call("listBooks", { page: 2, pageSize: 2 })).body as Json;
    expect(page.items.map((b: Json) => b.id)).toEqual(["bk-3"]);
    expect(page.total).toBe(3);
  });
});
