import { lastName, listOf, locate, type FieldSpot } from "../../catalog/field-path.js";
import type { Binding } from "./bindings.js";
import { agrees, dayOf, searchWords, sameValue } from "./binding-values.js";
import { fold } from "../../synthesize/world/world-data.js";
import { SIMULATED_TODAY } from "../../synthesize/world/simulated-today.js";
import { MAX_SPAN_ITEMS, spanLength } from "./span-args.js";

/**
 * The check of a response against its call's bindings: each place where the answer says something other
 * than the call (or the state) says, with the field, the argument and both values. A checker only: it reads
 * the call, the answer and (for references) the state, and never answers anything itself.
 */

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** One disagreement between an answer and a binding. */
export interface BindingViolation {
  binding: Binding;
  /** The concrete place in the answer (a JSON pointer: `/holidays/3/date`). */
  at: string;
  /** The field path of the binding (`holidays[].date`). */
  field: string;
  argument?: string;
  expected: unknown;
  actual: unknown;
  /** For a reference: the referenced resource (`/books/bk-1`) and its field (`price`). */
  resource?: { path: string; field: string };
  /** The disagreement in words: `field location.name is "Lisbon" where argument city is "Amsterdam"`. */
  message: string;
}

/** Looks a referenced resource up: a collection path and an id -> the resource, if the state has it. */
export type ResourceLookup = (collection: string, id: string) => Json | undefined;

function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

function argValues(args: unknown, path: string): FieldSpot[] {
  return locate(args, path).filter((s) => s.value !== undefined && s.value !== null && s.value !== "");
}

function numberOf(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  if (isObject(v)) return numberOf(v["amount"] ?? v["value"]);
  return undefined;
}

/** A route end's value: a code, or the code of an object (`{iataCode: "LIS"}`). */
function endOf(v: unknown): unknown {
  if (isObject(v)) return v["iataCode"] ?? v["iata"] ?? v["code"] ?? v["airport"] ?? v["city"] ?? v["name"];
  return v;
}

/** The noun a list's path names (`albums[]` -> `album`). */
function listNoun(path: string): string {
  const name = path.replace(/\[\]$/, "").split(".").pop() ?? "";
  return fold(name).replace(/ies$/, "y").replace(/s$/, "");
}

/** The values of the items of a list at `items` (a path to a list, `items[]`), field by field. */
function itemsOf(body: unknown, items: string): Json[] {
  return locate(body, items.endsWith("[]") ? items.slice(0, -2) : items).flatMap((s) => (Array.isArray(s.value) ? s.value.filter(isObject) : []));
}

