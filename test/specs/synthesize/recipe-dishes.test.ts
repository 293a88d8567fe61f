import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { cohereEntities } from "../../../specs/synthesize/world/coherent-entities.js";
import { dishesOf } from "../../../specs/synthesize/world/world-dishes.js";
import { entityContradictions } from "../../../agents/tester/entity-contradictions.js";

// A recipe is a dish of its cuisine: its title, description, diets, ingredients and steps are that dish's.

type Json = Record<string, any>;

async function recipe(tool: string, args: Json, seed: number): Promise<Json> {
  const loaded = await loadToolset(fileURLToPath(new URL("../../../toolsets/bundled/recipes.yaml", import.meta.url)));
  if (!loaded.ok) throw new Error("recipes");
  const r = await simulateCall(loaded.value.catalog, { name: tool, arguments: args }, { seed });
  expect(r.status).toBe(200);
  expect(r.responseErrors).toEqual([]);
  const found = entityContradictions({ toolset: "recipes", tool, method: "get", path: "", args, bodyArgs: new Set(), status: r.status, body: r.body });
  expect(found.map((c) => `${c.field}: ${JSON.stringify(c.actual)}`)).toEqual([]);
  return r.body as Json;
}

describe("a recipe of a cuisine asked for", () => {
  it("getRandomRecipe(cuisine=japanese) is a Japanese dish, its ingredients and steps that dish's", async () => {
    const titles = new Set(dishesOf("japanese").map((d) => d.title));
    for (const seed of [1, 2, 3, 4]) {
      const body = await recipe("getRandomRecipe", { cuisine: "japanese" }, seed);
      expect(titles.has(body["title"]), body["title"]).toBe(true);
      const dish = dishesOf("japanese").find((d) => d.title === body["title"]);
      expect(body["ingredients"].map((i: Json) => i["name"])).toEqual(dish?.ingredients.map(([name]) => name));
      expect(body["steps"].map((s: Json) => s["text"])).toEqual(dish?.steps);
      expect(body["ingredients"].every((i: Json) => i["optional"] !== true)).toBe(true);
    }
  });

  it("keeps a diet asked for: a vegan Korean recipe is a vegan Korean dish", async () => {
    for (const seed of [1, 2, 3]) {
      const body = await recipe("getRandomRecipe", { cuisine: "korean", diet: "vegan" }, seed);
      expect(body["title"]).toBe("Japchae");
      expect(body["diets"]).toContain("vegan");
    }
  });

  it("lists dishes of the cuisine searched for", async () => {
    const titles = new Set(dishesOf("thai").map((d) => d.title));
    const body = await recipe("searchRecipes", { cuisine: "thai" }, 2);
    expect(body["items"].length).toBeGreaterThan(0);
    for (const r of body["items"]) expect(titles.has(r["title"]), r["title"]).toBe(true);
  });

  it("leaves a restaurant or a cookbook with a cuisine alone (no recipe keys)", () => {
    const restaurant = { name: "Joe's Diner", cuisine: "japanese", rating: 4.2 };
    cohereEntities(restaurant, { seed: 1 });
    expect(restaurant.name).toBe("Joe's Diner");
  });
});
