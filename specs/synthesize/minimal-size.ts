import { getAt } from "../json-pointer.js";
import { isObject } from "../json-object.js";
import { refsIn } from "./ref-graph.js";

type Json = Record<string, unknown>;


/** Sizes above this are all "huge" (and stay finite, unlike the size of a schema that has no finite value). */
const HUGE = 1e15;
/** Most evaluations of `$ref` targets while solving one root (an unsolved rest stays unknown, never "impossible"). */
const MAX_EVALUATIONS = 200_000;

/**
 * The size of the smallest value of a schema (how many JSON values it holds), by the keywords that force
 * size: required properties, `minItems`, `$ref`s, compositions. Infinity means no finite value exists at all
 * (`children` required with `minItems: 3` of the schema itself, at every level). Recursion is solved as a
 * least fixed point over the `$ref` targets reachable from a node; `unknown` targets (too many to solve) are
 * never reported as impossible. Used to end recursion where the schema allows it and to pick, deep down,
 * the branch of a union that ends soonest.
 */
export class MinimalSizes {
  private readonly solved = new Map<string, number>();
  private readonly unknown = new Set<string>();

  constructor(private readonly doc: unknown) {}

  private readonly known = new WeakMap<object, number | undefined>();

  /** The smallest size of a value of a node (Infinity: none; `undefined`: unknown). */
  of(node: unknown): number | undefined {
    if (typeof node !== "object" || node === null) return this.compute(node);
    if (this.known.has(node)) return this.known.get(node);
    const size = this.compute(node);
    this.known.set(node, size);
    return size;
  }

  private compute(node: unknown): number | undefined {
    const unknownBefore = this.unknown.size;
    this.solveFrom(node);
    const size = this.cost(node, (t) => this.solved.get(t) ?? Infinity, 0);
    if (size === Infinity && (this.unknown.size > unknownBefore || this.dependsOnUnknown(node))) return undefined;
    return size;
  }

  /** The smallest size of the schema at a pointer. */
  at(pointer: string): number | undefined {
    return this.of(getAt(this.doc, pointer));
  }

  private dependsOnUnknown(node: unknown): boolean {
    if (this.unknown.size === 0) return false;
    for (const t of this.reachable(node)) if (this.unknown.has(t)) return true;
    return false;
  }

  /** The `$ref` targets reachable from a node (transitively). */
  private reachable(node: unknown): Set<string> {
    const out = new Set<string>();
    const stack = [...refsIn(node)];
    while (stack.length > 0 && out.size < 50_000) {
      const t = stack.pop() as string;
      if (out.has(t)) continue;
      out.add(t);
      if (!this.solved.has(t) || this.unknown.has(t)) for (const r of refsIn(getAt(this.doc, t))) if (!out.has(r)) stack.push(r);
    }
    return out;
  }

  private solveFrom(node: unknown): void {
    const pending = [...this.reachable(node)].filter((t) => !this.solved.has(t));
    if (pending.length === 0) return;
    const estimate = new Map<string, number>(pending.map((t) => [t, Infinity]));
    const dependents = new Map<string, string[]>();
    for (const t of pending) {
      for (const r of refsIn(getAt(this.doc, t))) {
        if (!estimate.has(r)) continue;
        const list = dependents.get(r) ?? [];
        list.push(t);
        dependents.set(r, list);
      }
    }
    const lookup = (t: string): number => this.solved.get(t) ?? estimate.get(t) ?? Infinity;
    const queue = [...pending];
    const queued = new Set(queue);
    let evaluations = 0;
    while (queue.length > 0) {
      if (++evaluations > MAX_EVALUATIONS) break;
      const t = queue.shift() as string;
      queued.delete(t);
      const size = this.cost(getAt(this.doc, t), lookup, 0);
      if (size < (estimate.get(t) as number)) {
        estimate.set(t, size);
        for (const d of dependents.get(t) ?? []) {
          if (!queued.has(d)) {
            queued.add(d);
            queue.push(d);
          }
        }
      }
    }
    for (const [t, size] of estimate) {
      this.solved.set(t, size);
      if (queue.length > 0 && size === Infinity) this.unknown.add(t);
    }
  }

  private cost(node: unknown, ref: (target: string) => number, depth: number): number {
    if (node === false) return Infinity;
    if (!isObject(node) || depth > 64) return 1;
    if (node["const"] !== undefined || (Array.isArray(node["enum"]) && node["enum"].length > 0)) return 1;
    let extra = 0;
    const r = node["$ref"];
    if (typeof r === "string" && r.startsWith("#")) extra += ref(r === "#" ? "" : decodeURIComponent(r.slice(1))) - 1;
    if (Array.isArray(node["allOf"])) for (const part of node["allOf"]) extra += this.cost(part, ref, depth + 1) - 1;
    for (const key of ["anyOf", "oneOf"] as const) {
      const list = node[key];
      if (Array.isArray(list) && list.length > 0) extra += Math.min(...list.map((b) => this.cost(b, ref, depth + 1))) - 1;
    }
    if (extra === Infinity) return Infinity;
    const size = this.ownCost(node, ref, depth) + extra;
    return size === Infinity ? Infinity : Math.min(HUGE, size);
  }

  /** The size forced by a node's own type keywords. */
  private ownCost(node: Json, ref: (target: string) => number, depth: number): number {
    const t = node["type"];
    const types = typeof t === "string" ? [t] : Array.isArray(t) ? t : undefined;
    if (types !== undefined && types.some((x) => x === "null" || x === "string" || x === "number" || x === "integer" || x === "boolean")) return 1;
    const props = isObject(node["properties"]) ? node["properties"] : {};
    const objectish = types?.includes("object") ?? (node["properties"] !== undefined || node["required"] !== undefined);
    const arrayish = types?.includes("array") ?? (node["items"] !== undefined || node["minItems"] !== undefined);
    let best = types === undefined && !objectish && !arrayish ? 1 : Infinity;
    if (objectish) {
      let size = 1;
      const required = Array.isArray(node["required"]) ? node["required"] : [];
      for (const name of required) {
        if (typeof name !== "string") continue;
        size += Object.hasOwn(props, name) ? this.cost(props[name], ref, depth + 1) : 1;
        if (size === Infinity) break;
      }
      best = Math.min(best, size);
    }
    if (arrayish) {
      const min = typeof node["minItems"] === "number" ? node["minItems"] : 0;
      if (min <= 0) best = Math.min(best, 1);
      else {
        const prefix = Array.isArray(node["prefixItems"]) ? node["prefixItems"] : Array.isArray(node["items"]) ? node["items"] : [];
        const rest = Array.isArray(node["items"]) ? (node["additionalItems"] ?? {}) : (node["items"] ?? {});
        let size = 1;
        for (let i = 0; i < Math.min(min, prefix.length); i++) size += this.cost(prefix[i], ref, depth + 1);
        if (min > prefix.length) size += (min - prefix.length) * this.cost(rest, ref, depth + 1);
        best = Math.min(best, size);
      }
    }
    return best;
  }
}
