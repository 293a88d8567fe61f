import { escapeSegment } from "../json-pointer.js";
import { isRecord, resolveInternalRef } from "../catalog/openapi-nodes.js";
import type { SpecProblem } from "./spec-problem.js";

/** Keywords whose subschemas apply to the same value as their schema (no step into the data). */
const SAME_VALUE_LISTS = ["allOf", "anyOf", "oneOf"];
const SAME_VALUE_SINGLES = ["not", "if", "then", "else"];
/** Keys whose values are data or vendor extensions, never followed. */
const DATA_KEYS = new Set(["example", "examples", "default", "enum", "const"]);

type Json = Record<string, unknown>;

/** The distinct internal `$ref` strings of a document, sorted. */
function internalRefs(doc: unknown): string[] {
  const refs = new Set<string>();
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item === "object" && item !== null) stack.push(item);
      continue;
    }
    if (!isRecord(node)) continue;
    for (const key in node) {
      const value = node[key];
      if (key === "$ref") {
        if (typeof value === "string" && value.startsWith("#")) refs.add(value);
      } else if (typeof value === "object" && value !== null && !DATA_KEYS.has(key) && !key.startsWith("x-")) stack.push(value);
    }
  }
  return [...refs].sort();
}

/** The nodes reached from a node without stepping into the data: its `$ref` target, and its same-value subschemas. */
function edgesOf(doc: unknown, node: Json, pointer: string): Array<{ node: Json; pointer: string }> {
  const out: Array<{ node: Json; pointer: string }> = [];
  const ref = node["$ref"];
  if (typeof ref === "string" && ref.startsWith("#")) {
    const target = resolveInternalRef(doc, ref);
    if (isRecord(target)) out.push({ node: target, pointer: safeDecode(ref.slice(1)) });
  }
  for (const key of SAME_VALUE_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((sub, i) => isRecord(sub) && out.push({ node: sub, pointer: `${pointer}/${key}/${i}` }));
  }
  for (const key of SAME_VALUE_SINGLES) {
    const sub = node[key];
    if (isRecord(sub)) out.push({ node: sub, pointer: `${pointer}/${key}` });
  }
  const dependent = node["dependentSchemas"];
  if (isRecord(dependent)) {
    for (const [name, sub] of Object.entries(dependent)) if (isRecord(sub)) out.push({ node: sub, pointer: `${pointer}/dependentSchemas/${escapeSegment(name)}` });
  }
  return out;
}

function safeDecode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/**
 * Finds `$ref` cycles that never step into the data: `A: {$ref: B}, B: {$ref: A}`, `A: {$ref: A}`, or
 * `A: {allOf: [{$ref: A}]}`. Such a schema (or parameter, response...) is defined only by itself: a
 * validator recurses forever on it. One error per cycle, at its first pointer in sorted order.
 * Recursion through `properties`, `items` and the like steps into the data and is fine.
 */
export function findRefCycles(doc: unknown, file: string): SpecProblem[] {
  // Same-value edges of the document tree only go down, so every cycle passes through a `$ref` target:
  // searching from the targets finds them all.
  const state = new Map<Json, "open" | "done">();
  const problems: SpecProblem[] = [];
  const reported = new Set<string>();
  for (const ref of internalRefs(doc)) {
    const start = resolveInternalRef(doc, ref);
    if (!isRecord(start) || state.has(start)) continue;
    // Iterative depth-first search; `path` holds the pointers of the open nodes.
    const path: string[] = [];
    const pending: Array<{ node: Json; pointer: string; edges?: Array<{ node: Json; pointer: string }>; next: number }> = [{ node: start, pointer: safeDecode(ref.slice(1)), next: 0 }];
    while (pending.length > 0) {
      const top = pending[pending.length - 1] as (typeof pending)[number];
      if (top.edges === undefined) {
        state.set(top.node, "open");
        path.push(top.pointer);
        top.edges = edgesOf(doc, top.node, top.pointer);
      }
      const edge = top.edges[top.next++];
      if (edge !== undefined) {
        const seen = state.get(edge.node);
        if (seen === undefined) pending.push({ node: edge.node, pointer: edge.pointer, next: 0 });
        else if (seen === "open") {
          const at = pending.findIndex((frame) => frame.node === edge.node);
          const cycle = path.slice(at);
          const key = [...cycle].sort().join("\u0000");
          if (!reported.has(key)) {
            reported.add(key);
            problems.push(cycleProblem(cycle, file));
          }
        }
        continue;
      }
      state.set(top.node, "done");
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
