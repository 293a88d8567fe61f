import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { loadCatalog } from "../../../specs/catalog/load-catalog.js";
import { resourceRoute } from "../../../specs/catalog/resource-routes.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import { simulateCall, type SimulateOptions } from "../../../specs/call/simulate-call.js";
import { formatProblem } from "../../../specs/load/spec-problem.js";
import type { ToolResult } from "../../../specs/call/tool-result.js";
import { coreCatalog as catalogOf } from "../../support/core-catalog.js";

type Json = Record<string, any>;

let pets: Catalog;
beforeAll(async () => {
  pets = await catalogOf("petstore.yaml");
});

/** An episode: one store, calls that must be valid and whose responses must validate against their schemas. */
function episode(state = new ResourceStore(), seed = 11, catalog = (): Catalog => pets) {
  const call = async (name: string, args: unknown, options: SimulateOptions = {}): Promise<ToolResult> => {
    const result = await simulateCall(catalog(), { name, arguments: args }, { seed, state, ...options });
    expect(result.errors, `${name} request errors`).toEqual([]);
    expect(result.responseErrors, `${name} response errors: ${JSON.stringify(result.body)}`).toEqual([]);
    return result;
  };
  return { state, call };
}

const rex = { name: "Rex", status: "available", tag: "calm", birthday: "2019-04-01" };

