import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import type { ProblemDetails, ValidationIssue } from "../../../specs/call/problem-details.js";
import { validateCall, type CallValidation, type ValidatedCall } from "../../../specs/call/validate-call.js";
import { coreCatalog as catalogOf } from "../../support/core-catalog.js";

function valid(result: CallValidation): ValidatedCall {
  if (!result.ok) throw new Error(`expected a valid call, got ${JSON.stringify(result.problem, null, 2)}`);
  return result.value;
}

function invalid(result: CallValidation): { problem: ProblemDetails; errors: ValidationIssue[] } {
  if (result.ok) throw new Error(`expected an invalid call, got ${JSON.stringify(result.value.args)}`);
  return result;
}

/** `location code` of each issue, for compact assertions. */
const where = (issues: ValidationIssue[] | undefined): string[] => (issues ?? []).map((i) => `${i.location.join(".")} ${i.code}`);

let pets: Catalog;
let registry31: Catalog;
let legacy: Catalog;
beforeAll(async () => {
  pets = await catalogOf("petstore.yaml");
  registry31 = await catalogOf("petstore-3.1.yaml");
  legacy = await catalogOf("petstore-swagger2.json");
});

describe("validateCall: routing", () => {
  it("answers an unknown tool with a 404 problem naming the closest tools", () => {
    const { problem, errors } = invalid(validateCall(pets, "listPet", {}));
    expect(problem.status).toBe(404);
    expect(problem.title).toBe("Unknown tool");
    expect(problem.suggestions?.[0]).toBe("listPets");
    expect(problem.suggestions).toHaveLength(3);
    expect(problem.detail).toBe(`No tool named "listPet". Did you mean: ${problem.suggestions?.join(", ")}?`);
    expect(errors).toEqual([{ location: ["tool"], code: "unknown-tool", message: problem.detail, severity: "Error" }]);
    expect(problem.validation).toEqual(errors);
    expect(Object.keys(problem).sort()).toEqual(["detail", "status", "suggestions", "title", "type", "validation"]);
  });

  it("suggests by shared words and by spelling", () => {
    expect(invalid(validateCall(pets, "delete_pet", {})).problem.suggestions?.[0]).toBe("deletePet");
    expect(invalid(validateCall(pets, "createPets", {})).problem.suggestions?.[0]).toBe("createPet");
    expect(invalid(validateCall(pets, "get-user-post", {})).problem.suggestions?.[0]).toBe("getUserPost");
  });
});

