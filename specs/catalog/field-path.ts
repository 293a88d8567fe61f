import { isObject } from "../json-object.js";
/**
 * Paths to fields of JSON values, as bindings write them: names joined by dots, `[]` for every item of a
 * list, `[0]` for the first, `[-1]` for the last. `location.name`, `holidays[].date`, `[].region` (items of
 * a body that is a list), `offers[].outbound.segments[0].from`. A path reads every place it names
 * (`locate`) and is written place by place (each {@link FieldSpot} knows its holder).
 */

type Json = Record<string, unknown>;

/** One step of a path: a property (optional for a leading list) and the list selectors after it. */
export interface PathStep {
  key?: string;
  selectors: Array<"all" | number>;
}

const cache = new Map<string, PathStep[] | undefined>();

/** Parses a field path; undefined when it is not one (empty names, bad selectors). */
export function parsePath(path: string): PathStep[] | undefined {
  if (cache.has(path)) return cache.get(path);
  const steps: PathStep[] = [];
  let ok = path.trim() !== "";
  for (const raw of path.split(".")) {
    const m = /^([^[\]]*)((?:\[(?:-?\d+)?\])*)$/.exec(raw);
    if (!m) {
      ok = false;
      break;
    }
    const key = m[1] ?? "";
    const selectors: Array<"all" | number> = [];
    for (const s of (m[2] ?? "").match(/\[(-?\d+)?\]/g) ?? []) selectors.push(s === "[]" ? "all" : Number(s.slice(1, -1)));
    if (key === "" && (steps.length > 0 || selectors.length === 0)) {
      ok = false;
      break;
    }
    steps.push({ ...(key !== "" ? { key } : {}), selectors });
  }
  const out = ok ? steps : undefined;
  if (cache.size > 10_000) cache.clear();
  cache.set(path, out);
  return out;
}

/** Where a path lands in a value: the object or list holding the field, its key or index, and a JSON pointer. */
export interface FieldSpot {
  holder: Json | unknown[];
  key: string | number;
  value: unknown;
  pointer: string;
  /** The index of the list item this spot belongs to, for each `[]` on the way (outermost first). */
  items: number[];
}

function escape(segment: string): string {
  return segment.includes("~") || segment.includes("/") ? segment.replace(/~/g, "~0").replace(/\//g, "~1") : segment;
}

/** Every place a path names in a value (present fields only; lists expanded by their selectors). */
export function locate(value: unknown, path: string): FieldSpot[] {
  const steps = parsePath(path);
  if (!steps) return [];
  const only = steps.length === 1 ? steps[0] : undefined;
  if (only !== undefined && only.key !== undefined && only.selectors.length === 0) {
    // A plain name (the common case): the property itself, if present.
    const key = only.key;
    if (!isObject(value) || !Object.prototype.hasOwnProperty.call(value, key)) return [];
    return [{ holder: value, key, value: value[key], pointer: `/${escape(key)}`, items: [] }];
  }
  let frontier: Array<{ holder: Json | unknown[] | undefined; key: string | number | undefined; value: unknown; pointer: string; items: number[] }> = [
    { holder: undefined, key: undefined, value, pointer: "", items: [] },
  ];
  for (const step of steps) {
    const next: typeof frontier = [];
    for (const f of frontier) {
      let cur = [f];
      if (step.key !== undefined) {
        if (!isObject(f.value) || !Object.prototype.hasOwnProperty.call(f.value, step.key)) continue;
        cur = [{ holder: f.value, key: step.key, value: f.value[step.key], pointer: `${f.pointer}/${escape(step.key)}`, items: f.items }];
      }
      for (const sel of step.selectors) {
        const expanded: typeof cur = [];
        for (const c of cur) {
          if (!Array.isArray(c.value)) continue;
          const list = c.value;
          if (sel === "all") list.forEach((v, i) => expanded.push({ holder: list, key: i, value: v, pointer: `${c.pointer}/${i}`, items: [...c.items, i] }));
          else {
            const i = sel < 0 ? list.length + sel : sel;
            if (i >= 0 && i < list.length) expanded.push({ holder: list, key: i, value: list[i], pointer: `${c.pointer}/${i}`, items: c.items });
          }
        }
        cur = expanded;
      }
      next.push(...cur);
    }
    frontier = next;
  }
  return frontier.filter((f): f is FieldSpot => f.holder !== undefined && f.key !== undefined);
}

/** The value at the first place a path names (undefined when it names none): {@link locate}'s first, without its spots for a plain name. */
export function firstValue(value: unknown, path: string): unknown {
  const steps = parsePath(path);
  const only = steps?.length === 1 ? steps[0] : undefined;
  if (only === undefined || only.key === undefined || only.selectors.length > 0) return locate(value, path)[0]?.value;
  return isObject(value) && Object.prototype.hasOwnProperty.call(value, only.key) ? value[only.key] : undefined;
}

/** Writes a value at a spot. */
export function writeSpot(spot: FieldSpot, value: unknown): void {
  if (Array.isArray(spot.holder)) spot.holder[spot.key as number] = value;
  else spot.holder[spot.key as string] = value;
}

/** The path of the list a path goes through last (`holidays[].date` -> `holidays[]`), or undefined without one. */
export function listOf(path: string): string | undefined {
  const i = path.lastIndexOf("[]");
  return i < 0 ? undefined : path.slice(0, i + 2);
}

/** The part of a path after its last `[]` (`holidays[].date` -> `date`); the path itself without a list. */
export function withinItem(path: string): string {
  const i = path.lastIndexOf("[]");
  return i < 0 ? path : path.slice(i + 2).replace(/^\./, "");
}

/** The last property name of a path (`offers[].outbound.segments[0].from` -> `from`). */
export function lastName(path: string): string {
  const steps = parsePath(path);
  return steps?.[steps.length - 1]?.key ?? "";
}
