import { describe, expect, it } from "vitest";
import { buildCatalog } from "../../../specs/catalog/catalog.js";
import type { LoadedSpec, SchemaDialect } from "../../../specs/load/loaded-spec.js";
import { realisticValue } from "../../../specs/synthesize/values/realistic-value.js";
import { SchemaRegistry } from "../../../specs/catalog/schema-registry.js";
import { synthesize, type Synthesized } from "../../../specs/synthesize/synthesize.js";
import { synthesizeArguments } from "../../../specs/synthesize/synthesize-call.js";
import { validateCall } from "../../../specs/call/validate-call.js";
import { faker } from "@faker-js/faker/locale/en";

/** Faker's English first names: a value that starts with one reads as a person's name. */
const FIRST_NAMES = new Set<string>([...(faker.definitions.person.first_name.generic ?? []), ...(faker.definitions.person.first_name.female ?? []), ...(faker.definitions.person.first_name.male ?? [])]);
const LAST_NAMES = new Set<string>([...(faker.definitions.person.last_name.generic ?? []), ...(faker.definitions.person.last_name.female ?? []), ...(faker.definitions.person.last_name.male ?? [])]);

type Json = Record<string, unknown>;

/** A spec by hand: the given component schemas, in the given dialect. */
function specOf(schemas: Json, dialect: SchemaDialect = "3.0", paths: Json = {}): LoadedSpec {
  const document = {
    openapi: dialect === "3.1" ? "3.1.0" : "3.0.3",
    info: { title: "Test", version: "1" },
    paths,
    components: { schemas },
  };
  return { file: "<inline>", sourceVersion: dialect, dialect, document: document as unknown as LoadedSpec["document"], hash: "", warnings: [] };
}

function registryOf(schemas: Json, dialect: SchemaDialect = "3.0"): SchemaRegistry {
  return SchemaRegistry.of(specOf(schemas, dialect));
}

const at = (name: string): string => `/components/schemas/${name}`;

/** Synthesizes and checks validity with the registry's own validator (independently of `valid`). */
function make(registry: SchemaRegistry, name: string, seed: number, flavor: "request" | "response" = "response"): Synthesized {
  const result = synthesize(registry, flavor, at(name), { seed });
  const validate = registry.validatorAt(flavor, at(name));
  const ok = validate(result.value);
  if (!ok || !result.valid) throw new Error(`seed ${seed}: ${JSON.stringify(result.value)} is not valid: ${JSON.stringify(validate.errors)}`);
  return result;
}

const SEEDS = Array.from({ length: 25 }, (_, i) => i + 1);
const EMAIL = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i;
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const DATE = /^\d{4}-\d\d-\d\d$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