/** Every violation of the bindings by an answer to a call with these arguments (the body of a successful answer). */
export function checkBindings(bindings: readonly Binding[], args: unknown, body: unknown, lookup?: ResourceLookup): BindingViolation[] {
  const out: BindingViolation[] = [];
  const push = (binding: Binding, spot: { pointer: string } | undefined, field: string, argument: string | undefined, expected: unknown, actual: unknown, message: string, resource?: { path: string; field: string }): void => {
    out.push({ binding, at: spot?.pointer ?? "", field, ...(argument !== undefined ? { argument } : {}), expected, actual, ...(resource ? { resource } : {}), message });
  };
  for (const b of bindings) {
    switch (b.kind) {
      case "equals":
      case "filter":
      case "route": {
        const arg = argValues(args, b.arg)[0]?.value;
        if (arg === undefined) break;
        const match = b.kind === "route" ? "exact" : (b.match ?? "exact");
        if (match === "selects") {
          for (const spot of locate(body, b.field.endsWith("[]") ? b.field.slice(0, -2) : b.field)) {
            if (Array.isArray(spot.value) && spot.value.length > 0 && listNoun(b.field) !== fold(String(arg)).replace(/s$/, "")) {
              push(b, spot, b.field, b.arg, `no ${b.field.replace(/\[\]$/, "")} (only ${String(arg)} results)`, `${spot.value.length} item(s)`, `field ${b.field} has ${spot.value.length} item(s) where argument ${b.arg} is ${show(arg)}`);
            }
          }
          break;
        }
        for (const spot of locate(body, b.field)) {
          const value = b.kind === "route" ? endOf(spot.value) : spot.value;
          if (isObject(value) && !isObject(arg)) continue;
          const ok = agrees(value, arg, match);
          if (ok === false) push(b, spot, b.field, b.arg, arg, value, `field ${b.field} is ${show(value)} where argument ${b.arg} is ${show(arg)}${match !== "exact" ? ` (${match})` : ""}`);
        }
        break;
      }
      case "range": {
        const arg = argValues(args, b.arg)[0]?.value;
        if (arg === undefined) break;
        const boundDay = dayOf(arg);
        for (const spot of locate(body, b.field)) {
          const d = dayOf(spot.value);
          let bad = false;
          if (boundDay !== undefined && d !== undefined) bad = b.bound === "min" ? d < boundDay : d > boundDay;
          else {
            const v = numberOf(spot.value);
            const limit = numberOf(arg);
            if (v === undefined || limit === undefined) continue;
            bad = b.bound === "min" ? v < limit : v > limit;
          }
          if (bad) push(b, spot, b.field, b.arg, `${b.bound === "min" ? ">=" : "<="} ${show(arg)}`, spot.value, `field ${b.field} is ${show(spot.value)} where argument ${b.arg} asks ${b.bound === "min" ? "at least" : "at most"} ${show(arg)}`);
        }
        break;
      }
      case "search": {
        const arg = argValues(args, b.arg)[0]?.value;
        if (arg === undefined || typeof arg === "object") break;
        const words = searchWords(arg);
        if (words.length === 0) break;
        const list = b.fields.map(listOf).find((l) => l !== undefined);
        if (list === undefined) break;
        const items = locate(body, list);
        for (const item of items) {
          if (!isObject(item.value)) continue;
          const texts: string[] = [];
          for (const f of b.fields) {
            const inner = f.slice(list.length).replace(/^\./, "");
            for (const s of locate(item.value, inner)) if (typeof s.value === "string" || typeof s.value === "number") texts.push(fold(String(s.value)));
          }
          if (texts.length === 0) continue;
          if (!words.some((w) => texts.some((t) => t.includes(w)))) {
            const label = texts[0] ?? "";
            push(b, item, b.fields[0] ?? list, b.arg, `an item mentioning ${show(arg)}`, label, `item ${item.pointer} (${show(label)}) of ${list} does not mention argument ${b.arg} ${show(arg)}`);
          }
        }
        break;
      }
      case "today": {
        if (b.arg !== undefined && argValues(args, b.arg).length > 0) break;
        let first: { spot: FieldSpot; day: string } | undefined;
        for (const spot of locate(body, b.field)) {
          const d = dayOf(spot.value);
          if (d === undefined) continue;
          if (first === undefined || d < first.day) first = { spot, day: d };
          const bad = b.bound === "equals" ? d !== SIMULATED_TODAY : b.bound === "min" ? d < SIMULATED_TODAY : d > SIMULATED_TODAY;
          const wanted = b.bound === "equals" ? "today" : b.bound === "min" ? "on or after today" : "on or before today";
          if (bad) push(b, spot, b.field, b.arg, `${wanted} (${SIMULATED_TODAY})`, spot.value, `field ${b.field} is ${show(spot.value)} where the answer is dated ${wanted} (${SIMULATED_TODAY})`);
        }
        // A list that starts today (a forecast) whose first day is later.
        if (b.starts === true && first !== undefined && first.day > SIMULATED_TODAY) {
          push(b, first.spot, b.field, b.arg, `starting today (${SIMULATED_TODAY})`, first.spot.value, `field ${b.field} starts ${show(first.spot.value)} where the answer starts today (${SIMULATED_TODAY})`);
        }
        break;
      }
      case "span": {
        const asked = spanLength(argValues(args, b.arg)[0]?.value);
        if (asked === undefined) break;
        for (const spot of locate(body, b.field.endsWith("[]") ? b.field.slice(0, -2) : b.field)) {
          // An empty list says there is nothing to list (no forecast for that place): only a shorter run contradicts the call.
          if (!Array.isArray(spot.value) || spot.value.length === 0 || spot.value.length >= Math.min(asked, MAX_SPAN_ITEMS)) continue;
          push(b, spot, b.field, b.arg, `${Math.min(asked, MAX_SPAN_ITEMS)} item(s)`, `${spot.value.length} item(s)`, `field ${b.field} lists ${spot.value.length} item(s) where argument ${b.arg} asks for ${asked} ${b.unit}(s)`);
        }
        break;
      }
      case "effect": {
        for (const spot of locate(body, b.field)) {
          if (!sameValue(spot.value, b.value)) push(b, spot, b.field, undefined, b.value, spot.value, `field ${b.field} is ${show(spot.value)} where the action leaves it ${show(b.value)}`);
        }
        break;
      }
      case "reference": {
        if (!lookup) break;
        for (const ref of argValues(args, b.arg)) {
          if (typeof ref.value !== "string" && typeof ref.value !== "number") continue;
          const target = lookup(b.collection, String(ref.value));
          if (!target) continue;
          for (const [field, theirs] of Object.entries(b.fields)) {
            if (target[theirs] === undefined) continue;
            const spots = locate(body, field).filter((s) => s.items.length === 0 || ref.items.length === 0 || s.items[0] === ref.items[0]);
            for (const spot of spots) {
              if (spot.value === undefined || sameValue(spot.value, target[theirs])) continue;
              push(b, spot, field, b.arg, target[theirs], spot.value, `field ${field} is ${show(spot.value)} where ${b.collection}/${String(ref.value)} (argument ${b.arg}) has ${theirs} ${show(target[theirs])}`, { path: `${b.collection}/${String(ref.value)}`, field: theirs });
            }
          }
        }
        break;
      }
      case "total": {
        const expected = totalOf(b, body);
        if (expected === undefined) break;
        for (const spot of locate(body, b.field)) {
          const v = numberOf(spot.value);
          if (v !== undefined && Math.abs(v - expected) > 0.011) push(b, spot, b.field, undefined, expected, spot.value, `field ${b.field} is ${show(spot.value)} where its parts add up to ${expected}`);
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/** What a total binding computes from a body (rounded to cents), or undefined when a part is missing. */
export function totalOf(b: Extract<Binding, { kind: "total" }>, body: unknown): number | undefined {
  let sum = 0;
  if (b.items !== undefined) {
    const items = itemsOf(body, b.items);
    if (items.length === 0 && locate(body, b.items.replace(/\[\]$/, "")).length === 0) return undefined;
    for (const item of items) {
      const price = b.price !== undefined ? numberOf(item[b.price]) : 1;
      const quantity = b.quantity !== undefined ? (numberOf(item[b.quantity]) ?? 1) : 1;
      if (price === undefined) return undefined;
      sum += price * quantity;
    }
  }
  for (const a of b.add ?? []) {
    const v = numberOf(locate(body, a)[0]?.value);
    if (v === undefined) {
      if (lastName(a) === a && a === (b.add ?? [])[0]) return undefined;
      continue;
    }
    sum += v;
  }
  for (const s of b.subtract ?? []) sum -= numberOf(locate(body, s)[0]?.value) ?? 0;
  return Math.round(sum * 100) / 100;
}
