import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { bodyOf, toHttpRequest } from "../../../specs/call/http-request.js";
import type { ParameterBinding, Tool } from "../../../specs/catalog/tool.js";
import { validateCall } from "../../../specs/call/validate-call.js";
import { coreCatalog as catalogOf } from "../../support/core-catalog.js";

function toolOf(catalog: Catalog, name: string): Tool {
  const t = catalog.get(name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
}

/** A hand-made tool, to test serialization without a spec. */
function fakeTool(method: Tool["operation"]["method"], pathTemplate: string, parameters: Array<Partial<ParameterBinding> & Pick<ParameterBinding, "name" | "in">>, body?: Tool["body"]): Tool {
  return {
    name: "fake",
    description: "",
    operation: { method, path: pathTemplate, pointer: "" },
    parameters: parameters.map((p) => ({
      arg: p.name,
      required: p.in === "path",
      style: p.in === "query" || p.in === "cookie" ? "form" : "simple",
      explode: p.in === "query" || p.in === "cookie",
      ...p,
    })),
    ...(body ? { body } : {}),
    required: [],
    responses: [],
    tags: [],
    security: [],
    deprecated: false,
  };
}

let serial: Catalog;
let pets: Catalog;
beforeAll(async () => {
  serial = await catalogOf("serialization.yaml");
  pets = await catalogOf("petstore.yaml");
});

describe("toHttpRequest: path parameters", () => {
  it("substitutes and percent-encodes path parameters (simple style: arrays joined by commas)", () => {
    const request = toHttpRequest(toolOf(serial, "getProduct"), { catalogue: "spring/summer 2024", sku: ["A1", "B 2"] });
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/catalogues/spring%2Fsummer%202024/products/A1,B%202");
    expect(toHttpRequest(toolOf(serial, "getProduct"), { catalogue: "é?#%", sku: ["x"] }).path).toBe("/catalogues/%C3%A9%3F%23%25/products/x");
  });

  it("turns numbers and booleans into text and leaves a missing parameter's template", () => {
    expect(toHttpRequest(toolOf(pets, "getPet"), { petId: 12 }).path).toBe("/pets/12");
    expect(toHttpRequest(toolOf(pets, "getUserPost"), { userId: "ana", postId: 0 }).path).toBe("/users/ana/posts/0");
    expect(toHttpRequest(toolOf(pets, "getPet"), {}).path).toBe("/pets/{petId}");
  });

  it("replaces every occurrence of a repeated template name", () => {
    const tool = fakeTool("get", "/a/{id}/b/{id}", [{ name: "id", in: "path" }]);
    expect(toHttpRequest(tool, { id: "x y" }).path).toBe("/a/x%20y/b/x%20y");
  });
});

describe("toHttpRequest: query parameters", () => {
  it("form + explode (the default) repeats the name; explode false joins by commas", () => {
    const request = toHttpRequest(toolOf(serial, "getProduct"), { catalogue: "c", sku: ["s"], fields: ["name", "price"], colors: ["red", "dark blue"] });
    expect(request.query).toEqual({ fields: ["name", "price"], colors: "red,dark blue" });
  });

  it("pipeDelimited and spaceDelimited join with their separator", () => {
    const request = toHttpRequest(toolOf(serial, "getProduct"), { catalogue: "c", sku: ["s"], sizes: ["S", "M"], words: ["soft", "warm"] });
    expect(request.query).toEqual({ sizes: "S|M", words: "soft warm" });
  });

  it("deepObject brackets the keys; an exploded form object spreads its keys", () => {
    const request = toHttpRequest(toolOf(serial, "getProduct"), { catalogue: "c", sku: ["s"], filter: { brand: "Acme", maxPrice: 20 }, range: { from: 1, to: 5 } });
    expect(request.query).toEqual({ "filter[brand]": "Acme", "filter[maxPrice]": "20", from: "1", to: "5" });
    const unexploded = fakeTool("get", "/r", [{ name: "range", in: "query", explode: false }]);
    expect(toHttpRequest(unexploded, { range: { from: 1, to: 5 } }).query).toEqual({ range: "from,1,to,5" });
  });

  it("Swagger 2.0 collectionFormat csv becomes explode false", async () => {
    const legacy = await catalogOf("petstore-swagger2.json");
    const request = toHttpRequest(toolOf(legacy, "findPets"), { status: ["available", "sold"], limit: 3, api_key: "k" });
    expect(request.query).toEqual({ status: "available,sold", limit: "3" });
  });

  it("skips undefined arguments and keeps falsy values", () => {
    const request = toHttpRequest(toolOf(pets, "listPets"), { limit: undefined, offset: 0, status: "" });
    expect(request.query).toEqual({ offset: "0", status: "" });
  });
});

describe("toHttpRequest: headers and cookies", () => {
  it("lowercases header names and joins header arrays with commas", () => {
    const request = toHttpRequest(toolOf(serial, "getProduct"), { catalogue: "c", sku: ["s"], "X-Trace-Id": "t-1", "X-Flags": ["a", "b"], "Accept-Language": "fr-FR" });
    expect(request.headers).toEqual({ "x-trace-id": "t-1", "x-flags": "a,b", "accept-language": "fr-FR" });
  });

  it("sends cookies in one Cookie header, values encoded", () => {
    const request = toHttpRequest(toolOf(serial, "getProduct"), { catalogue: "c", sku: ["s"], session: "s;=1 2", consent: false });
    expect(request.headers).toEqual({ cookie: "session=s%3B%3D1%202; consent=false" });
  });

  it("leaves headers empty for a call without header or cookie arguments", () => {
    expect(toHttpRequest(toolOf(pets, "getPet"), { petId: 1 })).toEqual({ method: "GET", path: "/pets/1", query: {}, headers: {} });
  });
});

describe("toHttpRequest: bodies", () => {
  it("collects a flat body from the non-parameter arguments, with its content type", () => {
    const request = toHttpRequest(toolOf(pets, "replacePet"), { petId: 3, name: "Rex", status: "sold" });
    expect(request).toEqual({
      method: "PUT",
      path: "/pets/3",
      query: {},
      headers: { "content-type": "application/json" },
      body: { name: "Rex", status: "sold" },
      contentType: "application/json",
    });
  });

  it("sends a wrapped body as given (arrays too)", () => {
    const request = toHttpRequest(toolOf(pets, "tagPet"), { petId: 3, body: ["puppy", "calm"] });
    expect(request.body).toEqual(["puppy", "calm"]);
    expect(request.contentType).toBe("application/json");
  });

  it("uses the spec's media type for form bodies", () => {
    const request = toHttpRequest(toolOf(serial, "sendFeedback"), { message: "Great", rating: 5 });
    expect(request.method).toBe("POST");
    expect(request.body).toEqual({ message: "Great", rating: 5 });
    expect(request.contentType).toBe("application/x-www-form-urlencoded");
    expect(request.headers).toEqual({ "content-type": "application/x-www-form-urlencoded" });
  });

  it("has no body and no content type when none is sent and none is required", () => {
    const patch = toolOf(pets, "admitPet"); // optional, wrapped
    const request = toHttpRequest(patch, { id: "shelter-1" });
    expect(request).toEqual({ method: "POST", path: "/shelters/shelter-1/intake", query: {}, headers: {} });
    expect(bodyOf(patch, { id: "shelter-1" })).toBeUndefined();
    // A required flat body is sent even when empty, so that its validation says what is missing.
    expect(bodyOf(toolOf(pets, "createPet"), {})).toEqual({});
  });

  it("is the request recorded on a validated call, built from the coerced arguments", () => {
    const result = validateCall(serial, "getProduct", { catalogue: "c", sku: "X", fields: "name", consent: "false" });
    if (!result.ok) throw new Error(JSON.stringify(result.problem));
    expect(result.value.request).toEqual({ method: "GET", path: "/catalogues/c/products/X", query: { fields: ["name"] }, headers: { cookie: "consent=false" } });
  });
});

describe("a path template's own characters", () => {
  it("escapes what would end or break the URL's path (`/#CreateCluster`, a space), and leaves the rest", () => {
    expect(toHttpRequest(fakeTool("post", "/#CreateParameterGroup", []), {}).path).toBe("/%23CreateParameterGroup");
    expect(toHttpRequest(fakeTool("get", "/reports/{id}/by name", [{ name: "id", in: "path" }]), { id: "a#b" }).path).toBe("/reports/a%23b/by%20name");
    expect(toHttpRequest(fakeTool("get", "/v1/items:search", []), {}).path).toBe("/v1/items:search");
  });
});
