import { codePointLength, escapeRanges } from "../load/patterns/code-point-sets.js";
import { compileLinear } from "../load/patterns/linear-pattern.js";
import type { RegexNode, SetItem } from "../load/patterns/regex-syntax.js";
import { createRng, type Rng } from "../seed.js";

/** Options of `patternString`. */
export interface PatternStringOptions {
  seed: number;
  /** The schema's `minLength` / `maxLength` (code points). */
  minLength?: number;
  maxLength?: number;
  /** The longest string synthesis may build (the `maxStringLength` budget). */
  cap: number;
}

/** A string for a pattern, or why none was made (`cap`: the shortest match is longer than the budget allows). */
export type PatternStringResult = { ok: true; value: string } | { ok: false; reason: "cap" | "unsatisfiable" | "unusable"; minimum?: number };

const ATTEMPTS = 8;

/**
 * A string matching a spec pattern, read with the same (Unicode) semantics as validation, built from the
 * pattern itself: bounded by the length budget whatever the pattern (`^(a+)+$`, `a{1000000}`), checked with
 * the linear-time matcher before it is returned. Same pattern, lengths and seed -> the same string.
 */
export function patternString(pattern: string, options: PatternStringOptions): PatternStringResult {
  const compiled = compileLinear(pattern);
  if (!compiled.ok) return { ok: false, reason: "unusable" };
  const root = compiled.pattern.root;
  const shortest = minLength(root);
  const lower = Math.max(options.minLength ?? 0, shortest);
  const upper = Math.min(options.maxLength ?? Infinity, options.cap, maxLength(root));
  if (lower > options.cap) return { ok: false, reason: "cap", minimum: lower };
  if (lower > upper) return { ok: false, reason: "unsatisfiable" };
  const rng = createRng(options.seed);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    // Aim at a length a little above the shortest; later attempts use the room greedily.
    const target = Math.min(upper, lower + rng.int(0, Math.min(8, upper - lower)));
    const builder = new Builder(rng, target - shortest, attempt >= ATTEMPTS / 2);
    const out: number[] = [];
    if (!builder.node(root, out)) continue;
    const value = fromCodePoints(out);
    const length = codePointLength(value);
    if (length < (options.minLength ?? 0) || length > (options.maxLength ?? Infinity) || length > options.cap) continue;
    if (compiled.pattern.test(value)) return { ok: true, value };
  }
  return { ok: false, reason: "unsatisfiable" };
}

class Builder {
  constructor(
    private readonly rng: Rng,
    /** Characters left to spend above the shortest match. */
    private slack: number,
    private readonly greedy: boolean,
  ) {}

  node(node: RegexNode, out: number[]): boolean {
    switch (node.kind) {
      case "char":
        out.push(node.cp);
        return true;
      case "dot":
        out.push(this.rng.pick(DOT));
        return true;
      case "set": {
        const choices = candidates(node);
        if (choices.all.length === 0) return false;
        // Mostly letters and digits where the set has them: values read like the API's own.
        out.push(this.rng.pick(choices.readable.length > 0 && this.rng.chance(0.9) ? choices.readable : choices.all));
        return true;
      }
      case "group":
        return this.node(node.body, out);
      case "alt": {
        const base = minLength(node);
        const fitting = node.branches.filter((b) => seqMin(b) - base <= this.slack);
        if (fitting.length === 0) return false;
        const branch = this.rng.pick(fitting);
        this.slack -= seqMin(branch) - base;
        return branch.every((n) => this.node(n, out));
      }
      case "assert":
      case "look":
        return true; // checked on the whole string at the end
      case "backref":
        return false;
      case "repeat": {
        const unit = Math.max(1, minLength(node.body));
        const room = Math.min(node.max - node.min, Math.floor(this.slack / unit));
        const extra = room <= 0 ? 0 : this.greedy ? room : this.rng.int(0, Math.min(room, 3));
        this.slack -= extra * unit;
        // A body that may match nothing (`(?:a?){1000000}`) needs one round at most to match.
        const rounds = (minLength(node.body) === 0 ? Math.min(node.min, 1) : node.min) + extra;
        for (let i = 0; i < rounds; i++) if (!this.node(node.body, out)) return false;
        return true;
      }
    }
  }
}

function seqMin(seq: readonly RegexNode[]): number {
  let total = 0;
  for (const n of seq) total += minLength(n);
  return total;
}

const shortestCache = new WeakMap<RegexNode, number>();

