import { atomRanges, intersects, type Range } from "./code-point-sets.js";
import type { RegexNode } from "./regex-syntax.js";

/**
 * Whether a `^`-anchored pattern is one-pass as written: at every choice (an alternative, one more repetition or
 * not) the ways forward start with disjoint characters, and no repetition can go around without consuming. On
 * such a pattern a backtracking engine follows one path: every other choice fails on the next character, so a
 * test costs a bounded number of steps per input character, however the input ends. The check is on the
 * pattern's own structure (not on a simplified form), since that is what the native engine runs; it is
 * conservative: undefined answers (too many ways, a nullable repetition) count as not one-pass.
 */
export function isOnePassPattern(branches: readonly (readonly RegexNode[])[]): boolean {
  if (branches.length === 0 || !branches.every((b) => b[0]?.kind === "assert" && b[0].what === "start")) return false;
  try {
    check({ kind: "alt", branches: branches.map((b) => [...b]) }, []);
    return true;
  } catch (e) {
    if (e instanceof Ambiguous) return false;
    throw e;
  }
}

class Ambiguous extends Error {}

/** One way into the rest of the pattern: the characters its first consuming step accepts. */
type Way = readonly Range[];

/** More ways than this at one choice: given up (not one-pass). */
const MAX_WAYS = 64;

/** Ways through a node that consume nothing (each one reaches what follows). */
function emptyWays(node: RegexNode): number {
  switch (node.kind) {
    case "char":
    case "dot":
    case "set":
      return 0;
    case "assert":
      return 1;
    case "group":
      return emptyWays(node.body);
    case "alt":
      return node.branches.reduce((sum, b) => sum + b.reduce((p, n) => p * emptyWays(n), 1), 0);
    case "repeat":
      return node.min === 0 ? 1 : emptyWays(node.body);
    default:
      throw new Ambiguous(); // lookarounds and backreferences never run natively
  }
}

/** The ways into a node, given the ways into what follows it. */
function ways(node: RegexNode, follow: readonly Way[]): Way[] {
  const a = atomRanges(node);
  let out: Way[];
  if (a !== undefined) out = [a];
  else {
    switch (node.kind) {
      case "assert":
        out = [...follow];
        break;
      case "group":
        out = ways(node.body, follow);
        break;
      case "alt":
        out = node.branches.flatMap((b) => seqWays(b, follow));
        break;
      case "repeat": {
        if (node.max === 0) out = [...follow];
        else {
          if (emptyWays(node.body) > 0) throw new Ambiguous(); // a repetition that may consume nothing
          const body = ways(node.body, []);
          out = node.min > 0 ? body : [...body, ...follow];
        }
        break;
      }
      default:
        throw new Ambiguous();
    }
  }
  if (out.length > MAX_WAYS) throw new Ambiguous();
  return out;
}

function seqWays(seq: readonly RegexNode[], follow: readonly Way[]): Way[] {
  let acc: Way[] = [...follow];
  for (let i = seq.length - 1; i >= 0; i--) acc = ways(seq[i] as RegexNode, acc);
  return acc;
}

/** Throws `Ambiguous` when two ways at one choice may take the same character. */
function disjoint(list: readonly Way[]): void {
  for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) if (intersects(list[i] as Way, list[j] as Way)) throw new Ambiguous();
}

function check(node: RegexNode, follow: readonly Way[]): void {
  switch (node.kind) {
    case "alt":
      if (emptyWays(node) > 1) throw new Ambiguous();
      disjoint(ways(node, follow));
      for (const b of node.branches) checkSeq(b, follow);
      return;
    case "group":
      check(node.body, follow);
      return;
    case "repeat": {
      if (node.max === 0) return;
      if (emptyWays(node.body) > 0) throw new Ambiguous();
      const body = ways(node.body, []);
      // After one pass through the body: another one (while the count allows), or what follows.
      const after = node.max > 1 ? [...body, ...follow] : [...follow];
      if (node.min < node.max) disjoint([...body, ...follow]);
      if (node.max > 1) disjoint(after);
      check(node.body, after);
      return;
    }
    default:
      return;
  }
}

function checkSeq(seq: readonly RegexNode[], follow: readonly Way[]): void {
  let acc: Way[] = [...follow];
  for (let i = seq.length - 1; i >= 0; i--) {
    const node = seq[i] as RegexNode;
    check(node, acc);
    acc = ways(node, acc);
  }
}
