import { RE2JS } from "re2js";
import { codePointLength, complement, escapeRanges, indexAfter, indexBeforeEnd, propertyRanges, type Range } from "./code-point-sets.js";
import { disjointTail, nativeSource, nativeTester, simplify } from "./native-pattern.js";
import { isOnePassPattern } from "./one-pass.js";
import { parsePattern, type RegexNode, type SetItem } from "./regex-syntax.js";

/**
 * Spec patterns run on a linear-time engine (RE2, through re2js): no pattern and no input can make a match
 * take more than time proportional to the input. A pattern is read as ECMAScript with Unicode semantics
 * (`regex-syntax.ts`) and written in RE2 syntax with the same meaning (`.` and `\s` as ECMAScript defines
 * them, Unicode properties by their ECMAScript names). What RE2 cannot express directly is translated where
 * the meaning stays exact: lookarounds at a fixed distance from an anchor become separate checks on a slice
 * of the input, and a repetition too large for RE2 in an otherwise fixed-width anchored pattern becomes a
 * length check. Backreferences and other lookarounds are refused (they need backtracking).
 */

/** A compiled pattern: `test` searches the input, as `RegExp.prototype.test` does. */
export interface LinearPattern {
  readonly source: string;
  test(input: string): boolean;
  /** Set when the pattern is not one RE2 run: what was translated (for `spec check`). */
  readonly translated?: string;
  /** The AST, for generating strings that match. */
  readonly root: Extract<RegexNode, { kind: "alt" }>;
  /** Compiles its RE2 programs now (they are compiled on first use otherwise); throws when RE2 refuses one. */
  ready(): void;
  /** Which engine runs it: JavaScript's own (for patterns it runs in linear time anyway, see `native-pattern.ts`) or RE2. */
  readonly engine: "native" | "re2";
  toString(): string;
}

/** A pattern compiled, or why it cannot run on a linear-time engine (`syntax`: not a valid pattern at all). */
export type LinearCompile = { ok: true; pattern: LinearPattern } | { ok: false; reason: string; syntax: boolean };

/** Patterns whose repetitions would expand beyond this many character matchers are too large for RE2. */
const MAX_WEIGHT = 20_000;
/** RE2's largest repetition count. */
const RE2_MAX_REPEAT = 1000;

const cache = new Map<string, LinearCompile>();

/** Compiles a pattern (cached): never throws. */
export function compileLinear(source: string): LinearCompile {
  let hit = cache.get(source);
  if (hit === undefined) {
    hit = compile(source);
    if (cache.size > 10_000) cache.clear();
    cache.set(source, hit);
  }
  return hit;
}

/** Whether a string matches a spec pattern (searching, as `RegExp.prototype.test`); false when the pattern cannot be compiled. */
export function patternTest(source: string, input: string): boolean {
  const compiled = compileLinear(source);
  return compiled.ok && compiled.pattern.test(input);
}

/**
 * The regular-expression engine of ajv (its `code.regExp` option): spec patterns compiled to linear-time
 * matchers. A pattern that cannot run in linear time makes the schema fail to compile, saying why.
 */
export const linearRegExp = Object.assign(
  (pattern: string, _flags: string): LinearPattern => {
    const compiled = compileLinear(pattern);
    if (!compiled.ok) throw new Error(`pattern ${JSON.stringify(pattern)} ${compiled.syntax ? "is not a valid regular expression" : "cannot run in linear time"}: ${compiled.reason}`);
    try {
      compiled.pattern.ready();
    } catch (err) {
      throw new Error(`pattern ${JSON.stringify(pattern)} cannot run in linear time: RE2 refuses it (${(err as Error).message.split("\n")[0] ?? "unknown error"})`);
    }
    return compiled.pattern;
  },
  { code: "toolsim linearRegExp" },
);

class Refusal extends Error {}

