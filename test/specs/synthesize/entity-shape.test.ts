import { describe, expect, it } from "vitest";
import { singularNoun } from "../../../specs/singular-noun.js";
import { shapeOf } from "../../../specs/synthesize/world/entity-shape.js";

describe("what an answer's object is, judged from the name of what holds it", () => {
  it("one singular for every noun: -ies, -sses, -ches, -xes, irregular and uncountable ones", () => {
    expect(["books", "categories", "addresses", "matches", "boxes", "wishes", "user_profiles", "People", "status", "news"].map(singularNoun)).toEqual([
      "book",
      "category",
      "address",
      "match",
      "box",
      "wish",
      "userprofile",
      "person",
      "status",
      "news",
    ]);
  });

  it("an item of `addresses` with a name, a city and a country is a place (as an item of `address` is)", () => {
    const item = { name: "Head office", city: "Lyon", country: "FR" };
    expect(shapeOf(item, "address").entity).toBe("place");
    expect(shapeOf({ ...item }, "addresses").entity).toBe("place");
    // A holder that names nothing in particular says nothing of its items.
    expect(shapeOf({ name: "Head office", city: "Lyon", country: "FR", note: "x" }, "notes").entity).toBeUndefined();
  });

  it("an item of `countries` is a country, whatever its keys", () => {
    expect(shapeOf({ name: "Portugal", code: "PT" }, "countries").entity).toBe("country");
  });
});