describe("synthesize: realistic values by field name and format", () => {
  const registry = registryOf({
    User: {
      type: "object",
      required: ["id", "userId", "email", "firstName", "lastName", "createdAt", "birthday", "avatarUrl", "price", "currency", "country", "city", "latitude", "longitude", "description", "phone", "website", "username", "companyName", "jobTitle", "zip", "color", "language", "rating", "count", "percentage", "isActive", "title"],
      properties: {
        id: { type: "string", format: "uuid" },
        userId: { type: "integer" },
        email: { type: "string" },
        firstName: { type: "string" },
        lastName: { type: "string" },
        createdAt: { type: "string", format: "date-time" },
        birthday: { type: "string", format: "date" },
        avatarUrl: { type: "string", format: "uri" },
        price: { type: "number", minimum: 0, maximum: 100 },
        currency: { type: "string" },
        country: { type: "string", maxLength: 2 },
        city: { type: "string" },
        latitude: { type: "number" },
        longitude: { type: "number" },
        description: { type: "string", maxLength: 60 },
        phone: { type: "string" },
        website: { type: "string" },
        username: { type: "string" },
        companyName: { type: "string" },
        jobTitle: { type: "string" },
        zip: { type: "string" },
        color: { type: "string" },
        language: { type: "string", maxLength: 5 },
        rating: { type: "number", minimum: 1, maximum: 5 },
        count: { type: "integer" },
        percentage: { type: "number" },
        isActive: { type: "boolean" },
        title: { type: "string" },
      },
    },
  });

  it("fills each field with a value that looks like it", () => {
    for (const seed of SEEDS) {
      const u = make(registry, "User", seed).value as Json;
      expect(u["id"]).toMatch(UUID);
      expect(Number.isInteger(u["userId"]) && (u["userId"] as number) > 0).toBe(true);
      expect(u["email"]).toMatch(EMAIL);
      expect(u["firstName"]).toMatch(/^[A-Z][\p{L}'-]+$/u);
      expect(u["lastName"]).toMatch(/^[A-Z][\p{L}' -]+$/u);
      expect(u["createdAt"]).toMatch(DATE_TIME);
      expect(u["birthday"]).toMatch(DATE);
      expect(u["avatarUrl"]).toMatch(/^https:\/\//);
      const price = u["price"] as number;
      expect(price).toBeGreaterThanOrEqual(0);
      expect(price).toBeLessThanOrEqual(100);
      expect(Math.round(price * 100) / 100).toBe(price);
      expect(u["currency"]).toMatch(/^[A-Z]{3}$/);
      expect(u["country"]).toMatch(/^[A-Z]{2}$/);
      expect(typeof u["city"] === "string" && (u["city"] as string).length > 1).toBe(true);
      expect(Math.abs(u["latitude"] as number)).toBeLessThanOrEqual(90);
      expect(Math.abs(u["longitude"] as number)).toBeLessThanOrEqual(180);
      expect((u["description"] as string).length).toBeLessThanOrEqual(60);
      expect((u["description"] as string).split(" ").length).toBeGreaterThan(1);
      expect(u["phone"]).toMatch(/^\+?[\d ()-]{7,}$/);
      expect(u["website"]).toMatch(/^https?:\/\/[^\s]+$/);
      expect(u["username"]).toMatch(/^\S+$/);
      expect(u["zip"]).toMatch(/^\d{5}$/);
      expect(u["color"]).toMatch(/^(#[0-9a-f]{6}|[a-z ]+)$/);
      expect(u["language"]).toMatch(/^[a-z]{2}$/);
      expect(u["rating"]).toBeGreaterThanOrEqual(1);
      expect(u["rating"]).toBeLessThanOrEqual(5);
      expect(Number.isInteger(u["count"]) && (u["count"] as number) >= 0).toBe(true);
      expect(u["percentage"]).toBeGreaterThanOrEqual(0);
      expect(u["percentage"]).toBeLessThanOrEqual(100);
      expect(typeof u["isActive"]).toBe("boolean");
      expect(typeof u["title"]).toBe("string");
    }
  });

  it("a rating kept in a string is one on a five-star scale (a passenger's rating is no word)", () => {
    const reg = registryOf({ Passenger: { type: "object", required: ["rating", "first_name"], properties: { rating: { type: "string" }, first_name: { type: "string" } } } });
    for (let seed = 1; seed <= 5; seed++) {
      const v = make(reg, "Passenger", seed).value as Record<string, string>;
      expect(v["rating"]).toMatch(/^[345]\.\d$/);
      expect(Number(v["rating"])).toBeLessThanOrEqual(5);
    }
  });

  it("a person's names under any prefix are names (learnerFirstName, owner_last_name), not dictionary words", () => {
    const reg = registryOf({
      Response: { type: "object", required: ["learnerFirstName", "learnerLastName", "owner_middle_name"], properties: { learnerFirstName: { type: "string" }, learnerLastName: { type: "string" }, owner_middle_name: { type: "string" } } },
    });
    for (let seed = 1; seed <= 5; seed++) {
      const v = make(reg, "Response", seed).value as Record<string, string>;
      expect(FIRST_NAMES.has(v["learnerFirstName"] ?? "")).toBe(true);
      expect(LAST_NAMES.has(v["learnerLastName"] ?? "")).toBe(true);
      expect(v["owner_middle_name"]).toMatch(/^[A-Z][a-z]+$/);
    }
  });

  it("names from the enclosing object: a company's name, a person's name", () => {
    const reg = registryOf({
      Org: { type: "object", required: ["company", "owner"], properties: { company: { $ref: "#/components/schemas/Company" }, owner: { type: "object", required: ["name"], properties: { name: { type: "string" } } } } },
      Company: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
    });
    const v = make(reg, "Org", 3).value as { company: { name: string }; owner: { name: string } };
    expect(v.owner.name).toMatch(/^\S+ \S+/);
    expect(v.company.name.length).toBeGreaterThan(2);
  });

  it("an API's own status message and disclaimer read as such; a chat's message is written text", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const status = realisticValue({ type: "string" }, { name: "message", parents: [] }, seed) as string;
      expect(status).toMatch(/^(OK|Success|[A-Z][a-z]+( [a-z]+)* (successfully|completed)\.)$/);
      const disclaimer = realisticValue({ type: "string" }, { name: "disclaimer", parents: [] }, seed) as string;
      expect(disclaimer).toMatch(/(warranty|informational|out of date|official sources)/);
      const chat = realisticValue({ type: "string" }, { name: "message", parents: ["messages"] }, seed) as string;
      expect(chat).not.toMatch(/^(OK|Success|.* (successfully|completed)\.)$/);
    }
  });

  it("an ingredient's name is a food and a recipe's title a dish (not 'Filthy Massage' in a curry)", () => {
    const food = faker.definitions.food;
    const ingredients = new Set(food?.ingredient ?? []);
    expect(ingredients.size).toBeGreaterThan(50);
    const foodWords = new Set([...ingredients, ...(food?.fruit ?? []), ...(food?.vegetable ?? []), ...(food?.meat ?? []), ...(food?.spice ?? []), ...(food?.dish ?? [])].flatMap((w) => w.toLowerCase().split(/[^a-z]+/)).filter((w) => w.length >= 3));
    for (let seed = 1; seed <= 20; seed++) {
      expect(ingredients.has(realisticValue({ type: "string" }, { name: "name", parents: ["recipe", "ingredients"] }, seed) as string)).toBe(true);
      const dish = realisticValue({ type: "string" }, { name: "title", parents: ["recipes"] }, seed) as string;
      expect(dish.toLowerCase().split(/[^a-z]+/).some((w) => foodWords.has(w)), dish).toBe(true);
    }
  });

  it("an airport's name is an airport's name, under its own name or its holder's; its codes are airport codes", () => {
    for (let seed = 1; seed <= 10; seed++) {
      expect(realisticValue({ type: "string" }, { name: "iata_code" }, seed)).toMatch(/^[A-Z]{3}$/);
      expect(realisticValue({ type: "string" }, { name: "gps_code" }, seed)).toMatch(/^[A-Z]{4}$/);
      expect(realisticValue({ type: "string" }, { name: "previous" }, seed)).toMatch(/^[A-Za-z0-9]{24}$/);
      expect(realisticValue({ type: "string" }, { name: "airport_name" }, seed)).toMatch(/Airport|Aeroporto|Aéroport|Flughafen|Aeropuerto|Field|International/);
      expect(realisticValue({ type: "string" }, { name: "name", parents: ["airports"] }, seed)).toMatch(/Airport|Aeroporto|Aéroport|Flughafen|Aeropuerto|Field|International/);
    }
  });

  it("realisticValue respects the schema first and gives up when it knows nothing better", () => {
    expect(realisticValue({ type: "string", enum: ["a", "b"] }, { name: "email" }, 1)).toMatch(/^[ab]$/);
    expect(realisticValue({ const: 7 }, { name: "email" }, 1)).toBe(7);
    expect(realisticValue({ type: "string", pattern: "^X-[0-9]{4}$" }, { name: "reference" }, 1)).toBeUndefined();
    expect(realisticValue({ type: "object" }, { name: "user" }, 1)).toBeUndefined();
    expect(realisticValue({}, { name: "frobnicate" }, 1)).toBeUndefined();
    for (let seed = 0; seed < 50; seed++) {
      const n = realisticValue({ type: "integer", minimum: 10, maximum: 12 }, { name: "age" }, seed) as number;
      expect(n >= 10 && n <= 12 && Number.isInteger(n)).toBe(true);
      const p = realisticValue({ type: "number", exclusiveMinimum: 0, maximum: 1 }, { name: "amount" }, seed) as number;
      expect(p > 0 && p <= 1).toBe(true);
      const s = realisticValue({ type: "string", maxLength: 12 }, { name: "description" }, seed) as string;
      expect(s.length).toBeLessThanOrEqual(12);
      const m = realisticValue({ type: "number", multipleOf: 0.5, minimum: 1, maximum: 3 }, { name: "price" }, seed) as number;
      expect(m / 0.5).toBe(Math.trunc(m / 0.5));
      const id = realisticValue({ type: "integer" }, { name: "orderId" }, seed) as number;
      expect(id).toBeGreaterThan(0);
    }
    expect(realisticValue({ type: "string", maxLength: 3 }, { name: "country_code" }, 2)).toMatch(/^[A-Z]{2,3}$/);
    expect(realisticValue({ type: "string" }, { name: "country" }, 2)).toMatch(/^[A-Z][\p{L} ,.'()-]+$/u);
  });

  it("a type without listed values is a type of what it types, and a status code is an HTTP status", () => {
    const kinds = (name: string, parents: string[] = []): Set<unknown> => new Set(SEEDS.map((seed) => realisticValue({ type: "string" }, { name, parents }, seed)));
    expect([...kinds("airport_type")].every((v) => ["large_airport", "medium_airport", "small_airport", "heliport"].includes(v as string))).toBe(true);
    expect([...kinds("type", ["airport_list"])].every((v) => /airport|heliport/.test(v as string))).toBe(true);
    expect([...kinds("phoneType")].every((v) => ["mobile", "home", "work"].includes(v as string))).toBe(true);
    expect([...kinds("kind", ["vehicle"])].every((v) => ["car", "van", "truck", "motorcycle"].includes(v as string))).toBe(true);
    expect([...kinds("widget_type")].every((v) => ["standard", "basic", "custom", "default"].includes(v as string))).toBe(true);
    expect(kinds("airport_type").size).toBeGreaterThan(1);
    expect(realisticValue({ type: "string" }, { name: "status_code" }, 3)).toBe("200");
    // Money and size classes kept in strings (a company's balance sheet) are numbers and ranges of numbers.
    for (const name of ["bsShareCapital", "bsTotalAssets", "total_equity", "plProfitLossAfterFinItems"]) {
      expect(SEEDS.map((seed) => realisticValue({ type: "string" }, { name }, seed)).every((v) => /^\d+(\.\d+)?$/.test(String(v))), name).toBe(true);
    }
    expect(SEEDS.map((seed) => realisticValue({ type: "string" }, { name: "nbrOfEmployeesOfficeInterval" }, seed)).every((v) => /^\d+-\d+$/.test(String(v)))).toBe(true);
  });

  it("the fields of an unnamed answer are named after its schema: a segment's name is not a person's", () => {
    const named = registryOf({
      SegmentModel: { type: "object", required: ["name", "description"], properties: { name: { type: "string" }, description: { type: "string" } } },
      UserModel: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
      Segments: { type: "array", minItems: 1, items: { $ref: "#/components/schemas/SegmentModel" } },
      Answer: { $ref: "#/components/schemas/SegmentModel" },
      People: { $ref: "#/components/schemas/UserModel" },
    });
    // A person's name: a first name and a last name (an adjective that is also a first name, "Royal SUV", is not).
    const isPerson = (v: unknown): boolean => {
      const words = String(v).split(" ");
      return words.length === 2 && FIRST_NAMES.has(words[0] ?? "") && LAST_NAMES.has(words[1] ?? "");
    };
    const segmentNames = SEEDS.flatMap((seed) => [(make(named, "Answer", seed).value as Json)["name"], (make(named, "Segments", seed).value as Json[])[0]?.["name"]]);
    const userNames = SEEDS.map((seed) => (make(named, "People", seed).value as Json)["name"]);
    const segmentsAsPeople = segmentNames.filter(isPerson);
    const people = userNames.filter(isPerson).length;
    expect(segmentsAsPeople).toEqual([]);
    expect(people).toBeGreaterThanOrEqual(15);
  });

  it("the spec's one example of a name names one record: a list's first takes it, the others their own", () => {
    const spinitron = registryOf({
      Persona: { type: "object", required: ["id", "name"], properties: { id: { type: "integer" }, name: { type: "string", example: "Deftly-D" } } },
      Personas: { type: "object", required: ["items"], properties: { items: { type: "array", minItems: 3, maxItems: 3, items: { $ref: "#/components/schemas/Persona" } } } },
      One: { $ref: "#/components/schemas/Persona" },
    });
    for (const seed of SEEDS) {
      const names = ((make(spinitron, "Personas", seed).value as Json)["items"] as Json[]).map((p) => p["name"]);
      expect(names[0]).toBe("Deftly-D");
      expect(new Set(names).size).toBe(3);
      // Items of a list named `items` are named after their schema: a persona's name is a person's, not a product's.
      expect(names.slice(1).filter((n) => !String(n).split(/[ -]/).every((w) => FIRST_NAMES.has(w) || LAST_NAMES.has(w) || /^[A-Z][a-z]*\.$|^(Jr\.|Sr\.|I|II|III|IV|V|MD|DDS|PhD|DVM)$/.test(w)))).toEqual([]);
      expect((make(spinitron, "One", seed).value as Json)["name"]).toBe("Deftly-D");
    }
  });
});

describe("synthesize: constraints", () => {
  const registry = registryOf({
    Bounded: {
      type: "object",
      required: ["code", "short", "long", "score", "odd", "ratio", "tags", "pair", "status", "fixed", "closed", "map"],
      properties: {
        code: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" },
        short: { type: "string", maxLength: 3 },
        long: { type: "string", minLength: 40 },
        score: { type: "integer", minimum: 10, maximum: 12 },
        odd: { type: "integer", minimum: 1, maximum: 99, multipleOf: 7 },
        ratio: { type: "number", minimum: 0, maximum: 1, exclusiveMinimum: true },
        tags: { type: "array", items: { type: "string", maxLength: 8 }, minItems: 3, maxItems: 4, uniqueItems: true },
        pair: { type: "array", items: { type: "integer", enum: [1, 2] }, minItems: 2, maxItems: 2, uniqueItems: true },
        status: { type: "string", enum: ["open", "closed"] },
        fixed: { type: "string", enum: ["only"] },
        closed: { type: "object", additionalProperties: false, required: ["a"], properties: { a: { type: "boolean" } } },
        map: { type: "object", additionalProperties: { type: "integer", minimum: 0 }, minProperties: 2 },
      },
    },
  });

  it("respects patterns, lengths, bounds, multipleOf, enums, array and object limits", () => {
    for (const seed of SEEDS) {
      const v = make(registry, "Bounded", seed).value as Json;
      expect(v["code"]).toMatch(/^[A-Z]{3}-\d{4}$/);
      expect((v["short"] as string).length).toBeLessThanOrEqual(3);
      expect((v["long"] as string).length).toBeGreaterThanOrEqual(40);
      expect([10, 11, 12]).toContain(v["score"]);
      expect((v["odd"] as number) % 7).toBe(0);
      expect(v["ratio"]).toBeGreaterThan(0);
      expect(new Set(v["tags"] as string[]).size).toBe((v["tags"] as string[]).length);
      expect([...(v["pair"] as number[])].sort()).toEqual([1, 2]);
      expect(["open", "closed"]).toContain(v["status"]);
      expect(v["fixed"]).toBe("only");
      expect(Object.keys(v["closed"] as Json)).toEqual(["a"]);
      expect(Object.keys(v["map"] as Json).length).toBeGreaterThanOrEqual(2);
    }
  });

  it("prefers a property's valid example, and ignores an invalid one", () => {
    const reg = registryOf({
      Pet: {
        type: "object",
        required: ["name", "age"],
        properties: { name: { type: "string", example: "Fluffy" }, age: { type: "integer", minimum: 0, example: "three" } },
      },
    });
    for (const seed of SEEDS.slice(0, 5)) {
      const v = make(reg, "Pet", seed).value as Json;
      expect(v["name"]).toBe("Fluffy");
      expect(typeof v["age"]).toBe("number");
    }
  });

  it("does not list copies of one record: items that can take one value only appear once, or minItems times", () => {
    const reg = registryOf({
      Line: { type: "object", required: ["bookId", "qty"], properties: { bookId: { type: "string", example: "bk-1004" }, qty: { type: "integer", example: 1 }, tags: { type: "array", example: ["gift"], items: { type: "string" } } } },
      Order: { type: "object", required: ["lines", "pair", "codes", "mixed"], properties: {
        lines: { type: "array", minItems: 1, items: { $ref: "#/components/schemas/Line" } },
        pair: { type: "array", minItems: 2, items: { $ref: "#/components/schemas/Line" } },
        codes: { type: "array", items: { type: "string", example: "A1" } },
        // An item with a property free to vary: its lists may hold two.
        mixed: { type: "array", items: { type: "object", required: ["n"], properties: { n: { type: "integer", minimum: 0, maximum: 1000000 } } } },
      } },
    });
    let mixedTwo = 0;
    for (const seed of SEEDS) {
      const v = make(reg, "Order", seed).value as Record<string, unknown[]>;
      expect(v["lines"]).toHaveLength(1);
      expect(v["pair"]).toHaveLength(2);
      expect((v["codes"] ?? []).length).toBeLessThanOrEqual(1);
      if ((v["mixed"] ?? []).length === 2) mixedTwo++;
    }
    expect(mixedTwo).toBeGreaterThan(3);
  });

  it("leaves readOnly properties out of requests and writeOnly ones out of responses", () => {
    const reg = registryOf({
      Account: {
        type: "object",
        required: ["email"],
        properties: { id: { type: "integer", readOnly: true }, email: { type: "string", format: "email" }, password: { type: "string", writeOnly: true } },
      },
    });
    for (const seed of SEEDS) {
      expect(make(reg, "Account", seed, "request").value).not.toHaveProperty("id");
      expect(make(reg, "Account", seed, "response").value).not.toHaveProperty("password");
    }
  });
});

describe("synthesize: recursion and composition", () => {
  it("terminates on recursive schemas, required recursion included when a null ends it", () => {
    const reg = registryOf({
      Node: {
        type: "object",
        required: ["name", "children"],
        properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Node" } } },
      },
      Chain: {
        type: "object",
        required: ["value", "next"],
        properties: { value: { type: "integer" }, next: { allOf: [{ $ref: "#/components/schemas/Chain" }], nullable: true } },
      },
      Mutual: { type: "object", properties: { other: { $ref: "#/components/schemas/Other" } }, required: ["other"] },
      Other: { type: "object", properties: { back: { $ref: "#/components/schemas/Mutual" } } },
    });
    const depthOf = (v: unknown): number => (typeof v === "object" && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0);
    for (const seed of SEEDS) {
      for (const name of ["Node", "Chain", "Mutual"]) {
        const v = make(reg, name, seed).value;
        expect(depthOf(v)).toBeLessThan(40);
      }
    }
  });

  it("oneOf: exactly one branch matches, also when branches overlap", () => {
    const reg = registryOf({
      Shape: {
        oneOf: [
          { type: "object", required: ["kind", "radius"], properties: { kind: { type: "string", enum: ["circle"] }, radius: { type: "number", minimum: 0 } } },
          { type: "object", required: ["kind", "side"], properties: { kind: { type: "string", enum: ["square"] }, side: { type: "number", minimum: 0 } } },
        ],
      },
      Loose: {
        oneOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { type: "object", properties: { a: { type: "integer" }, b: { type: "boolean" } } },
        ],
      },
      Scalar: { oneOf: [{ type: "string", format: "uri" }, { type: "string", maxLength: 3 }, { type: "integer" }] },
    });
    for (const seed of SEEDS) {
      const shape = make(reg, "Shape", seed).value as Json;
      expect(["circle", "square"]).toContain(shape["kind"]);
      make(reg, "Loose", seed);
      make(reg, "Scalar", seed);
    }
  });

  it("anyOf and allOf, with $refs and shared properties", () => {
    const reg = registryOf({
      Base: { type: "object", required: ["id"], properties: { id: { type: "integer", minimum: 1 } } },
      Pet: {
        allOf: [
          { $ref: "#/components/schemas/Base" },
          { type: "object", required: ["name", "tag"], properties: { name: { type: "string", minLength: 2 }, tag: { type: "string", maxLength: 5 } } },
          { properties: { tag: { minLength: 2 } } },
        ],
      },
      IdOrName: { anyOf: [{ type: "integer", minimum: 100 }, { type: "string", pattern: "^n-[a-z]+$" }] },
    });
    for (const seed of SEEDS) {
      const pet = make(reg, "Pet", seed).value as Json;
      expect(pet["id"]).toBeGreaterThanOrEqual(1);
      expect((pet["tag"] as string).length).toBeGreaterThanOrEqual(2);
      expect((pet["tag"] as string).length).toBeLessThanOrEqual(5);
      make(reg, "IdOrName", seed);
    }
  });

  it("nullable (3.0) and type arrays (3.1) produce values of the allowed types", () => {
    const reg30 = registryOf({
      N: {
        type: "object",
        required: ["a", "b", "c"],
        properties: {
          a: { type: "string", nullable: true },
          b: { allOf: [{ $ref: "#/components/schemas/Inner" }], nullable: true },
          c: { type: "integer", enum: [1, 2], nullable: true },
        },
      },
      Inner: { type: "object", required: ["x"], properties: { x: { type: "boolean" } } },
    });
    const reg31 = registryOf(
      {
        T: {
          type: "object",
          required: ["a", "b", "c"],
          properties: {
            a: { type: ["string", "null"], minLength: 2 },
            b: { type: ["integer", "string"] },
            c: { anyOf: [{ $ref: "#/components/schemas/Inner" }, { type: "null" }] },
          },
        },
        Inner: { type: "object", required: ["x"], properties: { x: { type: "boolean" } }, examples: [{ x: true }] },
      },
      "3.1",
    );
    for (const seed of SEEDS) {
      const n = make(reg30, "N", seed).value as Json;
      expect(n["a"] === null || typeof n["a"] === "string").toBe(true);
      const t = make(reg31, "T", seed).value as Json;
      expect(t["a"] === null || (typeof t["a"] === "string" && t["a"].length >= 2)).toBe(true);
    }
  });

  it("formats", () => {
    const formats = ["date", "date-time", "time", "email", "uri", "uuid", "ipv4", "ipv6", "hostname", "byte", "int32", "int64", "password", "binary"];
    const props = Object.fromEntries(formats.map((f) => [`f_${f.replace(/-/g, "_")}`, { type: f.startsWith("int") ? "integer" : "string", format: f }]));
    const reg = registryOf({ F: { type: "object", required: Object.keys(props), properties: props } });
    for (const seed of SEEDS) {
      const v = make(reg, "F", seed).value as Json;
      expect(v["f_date"]).toMatch(DATE);
      expect(v["f_date_time"]).toMatch(DATE_TIME);
      expect(v["f_email"]).toMatch(EMAIL);
      expect(v["f_uuid"]).toMatch(UUID);
      expect(v["f_ipv4"]).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(Number.isInteger(v["f_int32"])).toBe(true);
    }
  });
});

describe("synthesize: determinism", () => {
  const schemas = {
    Order: {
      type: "object",
      required: ["id", "customer", "lines", "createdAt"],
      properties: {
        id: { type: "string", format: "uuid" },
        customer: { type: "object", required: ["name", "email"], properties: { name: { type: "string" }, email: { type: "string", format: "email" }, phone: { type: "string" } } },
        lines: { type: "array", minItems: 1, items: { type: "object", required: ["sku", "price"], properties: { sku: { type: "string", pattern: "^[A-Z]{2}\\d{3}$" }, price: { type: "number", minimum: 0 }, note: { type: "string" } } } },
        createdAt: { type: "string", format: "date-time" },
        shape: { oneOf: [{ type: "string" }, { type: "integer" }] },
      },
    },
  };

  it("gives the same value for the same seed, byte for byte, whatever ran before", () => {
    const a = registryOf(schemas);
    const first = SEEDS.map((seed) => JSON.stringify(synthesize(a, "response", at("Order"), { seed })));
    // Unrelated faker and synthesis work in between must not shift anything.
    realisticValue({ type: "string" }, { name: "email" }, 99);
    synthesize(a, "request", at("Order"), { seed: 5 });
    const again = [...SEEDS].reverse().map((seed) => JSON.stringify(synthesize(a, "response", at("Order"), { seed }))).reverse();
    expect(again).toEqual(first);
    // A fresh registry of the same document (no caches) gives the same values.
    const b = registryOf(structuredClone(schemas));
    expect(SEEDS.map((seed) => JSON.stringify(synthesize(b, "response", at("Order"), { seed })))).toEqual(first);
  });

  it("returns values that share nothing with the spec: mutating one changes no later value", () => {
    const reg = registryOf({
      Box: { type: "object", required: ["meta"], properties: { meta: { type: "object", properties: { k: { type: "string" } }, example: { k: "v" } }, kind: { type: "string", enum: ["a"] } } },
    });
    const first = synthesize(reg, "response", at("Box"), { seed: 1 }).value as { meta: Json };
    expect(first.meta).toEqual({ k: "v" });
    first.meta["k"] = "changed";
    expect(synthesize(reg, "response", at("Box"), { seed: 1 }).value).toEqual({ meta: { k: "v" }, ...(("kind" in first) ? { kind: "a" } : {}) });
  });

  it("gives different values for different seeds", () => {
    const reg = registryOf(schemas);
    const values = new Set(SEEDS.map((seed) => JSON.stringify(synthesize(reg, "response", at("Order"), { seed }).value)));
    expect(values.size).toBe(SEEDS.length);
  });
});

describe("synthesize: repair", () => {
  it("repairs what json-schema-faker gets wrong: conflicting allOf parts, ambiguous oneOf, unsatisfiable optional properties", () => {
    const reg = registryOf({
      Invoice: {
        allOf: [
          { type: "object", properties: { discount: { type: "object", properties: { amount: { type: "integer" } } }, total: { type: "integer" } }, required: ["total"] },
          { type: "object", properties: { discount: { type: "integer" } } },
        ],
      },
      Contact: {
        type: "object",
        required: ["who"],
        properties: {
          who: {
            oneOf: [
              { type: "object", properties: { firstname: { type: "string" }, kind: { type: "string", enum: ["person"] } } },
              { type: "object", properties: { company: { type: "string" }, kind: { type: "string", enum: ["organization"] } } },
            ],
          },
        },
      },
    });
    let repaired = 0;
    for (const seed of SEEDS) {
      for (const name of ["Invoice", "Contact"]) {
        const r = make(reg, name, seed);
        if (r.repairs > 0) repaired++;
      }
    }
    expect(repaired).toBeGreaterThan(0);
  });

  it("reports an unsatisfiable schema as invalid instead of throwing", () => {
    const reg = registryOf({ Never: { type: "string", enum: [1, 2] }, Impossible: { allOf: [{ type: "string" }, { type: "integer" }] } });
    for (const name of ["Never", "Impossible"]) {
      const r = synthesize(reg, "response", at(name), { seed: 1 });
      expect(r.valid).toBe(false);
    }
  });
});

describe("synthesizeArguments", () => {
  const paths = {
    "/users/{userId}/orders": {
      post: {
        operationId: "createOrder",
        parameters: [
          { name: "userId", in: "path", required: true, schema: { type: "string" } },
          { name: "dryRun", in: "query", schema: { type: "boolean" } },
          { name: "currency", in: "query", required: true, schema: { type: "string", enum: ["EUR", "USD"] } },
          { name: "X-Request-Id", in: "header", schema: { type: "string", format: "uuid" } },
          { name: "limit", in: "query", required: true, example: 25, schema: { type: "integer", minimum: 1, maximum: 100 } },
        ],
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/NewOrder" } } },
        },
        responses: { "201": { description: "created" } },
      },
    },
    "/search": {
      get: {
        operationId: "search",
        parameters: [{ name: "q", in: "query", required: true, schema: { type: "string", minLength: 1 } }],
        responses: { "200": { description: "ok" } },
      },
    },
  };
  const spec = specOf(
    {
      NewOrder: {
        type: "object",
        required: ["email", "items"],
        properties: {
          email: { type: "string", format: "email" },
          items: { type: "array", minItems: 1, items: { type: "object", required: ["sku", "quantity"], properties: { sku: { type: "string" }, quantity: { type: "integer", minimum: 1 } } } },
          note: { type: "string" },
        },
      },
    },
    "3.0",
    paths,
  );
  const catalog = buildCatalog(spec);

  it("gives every required argument, valid for the tool, path parameters non-empty, examples and enums preferred", () => {
    for (const tool of catalog.tools) {
      for (const seed of SEEDS) {
        const args = synthesizeArguments(catalog, tool, { seed });
        const check = validateCall(catalog, tool.name, args);
        expect(check.ok, JSON.stringify(check.ok ? null : check.errors)).toBe(true);
        for (const r of tool.required) expect(args).toHaveProperty(r);
        if (tool.name === "createOrder") {
          expect(typeof args["userId"] === "string" && (args["userId"] as string).length > 0).toBe(true);
          expect(["EUR", "USD"]).toContain(args["currency"]);
          expect(args["limit"]).toBe(25);
          expect(args["email"]).toMatch(EMAIL);
        }
      }
    }
  });

  it("is deterministic", () => {
    for (const tool of catalog.tools) {
      expect(JSON.stringify(synthesizeArguments(catalog, tool, { seed: 3 }))).toBe(JSON.stringify(synthesizeArguments(catalog, tool, { seed: 3 })));
    }
  });
});
