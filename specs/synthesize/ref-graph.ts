import { getAt } from "../json-pointer.js";
import { isObject, type Json } from "../json-object.js";

/**
 * The `$ref`s of a document as a graph: which schemas can reach themselves (recursion), and how much
 * crossing a `$ref` adds to the ref level. Computed once per target.
 */
export class RefGraph {
  constructor(private readonly doc: Json) {}

  private readonly steps = new Map<string, number>();
  private readonly refsInside = new Map<string, Set<string>>();

  /**
   * How much crossing a `$ref` to a target adds to the ref level: 0 for a small, non-recursive wrapper
   * (`{data: ...}` envelopes should not make the entity inside them sparse), else 1.
   */
  levelStep(target: string): number {
    let step = this.steps.get(target);
    if (step === undefined) {
      const node = getAt(this.doc, target);
      const props = isObject(node) && isObject(node["properties"]) ? Object.keys(node["properties"]).length : 0;
      const small = isObject(node) && node["$ref"] === undefined && props <= 2 && node["allOf"] === undefined && node["anyOf"] === undefined && node["oneOf"] === undefined;
      step = small && !this.recursive(target) ? 0 : 1;
      this.steps.set(target, step);
    }
    return step;
  }

  /** The internal `$ref` targets used anywhere inside the schema at a pointer. */
  private refsOf(pointer: string): Set<string> {
    let refs = this.refsInside.get(pointer);
    if (!refs) {
      refs = refsIn(getAt(this.doc, pointer));
      this.refsInside.set(pointer, refs);
    }
    return refs;
  }

  /** Whether the schema at a pointer can reach itself through `$ref`s. */
  recursive(pointer: string): boolean {
    const seen = new Set<string>();
    const stack = [...this.refsOf(pointer)];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      if (next === pointer || pointer.startsWith(next + "/")) return true;
      if (seen.has(next) || seen.size > 5000) continue;
      seen.add(next);
      stack.push(...this.refsOf(next));
    }
    return false;
  }
}

/** The internal `$ref` targets written directly inside a node (not through other `$ref`s). */
export function refsIn(node: unknown): Set<string> {
  const found = new Set<string>();
  const walk = (n: unknown, depth: number): void => {
    if (typeof n !== "object" || n === null || depth > 64) return;
    if (Array.isArray(n)) {
      for (const x of n) walk(x, depth + 1);
      return;
    }
    for (const [k, v] of Object.entries(n)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#")) found.add(v === "#" ? "" : decodeURIComponent(v.slice(1)));
      else if (k !== "example" && k !== "examples" && k !== "default" && k !== "enum" && k !== "const") walk(v, depth + 1);
    }
  };
  walk(node, 0);
  return found;
}
