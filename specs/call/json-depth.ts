/**
 * The deepest nesting of objects and arrays accepted in a request body or in a call's arguments. Real APIs stay
 * far below it; much deeper documents would exhaust the stack of the recursive steps after parsing.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * The nesting depth of a JSON text (objects and arrays; brackets inside strings do not count), found by one scan
 * of the text without parsing it. Malformed text still gets a number (the parser reports what is wrong).
 */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return max;
}

/** The nesting depth of a value (0 for a scalar), counted without recursion and up to `limit` (then `limit`). */
export function valueDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  if (typeof value !== "object" || value === null) return 0;
  let max = 0;
  const stack: Array<[object, number]> = [[value, 1]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [object, number];
    if (depth > max) max = depth;
    if (max >= limit) return limit;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return max;
}
