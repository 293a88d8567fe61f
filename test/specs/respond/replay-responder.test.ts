import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { loadCatalog } from "../../../specs/catalog/load-catalog.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { HttpCassette, type HttpExchange } from "../../../specs/respond/http-cassette.js";
import { replayResponder } from "../../../specs/respond/replay-responder.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";

const SPEC = fileURLToPath(new URL("../../fixtures/serve/pets.openapi.yaml", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "toolsim-replay-responder-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A recording as `toolsim serve --record` writes it (from any HTTP client: encodings and orders vary). */
function exchange(method: string, path: string, query: string, body: string | null, contentType: string | null, status: number, answer: unknown, api = "pets"): HttpExchange {
  return {
    api,
    request: { method, path, query, headers: contentType ? { "content-type": contentType, "x-api-key": "[redacted]" } : { "x-api-key": "[redacted]" }, body },
    response: { status, headers: { "content-type": "application/json" }, body: answer === undefined ? "" : JSON.stringify(answer) },
    source: "http",
    recordedAt: "2026-01-02T03:04:05.000Z",
  };
}

const RECORDED: HttpExchange[] = [
  // `%37` is 7; a client that sends `limit=02` and the key in the query; a form body; one request recorded twice.
  exchange("GET", "/pets/%37", "", null, null, 200, { id: 7, name: "Seven", species: "dog" }),
  exchange("GET", "/pets", "limit=02&species=cat&api_key=%5Bredacted%5D", null, null, 200, [{ id: 1, name: "Whiskers", species: "cat" }]),
  exchange("POST", "/pets", "", "species=dog&name=Rex", "application/x-www-form-urlencoded", 201, { id: 41, name: "Rex", species: "dog" }),
  exchange("POST", "/pets", "", '{"species":"cat","name":"Tom"}', "application/json", 201, { id: 42, name: "Tom", species: "cat" }),
  exchange("POST", "/pets", "", '{"name":"Tom","species":"cat"}', "application/json; charset=utf-8", 201, { id: 43, name: "Tom", species: "cat" }),
  // The real API broke its spec here (a string id): replayed as recorded, flagged by the check.
  exchange("GET", "/pets/666", "", null, null, 200, { id: "six", name: "", species: "dragon" }),
  exchange("GET", "/pets/8", "", null, null, 404, { message: "no pet 8" }),
];

let catalog: Catalog;
beforeAll(async () => {
  const loaded = await loadCatalog(SPEC);
  if (!loaded.ok) throw new Error("pets spec does not load");
  catalog = loaded.value;
});

describe("replay responder", () => {
  it("answers a call with its recording, whatever encoding the recording's client used", async () => {
    const cassette = new HttpCassette(RECORDED);
    const state = new ResourceStore();
    const pet = await simulateCall(catalog, { name: "getPet", arguments: { petId: 7 } }, { replay: cassette, state });
    expect(pet).toMatchObject({ status: 200, body: { id: 7, name: "Seven", species: "dog" }, source: "replay", responseErrors: [] });
    expect(pet.notes[0]).toContain("GET /pets/%37 as answered by http");
    const list = await simulateCall(catalog, { name: "listPets", arguments: { species: "cat", limit: 2 } }, { replay: cassette, state });
    expect(list).toMatchObject({ status: 200, body: [{ id: 1, name: "Whiskers", species: "cat" }], source: "replay" });
    // The form recording is the call that means the same, sent as JSON.
    const rex = await simulateCall(catalog, { name: "createPet", arguments: { name: "Rex", species: "dog" } }, { replay: cassette, state });
    expect(rex).toMatchObject({ status: 201, body: { id: 41 }, source: "replay" });
    const missing = await simulateCall(catalog, { name: "getPet", arguments: { petId: 8 } }, { replay: cassette, state });
    expect(missing).toMatchObject({ status: 404, body: { message: "no pet 8" }, source: "replay", responseErrors: [] });
  });

  it("lets an unrecorded call fall through to state and schema, and a call asking for a status too", async () => {
    const cassette = new HttpCassette(RECORDED);
    const other = await simulateCall(catalog, { name: "getPet", arguments: { petId: 9 } }, { replay: cassette });
    expect(other.source).not.toBe("replay");
    expect(other.status).toBe(200);
    const otherList = await simulateCall(catalog, { name: "listPets", arguments: { species: "dog", limit: 2 } }, { replay: cassette });
    expect(otherList.source).not.toBe("replay");
    const asked = await simulateCall(catalog, { name: "getPet", arguments: { petId: 7 } }, { replay: cassette, status: 404 });
    expect(asked).toMatchObject({ status: 404 });
    expect(asked.source).not.toBe("replay");
  });

  it("answers several recordings of one call in order within a state, the last one repeatedly; another state starts over", async () => {
    const cassette = new HttpCassette(RECORDED);
    const tom = { name: "createPet", arguments: { species: "cat", name: "Tom" } };
    const first = new ResourceStore();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(((await simulateCall(catalog, tom, { replay: cassette, state: first })).body as { id: number }).id);
    expect(ids).toEqual([42, 43, 43]);
    const again = await simulateCall(catalog, tom, { replay: cassette, state: new ResourceStore() });
    expect((again.body as { id: number }).id).toBe(42);
  });

  it("checks a recorded answer like any other", async () => {
    const broken = await simulateCall(catalog, { name: "getPet", arguments: { petId: 666 } }, { replay: new HttpCassette(RECORDED) });
    expect(broken.source).toBe("replay");
    expect(broken.responseErrors.map((e) => e.location.join("."))).toEqual(expect.arrayContaining(["response.body.id", "response.body.species"]));
  });

  it("takes the recordings of its API from a cassette of several, or the only API recorded under another name", async () => {
    const several = new HttpCassette([
      exchange("GET", "/pets/%37", "", null, null, 200, { id: 7, name: "From pets", species: "dog" }),
      exchange("GET", "/pets/7", "", null, null, 200, { id: 7, name: "From shop", species: "cat" }, "shop"),
    ]);
    const fromShop = await simulateCall(catalog, { name: "getPet", arguments: { petId: 7 } }, { replay: replayResponder(several, { api: "shop" }) });
    expect(fromShop.body).toMatchObject({ name: "From shop" });
    const unknown = await simulateCall(catalog, { name: "getPet", arguments: { petId: 7 } }, { replay: replayResponder(several, { api: "elsewhere" }) });
    expect(unknown.source).not.toBe("replay");
    const only = await simulateCall(catalog, { name: "getPet", arguments: { petId: 7 } }, { replay: replayResponder(new HttpCassette(RECORDED), { api: "petshop" }) });
    expect(only.body).toMatchObject({ name: "Seven" });
  });

  it("reads a cassette file, skipping lines that are not recordings", async () => {
    const file = join(tmp, "cassette.jsonl");
    writeFileSync(file, `${RECORDED.map((e) => JSON.stringify(e)).join("\n")}\nnot json\n{"api":"pets"}\n\n`);
    const { cassette, skipped } = await HttpCassette.load(file);
    expect(cassette.size).toBe(RECORDED.length);
    expect(skipped).toBe(2);
    expect(cassette.apis()).toEqual(["pets"]);
  });
});
