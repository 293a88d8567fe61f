import { describe, expect, it } from "vitest";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import { bindingsOf } from "../../../specs/respond/bindings/bindings.js";
import { exampleRecord, hasExampleRecords } from "../../../specs/respond/world/example-records.js";
import { answerOf, inlineCatalog, ok, type Json } from "./inline-catalog.js";

/**
 * A synthesized answer about a record the spec's own examples show agrees with them (the search example's dish
 * 48213 is an Indian curry for 4 when it is read by id), and a read's view (`servings=6`) is not remembered as
 * the record's.
 */

const CUISINES = ["italian", "indian", "thai", "mexican", "french", "japanese"];
const dish: Json = {
  type: "object",
  required: ["id", "title", "cuisine", "servings"],
  properties: {
    id: { type: "integer", minimum: 1, example: 48213 },
    title: { type: "string", example: "Chickpea and Spinach Curry" },
    cuisine: { type: "string", enum: CUISINES },
    servings: { type: "integer", minimum: 1, maximum: 24 },
    rating: { type: "number", minimum: 0, maximum: 5 },
  },
};

const paths: Json = {
  "/dishes/search": {
    get: {
      operationId: "searchDishes",
      parameters: [{ name: "query", in: "query", schema: { type: "string" } }],
      responses: ok(
        { type: "object", properties: { results: { type: "array", items: dish } } },
        {
          results: [
            { id: 48213, title: "Chickpea and Spinach Curry", cuisine: "indian", servings: 4, rating: 4.7 },
            { id: 51907, title: "Warm Chickpea Salad", cuisine: "french", servings: 2, rating: 4.4 },
          ],
        },
      ),
    },
  },
  "/dishes/{dishId}": {
    get: {
      operationId: "getDish",
      parameters: [
        { name: "dishId", in: "path", required: true, schema: { type: "integer" } },
        { name: "servings", in: "query", description: "Scale the quantities to this many servings.", schema: { type: "integer", minimum: 1, maximum: 24 } },
      ],
      responses: { "200": { description: "ok", content: { "application/json": { schema: dish } } } },
    },
  },
  "/dish": {
    get: {
      operationId: "lookupDish",
      parameters: [
        { name: "dishId", in: "query", required: true, schema: { type: "integer" } },
        { name: "servings", in: "query", description: "Scale the quantities to this many servings.", schema: { type: "integer", minimum: 1, maximum: 24 } },
      ],
      responses: { "200": { description: "ok", content: { "application/json": { schema: dish } } } },
    },
  },
  "/dishes/random": {
    get: {
      operationId: "getRandomDish",
      parameters: [{ name: "cuisine", in: "query", schema: { type: "string", enum: CUISINES } }],
      responses: { "200": { description: "ok", content: { "application/json": { schema: dish } } } },
    },
  },
};

describe("records the spec's examples show", () => {
  it("are indexed by noun and id; a field two examples give differently is left out", async () => {
    const catalog = await inlineCatalog({
      ...paths,
      "/dishes/featured": { get: { operationId: "featuredDish", responses: ok(dish, { id: 48213, title: "Chickpea and Spinach Curry", cuisine: "indian", servings: 6 }) } },
    });
    expect(hasExampleRecords(catalog)).toBe(true);
    expect(exampleRecord(catalog, "dish", "51907")).toMatchObject({ title: "Warm Chickpea Salad", cuisine: "french", servings: 2 });
    const curry = exampleRecord(catalog, "dish", "48213");
    expect(curry).toMatchObject({ title: "Chickpea and Spinach Curry", cuisine: "indian", rating: 4.7 });
    expect(curry).not.toHaveProperty("servings");
  });

  it("a read of an example's id answers what the example says, whatever the seed", async () => {
    const catalog = await inlineCatalog(paths);
    for (let seed = 1; seed <= 12; seed++) {
      const body = await answerOf(catalog, "getDish", { dishId: 48213 }, seed);
      expect(body).toMatchObject({ id: 48213, title: "Chickpea and Spinach Curry", cuisine: "indian", servings: 4 });
      if (body["rating"] !== undefined) expect(body["rating"]).toBe(4.7);
    }
  });

  it("keeps the view a read asks for (servings=6) and the example's other fields", async () => {
    const catalog = await inlineCatalog(paths);
    const body = await answerOf(catalog, "getDish", { dishId: 48213, servings: 6 });
    expect(body).toMatchObject({ id: 48213, cuisine: "indian", servings: 6 });
  });

  it("a record the call makes differ from its example is another record", async () => {
    const catalog = await inlineCatalog(paths);
    for (let seed = 1; seed <= 12; seed++) {
      const body = await answerOf(catalog, "getRandomDish", { cuisine: "thai" }, seed);
      expect(body["cuisine"]).toBe("thai");
      // Not the search example's Indian curry under another cuisine.
      const example = exampleRecord(catalog, "dish", String(body["id"]));
      expect(example === undefined || example["cuisine"] === "thai").toBe(true);
    }
  });

  it("other ids than the examples' are synthesized as before", async () => {
    const catalog = await inlineCatalog(paths);
    const cuisines = new Set<unknown>();
    for (let id = 1000; id < 1040; id++) cuisines.add((await answerOf(catalog, "getDish", { dishId: id }, id))["cuisine"]);
    expect(cuisines.size).toBeGreaterThan(2);
  });
});

