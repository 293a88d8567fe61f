import { fileURLToPath } from "node:url";
import type { DynamicStructuredTool } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toLangChainTools } from "../../simulator/langchain-tools.js";
import { servedApiOf } from "../../simulator/serve/load-apis.js";
import { startServe, type RunningServe } from "../../simulator/serve/start-serve.js";
import { loadToolset } from "../../toolsets/load-toolset.js";
import type { LoadedToolset } from "../../toolsets/toolset.js";

/*
 * A toolset whose API keys are ordinary arguments (auth `name` and `keys`, as ToolAlpaca's real APIs take them):
 * its LangChain tools neither show nor require them, and supply them, in process and through `toolsim serve`.
 */

const FIXTURE = fileURLToPath(new URL("../fixtures/credentials/recipe-keys.yaml", import.meta.url));
const APP_ID = "zq7-PLANTED-app-id-4821";
const APP_KEY = "kx9-PLANTED-app-key-7730";

let recipes: LoadedToolset;
let server: RunningServe;
beforeAll(async () => {
  const loaded = await loadToolset(FIXTURE);
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("; "));
  recipes = loaded.value;
  server = await startServe({ apis: [servedApiOf(recipes)], port: 0, log: () => undefined });
});
afterAll(() => server.close());

function tool(tools: DynamicStructuredTool[], name: string): DynamicStructuredTool {
  const t = tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
}

async function run(t: DynamicStructuredTool, args: Record<string, unknown>): Promise<{ status: number; body: any }> {
  return JSON.parse(String(await t.invoke(args))) as { status: number; body: any };
}

describe("toLangChainTools over a toolset that supplies its keys", () => {
  it("shows no key argument and requires none", () => {
    const search = tool(toLangChainTools(recipes), "searchRecipes");
    expect(search.schema).toMatchObject({ type: "object", required: ["q"] });
    expect(Object.keys((search.schema as { properties: object }).properties)).toEqual(["q"]);
    const get = tool(toLangChainTools(recipes), "getRecipe");
    expect(Object.keys((get.schema as { properties: object }).properties)).toEqual(["recipeId"]);
  });

  it("in process: the keys are supplied, so the call validates (without them it is a 422)", async () => {
    const found = await run(tool(toLangChainTools(recipes), "searchRecipes"), { q: "chicken" });
    expect(found.status).toBe(200);
    expect(found.body.app_id).toBe(APP_ID);
    // The same operation without the toolset's auth: the keys are the caller's, shown and required.
    const bare = tool(toLangChainTools(recipes.catalog), "searchRecipes");
    expect((bare.schema as { required: string[] }).required).toEqual(["q", "app_id", "app_key"]);
  });

  it("through serve: both keys reach the server, which accepts them; a wrong one is its 401", async () => {
    const url = server.apis[0]?.url as string;
    const found = await run(tool(toLangChainTools(recipes, { url }), "searchRecipes"), { q: "chicken" });
    expect(found.status).toBe(200);
    const ok = await fetch(`${url}/recipes?q=x&app_id=${APP_ID}&app_key=${APP_KEY}`);
    expect(ok.status).toBe(200);
    // Each key is checked in its own parameter: swapped or wrong values are refused.
    expect((await fetch(`${url}/recipes?q=x&app_id=${APP_ID}&app_key=wrong-key-000`)).status).toBe(401);
    expect((await fetch(`${url}/recipes?q=x&app_id=${APP_KEY}&app_key=${APP_ID}`)).status).toBe(401);
    expect((await fetch(`${url}/recipes?q=x&app_id=${APP_ID}`)).status).toBe(401);
  });
});
