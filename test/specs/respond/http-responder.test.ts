import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { loadCatalog } from "../../../specs/catalog/load-catalog.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { httpResponder } from "../../../specs/respond/http-responder.js";
import { startPetsApi, type PetsApi } from "../../support/pets-api.js";

const SPEC = fileURLToPath(new URL("../../fixtures/serve/pets.openapi.yaml", import.meta.url));
const KEY = "pets-key-7f3a9c21";

let catalog: Catalog;
let api: PetsApi;
beforeAll(async () => {
  const loaded = await loadCatalog(SPEC);
  if (!loaded.ok) throw new Error("pets spec does not load");
  catalog = loaded.value;
  api = await startPetsApi({ key: KEY });
});
afterAll(async () => api.close());

/** A port nothing listens on (a server bound then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("http responder (the real API)", () => {
  it("sends the call's request with the credentials the operation's security wants, and answers with what comes back", async () => {
    const before = api.seen.length;
    const result = await simulateCall(catalog, { name: "listPets", arguments: { species: "cat", limit: 5 } }, { upstream: { baseUrl: api.url, credentials: { default: KEY } } });
    expect(result).toMatchObject({ status: 200, source: "http", body: [{ id: 1, name: "Whiskers", species: "cat", age: 3 }], responseErrors: [] });
    const seen = api.seen.slice(before);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: "GET", url: "/pets?species=cat&limit=5" });
    // The first security alternative (ApiKey in X-Api-Key) that has a value.
    expect(seen[0]?.headers["x-api-key"]).toBe(KEY);
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(result.notes[0]).toContain(`GET /pets at ${api.url} -> 200`);
  });

  it("puts a key in the query or a bearer token in Authorization by scheme, keeping them out of the result", async () => {
    const before = api.seen.length;
    const created = await simulateCall(catalog, { name: "createPet", arguments: { name: "Tom", species: "cat" } }, { upstream: { baseUrl: api.url, credentials: { schemes: { QueryKey: KEY } } } });
    expect(created).toMatchObject({ status: 201, source: "http", body: { name: "Tom", species: "cat" }, responseErrors: [] });
    const post = api.seen[before];
    expect(post?.url).toBe(`/pets?api_key=${KEY}`);
    expect(JSON.parse(post?.body ?? "{}")).toEqual({ name: "Tom", species: "cat" });
    expect(post?.headers["content-type"]).toBe("application/json");
    expect(JSON.stringify(created)).not.toContain(KEY);
    const mine = await simulateCall(catalog, { name: "myPets", arguments: {} }, { upstream: { baseUrl: api.url, credentials: { schemes: { Bearer: KEY } } } });
    expect(mine.status).toBe(404); // the pets API has no /pets/mine: its 404 is passed on, and the check says it is undeclared
    expect(api.seen.at(-1)?.headers["authorization"]).toBe(`Bearer ${KEY}`);
    expect(mine.responseErrors.map((e) => e.code)).toContain("status");
  });

  it("scrubs the credential's value from what the real API answers", async () => {
    const echoed = await simulateCall(catalog, { name: "getPet", arguments: { petId: 4242 } }, { upstream: { baseUrl: api.url, credentials: { default: KEY } } });
    expect(echoed.source).toBe("http");
    expect((echoed.body as { name: string }).name).toBe("[redacted]");
    const refused = await simulateCall(catalog, { name: "getPet", arguments: { petId: 1 } }, { upstream: { baseUrl: api.url, credentials: { default: "wrong-key-1234" } } });
    expect(refused).toMatchObject({ status: 401, source: "http", body: { message: "unknown key [redacted]" } });
  });

  it("answers 502 with the cause when the real API cannot be reached, 504 when it is too slow, 502 for a too large answer", async () => {
    const port = await closedPort();
    const dead = httpResponder({ baseUrl: `http://127.0.0.1:${port}` });
    const unreachable = await simulateCall(catalog, { name: "getStatus", arguments: {} }, { upstream: dead });
    expect(unreachable).toMatchObject({ status: 502, source: "http", contentType: "application/problem+json", body: { title: "Bad Gateway" } });
    expect((unreachable.body as { detail: string }).detail).toMatch(new RegExp(`127\\.0\\.0\\.1:${port} could not be reached: .*ECONNREFUSED`));
    expect(dead.stats).toMatchObject({ calls: 1, failures: 1 });

    const slowApi = await startPetsApi({ delayMs: 1500 });
    try {
      const slow = await simulateCall(catalog, { name: "getStatus", arguments: {} }, { upstream: { baseUrl: slowApi.url, timeoutMs: 100 } });
      expect(slow).toMatchObject({ status: 504, source: "http", body: { title: "Gateway Timeout" } });
    } finally {
      await slowApi.close();
    }
    const small = await simulateCall(catalog, { name: "listPets", arguments: {} }, { upstream: { baseUrl: api.url, credentials: { default: KEY }, maxBodyBytes: 20 } });
    expect(small).toMatchObject({ status: 502, source: "http" });
    expect((small.body as { detail: string }).detail).toContain("larger than 20 bytes");
  });

  it("is asked after recordings and before state: a validation error never reaches it", async () => {
    const before = api.seen.length;
    const invalid = await simulateCall(catalog, { name: "getPet", arguments: { petId: "seven" } }, { upstream: { baseUrl: api.url, credentials: { default: KEY } } });
    expect(invalid.source).toBe("validation");
    expect(api.seen.length).toBe(before);
  });
});