function compile(source: string): LinearCompile {
  const parsed = parsePattern(source);
  if (!parsed.ok) return { ok: false, reason: parsed.reason, syntax: true };
  const root = simplify(parsed.root) as Extract<RegexNode, { kind: "alt" }>;
  // Patterns a backtracking engine runs in linear time anyway run natively (no RE2 program).
  const native = nativeTester(root);
  if (native !== undefined) return { ok: true, pattern: { source, root, engine: "native", test: native, ready: () => undefined, toString: () => `/${source}/u` } };
  const programs: Array<() => void> = [];
  pending = programs;
  try {
    const notes: string[] = [];
    const tester = alternation(root.branches, notes);
    const translated = notes.length > 0 ? [...new Set(notes)].join("; ") : undefined;
    let compiled = false;
    const pattern: LinearPattern = {
      source,
      root,
      engine: "re2",
      test: (input) => tester(input),
      ready: () => {
        if (compiled) return;
        for (const program of programs) program();
        compiled = true;
      },
      toString: () => `/${source}/u`,
      ...(translated !== undefined ? { translated } : {}),
    };
    return { ok: true, pattern };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, reason: err.message, syntax: false };
    // RE2 refused what the translation wrote: a limit of the engine (program size, a lone surrogate...).
    return { ok: false, reason: `RE2 refuses it (${(err as Error).message.split("\n")[0] ?? "unknown error"})`, syntax: false };
  } finally {
    pending = undefined;
  }
}

type Tester = (input: string) => boolean;

/** The RE2 programs of the pattern being compiled, compiled by `ready()` (loading a spec only reads and translates its patterns). */
let pending: Array<() => void> | undefined;

/**
 * A tester of alternatives written as one RE2 program, compiled on first use (or by `ready()`). Where the
 * alternatives are one-pass as written (`one-pass.ts`: every choice decided by the next character), a
 * backtracking engine never goes back more than one step either: they then run on the native engine, many times
 * faster than RE2 in JavaScript on long inputs (RE2 takes over should the native engine ever throw).
 */
function programTester(branches: RegexNode[][]): Tester {
  const native = nativeTester({ kind: "alt", branches });
  if (native !== undefined) return native;
  const source = branches.length === 1 ? emitSeq(branches[0] as RegexNode[]) : branches.map((b) => `(?:${emitSeq(b)})`).join("|");
  let re: RE2JS | undefined;
  const get = (): RE2JS => (re ??= RE2JS.compile(source));
  pending?.push(() => void get());
  const onRe2: Tester = (input) => get().test(input);
  const js = isOnePassPattern(branches) ? nativeSource(branches) : undefined;
  let regex: RegExp | undefined;
  try {
    regex = js === undefined ? undefined : new RegExp(js, "u");
  } catch {
    regex = undefined;
  }
  if (regex === undefined) return onRe2;
  const fast = regex;
  return (input) => {
    try {
      return fast.test(input);
    } catch {
      return onRe2(input); // the native backtracking stack ran out: RE2 needs none
    }
  };
}

/** A tester for alternatives: plain branches in one RE2 program, translated ones each on its own. */
function alternation(branches: RegexNode[][], notes: string[]): Tester {
  const plain: RegexNode[][] = [];
  const testers: Tester[] = [];
  for (const seq of branches) {
    if (seq.some((n) => n.kind === "look") || seqWeight(seq) > RE2_MAX_REPEAT) testers.push(branchTester(seq, notes));
    else plain.push(disjointTail(seq));
  }
  if (plain.length > 0) testers.unshift(programTester(plain));
  if (testers.length === 1) return testers[0] as Tester;
  return (input) => testers.some((t) => t(input));
}

function seqWeight(seq: readonly RegexNode[]): number {
  return seq.reduce((sum, n) => sum + weight(n), 0);
}

interface Condition {
  /** Where the lookaround stands: code points from the start, or from the end. */
  from: "start" | "end";
  offset: number;
  ahead: boolean;
  negated: boolean;
  test: Tester;
}

