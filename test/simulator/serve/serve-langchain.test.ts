import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolMessage } from "@langchain/core/messages";
import type { DynamicStructuredTool } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toLangChainTools } from "../../../simulator/langchain-tools.js";
import { startServe, type RunningServe } from "../../../simulator/serve/start-serve.js";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import { bundledToolsetsDir, loadToolset } from "../../../toolsets/load-toolset.js";
import type { LoadedToolset } from "../../../toolsets/toolset.js";

const PETSHOP = fileURLToPath(new URL("../../fixtures/serve/petshop.yaml", import.meta.url));

let petshop: LoadedToolset;
let bookstore: LoadedToolset;

beforeAll(async () => {
  const a = await loadToolset(PETSHOP);
  const b = await loadToolset(join(bundledToolsetsDir(), "bookstore.yaml"));
  if (!a.ok || !b.ok) throw new Error("toolsets do not load");
  petshop = a.value;
  bookstore = b.value;
});

function byName(tools: DynamicStructuredTool[], name: string): DynamicStructuredTool {
  const t = tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
}

async function run(tools: DynamicStructuredTool[], name: string, args: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const out: unknown = await byName(tools, name).invoke(args);
  return JSON.parse(String(out)) as { status: number; body: any };
}

describe("toLangChainTools", () => {
  it("gives one structured tool per operation with the operation's JSON schema", () => {
    const tools = toLangChainTools(petshop);
    expect(tools.map((t) => t.name)).toEqual(["listPets", "createPet", "myPets", "getPet", "deletePet", "purgePet", "adminStats", "getStatus"]);
    const create = byName(tools, "createPet");
    expect(create.description).toBe("Add a pet");
    expect(create.schema).toMatchObject({ type: "object", required: ["name", "species"], properties: { species: { enum: ["cat", "dog", "bird"] } } });
    expect(toLangChainTools(petshop, { include: ["getPet"] }).map((t) => t.name)).toEqual(["getPet"]);
  });

  it("runs in-process on one shared state seeded from the fixtures", async () => {
    const tools = toLangChainTools(petshop);
    expect(await run(tools, "getPet", { petId: 1 })).toEqual({ status: 200, body: { id: 1, name: "Whiskers", species: "cat", age: 3 } });
    const created = await run(tools, "createPet", { name: "Tom", species: "cat" });
    expect(created.status).toBe(201);
    expect((await run(tools, "getPet", { petId: created.body.id })).body.name).toBe("Tom");
    expect((await run(tools, "deletePet", { petId: created.body.id })).status).toBe(204);
    expect((await run(tools, "getPet", { petId: created.body.id })).status).toBe(404);
    // Arguments against the schema are refused by LangChain, as for any structured tool.
    await expect(byName(tools, "getPet").invoke({ petId: 0 })).rejects.toThrow(/did not match expected schema/);
    // What LangChain's check lets through but the API refuses comes back as the API's problem details.
    const invalid = await run(tools, "getPet", { petId: 1, colour: "red" });
    expect(invalid.status).toBe(422);
    expect(invalid.body.validation[0]).toMatchObject({ location: ["arguments", "colour"], code: "additionalProperties" });
  });

  it("answers a model's tool call with a ToolMessage", async () => {
    const tools = toLangChainTools(bookstore);
    const message = (await byName(tools, "getBook").invoke({ type: "tool_call", id: "call-1", name: "getBook", args: { bookId: "bk-1001" } })) as ToolMessage;
    expect(message.tool_call_id).toBe("call-1");
    expect(JSON.parse(String(message.content)).body.title).toBe("The Lighthouse at Varden Point");
  });

  describe("through a serve URL", () => {
    let server: RunningServe;
    beforeAll(async () => {
      const loaded = await loadServedApis([PETSHOP, join(bundledToolsetsDir(), "bookstore.yaml")]);
      if (!loaded.ok) throw new Error("serve fixtures do not load");
      server = await startServe({ apis: loaded.apis, port: 0, credentials: [{ value: "key-1234" }], log: () => undefined });
    });
    afterAll(() => server.close());

    it("sends real HTTP requests with the credential where the spec wants it, in its own session", async () => {
      const url = `${server.url}/petshop`;
      const mine = toLangChainTools(petshop, { url, credential: "key-1234", session: "agent-1" });
      const created = await run(mine, "createPet", { name: "Tom", species: "cat", age: 2 });
      expect(created).toEqual({ status: 201, body: { id: 3, name: "Tom", species: "cat", age: 2 } });
      expect((await run(mine, "getPet", { petId: 3 })).body.name).toBe("Tom");
      expect((await run(mine, "listPets", { species: "cat" })).body.map((p: { name: string }) => p.name)).toEqual(["Whiskers", "Tom"]);
      // Another session does not see it; a missing credential is the API's 401.
      const other = toLangChainTools(petshop, { url, credential: "key-1234", session: "agent-2" });
      expect((await run(other, "getPet", { petId: 3 })).status).toBe(404);
      const anonymous = toLangChainTools(petshop, { url });
      expect((await run(anonymous, "getPet", { petId: 1 })).status).toBe(401);
      // The toolset's own auth (a header API key) and credentials.
      const books = toLangChainTools(bookstore, { url: `${server.url}/bookstore`, credential: "demo-key-123" });
      expect((await run(books, "getBook", { bookId: "bk-1002" })).body.title).toBe("Orbit of Small Things");
      const search = await run(books, "listBooks", { genre: "cooking" });
      expect(search.status).toBe(200);
      expect(search.body.items.map((b: { id: string }) => b.id)).toEqual(["bk-1003"]);
    });

    it("reports an unreachable server as status 0, not a throw", async () => {
      const tools = toLangChainTools(petshop, { url: "http://127.0.0.1:9", timeoutMs: 2000 });
      const out = await run(tools, "getStatus", {});
      expect(out.status).toBe(0);
      expect(out.body.title).toBe("Network error");
    });
  });
});
