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

describe("a range's ends", () => {
  it("are in order: a minimum above its maximum is swapped, or moved to the end a binding set", async () => {
    const { cohereEntities } = await import("../../../specs/synthesize/world/coherent-entities.js");
    const body = {
      estimates: [{ estimated_cost_cents_max: 1080, estimated_cost_cents_min: 1390, minutes: 5, admin: 3 }],
      lowPrice: 30,
      highPrice: 20,
      tempMin: 10,
      tempMax: 5,
      MIN_AGE: 40,
      MAX_AGE: 18,
      minimum: 2,
      maximum: 9,
    };
    cohereEntities(body, { seed: 1, pinned: new Set(["/tempMax"]) });
    expect(body).toEqual({
      estimates: [{ estimated_cost_cents_max: 1390, estimated_cost_cents_min: 1080, minutes: 5, admin: 3 }],
      lowPrice: 20,
      highPrice: 30,
      tempMin: 5,
      tempMax: 5,
      MIN_AGE: 18,
      MAX_AGE: 40,
      minimum: 2,
      maximum: 9,
    });
  });
});

describe("a written address", () => {
  it("and its parts say the same: the parts follow the text, the text follows a city a binding set", async () => {
    const { cohereEntities } = await import("../../../specs/synthesize/world/coherent-entities.js");
    const record = { addressLine1: "9 Elm St", city: "Reykjavik", state: "CA", zipCode: "90001", formattedAddress: "602 University Dr, Waldorf, MD 20602" };
    cohereEntities(record, { seed: 1 });
    expect(record).toEqual({ addressLine1: "602 University Dr", city: "Waldorf", state: "MD", zipCode: "20602", formattedAddress: "602 University Dr, Waldorf, MD 20602" });
    const asked = { city: "Austin", formattedAddress: "1702 Cherry Orchard Dr, Waldorf, TX 78745" };
    cohereEntities(asked, { seed: 1, pinned: new Set(["/city"]) });
    expect(asked.formattedAddress).toBe("1702 Cherry Orchard Dr, Austin, TX 78745");
    // Another country's way of writing an address is left as it is.
    const paris = { city: "Lyon", formattedAddress: "5 Rue de Rivoli, 75001 Paris, France" };
    cohereEntities(paris, { seed: 1 });
    expect(paris.formattedAddress).toBe("5 Rue de Rivoli, 75001 Paris, France");
  });

  it("in a plain `address` field counts beside a town, a commune or a zip code; an address alone is left as it is", async () => {
    const { cohereEntities } = await import("../../../specs/synthesize/world/coherent-entities.js");
    const decision = { address: "2166 School Close, Trenton, KY 32517", town: "Beijing", commune: "Bengaluru", zipCode: "69861" };
    cohereEntities(decision, { seed: 1 });
    expect(decision).toEqual({ address: "2166 School Close, Trenton, KY 32517", town: "Trenton", commune: "Trenton", zipCode: "32517" });
    const alone = { address: "2166 School Close, Trenton, KY 32517", name: "Acme" };
    cohereEntities(alone, { seed: 1 });
    expect(alone).toEqual({ address: "2166 School Close, Trenton, KY 32517", name: "Acme" });
  });
});
