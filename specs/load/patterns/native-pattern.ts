import { atomRanges, complement, intersects, normalize, type Range } from "./code-point-sets.js";
import type { RegexNode, SetItem } from "./regex-syntax.js";

/**
 * The patterns a backtracking engine runs in linear time anyway, run on the native engine (much faster than
 * RE2 in JavaScript): a `^`-anchored sequence of characters, sets and repeated sets in which no repetition can
 * give a character back to what follows it (the characters it repeats and the ones that may come next are
 * disjoint: `^[a-z]+@[a-z]+\.[a-z]{2,}$`, `^\d{3}-\d{4}$`, `^[\p{L}\p{N} ]*$`). On such a pattern every
 * backtracking step fails at once, so a match costs at most a few steps per character. Anything else runs on RE2.
 */
export function nativeTester(root: Extract<RegexNode, { kind: "alt" }>): ((input: string) => boolean) | undefined {
  if (root.branches.length !== 1) return undefined;
  const seq = (root.branches[0] as RegexNode[]).map(unwrap);
  if (seq[0]?.kind !== "assert" || seq[0].what !== "start") return undefined;
  let end = seq.length;
  const last = seq[end - 1];
  const anchoredEnd = last?.kind === "assert" && last.what === "end";
  if (anchoredEnd) end--;
  const items = seq.slice(1, end);
  const sets: Array<readonly Range[]> = [];
  for (const item of items) {
    const atom = item.kind === "repeat" ? unwrap(item.body) : item;
    const ranges = atomRanges(atom);
    if (ranges === undefined) return undefined;
    sets.push(ranges);
  }
  // Each variable repetition: disjoint from everything that may follow it, up to the first required item.
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as RegexNode;
    if (item.kind !== "repeat" || item.min === item.max) continue;
    for (let j = i + 1; j < items.length; j++) {
      if (intersects(sets[i] as readonly Range[], sets[j] as readonly Range[])) return undefined;
      const next = items[j] as RegexNode;
      if (next.kind !== "repeat" || next.min > 0) break;
    }
  }
  const source = `^${items.map(emit).join("")}${anchoredEnd ? "$" : ""}`;
  let re: RegExp;
  try {
    re = new RegExp(source, "u");
  } catch {
    return undefined;
  }
  return (input) => re.test(input);
}

/**
 * The same pattern with nested `*`, `+` and `?` merged (`(a+)+` is `a+`, `(a*)+` is `a*`): fewer choices for
 * any engine, and a form `nativeTester` may accept.
 */
export function simplify(node: RegexNode): RegexNode {
  switch (node.kind) {
    case "alt":
      return { kind: "alt", branches: node.branches.map((b) => b.map(simplify)) };
    case "group": {
      const body = simplify(node.body);
      return { kind: "group", body };
    }
    case "look":
      return { ...node, body: simplify(node.body) };
    case "repeat": {
      const body = simplify(node.body);
      const inner = unwrap(body);
      if (inner.kind === "repeat" && plain(node) && plain(inner) && (node.max === Infinity || inner.max === Infinity || (node.max === 1 && inner.max === 1))) {
        // Both among *, + and ?: the minimum is 1 only when both are +, and the maximum 1 only when both are ?.
        return { kind: "repeat", body: inner.body, min: node.min * inner.min, max: node.max === 1 && inner.max === 1 ? 1 : Infinity };
      }
      return { kind: "repeat", body, min: node.min, max: node.max };
    }
    default:
      return node;
  }
}

/** `*`, `+` or `?`. */
function plain(node: Extract<RegexNode, { kind: "repeat" }>): boolean {
  return (node.min === 0 || node.min === 1) && (node.max === 1 || node.max === Infinity) && node.min <= node.max;
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

function emit(node: RegexNode): string {
  if (node.kind === "repeat") {
    const atom = emit(unwrap(node.body));
    const { min, max } = node;
    return atom + (max === Infinity ? (min === 0 ? "*" : min === 1 ? "+" : `{${min},}`) : min === max ? `{${min}}` : `{${min},${max}}`);
  }
  if (node.kind === "char") return literal(node.cp);
  if (node.kind === "dot") return ".";
  if (node.kind === "set") return `[${node.negated ? "^" : ""}${node.items.map(emitItem).join("")}]`;
  throw new Error(`not a native atom: ${node.kind}`);
}

function emitItem(item: SetItem): string {
  if (item.kind === "range") return item.lo === item.hi ? literal(item.lo) : `${literal(item.lo)}-${literal(item.hi)}`;
  if (item.kind === "escape") return `\\${item.name}`;
  return `\\${item.negated ? "P" : "p"}{${item.name}}`;
}

function literal(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return String.fromCharCode(cp);
  return `\\u{${cp.toString(16)}}`;
}

/**
 * The native source (flag `u`) of alternatives without lookarounds or backreferences, with the meaning of the RE2
 * program written for them; undefined when a node has no native form here.
 */
export function nativeSource(branches: readonly (readonly RegexNode[])[]): string | undefined {
  try {
    return branches.map((b) => b.map(emitAny).join("")).join("|");
  } catch {
    return undefined;
  }
}

function emitAny(node: RegexNode): string {
  switch (node.kind) {
    case "char":
    case "dot":
    case "set":
      return emit(node);
    case "group":
      return `(?:${emitAny(node.body)})`;
    case "alt":
      return `(?:${node.branches.map((b) => b.map(emitAny).join("")).join("|")})`;
    case "assert":
      return node.what === "start" ? "^" : node.what === "end" ? "$" : node.what === "word" ? "\\b" : "\\B";
    case "repeat": {
      const { min, max } = node;
      return `(?:${emitAny(node.body)})${max === Infinity ? (min === 0 ? "*" : min === 1 ? "+" : `{${min},}`) : min === max ? `{${min}}` : `{${min},${max}}`}`;
    }
    default:
      throw new Error(`no native form: ${node.kind}`);
  }
}

/**
 * A branch whose end is not anchored and that ends in `S*X` (S and X single characters: `.*[A-Z]`, the body of
 * a lookahead `(?=.*\d)`), with `S*` replaced by `(S minus X)*`. A search for it finds the same inputs: some
 * prefix of S-characters is followed by an X exactly when the first character outside `S minus X` is an X.
 * The result has no choice left (the repetition and X are disjoint), which `nativeTester` runs natively.
 */
export function disjointTail(seq: readonly RegexNode[]): RegexNode[] {
  const last = seq[seq.length - 1];
  const before = seq[seq.length - 2];
  if (last === undefined || before === undefined) return [...seq];
  const x = atomRanges(unwrap(last));
  const loop = unwrap(before);
  if (x === undefined || loop.kind !== "repeat" || loop.min !== 0 || loop.max !== Infinity) return [...seq];
  const s = atomRanges(unwrap(loop.body));
  if (s === undefined) return [...seq];
  const rest = complement(normalize([...complement(s), ...x]));
  const items: SetItem[] = rest.map(([lo, hi]) => ({ kind: "range", lo, hi }));
  return [...seq.slice(0, -2), { kind: "repeat", body: { kind: "set", negated: false, items }, min: 0, max: Infinity }, last];
}
