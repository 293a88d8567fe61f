import { deriveSeed } from "../../seed.js";
import { isObject, pointerSegment, type Json } from "../../json-object.js";
import { snakeName } from "../../snake-name.js";
import { cuisineKey, dishesOf, dishNamed, type Dish } from "./world-dishes.js";
import { set, type Ctx } from "./coherence-context.js";

/**
 * A recipe is a dish of its cuisine: one titled as a dish the world knows of another cuisine (an Indian curry's
 * example under a drawn `italian`, or under the `japanese` of `getRandomRecipe(cuisine=japanese)`) becomes one of its
 * cuisine's dishes, with its description, diets, ingredients and steps (those the call did not fix). A diet asked
 * for is kept; a title the world does not know is left as it is.
 */

/** Keys (snake case) only a recipe has: a restaurant or a cookbook with a cuisine is no dish. */
const RECIPE_ONLY = /^(ingredients|extended_ingredients|steps|instructions|directions|servings|ready_in_minutes|prep_minutes|cook_minutes|prep_time|cook_time|total_time|used_ingredient_count|missed_ingredient_count)$/;

/** A recipe's keys: its cuisine and its title, when it has both and is a recipe. */
export function recipeKeys(keys: readonly string[]): { cuisine: string; title: string } | undefined {
  const bySnake = new Map(keys.map((k) => [snakeName(k), k]));
  if (![...bySnake.keys()].some((k) => RECIPE_ONLY.test(k))) return undefined;
  const cuisine = bySnake.get("cuisine");
  const title = bySnake.get("title") ?? bySnake.get("recipe_title") ?? bySnake.get("recipe_name") ?? bySnake.get("name");
  return cuisine !== undefined && title !== undefined ? { cuisine, title } : undefined;
}

/** Whether a recipe's title names a dish of another cuisine than its own (a contradiction a reader sees). */
export function dishOfAnotherCuisine(o: Json, keys: { cuisine: string; title: string }): Dish | undefined {
  const cuisine = o[keys.cuisine];
  const title = o[keys.title];
  if (typeof cuisine !== "string" || typeof title !== "string") return undefined;
  const dish = dishNamed(title);
  return dish !== undefined && dishesOf(cuisine).length > 0 && dish.cuisine !== cuisineKey(cuisine) ? dish : undefined;
}

function pinnedUnder(ctx: Ctx, pointer: string): boolean {
  if (ctx.pinned.has(pointer)) return true;
  for (const p of ctx.pinned) if (p.startsWith(`${pointer}/`)) return true;
  return false;
}

/** Writes a list in place of another (undoable as one edit), unless a binding fixed any of it. */
function replaceList(ctx: Ctx, o: Json, key: string, at: string, list: unknown[]): void {
  const pointer = `${at}/${pointerSegment(key)}`;
  if (pinnedUnder(ctx, pointer)) return;
  ctx.edits.push({ holder: o, key, before: o[key], after: list, pointer });
  o[key] = list;
}

/** The first key of an item among these names (snake case). */
function itemKey(item: Json, names: readonly string[]): string | undefined {
  return Object.keys(item).find((k) => names.includes(snakeName(k)));
}

/** A recipe's ingredients as the dish's, in the shape of the list it had (names, or objects with their own keys). */
function ingredientsLike(list: unknown[], dish: Dish): unknown[] {
  const first = list.find(isObject);
  if (first === undefined) return dish.ingredients.map(([name]) => name);
  const nameKey = itemKey(first, ["name", "ingredient", "ingredient_name", "original_name"]);
  const amountKey = itemKey(first, ["amount", "quantity", "qty"]);
  const unitKey = itemKey(first, ["unit", "units", "unit_of_measure"]);
  return dish.ingredients.map(([name, amount, unit], i) => {
    const base = isObject(list[i]) ? { ...(list[i] as Json) } : { ...first };
    if (nameKey !== undefined) base[nameKey] = name;
    if (amountKey !== undefined) base[amountKey] = typeof first[amountKey] === "string" ? String(amount) : amount;
    if (unitKey !== undefined) base[unitKey] = unit;
    // A dish's own ingredients are not optional.
    for (const k of Object.keys(base)) if (/^(optional|is_optional)$/.test(snakeName(k)) && typeof base[k] === "boolean") base[k] = false;
    return base;
  });
}

/** A recipe's steps as the dish's, in the shape of the list it had (texts, or objects with a number and a text). */
function stepsLike(list: unknown[], dish: Dish): unknown[] {
  const first = list.find(isObject);
  if (first === undefined) return [...dish.steps];
  const textKey = itemKey(first, ["text", "step", "instruction", "description", "content"]);
  const numberKey = itemKey(first, ["number", "step_number", "position", "order", "index"]);
  return dish.steps.map((text, i) => {
    const base = isObject(list[i]) ? { ...(list[i] as Json) } : { ...first };
    if (textKey !== undefined) base[textKey] = text;
    if (numberKey !== undefined && typeof first[numberKey] === "number") base[numberKey] = i + 1;
    return base;
  });
}

/** Makes a recipe a dish of its cuisine (see above). */
export function cohereRecipe(ctx: Ctx, o: Json, at: string, index: number, keys: { cuisine: string; title: string }): void {
  const cuisine = o[keys.cuisine];
  const title = o[keys.title];
  if (typeof cuisine !== "string" || typeof title !== "string") return;
  const dishes = dishesOf(cuisine);
  const current = dishNamed(title);
  if (dishes.length === 0 || (current !== undefined && current.cuisine === cuisineKey(cuisine))) return;
  if (ctx.pinned.has(`${at}/${pointerSegment(keys.title)}`)) return;
  // A title the world does not know says no cuisine (a recipe the spec's examples show, `Chickpea and Spinach Curry`
  // of Indian cuisine, stays what it is).
  if (current === undefined) return;
  // A diet the call asked for (a filter on the recipe's diets) is one the dish keeps.
  const dietsKey = Object.keys(o).find((k) => /^(diets?|dietary_?(tags|labels)?)$/i.test(k));
  const diets = dietsKey !== undefined ? o[dietsKey] : undefined;
  const wanted = dietsKey !== undefined && Array.isArray(diets) && pinnedUnder(ctx, `${at}/${pointerSegment(dietsKey)}`) ? diets.filter((d): d is string => typeof d === "string") : [];
  const fitting = dishes.filter((d) => wanted.every((w) => d.diets.includes(w.toLowerCase())));
  if (fitting.length === 0) return;
  const dish = fitting[deriveSeed(ctx.seed, index, "dish") % fitting.length] as Dish;
  set(ctx, o, keys.title, dish.title, at);
  const descriptionKey = Object.keys(o).find((k) => /^(description|summary)$/i.test(k));
  set(ctx, o, descriptionKey, dish.description, at);
  if (dietsKey !== undefined && Array.isArray(diets) && wanted.length === 0) replaceList(ctx, o, dietsKey, at, [...dish.diets]);
  for (const [k, v] of Object.entries(o)) {
    if (!Array.isArray(v) || v.length === 0) continue;
    if (/^(ingredients|extended_?ingredients)$/i.test(k)) replaceList(ctx, o, k, at, ingredientsLike(v, dish));
    else if (/^(steps|instructions|directions|method)$/i.test(k)) replaceList(ctx, o, k, at, stepsLike(v, dish));
  }
}
