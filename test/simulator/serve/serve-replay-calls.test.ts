import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpCassette } from "../../../simulator/serve/record/http-cassette.js";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import type { ServedApi } from "../../../simulator/serve/serve-app.js";
import { startServe } from "../../../simulator/serve/start-serve.js";
import { startPetsApi, type PetsApi } from "../../support/pets-api.js";

const SPEC = fileURLToPath(new URL("../../fixtures/serve/pets.openapi.yaml", import.meta.url));
const KEY = "serve-replay-key-1234";
const tmp = mkdtempSync(join(tmpdir(), "toolsim-serve-replay-calls-"));
let api: PetsApi;
let served: ServedApi;

beforeAll(async () => {
  api = await startPetsApi({ key: KEY });
  const loaded = await loadServedApis([SPEC]);
  if (!loaded.ok) throw new Error("spec does not load");
  served = loaded.apis[0] as ServedApi;
});
afterAll(async () => {
  await api.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("toolsim serve --mode replay: the replay responder of the pipeline", () => {
  it("answers from a recording a request that means the same as the recorded one, sent another way", async () => {
    const file = join(tmp, "cassette.jsonl");
    const proxy = await startServe({ apis: [{ ...served, upstream: api.url }], mode: "proxy", port: 0, record: file, log: () => undefined });
    const headers = { "x-api-key": KEY };
    const listed = await (await fetch(`${proxy.url}/pets?limit=02&species=cat`, { headers })).json();
    const created = await (await fetch(`${proxy.url}/pets`, { method: "POST", headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }, body: "species=dog&name=Rex" })).json();
    await proxy.close();

    const { cassette } = await HttpCassette.load(file);
    const replay = await startServe({ apis: [served], mode: "replay", cassette, port: 0, log: () => undefined });
    try {
      const seen = api.seen.length;
      // `limit=2` is what `limit=02` means; the form body is the same pet as JSON.
      const list = await fetch(`${replay.url}/pets?species=cat&limit=2`, { headers: { "x-api-key": "another-key-5678" } });
      expect(list.headers.get("x-toolsim-source")).toBe("replay");
      expect(await list.json()).toEqual(listed);
      const post = await fetch(`${replay.url}/pets`, { method: "POST", headers: { "x-api-key": "k-0001", "content-type": "application/json" }, body: JSON.stringify({ name: "Rex", species: "dog" }) });
      expect(post.status).toBe(201);
      expect(post.headers.get("x-toolsim-source")).toBe("replay");
      expect(await post.json()).toEqual(created);
      // What was never recorded is simulated; the real API is never asked.
      const other = await fetch(`${replay.url}/pets?species=dog&limit=2`, { headers: { "x-api-key": "k-0001" } });
      expect(other.status).toBe(200);
      expect(other.headers.get("x-toolsim-source")).not.toBe("replay");
      expect(api.seen.length).toBe(seen);
    } finally {
      await replay.close();
    }
  });
});