function branchTester(seq: RegexNode[], notes: string[]): Tester {
  const anchoredStart = seq[0]?.kind === "assert" && seq[0].what === "start";
  const anchoredEnd = seq[seq.length - 1]?.kind === "assert" && (seq[seq.length - 1] as { what: string }).what === "end";
  const conditions: Condition[] = [];
  const main: RegexNode[] = [];
  for (let i = 0; i < seq.length; i++) {
    const node = seq[i] as RegexNode;
    if (node.kind !== "look") {
      main.push(node);
      continue;
    }
    const before = fixedWidthOf(seq.slice(0, i));
    const after = fixedWidthOf(seq.slice(i + 1));
    const label = `${node.ahead ? "lookahead" : "lookbehind"} (?${node.ahead ? "" : "<"}${node.negated ? "!" : "="}...)`;
    let at: { from: "start" | "end"; offset: number };
    if (anchoredStart && before !== undefined) at = { from: "start", offset: before };
    else if (anchoredEnd && after !== undefined) at = { from: "end", offset: after };
    else throw new Refusal(`a ${label} that is not at a fixed distance from ^ or $ needs backtracking`);
    // The body, anchored where the lookaround stands: a prefix of what follows, or a suffix of what precedes.
    const anchored = node.body.kind === "alt" ? node.body.branches : [[node.body]];
    const edge: RegexNode = { kind: "assert", what: node.ahead ? "start" : "end" };
    const bodyBranches = anchored.map((b) => (node.ahead ? [edge, ...b] : [...b, edge]));
    conditions.push({ ...at, ahead: node.ahead, negated: node.negated, test: alternation(bodyBranches, notes) });
    notes.push(`${label} checked separately, at its fixed distance from ${at.from === "start" ? "^" : "$"}`);
  }
  const { test: mainTest, length } = mainTester(main, anchoredStart, anchoredEnd, notes);
  return (input) => {
    if (length !== undefined) {
      const n = codePointLength(input);
      if (n < length.min || n > length.max) return false;
    }
    if (!mainTest(input)) return false;
    for (const c of conditions) {
      const cut = c.from === "start" ? indexAfter(input, c.offset) : indexBeforeEnd(input, c.offset);
      if (cut < 0) return false;
      const part = c.ahead ? input.slice(cut) : input.slice(0, cut);
      if (c.test(part) === c.negated) return false;
    }
    return true;
  };
}

/** The RE2 program of a branch without its lookarounds; a repetition too large for RE2 becomes a length check. */
function mainTester(seq: RegexNode[], anchoredStart: boolean, anchoredEnd: boolean, notes: string[]): { test: Tester; length?: { min: number; max: number } } {
  if (seq.some(containsLook)) throw new Refusal("a lookaround inside a group or repetition needs backtracking");
  const direct = (): { test: Tester } => {
    return { test: programTester([seq]) };
  };
  if (seqWeight(seq) <= RE2_MAX_REPEAT) return direct();
  // The heaviest repetition of one character, as X* plus a length check: exact when everything else has a
  // fixed width (`^[a-z]{1,5000}$`, `^.{0,65535}$`), and much cheaper than tracking every count.
  let index = -1;
  for (let i = 0; i < seq.length; i++) {
    const n = unwrap(seq[i] as RegexNode);
    if (n.kind === "repeat" && singleCharacter(n.body) && (index < 0 || weight(n) > weight(unwrap(seq[index] as RegexNode)))) index = i;
  }
  const big = index < 0 ? undefined : unwrap(seq[index] as RegexNode);
  const rest = seq.filter((_, i) => i !== index);
  const fixed = fixedWidthOf(rest);
  if (big?.kind !== "repeat" || weight(big) <= RE2_MAX_REPEAT || !anchoredStart || !anchoredEnd || fixed === undefined || seqWeight(rest) > MAX_WEIGHT) {
    if (seqWeight(seq) <= MAX_WEIGHT) return direct();
    throw new Refusal(`repetitions too large for a linear-time engine (more than ${MAX_WEIGHT} characters to track)`);
  }
  const loose = seq.map((n, i): RegexNode => (i === index ? { kind: "repeat", body: big.body, min: 0, max: Infinity } : n));
  notes.push(`repetition {${big.min},${big.max === Infinity ? "" : big.max}} checked as a length`);
  return { test: programTester([loose]), length: { min: fixed + big.min, max: fixed + big.max } };
}

function containsLook(node: RegexNode): boolean {
  switch (node.kind) {
    case "look":
      return true;
    case "alt":
      return node.branches.some((b) => b.some(containsLook));
    case "group":
    case "repeat":
      return containsLook(node.body);
    default:
      return false;
  }
}

/** A group of one node is that node. */
function unwrap(node: RegexNode): RegexNode {
  let n = node;
  for (;;) {
    const only = n.kind === "group" && n.body.kind === "alt" && n.body.branches.length === 1 && n.body.branches[0]?.length === 1 ? n.body.branches[0][0] : undefined;
    if (only === undefined) return n;
    n = only;
  }
}

function singleCharacter(node: RegexNode): boolean {
  const n = unwrap(node);
  return n.kind === "char" || n.kind === "dot" || n.kind === "set";
}

/** How many character matchers a node expands to in RE2 (repetitions unrolled). */
export function weight(node: RegexNode): number {
  switch (node.kind) {
    case "char":
    case "dot":
    case "set":
    case "backref":
      return 1;
    case "assert":
      return 0;
    case "alt":
      return node.branches.reduce((sum, b) => sum + b.reduce((s, n) => s + weight(n), 0), 0);
    case "group":
    case "look":
      return weight(node.body);
    case "repeat":
      return weight(node.body) * Math.max(1, node.max === Infinity ? node.min + 1 : node.max);
  }
}

