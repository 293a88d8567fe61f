import { escapeSegment, getAt } from "./json-pointer.js";
import { isRecord } from "./openapi-nodes.js";
import type { SpecProblem } from "./spec-problem.js";

/** Keywords whose subschemas apply to the same value as their schema (no step into the data). */
const SAME_VALUE_LISTS = ["allOf", "anyOf", "oneOf"];
const SAME_VALUE_SINGLES = ["not", "if", "then", "else"];
/** Keys whose values are data or vendor extensions, never followed. */
const DATA_KEYS = new Set(["example", "examples", "default", "enum", "const"]);

/** The targets reached from a node without stepping into the data: its `$ref`, and its same-value subschemas. */
function edgesOf(doc: unknown, pointer: string): string[] {
  const node = safeGet(doc, pointer);
  if (!isRecord(node)) return [];
  const out: string[] = [];
  const ref = node["$ref"];
  if (typeof ref === "string" && ref.startsWith("#")) {
    const target = safeDecode(ref.slice(1));
    if (target !== undefined) out.push(target);
  }
  for (const key of SAME_VALUE_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((_, i) => out.push(`${pointer}/${key}/${i}`));
  }
  for (const key of SAME_VALUE_SINGLES) if (isRecord(node[key])) out.push(`${pointer}/${key}`);
  if (isRecord(node["dependentSchemas"])) {
    for (const name of Object.keys(node["dependentSchemas"])) out.push(`${pointer}/dependentSchemas/${escapeSegment(name)}`);
  }
  return out;
}

function safeGet(doc: unknown, pointer: string): unknown {
  try {
    return getAt(doc, pointer);
  } catch {
    return undefined;
  }
}

function safeDecode(fragment: string): string | undefined {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
}

/** The pointers of every object in a document that holds a `$ref` string (where cycles can start). */
function refHolders(doc: unknown): string[] {
  const out: string[] = [];
  const stack: Array<[unknown, string]> = [[doc, ""]];
  while (stack.length > 0) {
    const [node, pointer] = stack.pop() as [unknown, string];
    if (Array.isArray(node)) {
      node.forEach((item, i) => stack.push([item, `${pointer}/${i}`]));
      continue;
    }
    if (!isRecord(node)) continue;
    if (typeof node["$ref"] === "string") out.push(pointer);
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" || DATA_KEYS.has(key) || key.startsWith("x-")) continue;
      if (typeof value === "object" && value !== null) stack.push([value, `${pointer}/${escapeSegment(key)}`]);
    }
  }
  return out.sort();
}

/**
 * Finds `$ref` cycles that never step into the data: `A: {$ref: B}, B: {$ref: A}`, `A: {$ref: A}`, or
 * `A: {allOf: [{$ref: A}]}`. Such a schema (or parameter, response...) is defined only by itself: a
 * validator recurses forever on it. One error per cycle, at its first pointer in sorted order.
 */
export function findRefCycles(doc: unknown, file: string): SpecProblem[] {
  const state = new Map<string, "open" | "done">();
  const problems: SpecProblem[] = [];
  const reported = new Set<string>();
  for (const start of refHolders(doc)) {
    if (state.has(start)) continue;
    // Iterative depth-first search; `path` is the chain of open nodes.
    const path: string[] = [];
    const pending: Array<{ pointer: string; edges?: string[]; next: number }> = [{ pointer: start, next: 0 }];
    while (pending.length > 0) {
      const top = pending[pending.length - 1] as { pointer: string; edges?: string[]; next: number };
      if (top.edges === undefined) {
        state.set(top.pointer, "open");
        path.push(top.pointer);
        top.edges = edgesOf(doc, top.pointer);
      }
      if (top.next < top.edges.length) {
        const target = top.edges[top.next++] as string;
        const seen = state.get(target);
        if (seen === undefined) pending.push({ pointer: target, next: 0 });
        else if (seen === "open") {
          const cycle = path.slice(path.indexOf(target));
          const key = [...cycle].sort().join("\u0000");
          if (!reported.has(key)) {
            reported.add(key);
            problems.push(cycleProblem(cycle, file));
          }
        }
        continue;
      }
      state.set(top.pointer, "done");
      path.pop();
      pending.pop();
    }
  }
  return problems;
}

function cycleProblem(cycle: string[], file: string): SpecProblem {
  // Start the loop at its smallest pointer: the same cycle reads the same whichever node the search met first.
  const first = cycle.indexOf([...cycle].sort()[0] as string);
  const loop = [...cycle.slice(first), ...cycle.slice(0, first)];
  const chain = [...loop, loop[0] as string].map((p) => `#${p}`).join(" -> ");
  return {
    file,
    pointer: loop[0] as string,
    severity: "error",
    code: "ref-cycle",
    message: `$ref cycle that applies to the same value again and again: ${chain} (a validator would recurse forever)`,
  };
}
