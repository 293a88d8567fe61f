import { isObject, pointerSegment, type Json } from "../../json-object.js";
import { snakeName } from "../../snake-name.js";
import type { Edits } from "../bindings/answer-edits.js";

/**
 * A recipe read for another number of servings (`getRecipe(servings=18)` over a recipe for 4) has its ingredients'
 * quantities scaled by as much: 400 g for four is 1,800 g for eighteen.
 */

const SERVINGS = /^(servings|portions|serves|yield|number_of_servings|servings_count)$/;
const AMOUNT = /^(amount|quantity|qty)$/;

/** Scales the ingredients of every record a read's servings changed (a number to another), through `edits` (not those a binding set). */
export function scaleToServings(edits: Edits): void {
  for (const e of [...edits.list]) {
    if (Array.isArray(e.holder) || typeof e.key !== "string" || !SERVINGS.test(snakeName(e.key))) continue;
    if (typeof e.before !== "number" || typeof e.after !== "number" || e.before <= 0 || e.after <= 0 || e.before === e.after) continue;
    const factor = e.after / e.before;
    const record = e.holder;
    const at = e.pointer.slice(0, e.pointer.lastIndexOf("/"));
    for (const [k, list] of Object.entries(record)) {
      if (!/ingredients$/i.test(k) || !Array.isArray(list)) continue;
      list.forEach((item, i) => {
        if (!isObject(item)) return;
        for (const [ak, amount] of Object.entries(item as Json)) {
          if (!AMOUNT.test(snakeName(ak)) || typeof amount !== "number") continue;
          const pointer = `${at}/${pointerSegment(k)}/${i}/${pointerSegment(ak)}`;
          if (edits.pinned.has(pointer) || edits.pinned.has(`${at}/${pointerSegment(k)}`)) continue;
          const scaled = Math.round(amount * factor * 100) / 100;
          edits.writeKey(item as Json, ak, pointer, Number.isInteger(amount) && scaled >= 10 ? Math.round(scaled) : scaled);
        }
      });
    }
  }
}