/** The number of code points every match of a sequence has, or undefined when it varies. */
export function fixedWidthOf(seq: readonly RegexNode[]): number | undefined {
  let total = 0;
  for (const n of seq) {
    const w = fixedWidth(n);
    if (w === undefined) return undefined;
    total += w;
  }
  return total;
}

function fixedWidth(node: RegexNode): number | undefined {
  switch (node.kind) {
    case "char":
    case "dot":
    case "set":
      return 1;
    case "assert":
    case "look":
      return 0;
    case "backref":
      return undefined;
    case "group":
      return fixedWidth(node.body);
    case "alt": {
      let width: number | undefined;
      for (const b of node.branches) {
        const w = fixedWidthOf(b);
        if (w === undefined || (width !== undefined && w !== width)) return undefined;
        width = w;
      }
      return width ?? 0;
    }
    case "repeat": {
      if (node.min !== node.max) return undefined;
      const w = fixedWidth(node.body);
      return w === undefined ? undefined : w * node.min;
    }
  }
}

// ---------------------------------------------------------------- RE2 syntax

/** RE2 allows repetition counts whose product along any nesting is at most 1000 ("room" left for a node). */
function emitSeq(seq: readonly RegexNode[], room = RE2_MAX_REPEAT): string {
  return seq.map((n) => emit(n, room)).join("");
}

function emitAlt(node: Extract<RegexNode, { kind: "alt" }>, room: number): string {
  return node.branches.map((b) => emitSeq(b, room)).join("|");
}

function emit(node: RegexNode, room: number): string {
  switch (node.kind) {
    case "char":
      return literal(node.cp);
    case "dot":
      return "[^\\n\\r\\x{2028}\\x{2029}]";
    case "set":
      return emitSet(node.negated, node.items);
    case "group":
      return `(?:${node.body.kind === "alt" ? emitAlt(node.body, room) : emit(node.body, room)})`;
    case "alt":
      return `(?:${emitAlt(node, room)})`;
    case "assert":
      return node.what === "start" ? "^" : node.what === "end" ? "$" : node.what === "word" ? "\\b" : "\\B";
    case "repeat":
      return emitRepeat(node, room);
    case "backref":
      throw new Refusal("a backreference needs backtracking");
    case "look":
      throw new Refusal("a lookaround inside a group or repetition needs backtracking");
  }
}

/** The product of repetition counts a node needs inside it (1 when it has no counted repetition). */
function countProduct(node: RegexNode): number {
  switch (node.kind) {
    case "alt":
      return Math.max(1, ...node.branches.flatMap((b) => b.map(countProduct)));
    case "group":
    case "look":
      return countProduct(node.body);
    case "repeat": {
      const inner = countProduct(node.body);
      return uncounted(node) ? inner : Math.max(1, node.max === Infinity ? node.min : node.max) * inner;
    }
    default:
      return 1;
  }
}

/** `*`, `+` and `?`: repetitions RE2 does not count. */
function uncounted(node: Extract<RegexNode, { kind: "repeat" }>): boolean {
  return (node.max === Infinity && node.min <= 1) || (node.min === 0 && node.max === 1);
}

function emitRepeat(node: Extract<RegexNode, { kind: "repeat" }>, room: number): string {
  const { min, max } = node;
  const atomAt = (r: number): string => {
    const body = emit(node.body, r);
    return node.body.kind === "char" || node.body.kind === "set" || node.body.kind === "dot" || node.body.kind === "group" ? body : `(?:${body})`;
  };
  if (uncounted(node)) return atomAt(room) + (max === 1 ? "?" : min === 0 ? "*" : "+");
  const count = Math.max(1, max === Infinity ? min : max);
  if (count <= room) return atomAt(Math.floor(room / count)) + (min === max ? `{${min}}` : max === Infinity ? `{${min},}` : `{${min},${max}}`);
  // Too large for one repetition: X{2500,3200} is X{1000}X{1000}X{500} then X{0,700}, in chunks that leave the
  // body the room it needs (down to copies of X and X?, which RE2 does not count).
  const need = countProduct(node.body);
  const chunk = need <= room ? Math.max(1, Math.floor(room / need)) : 1;
  const atom = atomAt(chunk === 1 ? room : Math.floor(room / chunk));
  const counted = (lo: number, hi: number): string => (lo === 1 && hi === 1 ? atom : lo === 0 && hi === 1 ? `${atom}?` : lo === hi ? `${atom}{${lo}}` : `${atom}{${lo},${hi}}`);
  const parts: string[] = [];
  for (let left = min; left > 0; left -= chunk) parts.push(counted(Math.min(left, chunk), Math.min(left, chunk)));
  if (max === Infinity) parts.push(`${atom}*`);
  else for (let left = max - min; left > 0; left -= chunk) parts.push(counted(0, Math.min(left, chunk)));
  return `(?:${parts.join("")})`;
}

