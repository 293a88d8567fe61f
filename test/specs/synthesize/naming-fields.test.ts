import { describe, expect, it } from "vitest";
import { SchemaRegistry } from "../../../specs/catalog/schema-registry.js";
import type { LoadedSpec } from "../../../specs/load/loaded-spec.js";
import { synthesize } from "../../../specs/synthesize/synthesize.js";

// An answer's records carry what names them, even where the schema makes it optional: a country list whose
// countries have no code gives the next call nothing to take.

type Json = Record<string, unknown>;

const Country = { type: "object", properties: { continent: { type: "string" }, country_code: { type: "string" }, flag_url: { type: "string" }, name: { type: "string" }, population: { type: "integer" } } };
const document = {
  openapi: "3.0.3",
  info: { title: "Test", version: "1" },
  paths: {},
  components: { schemas: { Country, Countries: { type: "object", properties: { country: { type: "array", minItems: 2, items: { $ref: "#/components/schemas/Country" } } } }, Order: { type: "object", properties: { id: { type: "string" }, note: { type: "string" }, bookId: { type: "string" } } } } },
};
const spec = { file: "<inline>", sourceVersion: "3.0", dialect: "3.0", document: document as unknown as LoadedSpec["document"], hash: "", warnings: [] } as LoadedSpec;
const registry = SchemaRegistry.of(spec);

describe("synthesized records and the fields that name them", () => {
  it("every listed country has its code, and an order its ids, whatever the seed; other optional fields come and go", () => {
    const seen = { flag: 0, note: 0 };
    for (let seed = 1; seed <= 40; seed++) {
      const countries = (synthesize(registry, "response", "/components/schemas/Countries", { seed }).value as Json)["country"] as Json[];
      for (const c of countries) expect(typeof c["country_code"], JSON.stringify(c)).toBe("string");
      seen.flag += countries.filter((c) => c["flag_url"] === undefined).length;
      const order = synthesize(registry, "response", "/components/schemas/Order", { seed }).value as Json;
      expect(Object.keys(order)).toEqual(expect.arrayContaining(["id", "bookId"]));
      if (order["note"] === undefined) seen.note++;
    }
    expect(seen.flag).toBeGreaterThan(0);
    expect(seen.note).toBeGreaterThan(0);
  });

  it("a request body's optional ids stay optional (what a caller sends is the caller's choice)", () => {
    let left = 0;
    for (let seed = 1; seed <= 40; seed++) if ((synthesize(registry, "request", "/components/schemas/Order", { seed }).value as Json)["bookId"] === undefined) left++;
    expect(left).toBeGreaterThan(0);
  });
});