describe("state responder: create, read, list, update, delete", () => {
  it("POST creates a resource with a fresh id and the request body merged in", async () => {
    const { state, call } = episode();
    const created = await call("createPet", rex);
    expect(created.status).toBe(201);
    expect(created.source).toBe("state");
    expect(created.body).toMatchObject({ id: 1, ...rex });
    expect(created.notes).toEqual(["created /pets/1"]);
    const second = await call("createPet", { name: "Mia", status: "pending" });
    expect((second.body as Json)["id"]).toBe(2);
    expect(state.list("/pets").map((p) => p["name"])).toEqual(["Rex", "Mia"]);
  });

  it("GET returns what was created, and lists include it", async () => {
    const { call } = episode();
    const created = await call("createPet", rex);
    const read = await call("getPet", { petId: 1 });
    expect(read.status).toBe(200);
    expect(read.source).toBe("state");
    expect(read.body).toEqual(created.body);
    const list = await call("listPets", {});
    expect(list.source).toBe("state");
    expect(list.body).toEqual([created.body]);
  });

  it("returns copies: changing a response does not change the state", async () => {
    const { call } = episode();
    const created = await call("createPet", rex);
    (created.body as Json)["name"] = "Changed";
    const read = await call("getPet", { petId: "1" });
    expect((read.body as Json)["name"]).toBe("Rex");
    (read.body as Json)["name"] = "Changed again";
    expect(((await call("getPet", { petId: 1 })).body as Json)["name"]).toBe("Rex");
  });

  it("PATCH updates the given fields and keeps the others; the response is what a later GET returns", async () => {
    const { call } = episode();
    const created = (await call("createPet", rex)).body as Json;
    const patched = await call("updatePet", { petId: 1, name: "Max", tag: null });
    expect(patched.status).toBe(200);
    expect(patched.source).toBe("state");
    expect(patched.notes).toEqual(["updated /pets/1"]);
    expect(patched.body).toEqual({ ...created, name: "Max", tag: null });
    expect((await call("getPet", { petId: 1 })).body).toEqual(patched.body);
  });

  it("PUT replaces the resource: fields not sent are gone, the id and readOnly fields stay", async () => {
    const { call } = episode();
    const created = (await call("createPet", { ...rex, ownerEmail: "ana@example.org" })).body as Json;
    const replaced = await call("replacePet", { petId: 1, name: "Bella", status: "sold" });
    expect(replaced.notes).toEqual(["replaced /pets/1"]);
    const expected: Json = { id: 1, name: "Bella", status: "sold" };
    if (created["createdAt"] !== undefined) expected["createdAt"] = created["createdAt"];
    expect(replaced.body).toEqual(expected);
    expect((await call("getPet", { petId: 1 })).body).toEqual(expected);
  });

  it("DELETE removes: a later GET, PATCH or DELETE is the spec's 404", async () => {
    const { state, call } = episode();
    await call("createPet", rex);
    const deleted = await call("deletePet", { petId: 1 });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect(deleted.notes).toEqual(["deleted /pets/1"]);
    expect(state.get("/pets", "1")).toBeUndefined();
    expect(state.isDeleted("/pets", "1")).toBe(true);
    for (const [name, args] of [["getPet", { petId: 1 }], ["updatePet", { petId: 1, name: "Max" }], ["deletePet", { petId: 1 }]] as const) {
      const gone = await call(name, args);
      expect(gone.status, name).toBe(404);
      expect(gone.source).toBe("state");
      expect(gone.contentType).toBe("application/json");
      // The spec's 404 (components/responses/NotFound -> Error): validated like any response.
      expect(Object.keys(gone.body as Json).sort()).toEqual(["code", "message"]);
      expect(gone.notes).toContain("not found: /pets/1");
    }
    expect(((await call("listPets", {})).body as unknown[]).map((p) => (p as Json)["id"])).not.toContain(1);
  });

  it("does not reuse the id of a deleted resource", async () => {
    const { call } = episode();
    await call("createPet", rex);
    await call("deletePet", { petId: 1 });
    const again = await call("createPet", { name: "Mia", status: "pending" });
    expect((again.body as Json)["id"]).toBe(2);
    expect((await call("getPet", { petId: 1 })).status).toBe(404);
  });

  it("answers problem details for a missing resource when the spec declares no 404", async () => {
    const { call } = episode();
    await call("createUserPost", { userId: "ana", title: "Hello" });
    expect((await call("deleteUserPost", { userId: "ana", postId: 1 })).status).toBe(204);
    const gone = await call("getUserPost", { userId: "ana", postId: 1 });
    expect(gone).toMatchObject({
      status: 404,
      contentType: "application/problem+json",
      source: "state",
      body: { type: "https://toolsim.dev/problems/not-found", title: "Not Found", status: 404, detail: "/users/ana/posts/1 does not exist" },
      notes: ["the spec declares no 404 response: answered with problem details"],
    });
  });

  it("keeps the request's id when the client chose it", async () => {
    const { call } = episode();
    const created = await call("createPet", { ...rex, id: 42 }); // readOnly, but sent: taken as given
    expect((created.body as Json)["id"]).toBe(42);
    expect((await call("getPet", { petId: 42 })).body).toEqual(created.body);
    expect(((await call("createPet", { name: "Mia", status: "pending" })).body as Json)["id"]).toBe(43);
  });

  it("makes string ids (uuid) for resources whose id is a string", async () => {
    const { call } = episode();
    const a = (await call("createUser", { email: "ana@example.org", name: "Ana", role: "admin" })).body as Json;
    const b = (await call("createUser", { email: "bo@example.org", name: "Bo", role: "member" })).body as Json;
    expect(a["id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(b["id"]).not.toBe(a["id"]);
    expect((await call("getUser", { userId: a["id"] })).body).toEqual(a);
    expect(((await call("listUsers", { role: "member" })).body as Json[]).map((u) => u["name"])).toEqual(["Bo"]);
  });
});

describe("state responder: a POST whose answer has no place for an id", () => {
  it("answers as the answer was made, without an id the schema does not declare", async () => {
    const { inlineCatalog, ok } = await import("./inline-catalog.js");
    const company = await inlineCatalog({
      "/company-overview": {
        get: {
          operationId: "getCompanyOverview",
          parameters: [{ name: "companyId", in: "query", required: true, schema: { type: "string" } }],
          responses: ok({ type: "object", properties: { companyId: { type: "string" }, companyName: { type: "string" } } }, { companyId: "zyerulpbz98e", companyName: "Acme" }),
        },
        post: {
          operationId: "postCompanyOverview",
          requestBody: { content: { "application/json": { schema: { type: "object", required: ["companyIds"], properties: { companyIds: { type: "array", items: { type: "string" } } } } } } },
          responses: ok({ type: "object", properties: { companies: { type: "array", items: { type: "object", properties: { companyId: { type: "string" } } } }, hitCount: { type: "integer" } } }, {
            companies: [{ companyId: "zyerulpbz98e" }],
            hitCount: 1,
          }),
        },
      },
    });
    const { call } = episode(new ResourceStore(), 11, () => company);
    const r = await call("postCompanyOverview", { companyIds: ["zyerulpbz98e"] });
    expect(r.source).toBe("state");
    expect(Object.keys(r.body as Json).sort()).toEqual(["companies", "hitCount"]);
  });
});

describe("state responder: fixtures and synthesized items", () => {
  const fixtures = {
    "/pets": [
      { id: 1, name: "Rex", status: "available", tag: "calm" },
      { id: 2, name: "Mia", status: "sold", tag: null },
      { id: 3, name: "Tom", status: "available" },
      { id: 4, name: "Zoe", status: "pending" },
      { id: 5, name: "Ace", status: "available" },
    ],
  };

  it("fixtures make a collection authoritative: known ids are read, unknown ids are 404", async () => {
    const { call } = episode(ResourceStore.fromFixtures(fixtures));
    const read = await call("getPet", { petId: 2 });
    expect(read).toMatchObject({ status: 200, source: "state", body: { id: 2, name: "Mia", status: "sold", tag: null } });
    const missing = await call("getPet", { petId: 99 });
    expect(missing.status).toBe(404);
    expect(missing.source).toBe("state");
    expect((await call("updatePet", { petId: 99, name: "X" })).status).toBe(404);
    expect((await call("deletePet", { petId: 99 })).status).toBe(404);
  });

  it("lists exactly the fixtures, filtered by query fields and paged by limit and offset", async () => {
    const { call } = episode(ResourceStore.fromFixtures(fixtures));
    const ids = async (args: Json): Promise<unknown[]> => ((await call("listPets", args)).body as Json[]).map((p) => p["id"]);
    expect(await ids({})).toEqual([1, 2, 3, 4, 5]);
    expect(await ids({ status: "available" })).toEqual([1, 3, 5]);
    expect(await ids({ limit: 2 })).toEqual([1, 2]);
    expect(await ids({ limit: "2", offset: "1" })).toEqual([2, 3]);
    expect(await ids({ status: "available", limit: 2, offset: 1 })).toEqual([3, 5]);
    expect(await ids({ offset: 10 })).toEqual([]);
  });

  it("a create into a fixture collection is listed after the fixtures", async () => {
    const { call } = episode(ResourceStore.fromFixtures(fixtures));
    const created = (await call("createPet", { name: "New", status: "pending" })).body as Json;
    expect(created["id"]).toBe(6);
    expect(((await call("listPets", { status: "pending" })).body as Json[]).map((p) => p["name"])).toEqual(["Zoe", "New"]);
  });

  it("does not change the fixtures it was made from", async () => {
    const given = structuredClone(fixtures);
    const { call } = episode(ResourceStore.fromFixtures(given));
    await call("updatePet", { petId: 1, name: "Changed" });
    await call("deletePet", { petId: 2 });
    expect(given).toEqual(fixtures);
  });

  it("synthesizes a never-seen item of a collection without fixtures once, and remembers it", async () => {
    const { state, call } = episode();
    const first = await call("getPet", { petId: 77 });
    expect(first.status).toBe(200);
    expect((first.body as Json)["id"]).toBe(77);
    expect(first.notes).toContain("synthesized and remembered in state");
    const second = await call("getPet", { petId: "77" });
    expect(second.source).toBe("state");
    expect(second.body).toEqual(first.body);
    expect(state.get("/pets", "77")).toEqual(first.body);
    // It is part of the collection from now on.
    expect(((await call("listPets", {})).body as Json[]).map((p) => p["id"])).toEqual([77]);
  });

  it("keeps a synthesized item valid when the requested id does not fit the schema (uuid ids)", async () => {
    const { call } = episode();
    const first = await call("getUser", { userId: "u1" }); // responseErrors checked by the episode
    expect((first.body as Json)["id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect((await call("getUser", { userId: "u1" })).body).toEqual(first.body);
  });

  it("a first list synthesizes items that match the filters, and remembers them", async () => {
    const { state, call } = episode();
    const list = await call("listPets", { status: "sold" });
    const items = list.body as Json[];
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item["status"]).toBe("sold");
    expect(state.list("/pets")).toEqual(items);
    if (items[0]) expect((await call("getPet", { petId: items[0]["id"] })).body).toEqual(items[0]);
  });
});

describe("state responder: filters the item schema does not allow", () => {
  let fees: Catalog;
  beforeAll(async () => {
    const loaded = await loadCatalog(fileURLToPath(new URL("../../fixtures/specs/state/wide-filters.yaml", import.meta.url)));
    if (!loaded.ok) throw new Error(loaded.errors.map(formatProblem).join("\n"));
    fees = loaded.value;
  });

  it("a first list applies a filter value only where the item schema allows it; otherwise no item matches", async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const { call } = episode(new ResourceStore(), seed, () => fees); // bodies must validate
      const allowed = ((await call("listFees", { code_type: "CPT", bedrooms: 3 })).body as Json)["data"] as Json[];
      expect(allowed.length).toBeGreaterThan(0);
      for (const item of allowed) expect(item).toMatchObject({ code_type: "CPT", bedrooms: 3 });
    }
    for (const args of [{ code_type: "captain" }, { bedrooms: 277.99 }, { bedrooms: -1 }]) {
      const { state, call } = episode(new ResourceStore(), 7, () => fees);
      expect(((await call("listFees", args)).body as Json)["data"], JSON.stringify(args)).toEqual([]);
      expect(state.list("/fees")).toEqual([]);
    }
  });

  it("keeps the synthesized list when the filtered one would break the list schema (minItems)", async () => {
    const { state, call } = episode(new ResourceStore(), 7, () => fees);
    const items = (await call("listRooms", { bedrooms: 2.5 })).body as Json[];
    expect(items.length).toBeGreaterThan(0);
    expect(state.list("/rooms")).toEqual(items);
  });
});

describe("state responder: a create answered with a oneOf", () => {
  it("gives the new resource an id of the type the response schema has, and the answer validates", async () => {
    const loaded = await loadCatalog(fileURLToPath(new URL("../../fixtures/specs/state/oneof-create.yaml", import.meta.url)));
    if (!loaded.ok) throw new Error(loaded.errors.map(formatProblem).join("\n"));
    const teams = loaded.value;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const { call } = episode(new ResourceStore(), seed, () => teams); // the answer must validate
      const created = await call("inviteMember", { teamId: "t1", email: "ann@example.com", role: "viewer" });
      expect(created.source).toBe("state");
      expect(typeof (created.body as Json)["uid"]).toBe("string");
    }
  });
});