function literal(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return String.fromCharCode(cp);
  return `\\x{${cp.toString(16)}}`;
}

function emitRanges(ranges: readonly Range[]): string {
  return ranges.map(([lo, hi]) => (lo === hi ? literal(lo) : `${literal(lo)}-${literal(hi)}`)).join("");
}

function emitSet(negated: boolean, items: readonly SetItem[]): string {
  if (items.length === 0) return negated ? "[\\x{0}-\\x{10ffff}]" : "[^\\x{0}-\\x{10ffff}]";
  let body = "";
  for (const item of items) {
    if (item.kind === "range") body += item.lo === item.hi ? literal(item.lo) : `${literal(item.lo)}-${literal(item.hi)}`;
    else if (item.kind === "escape") body += emitRanges(escapeRanges(item.name));
    else body += emitProperty(item.name, item.negated);
  }
  return `[${negated ? "^" : ""}${body}]`;
}

/** ECMAScript's long General_Category names, by their short names (which RE2 knows). */
const CATEGORY_NAMES: Record<string, string> = {
  Letter: "L", Cased_Letter: "LC", Uppercase_Letter: "Lu", Lowercase_Letter: "Ll", Titlecase_Letter: "Lt", Modifier_Letter: "Lm", Other_Letter: "Lo",
  Mark: "M", Combining_Mark: "M", Nonspacing_Mark: "Mn", Spacing_Mark: "Mc", Enclosing_Mark: "Me",
  Number: "N", Decimal_Number: "Nd", digit: "Nd", Letter_Number: "Nl", Other_Number: "No",
  Punctuation: "P", punct: "P", Connector_Punctuation: "Pc", Dash_Punctuation: "Pd", Open_Punctuation: "Ps", Close_Punctuation: "Pe",
  Initial_Punctuation: "Pi", Final_Punctuation: "Pf", Other_Punctuation: "Po",
  Symbol: "S", Math_Symbol: "Sm", Currency_Symbol: "Sc", Modifier_Symbol: "Sk", Other_Symbol: "So",
  Separator: "Z", Space_Separator: "Zs", Line_Separator: "Zl", Paragraph_Separator: "Zp",
  Other: "C", Control: "Cc", cntrl: "Cc", Format: "Cf", Surrogate: "Cs", Private_Use: "Co", Unassigned: "Cn",
};
const SHORT_CATEGORIES = new Set(Object.values(CATEGORY_NAMES));

const emittedProperties = new Map<string, string>();

/** `\p{name}` in RE2 syntax: RE2's own table where it has the same property, else the ranges ECMAScript gives it. */
function emitProperty(name: string, negated: boolean): string {
  const key = `${negated ? "P" : "p"}${name}`;
  let out = emittedProperties.get(key);
  if (out === undefined) {
    const value = name.replace(/^(General_Category|gc)=/, "");
    const short = CATEGORY_NAMES[value] ?? value;
    if (SHORT_CATEGORIES.has(short) || (value === name && RE2_BINARY.has(short))) out = `\\${negated ? "P" : "p"}{${short}}`;
    else {
      const ranges = propertyRanges(name);
      out = emitRanges(negated ? complement(ranges) : ranges);
    }
    emittedProperties.set(key, out);
  }
  return out;
}

/** Binary properties RE2 knows under the names ECMAScript uses, with the same meaning. */
const RE2_BINARY = new Set(["Any", "Assigned", "Alphabetic", "ASCII_Hex_Digit", "Dash", "Emoji", "Emoji_Component", "Emoji_Modifier", "Emoji_Modifier_Base", "Emoji_Presentation", "Extended_Pictographic", "Hex_Digit", "Lowercase", "Math", "Quotation_Mark", "Terminal_Punctuation", "Uppercase", "White_Space"]);
