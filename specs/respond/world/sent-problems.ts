import { isObject, pointerSegment, type Json } from "../../json-object.js";
import { isProblemMap } from "../../problem-maps.js";
import { snakeName } from "../../snake-name.js";

/**
 * A successful answer reports problems only with what its call sent: a map of problems by field
 * (`rejected: {created_at: "Expected a date but found a boolean."}`, an example's or a synthesized one) keeps the
 * entries that name a field the call sent (`properties.created_at`) or a value it sent (a record's id in a batch),
 * and loses the others. A call that sent no `created_at` had none rejected.
 */

/** Deepest level of the call and of the answer looked at. */
const MAX_DEPTH = 12;

/** The names and scalar values a call sent (keys at any depth, in their snake_case form too). */
function sentWords(args: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (isObject(v)) {
      for (const [k, x] of Object.entries(v)) {
        out.add(k.toLowerCase());
        out.add(snakeName(k));
        walk(x, depth + 1);
      }
    } else if (typeof v === "string" || typeof v === "number") out.add(String(v).toLowerCase());
  };
  walk(args, 0);
  return out;
}

/** Takes out of a successful answer's problem maps the entries about what the call did not send, through `remove`. */
export function keepSentProblems(args: unknown, body: unknown, remove: (holder: Json, key: string, pointer: string) => void): void {
  let sent: Set<string> | undefined;
  const visit = (v: unknown, at: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(v)) {
      v.forEach((x, i) => visit(x, `${at}/${i}`, depth + 1));
      return;
    }
    if (!isObject(v)) return;
    for (const [k, x] of Object.entries(v)) {
      const pointer = `${at}/${pointerSegment(k)}`;
      if (!isProblemMap(k, x)) {
        if (typeof x === "object" && x !== null) visit(x, pointer, depth + 1);
        continue;
      }
      sent ??= sentWords(args);
      for (const name of Object.keys(x)) {
        if (!sent.has(name.toLowerCase()) && !sent.has(snakeName(name))) remove(x, name, `${pointer}/${pointerSegment(name)}`);
      }
    }
  };
  visit(body, "", 0);
}