/** The length of the shortest string a node matches (Infinity: none). */
function minLength(node: RegexNode): number {
  let hit = shortestCache.get(node);
  if (hit === undefined) {
    hit = shortest(node);
    shortestCache.set(node, hit);
  }
  return hit;
}

function shortest(node: RegexNode): number {
  switch (node.kind) {
    case "char":
    case "dot":
    case "set":
      return 1;
    case "group":
      return minLength(node.body);
    case "alt":
      return Math.min(...node.branches.map(seqMin));
    case "repeat":
      return node.min === 0 ? 0 : node.min * minLength(node.body);
    default:
      return 0;
  }
}

/** The length of the longest string a node matches (Infinity: unbounded). */
function maxLength(node: RegexNode): number {
  switch (node.kind) {
    case "char":
    case "dot":
    case "set":
      return 1;
    case "group":
      return maxLength(node.body);
    case "alt":
      return Math.max(...node.branches.map((b) => b.reduce((sum, n) => sum + maxLength(n), 0)));
    case "repeat": {
      const body = maxLength(node.body);
      return node.max === 0 || body === 0 ? 0 : node.max * body;
    }
    case "backref":
      return Infinity;
    default:
      return 0;
  }
}

/** A string of code points (in slices: no argument-count limit). */
function fromCodePoints(cps: readonly number[]): string {
  let out = "";
  for (let i = 0; i < cps.length; i += 4096) out += String.fromCodePoint(...cps.slice(i, i + 4096));
  return out;
}

const codes = (s: string): number[] => [...s].map((c) => c.codePointAt(0) as number);

/** Characters tried for a set, most readable first. */
const PREFERRED = codes(
  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.@:/+= ,;!?#$%&*()[]{}'\"~^`|\\<>" +
    "éèàüöäñçøåÉÀÜÖÄÑßαβγδεζηθλμπσωΑΒΓΔабвгдежзклмнопрстАБВГД日本語中文한국어" +
    "\u00a0\u2003\u3000\t\n\r\u00b7\u2013\u2014\u00a9\u00ae\u20ac\u00a3\u00a5\u00bd\u00b2\u0660\u0661\u0662\u2160",
);
/** What `.` generates: letters, digits and a little punctuation. */
const DOT = codes("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.@ !#");

interface Candidates {
  /** ASCII letters and digits in the set. */
  readable: number[];
  all: number[];
}

const candidateCache = new WeakMap<object, Candidates>();
const isAlnum = (cp: number): boolean => (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);

/** The characters a set may generate: the preferred ones it contains, else the first ones found in it. */
function candidates(node: Extract<RegexNode, { kind: "set" }>): Candidates {
  let found = candidateCache.get(node);
  if (found === undefined) {
    const inside = (cp: number): boolean => node.items.some((item) => itemHas(item, cp)) !== node.negated;
    const hit = PREFERRED.filter(inside);
    if (hit.length === 0) {
      // Explicit ranges first, then a scan of the Basic Multilingual Plane (bounded).
      for (const item of node.items) if (item.kind === "range" && !node.negated) for (let cp = item.lo; cp <= item.hi && hit.length < 16; cp++) if (!isSurrogate(cp) && inside(cp)) hit.push(cp);
      for (let cp = 0x20; cp <= 0xffff && hit.length < 16; cp++) if (!isSurrogate(cp) && inside(cp)) hit.push(cp);
      for (let cp = 0x10000; cp <= 0x10ffff && hit.length === 0; cp += 1) if (inside(cp)) hit.push(cp);
    }
    found = { readable: hit.filter(isAlnum), all: hit };
    candidateCache.set(node, found);
  }
  return found;
}

const isSurrogate = (cp: number): boolean => cp >= 0xd800 && cp <= 0xdfff;

const propertyTests = new Map<string, RegExp>();

function itemHas(item: SetItem, cp: number): boolean {
  switch (item.kind) {
    case "range":
      return cp >= item.lo && cp <= item.hi;
    case "escape":
      return escapeRanges(item.name).some(([lo, hi]) => cp >= lo && cp <= hi);
    case "property": {
      let re = propertyTests.get(item.name);
      if (re === undefined) {
        // One property escape on one character: linear by construction.
        re = new RegExp(`^\\p{${item.name}}$`, "u");
        propertyTests.set(item.name, re);
      }
      return re.test(String.fromCodePoint(cp)) !== item.negated;
    }
  }
}
