/**
 * Sets of code points as sorted ranges: ECMAScript's class escapes and Unicode properties, and positions
 * in strings counted in code points (what patterns and JSON Schema lengths count).
 */
import type { RegexNode, SetItem } from "./regex-syntax.js";

/** A range of code points, both ends included. */
export type Range = readonly [number, number];

/** ECMAScript's `\s`: white space and line terminators. */
const WHITE_SPACE: readonly Range[] = [
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
];
const WORD: readonly Range[] = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
const DIGIT: readonly Range[] = [[0x30, 0x39]];

/** The code point ranges of a class escape. */
export function escapeRanges(name: "d" | "D" | "s" | "S" | "w" | "W"): readonly Range[] {
  const base = name === "d" || name === "D" ? DIGIT : name === "w" || name === "W" ? WORD : WHITE_SPACE;
  return name === name.toLowerCase() ? base : complement(base);
}

/** The code points not in a list of ranges. */
export function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}

const rangesByProperty = new Map<string, Range[]>();

/** The code point ranges of an ECMAScript Unicode property (scripts, script extensions, other binary properties), from the engine's own tables. */
export function propertyRanges(name: string): Range[] {
  let ranges = rangesByProperty.get(name);
  if (ranges === undefined) {
    // One property escape per test: a single-character match, linear by construction.
    const re = new RegExp(`^\\p{${name}}$`, "u");
    ranges = [];
    let lo = -1;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const inside = (cp < 0xd800 || cp > 0xdfff) && re.test(String.fromCodePoint(cp));
      if (inside && lo < 0) lo = cp;
      else if (!inside && lo >= 0) {
        ranges.push([lo, cp - 1]);
        lo = -1;
      }
    }
    if (lo >= 0) ranges.push([lo, 0x10ffff]);
    rangesByProperty.set(name, ranges);
  }
  return ranges;
}

/** The code points of a set node, as sorted ranges (negation applied). */
export function setRanges(node: Extract<RegexNode, { kind: "set" }>): Range[] {
  const ranges: Range[] = [];
  for (const item of node.items) ranges.push(...itemRanges(item));
  const merged = normalize(ranges);
  return node.negated ? complement(merged) : merged;
}

/** What `.` matches: anything but line terminators. */
export const DOT_RANGES: readonly Range[] = complement([[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]]);

function itemRanges(item: SetItem): readonly Range[] {
  switch (item.kind) {
    case "range":
      return [[item.lo, item.hi]];
    case "escape":
      return escapeRanges(item.name);
    case "property": {
      const ranges = propertyRanges(item.name);
      return item.negated ? complement(ranges) : ranges;
    }
  }
}

/** Sorted, merged ranges. */
export function normalize(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** Whether two sorted range lists share a code point. */
export function intersects(a: readonly Range[], b: readonly Range[]): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as Range;
    const y = b[j] as Range;
    if (x[1] < y[0]) i++;
    else if (y[1] < x[0]) j++;
    else return true;
  }
  return false;
}

// ---------------------------------------------------------------- code points

/** The length of a string in code points (what JSON Schema's lengths count). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The UTF-16 index after `k` code points, or -1 when the string is shorter. */
export function indexAfter(s: string, k: number): number {
  let i = 0;
  for (let n = 0; n < k; n++) {
    if (i >= s.length) return -1;
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff ? 2 : 1;
  }
  return i;
}

/** The UTF-16 index `k` code points before the end, or -1 when the string is shorter. */
export function indexBeforeEnd(s: string, k: number): number {
  let i = s.length;
  for (let n = 0; n < k; n++) {
    if (i <= 0) return -1;
    const c = s.charCodeAt(i - 1);
    i -= c >= 0xdc00 && c <= 0xdfff && i - 2 >= 0 && s.charCodeAt(i - 2) >= 0xd800 && s.charCodeAt(i - 2) <= 0xdbff ? 2 : 1;
  }
  return i;
}

/** The code points one character of a pattern may be (a literal, `.` or a set); undefined for anything else. */
export function atomRanges(node: RegexNode): readonly Range[] | undefined {
  switch (node.kind) {
    case "char":
      return [[node.cp, node.cp]];
    case "dot":
      return DOT_RANGES;
    case "set":
      return normalize(setRanges(node));
    default:
      return undefined;
  }
}