describe("state responder: nested collections and actions", () => {
  it("keeps one collection per parent: /users/{userId}/posts", async () => {
    const { state, call } = episode();
    const a = (await call("createUserPost", { userId: "ana", title: "Ana's first" })).body as Json;
    await call("createUserPost", { userId: "ana", title: "Ana's second" });
    const b = (await call("createUserPost", { userId: "bo", title: "Bo's only" })).body as Json;
    expect(a["id"]).toBe(1);
    expect(b["id"]).toBe(1); // ids are per collection
    const anas = (await call("listUserPosts", { userId: "ana" })).body as Json;
    expect(anas["data"].map((p: Json) => p["title"])).toEqual(["Ana's first", "Ana's second"]);
    expect(anas["total"]).toBe(2);
    const paged = (await call("listUserPosts", { userId: "ana", limit: 1 })).body as Json;
    expect(paged["data"].map((p: Json) => p["title"])).toEqual(["Ana's first"]);
    expect(paged["total"]).toBe(2); // every match, not the page's length
    expect(((await call("getUserPost", { userId: "bo", postId: 1 })).body as Json)["title"]).toBe("Bo's only");
    expect(Object.keys(state.snapshot())).toEqual(["/users/ana/posts", "/users/bo/posts"]);
  });

  it("infers routes from paths: POST-only paths are actions, not resources", () => {
    const route = (name: string) => resourceRoute(pets, pets.get(name) as NonNullable<ReturnType<Catalog["get"]>>);
    expect(route("listPets")).toEqual({ kind: "collection", collection: "/pets", idHints: ["petId", "id", "pet_id", "pet"] });
    expect(route("getPet")).toMatchObject({ kind: "item", collection: "/pets", idParam: { name: "petId" } });
    expect(route("getUserPost")).toMatchObject({ kind: "item", collection: "/users/{userId}/posts", idParam: { name: "postId" } });
    expect(route("createUserPost")).toMatchObject({ kind: "collection", collection: "/users/{userId}/posts" });
    expect(route("translateText")).toBeUndefined();
    expect(route("placeOrder")).toBeUndefined();
    expect(route("tagPet")).toBeUndefined();
    expect(route("admitPet")).toBeUndefined();
  });

  it("answers actions from the schema and leaves the state alone", async () => {
    const { state, call } = episode();
    const translated = await call("translateText", { text: "chien", target: "en" });
    expect(translated.source).toBe("schema");
    expect(typeof (translated.body as Json)["translation"]).toBe("string");
    expect(state.snapshot()).toEqual({});
  });

  it("passes to the schema responder when a non-2xx status is asked for", async () => {
    const { call } = episode();
    await call("createPet", rex);
    const asked = await call("getPet", { petId: 1 }, { status: 404 });
    expect(asked.status).toBe(404);
    expect(asked.source).toBe("schema");
  });
});

