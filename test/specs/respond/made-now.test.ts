import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import { nowLike, touchedStamp } from "../../../specs/respond/world/made-now.js";
import { inlineCatalog, type Json } from "./inline-catalog.js";

// A record the call just made was made now, one it changed was changed now, and a new record has not yet done
// what its `last...At` stamps say (a user registered a minute ago has not logged in since December).

const stamp = { type: "string", format: "date-time" };
const USER = {
  type: "object",
  required: ["id", "email", "createdAt"],
  properties: { id: { type: "string" }, email: { type: "string" }, createdAt: stamp, lastLoginAt: { ...stamp, nullable: true } },
};
const PLAYLIST = {
  type: "object",
  required: ["id", "name", "trackIds", "createdAt", "updatedAt", "lastPlayedAt"],
  properties: { id: { type: "string" }, name: { type: "string" }, trackIds: { type: "array", items: { type: "string" } }, created_on: { type: "string", format: "date" }, createdAt: stamp, updatedAt: stamp, lastPlayedAt: stamp },
};
const oldUser = { id: "u-1", email: "old@example.com", createdAt: "2024-12-26T12:00:00Z", lastLoginAt: "2025-05-30T08:30:00Z" };
const oldList = { id: "pl-1", name: "Old", trackIds: ["t-1", "t-2"], created_on: "2025-03-02", createdAt: "2025-03-02T09:12:00+02:00", updatedAt: "2025-05-18T08:40:00.000Z", lastPlayedAt: "2025-05-20T10:00:00Z" };
const answer = (status: string, schema: Json, example: unknown): Json => ({ [status]: { description: "ok", content: { "application/json": { schema, example } } } });
const body = (schema: Json): Json => ({ required: true, content: { "application/json": { schema } } });

let catalog: Catalog;
beforeAll(async () => {
  catalog = await inlineCatalog({
    "/users": { post: { operationId: "registerUser", requestBody: body({ type: "object", required: ["email"], properties: { email: { type: "string" } } }), responses: answer("201", USER, oldUser) } },
    "/login": { post: { operationId: "login", requestBody: body({ type: "object", properties: { email: { type: "string" } } }), responses: answer("200", { type: "object", properties: { user: USER } }, { user: oldUser }) } },
    "/signup": { post: { operationId: "signUp", requestBody: body({ type: "object", properties: { email: { type: "string" } } }), responses: answer("201", { type: "object", properties: { user: USER, token: { type: "string" } } }, { user: oldUser, token: "t" }) } },
    "/playlists": {
      get: { operationId: "listPlaylists", responses: answer("200", { type: "array", items: PLAYLIST }, [oldList]) },
      post: {
        operationId: "createPlaylist",
        requestBody: body({ type: "object", required: ["name"], properties: { name: { type: "string" }, trackIds: { type: "array", items: { type: "string" } } } }),
        responses: answer("201", PLAYLIST, oldList),
      },
    },
    "/playlists/{id}": {
      get: { operationId: "getPlaylist", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: answer("200", PLAYLIST, oldList) },
      patch: {
        operationId: "updatePlaylist",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        requestBody: body({ type: "object", properties: { name: { type: "string" } } }),
        responses: answer("200", PLAYLIST, oldList),
      },
    },
  });
});

async function call(tool: string, args: Json, state?: ResourceStore): Promise<Json> {
  const r = await simulateCall(catalog, { name: tool, arguments: args }, { seed: 3, ...(state ? { state } : {}) });
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  expect(r.responseErrors).toEqual([]);
  return r.body as Json;
}

describe("a record made or changed by the call", () => {
  it("knows which stamps say when it was made, changed, or did something since", () => {
    expect(["createdAt", "created_on", "date_added", "registeredAt", "updatedAt", "last_modified", "lastLoginAt", "last_used_at", "lastName", "dueAt", "lastModifiedBy"].map((f) => touchedStamp(f, "made"))).toEqual(["now", "now", "now", "now", "now", "now", "never", "never", undefined, undefined, undefined]);
    expect(["createdAt", "updatedAt", "lastLoginAt"].map((f) => touchedStamp(f, "changed"))).toEqual([undefined, "now", undefined]);
  });

  it("writes now in the stamp's own form", () => {
    expect(nowLike("2024-12-26T12:00:00Z")).toBe("2025-06-01T12:00:00Z");
    expect(nowLike("2025-03-02T09:12:00+02:00")).toBe("2025-06-01T14:00:00+02:00");
    expect(nowLike("2025-05-18T08:40:00.000Z")).toBe("2025-06-01T12:00:00.000Z");
    expect(nowLike("2025-05-18 08:40")).toBe("2025-06-01 12:00");
    expect(nowLike("2025-03-02")).toBe("2025-06-01");
    expect([nowLike(1735214400), nowLike(1735214400000), nowLike(42), nowLike("soon")]).toEqual([1748779200, 1748779200000, undefined, undefined]);
  });

  it("was made now by a POST answered 201, and has not logged in yet", async () => {
    expect(await call("registerUser", { email: "new@example.com" })).toMatchObject({ email: "new@example.com", createdAt: "2025-06-01T12:00:00Z", lastLoginAt: null });
    // The one record an answer wraps is the one made; a sign-in (200) makes nothing.
    expect((await call("signUp", { email: "new@example.com" }))["user"]).toMatchObject({ createdAt: "2025-06-01T12:00:00Z", lastLoginAt: null });
    expect((await call("login", { email: "old@example.com" }))["user"]).toMatchObject({ createdAt: "2024-12-26T12:00:00Z", lastLoginAt: "2025-05-30T08:30:00Z" });
  });

  it("is stored as made now, with the lists the client left out empty; a change is stamped now and keeps its making", async () => {
    const state = new ResourceStore();
    const made = await call("createPlaylist", { name: "Road trip" }, state);
    expect(made).toMatchObject({ name: "Road trip", trackIds: [], created_on: "2025-06-01", createdAt: "2025-06-01T14:00:00+02:00", updatedAt: "2025-06-01T12:00:00.000Z" });
    // Required and not nullable: the stamp of a first play cannot be left out, so it is now (not three weeks before the playlist existed).
    expect(made["lastPlayedAt"]).toBe("2025-06-01T12:00:00Z");
    expect(await call("getPlaylist", { id: made["id"] }, state)).toMatchObject({ trackIds: [], createdAt: "2025-06-01T14:00:00+02:00" });
    const changed = await call("updatePlaylist", { id: "pl-1", name: "Renamed" }, state);
    expect(changed).toMatchObject({ name: "Renamed", updatedAt: "2025-06-01T12:00:00.000Z", createdAt: oldList.createdAt, lastPlayedAt: oldList.lastPlayedAt });
  });
});
