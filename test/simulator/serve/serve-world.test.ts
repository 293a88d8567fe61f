import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import { startServe, type RunningServe } from "../../../simulator/serve/start-serve.js";

// A scripted session against `toolsim serve` over HTTP on 127.0.0.1: the world follows the calls (create, read,
// list with a filter, cancel, read again, unknown ids, an order priced as its book, stock).

const TOOLSET = fileURLToPath(new URL("../../fixtures/serve/world-shop.yaml", import.meta.url));
const JSON_HEADERS = { "content-type": "application/json" };

const running: RunningServe[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(): Promise<string> {
  const loaded = await loadServedApis([TOOLSET]);
  if (!loaded.ok) throw new Error("the fixture does not load");
  const server = await startServe({ apis: loaded.apis, port: 0, log: () => undefined });
  running.push(server);
  return server.url;
}

async function request(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, { method, headers: { ...JSON_HEADERS, "x-toolsim-session": "script" }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text === "" ? undefined : JSON.parse(text) };
}

describe("toolsim serve: a session whose answers follow its calls", () => {
  it("create, read, list with a filter, cancel, read again, unknown ids, an order priced as its book", async () => {
    const base = await start();
    const created = await request(base, "POST", "/orders", { email: "kim.lee@example.com", items: [{ bookId: "bk-3", quantity: 2 }] });
    expect(created.status).toBe(201);
    const order = created.body;
    expect(order).toMatchObject({ status: "pending", email: "kim.lee@example.com", subtotal: 58 });
    expect(order.items).toEqual([{ bookId: "bk-3", quantity: 2, title: "Salt and Saffron", unitPrice: 29 }]);
    // The order's price is its book's price.
    const book = await request(base, "GET", "/books/bk-3");
    expect(book.status).toBe(200);
    expect(order.items[0].unitPrice).toBe(book.body.price);
    expect(book.body.stock).toBe(5); // 7 less the 2 ordered

    const read = await request(base, "GET", `/orders/${order.id}`);
    expect(read).toEqual({ status: 200, body: order });

    const pending = await request(base, "GET", "/orders?status=pending");
    expect(pending.status).toBe(200);
    expect(pending.body.items.map((o: { id: string }) => o.id)).toEqual([order.id]);
    expect(pending.body.items.every((o: { status: string }) => o.status === "pending")).toBe(true);
    const shipped = await request(base, "GET", "/orders?status=shipped");
    expect(shipped.body.items.map((o: { id: string }) => o.id)).toEqual(["ord-1001"]);

    const cancelled = await request(base, "POST", `/orders/${order.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: order.id, status: "cancelled" });
    expect((await request(base, "GET", `/orders/${order.id}`)).body.status).toBe("cancelled");

    // Unknown ids of the closed world (collections seeded from fixtures) are 404, whether read or acted on.
    expect((await request(base, "GET", "/orders/ord-9999")).status).toBe(404);
    expect((await request(base, "POST", "/orders/ord-9999/cancel")).status).toBe(404);
    expect((await request(base, "GET", "/books/bk-404")).status).toBe(404);

    // An out-of-stock book and an unknown one cannot be ordered: the spec's 409.
    const out = await request(base, "POST", "/orders", { email: "kim.lee@example.com", items: [{ bookId: "bk-2", quantity: 1 }] });
    expect(out).toEqual({ status: 409, body: { message: "Book bk-2 is out of stock (0 left, 1 asked)" } });
    expect((await request(base, "POST", "/orders", { email: "kim.lee@example.com", items: [{ bookId: "bk-404", quantity: 1 }] })).status).toBe(409);
  });
});