describe("state responder: responses always validate", () => {
  it("a create whose nested request items lack response-required fields keeps them and stays valid", async () => {
    const vaccinations = [
      { vaccine: "rabies", date: "2024-01-02" },
      { vaccine: "distemper", date: "2024-02-03" },
    ];
    for (let seed = 0; seed < 25; seed++) {
      const { call } = episode(new ResourceStore(), seed);
      const created = await call("createPet", { ...rex, vaccinations });
      const body = created.body as Json;
      // Vaccination.id is readOnly + required: absent from the request, present in the response.
      expect(body["vaccinations"].map((v: Json) => ({ vaccine: v["vaccine"], date: v["date"] })), `seed ${seed}`).toEqual(vaccinations);
      for (const v of body["vaccinations"]) expect(Number.isInteger(v["id"]), `seed ${seed}`).toBe(true);
      expect((await call("getPet", { petId: body["id"] })).body).toEqual(body);
    }
  });

  it("every CRUD answer validates across seeds, for 3.0, 3.1 and converted 2.0 specs", async () => {
    const registry31 = await catalogOf("petstore-3.1.yaml");
    const legacy = await catalogOf("petstore-swagger2.json");
    for (let seed = 0; seed < 10; seed++) {
      const p = episode(new ResourceStore(), seed);
      await p.call("listPets", { status: "pending", limit: 3 });
      await p.call("createPet", { name: "Rex", status: "available", parent: { name: "Old Rex", status: "sold" } });
      await p.call("updatePet", { petId: 1, weightKg: 12.5 });
      await p.call("replacePet", { petId: 1, name: "Rex II", status: "pending" });
      await p.call("listUserPosts", { userId: "ana" });
      await p.call("createUserPost", { userId: "ana", title: "T", tags: ["a"] });
      const r = episode(new ResourceStore(), seed, () => registry31);
      const animal = (await r.call("registerAnimal", { kind: "animal", name: "Tom", nickname: null, friends: [{ kind: "animal", name: "Jerry", nickname: "J" }] })).body as Json;
      expect(animal["friends"][0]).toMatchObject({ name: "Jerry", nickname: "J" });
      await r.call("searchAnimals", { species: ["cat"] });
      const l = episode(new ResourceStore(), seed, () => legacy);
      // Pet.id is optional there: the id goes to `id` even when the synthesized body left it out.
      const added = (await l.call("addPet", { name: "doggie", photoUrls: [] })).body as Json;
      expect(added["id"], `seed ${seed}`).toBe(1);
      expect(added["petId"]).toBeUndefined();
      expect((await l.call("getPetById", { petId: 1 })).body).toEqual(added);
      const unseen = (await l.call("getPetById", { petId: 7 })).body as Json;
      expect(unseen["id"], `seed ${seed}`).toBe(7);
      expect(unseen["petId"]).toBeUndefined();
    }
  });
});