describe("validateCall: problem details", () => {
  it("has exactly Prism's shape, with every error at once", () => {
    const { problem, errors } = invalid(
      validateCall(pets, "createPet", {
        name: null,
        status: "lost",
        birthday: "2020-13-45",
        ownerEmail: "not-an-email",
        microchipId: "123",
        weightKg: 0,
      }),
    );
    expect(Object.keys(problem).sort()).toEqual(["detail", "status", "title", "type", "validation"]);
    expect(problem.type).toBe("https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY");
    expect(problem.status).toBe(422);
    expect(problem.title).toBe("Invalid request");
    expect(problem.detail).toMatch(/^Your request is not valid: 6 errors \(body\.name must be string; /);
    expect(problem.validation).toEqual(errors);
    for (const issue of errors) {
      expect(Object.keys(issue).sort()).toEqual(["code", "location", "message", "severity"]);
      expect(issue.severity).toBe("Error");
      expect(issue.message.length).toBeGreaterThan(0);
    }
    expect(where(errors)).toEqual([
      "body.name type",
      "body.status enum",
      "body.birthday format",
      "body.ownerEmail format",
      "body.microchipId format",
      "body.weightKg exclusiveMinimum",
    ]);
    expect(errors[1]?.message).toBe('must be one of: "available", "pending", "sold"');
    expect(errors[2]?.message).toBe('must match format "date"');
  });

  it("locates parameter errors by where they travel: path, query, header", () => {
    const path = invalid(validateCall(pets, "getPet", { petId: "abc" }));
    expect(path.errors).toEqual([{ location: ["path", "petId"], code: "type", message: "must be integer", severity: "Error" }]);
    const missing = invalid(validateCall(pets, "getPet", {}));
    expect(where(missing.errors)).toEqual(["path.petId required"]);
    const query = invalid(validateCall(pets, "listPets", { limit: 0, offset: -1, status: "lost", "X-Request-ID": "nope" }));
    expect(where(query.errors)).toEqual(["query.limit minimum", "query.offset minimum", "query.status enum", "header.X-Request-ID format"]);
    expect(query.problem.detail).toBe("Your request is not valid: 4 errors (query.limit must be >= 1; query.offset must be >= 0; query.status must be one of: \"available\", \"pending\", \"sold\"; ...).");
    const header = invalid(validateCall(legacy, "findPets", {}));
    expect(where(header.errors)).toEqual(["header.api_key required"]);
  });

  it("reports parameter and body errors together, and unknown arguments by name", () => {
    // Pet declares no additionalProperties: as JSON Schema defines it, `colour` is an allowed body property.
    const { errors } = invalid(validateCall(pets, "replacePet", { petId: 0, name: "", colour: "brown" }));
    expect(where(errors)).toEqual(["path.petId minimum", "body.status required", "body.name minLength"]);
    // An operation without a body has nowhere to put an argument that is not a parameter.
    const unknown = invalid(validateCall(pets, "getPet", { petId: 0, colour: "brown" })).errors;
    expect(where(unknown)).toEqual(["path.petId minimum", "arguments.colour additionalProperties"]);
    expect(unknown[1]?.message).toBe('unknown argument "colour"');
  });

  it("keeps the HTTP request of an invalid call for the record", () => {
    const result = invalid(validateCall(pets, "getPet", { petId: "abc" })) as CallValidation & { ok: false };
    expect(result.request).toEqual({ method: "GET", path: "/pets/abc", query: {}, headers: {} });
    expect(result.tool?.name).toBe("getPet");
  });
});

describe("validateCall: coercion", () => {
  it("coerces parameter strings where the type allows it", () => {
    const call = valid(validateCall(pets, "listPets", { limit: "5", offset: "0", tags: "puppy", session: "abc" }));
    expect(call.args).toEqual({ limit: 5, offset: 0, tags: ["puppy"], session: "abc" });
    expect(call.request.query).toEqual({ limit: "5", offset: "0", tags: ["puppy"] });
    expect(valid(validateCall(pets, "getPet", { petId: "12" })).args).toEqual({ petId: 12 });
    const animals = valid(validateCall(registry31, "searchAnimals", { minAge: "2", neutered: "true", species: "cat" }));
    expect(animals.args).toEqual({ minAge: 2, neutered: true, species: ["cat"] });
    expect(valid(validateCall(registry31, "searchAnimals", { neutered: "false" })).args).toEqual({ neutered: false });
    // A header declared as a string accepts a number and sends its text.
    expect(valid(validateCall(legacy, "findPets", { api_key: 5 })).request.headers).toEqual({ api_key: "5" });
  });

  it("splits an array parameter given as one delimited string, by its style, before validating", async () => {
    const search = await catalogOf("serialization.yaml");
    const call = valid(
      validateCall(search, "getProduct", { catalogue: "spring", sku: "a1,b2", fields: "name", colors: "red, blue", sizes: "S|M", words: "big red", "X-Flags": "x,y" }),
    );
    expect(call.args).toMatchObject({ sku: ["a1", "b2"], fields: ["name"], colors: ["red", "blue"], sizes: ["S", "M"], words: ["big", "red"], "X-Flags": ["x", "y"] });
    expect(call.request.query).toMatchObject({ colors: "red,blue", sizes: "S|M", words: "big red" });
    expect(call.request.path).toBe("/catalogues/spring/products/a1,b2");
    // Swagger 2.0 collectionFormat csv (converted to form, not exploded): items are validated one by one.
    expect(valid(validateCall(legacy, "findPets", { api_key: "k", status: "available,sold" })).args["status"]).toEqual(["available", "sold"]);
    expect(where(invalid(validateCall(legacy, "findPets", { api_key: "k", status: "available,lost" })).errors)).toEqual(["query.status.1 enum"]);
    const formats = await catalogOf("collection-formats.yaml");
    const all = valid(validateCall(formats, "getA", { csv: "1,2", ssv: "a b", tsv: "a\tb", pipes: "x|y", multi: "p,q", h: "u,v" }));
    expect(all.args).toEqual({ csv: [1, 2], ssv: ["a", "b"], tsv: ["a", "b"], pipes: ["x", "y"], multi: ["p,q"], h: ["u", "v"] });
    expect(all.request.query).toEqual({ csv: "1,2", ssv: "a b", tsv: "a\tb", pipes: "x|y", multi: ["p,q"] });
    // An exploded form array keeps a string as one item.
    expect(valid(validateCall(search, "getProduct", { catalogue: "c", sku: "s", fields: "a,b" })).args["fields"]).toEqual(["a,b"]);
  });

  it("still rejects strings that are not of the type", () => {
    expect(where(invalid(validateCall(pets, "listPets", { limit: "five" })).errors)).toEqual(["query.limit type"]);
    expect(where(invalid(validateCall(pets, "listPets", { limit: "2.5" })).errors)).toEqual(["query.limit type"]);
    expect(where(invalid(validateCall(registry31, "searchAnimals", { neutered: "yes" })).errors)).toEqual(["query.neutered type"]);
    expect(where(invalid(validateCall(registry31, "searchAnimals", { species: "cow" })).errors)).toEqual(["query.species.0 enum"]);
  });

  it("never coerces the body", () => {
    const { errors } = invalid(validateCall(pets, "createPet", { name: "Rex", status: "available", weightKg: "5" }));
    expect(errors).toEqual([{ location: ["body", "weightKg"], code: "type", message: "must be number", severity: "Error" }]);
    const order = invalid(
      validateCall(pets, "placeOrder", {
        items: [{ sku: "A", quantity: "2" }],
        shippingAddress: { street: "1 Rue Haute", city: "Lyon" },
        payment: { method: "bank", iban: "FR7630006000011234567890189" },
      }),
    );
    expect(where(order.errors)).toEqual(["body.items.0.quantity type"]);
    expect(where(invalid(validateCall(pets, "tagPet", { petId: "3", body: "puppy" })).errors)).toEqual(["body type"]);
  });

  it("treats null for an optional parameter as absent, but not for a required one", () => {
    expect(valid(validateCall(pets, "listPets", { limit: null })).args).toEqual({});
    // ajv alone would coerce null to 0 (or "" for a string: GET /users/), so null is "missing".
    expect(where(invalid(validateCall(pets, "getPet", { petId: null })).errors)).toEqual(["path.petId required"]);
    expect(where(invalid(validateCall(pets, "getUser", { userId: null })).errors)).toEqual(["path.userId required"]);
  });
});

describe("validateCall: schema keywords", () => {
  it("3.0 nullable: null is accepted where nullable, rejected elsewhere", () => {
    expect(valid(validateCall(pets, "createPet", { name: "Rex", status: "available", tag: null })).body).toEqual({ name: "Rex", status: "available", tag: null });
    expect(where(invalid(validateCall(pets, "createPet", { name: "Rex", status: null })).errors)).toEqual(["body.status type", "body.status enum"]);
  });

  it("3.1 type arrays, const and numeric exclusive bounds", () => {
    const ok = valid(validateCall(registry31, "registerAnimal", { kind: "animal", name: "Tom", nickname: null, ageYears: null }));
    expect(ok.body).toEqual({ kind: "animal", name: "Tom", nickname: null, ageYears: null });
    const bad = invalid(validateCall(registry31, "registerAnimal", { kind: "plant", name: "Tom", nickname: 3, ageYears: 40, species: "cow", chipIssued: "yesterday" }));
    expect(where(bad.errors)).toEqual(["body.kind const", "body.nickname type", "body.ageYears exclusiveMaximum", "body.species enum", "body.chipIssued format"]);
    expect(where(invalid(validateCall(registry31, "searchAnimals", { minAge: 0 })).errors)).toEqual(["query.minAge exclusiveMinimum"]);
  });

  it("formats: email, date, uuid, uri", () => {
    const ok = {
      name: "Rex",
      status: "available",
      birthday: "2021-02-28",
      ownerEmail: "ana@example.org",
      microchipId: "0b6e5a0e-8f7e-4a3c-9d84-8a0b5f4b2f11",
      photoUrls: ["https://img.example/rex.jpg"],
    };
    valid(validateCall(pets, "createPet", ok));
    const bad = invalid(validateCall(pets, "createPet", { ...ok, birthday: "28/02/2021", ownerEmail: "ana@", microchipId: "0b6e5a0e", photoUrls: ["not a uri"] }));
    expect(where(bad.errors)).toEqual(["body.birthday format", "body.ownerEmail format", "body.microchipId format", "body.photoUrls.0 format"]);
  });

  it("ranges: minimum, maximum, minLength, maxItems, minItems, minProperties", () => {
    const long = "x".repeat(61);
    const bad = invalid(validateCall(pets, "createPet", { name: long, status: "sold", weightKg: 201, photoUrls: ["https://a.example/1", "https://a.example/2", "https://a.example/3", "https://a.example/4", "https://a.example/5", "https://a.example/6"] }));
    expect(where(bad.errors)).toEqual(["body.name maxLength", "body.weightKg maximum", "body.photoUrls maxItems"]);
    expect(where(invalid(validateCall(pets, "tagPet", { petId: 1, body: [] })).errors)).toEqual(["body minItems"]);
    expect(where(invalid(validateCall(pets, "updatePet", { petId: 1 })).errors)).toEqual(["body minProperties"]);
  });

  it("oneOf, anyOf, allOf and additionalProperties: false, all at once", () => {
    const { errors } = invalid(
      validateCall(pets, "placeOrder", {
        items: [{ sku: "A", quantity: 0 }],
        shippingAddress: { street: "1 Rue Haute", city: "Lyon", floor: 2 },
        payment: { method: "card", cardNumber: "123" },
        contact: {},
        giftNote: "",
      }),
    );
    expect(where(errors)).toEqual([
      "body.items.0.quantity minimum",
      "body.shippingAddress.floor additionalProperties",
      "body.payment.cardNumber pattern",
      "body.payment.iban required",
      "body.payment.method enum",
      "body.payment oneOf",
      "body.contact.email required",
      "body.contact.phone required",
      "body.contact anyOf",
      "body.giftNote minLength",
    ]);
    const ok = valid(
      validateCall(pets, "placeOrder", {
        items: [{ sku: "A", quantity: 2 }],
        shippingAddress: { street: "1 Rue Haute", city: "Lyon", postcode: "69001" },
        payment: { method: "card", cardNumber: "4111111111111111" },
        contact: { phone: "+33 6 12 34 56 78" },
        giftNote: "Happy birthday!",
      }),
    );
    expect(ok.request.body).toEqual(ok.body);
    expect(where(invalid(validateCall(pets, "placeOrder", { items: [{ sku: "A", quantity: 1 }], shippingAddress: { street: "a", city: "b" }, payment: { method: "card", cardNumber: "4111111111111111" }, giftNote: "x".repeat(141) })).errors)).toEqual(["body.giftNote maxLength"]);
  });

  it("an unknown argument of a closed flat body is an unknown argument, once", () => {
    const { errors } = invalid(validateCall(pets, "updatePet", { petId: 1, name: "Max", colour: "brown" }));
    expect(errors).toEqual([{ location: ["arguments", "colour"], code: "additionalProperties", message: 'unknown argument "colour"', severity: "Error" }]);
  });

  it("readOnly properties are not required in requests (but may be sent)", () => {
    // Pet requires id and createdAt is readOnly: neither is needed to create a pet.
    expect(valid(validateCall(pets, "createPet", { name: "Rex", status: "available" })).body).toEqual({ name: "Rex", status: "available" });
    // The same for nested readOnly (Vaccination.id) and a 3.1 document (Animal.id).
    valid(validateCall(pets, "createPet", { name: "Rex", status: "available", vaccinations: [{ vaccine: "rabies", date: "2024-01-02" }] }));
    valid(validateCall(registry31, "registerAnimal", { kind: "animal", name: "Tom", nickname: null }));
    valid(validateCall(pets, "createUser", { email: "ana@example.org", name: "Ana", role: "admin" }));
  });

  it("a required body that is missing is one error at [body]", () => {
    expect(invalid(validateCall(pets, "tagPet", { petId: 1 })).errors).toEqual([{ location: ["body"], code: "required", message: "is required (the operation needs a request body)", severity: "Error" }]);
    // A flat required body reports its required properties instead.
    expect(where(invalid(validateCall(pets, "createPet", {})).errors)).toEqual(["body.name required", "body.status required"]);
  });
});

describe("validateCall: arguments as a JSON string", () => {
  it("accepts a JSON object string, as models send it", () => {
    const call = valid(validateCall(pets, "createPet", '{"name":"Rex","status":"available"}'));
    expect(call.body).toEqual({ name: "Rex", status: "available" });
    expect(call.request).toEqual({
      method: "POST",
      path: "/pets",
      query: {},
      headers: { "content-type": "application/json" },
      body: { name: "Rex", status: "available" },
      contentType: "application/json",
    });
    expect(valid(validateCall(pets, "listPets", "")).args).toEqual({});
    expect(valid(validateCall(pets, "listPets", undefined)).args).toEqual({});
  });

  it("answers broken JSON with a 400 problem", () => {
    const { problem, errors } = invalid(validateCall(pets, "createPet", '{"name":"Rex",'));
    expect(problem.status).toBe(400);
    expect(problem.title).toBe("Bad Request");
    expect(Object.keys(problem).sort()).toEqual(["detail", "status", "title", "type", "validation"]);
    expect(problem.detail).toMatch(/^arguments are not valid JSON: /);
    expect(errors).toEqual([{ location: ["arguments"], code: "type", message: problem.detail, severity: "Error" }]);
  });

  it("answers JSON that is not an object with a 400 problem", () => {
    expect(invalid(validateCall(pets, "createPet", "[1,2]")).problem).toMatchObject({ status: 400, detail: "arguments must be a JSON object" });
    expect(invalid(validateCall(pets, "createPet", "42")).problem).toMatchObject({ status: 400, detail: "arguments must be a JSON object" });
    expect(invalid(validateCall(pets, "createPet", 42)).problem).toMatchObject({ status: 400, detail: "arguments must be an object" });
  });

  it("does not modify the caller's arguments object", () => {
    const args = { limit: "5", color: "brown" };
    invalid(validateCall(pets, "listPets", args));
    expect(args).toEqual({ limit: "5", color: "brown" });
  });
});