describe("a read names its record by an id in the query", () => {
  it("`dishId` on /dish is the answer's id; a list's `dishId` filter or another noun's id is not", async () => {
    const catalog = await inlineCatalog({
      ...paths,
      "/dish/reviews": {
        get: {
          operationId: "listReviews",
          parameters: [{ name: "dishId", in: "query", schema: { type: "integer" } }],
          responses: ok({ type: "array", items: { type: "object", properties: { id: { type: "integer" }, text: { type: "string" } } } }, [{ id: 1, text: "Good" }]),
        },
      },
      "/rides/{id}/receipt": {
        get: {
          operationId: "getRideReceipt",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", required: ["ride_id"], properties: { ride_id: { type: "string" }, total: { type: "number" } } } } } } },
        },
      },
      "/chef": {
        get: {
          operationId: "getChef",
          parameters: [{ name: "dishId", in: "query", required: true, schema: { type: "integer" } }],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { id: { type: "integer" }, name: { type: "string" } } } } } } },
        },
      },
    });
    const identity = (tool: string): string[] =>
      bindingsOf(catalog, catalog.get(tool)!)
        .filter((b) => b.kind === "equals" && b.field === "id")
        .map((b) => (b as { arg: string }).arg);
    expect(identity("lookupDish")).toEqual(["dishId"]);
    expect(identity("listReviews")).toEqual([]);
    expect(identity("getChef")).toEqual([]);
    // A sub-resource's answer names its owner by the owner's id (`ride_id` of `/rides/{id}/receipt`).
    expect(bindingsOf(catalog, catalog.get("getRideReceipt")!).filter((b) => b.kind === "equals").map((b) => `${(b as { arg: string }).arg}->${(b as { field: string }).field}`)).toEqual(["id->ride_id"]);
    expect((await answerOf(catalog, "getRideReceipt", { id: "k0id2ys9w3cf" }))["ride_id"]).toBe("k0id2ys9w3cf");
  });
});

describe("a read's view is not the record's", () => {
  it("a dish read for 6 servings is still a dish for 4 in later answers (memory and state)", async () => {
    const catalog = await inlineCatalog(paths);
    const state = new ResourceStore();
    const call = async (name: string, args: Json): Promise<Json> => {
      const r = await simulateCall(catalog, { name, arguments: args }, { seed: 7, state });
      expect(r.status).toBe(200);
      return r.body as Json;
    };
    // An id no example shows: what the first answer says is what the episode knows.
    const first = await call("getDish", { dishId: 777 });
    const scaled = await call("getDish", { dishId: 777, servings: first["servings"] === 9 ? 10 : 9 });
    expect(scaled["servings"]).not.toBe(first["servings"]);
    expect(scaled["title"]).toBe(first["title"]);
    expect((await call("getDish", { dishId: 777 }))["servings"]).toBe(first["servings"]);

    // A read that is no resource route (the id in the query): its answer is remembered without the view.
    const looked = await call("lookupDish", { dishId: 888 });
    expect(looked["id"]).toBe(888);
    const lookedScaled = await call("lookupDish", { dishId: 888, servings: looked["servings"] === 9 ? 10 : 9 });
    expect(lookedScaled["servings"]).not.toBe(looked["servings"]);
    expect(state.observed("dish", "888")?.["servings"]).toBe(looked["servings"]);
    expect((await call("lookupDish", { dishId: 888 }))["servings"]).toBe(looked["servings"]);

    // Read first with a view: the record is remembered without it.
    const fresh = new ResourceStore();
    const scaledFirst = await simulateCall(catalog, { name: "getDish", arguments: { dishId: 48213, servings: 6 } }, { seed: 7, state: fresh });
    expect((scaledFirst.body as Json)["servings"]).toBe(6);
    const again = await simulateCall(catalog, { name: "getDish", arguments: { dishId: 48213 } }, { seed: 8, state: fresh });
    expect((again.body as Json)["servings"]).toBe(4);
  });
});