describe("state responder: ids that are slugs of names", () => {
  it("a new record's slug id is its own name's, its prefix kept; a second of that name gets another; unit cases", async () => {
    const { inlineCatalog } = await import("./inline-catalog.js");
    const { renamedSlug } = await import("../../../specs/respond/fresh-id.js");
    const scene = { type: "object", required: ["id", "name"], properties: { id: { type: "string", pattern: "^scn-[a-z0-9-]+$", example: "scn-leaving-home" }, name: { type: "string", example: "Leaving home" } } };
    const catalog = await inlineCatalog({
      "/scenes": {
        post: {
          operationId: "createScene",
          requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["name"], properties: { name: { type: "string" } } } } } },
          responses: { "201": { description: "made", content: { "application/json": { schema: scene } } } },
        },
      },
      "/scenes/{sceneId}": { get: { operationId: "getScene", parameters: [{ name: "sceneId", in: "path", required: true, schema: { type: "string" } }], responses: { "200": { description: "ok", content: { "application/json": { schema: scene } } } } } },
    });
    const { call } = episode(new ResourceStore(), 11, () => catalog);
    expect((await call("createScene", { name: "Reading corner" })).body).toEqual({ id: "scn-reading-corner", name: "Reading corner" });
    expect((await call("createScene", { name: "Reading corner" })).body).toEqual({ id: "scn-reading-corner-2", name: "Reading corner" });
    expect((await call("createScene", { name: "Leaving home" })).body).toEqual({ id: "scn-leaving-home", name: "Leaving home" });
    expect((await call("getScene", { sceneId: "scn-reading-corner" })).body).toEqual({ id: "scn-reading-corner", name: "Reading corner" });
    expect([renamedSlug("scn_leaving_home", "Leaving home", "Ça va? Über-cosy"), renamedSlug("leaving-home", "Leaving home", "Den"), renamedSlug("scn-42", "Leaving home", "Den"), renamedSlug("scn-leaving-home", "Leaving home", "✨")]).toEqual(["scn_ca_va_uber_cosy", "den", undefined, undefined]);
  });
});
