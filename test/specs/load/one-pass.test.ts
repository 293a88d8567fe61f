import { describe, expect, it } from "vitest";
import { compileLinear } from "../../../specs/load/patterns/linear-pattern.js";
import { disjointTail } from "../../../specs/load/patterns/native-pattern.js";
import { isOnePassPattern } from "../../../specs/load/patterns/one-pass.js";
import { parsePattern, type RegexNode } from "../../../specs/load/patterns/regex-syntax.js";
import { createRng, type Rng } from "../../../specs/seed.js";

/**
 * Large strings on the pattern engine (issue 14): one-pass patterns run natively (a backtracking engine goes
 * back at most one step on them), `S*X` tails (lookahead bodies such as `.*\d`) lose their choice, and both
 * keep the answers of ECMAScript with the u flag. Speed is measured by bench/patterns.ts, not here.
 */

function branches(pattern: string): RegexNode[][] {
  const parsed = parsePattern(pattern);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.root.branches;
}

function test(pattern: string, input: string): boolean {
  const compiled = compileLinear(pattern);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.reason}`);
  return compiled.pattern.test(input);
}

describe("one-pass patterns", () => {
  it("tells one-pass patterns from those where a choice depends on more than the next character", () => {
    for (const p of ["^[a-z0-9]+(?:-[a-z0-9]+)*$", "^(ab|cd)*e$", "^(https?|ftp)://[^\\s/$.?#].[^\\s]*$", "^(?:x(?:ab)*y)*z$", "^\\d{3}-\\d{4}$", "^(\\p{Emoji}|a)+$"]) {
      expect(isOnePassPattern(branches(p)), p).toBe(true);
    }
    for (const p of [
      "^(a|a)*$", // two ways to the same character
      "^(?:a+)*b$", // the outer and the inner repetition both take an a
      "^(\\w+\\s?)*$", // a word may end a pass or go on
      "^(?:[a-z]+-)*[a-z]+$",
      "^(?:a?)*$", // a repetition that may consume nothing
      "^(?:GET|POST|PUT)$", // P starts two alternatives
      "[a-z]+$", // not anchored: a search starts at every position
    ]) {
      expect(isOnePassPattern(branches(p)), p).toBe(false);
    }
  });

  it("gives the right answers on megabyte inputs that end badly (the inputs that make backtracking engines explode)", () => {
    const MB = 1_000_000;
    const cases: Array<[string, string, boolean]> = [
      ["^[a-z0-9]+(?:-[a-z0-9]+)*$", `${"ab-".repeat(MB / 3)}x`, true],
      ["^[a-z0-9]+(?:-[a-z0-9]+)*$", `${"ab-".repeat(MB / 3)}-`, false],
      ["^(ab|cd)*e$", `${"abcd".repeat(MB / 4)}`, false],
      ["^(ab|cd)*e$", `${"abcd".repeat(MB / 4)}e`, true],
      ["^(?=.*[A-Z])(?=.*\\d)[A-Za-z\\d]{8,}$", `${"a".repeat(MB)}A1`, true],
      ["^(?=.*[A-Z])(?=.*\\d)[A-Za-z\\d]{8,}$", `${"a".repeat(MB)}A`, false],
      ["^(?!.*--)[a-z-]+$", `${"a-".repeat(MB / 2)}-`, false],
      ["^(\\p{Emoji}|a)+$", "😀a".repeat(MB / 3), true],
      ["^(\\p{Emoji}|a)+$", `${"😀a".repeat(MB / 3)}b`, false],
      ["^(a|a)*$", `${"a".repeat(MB)}b`, false],
      ["^(\\w+\\s?)*$", `${"word ".repeat(MB / 5)}!`, false],
    ];
    for (const [pattern, input, expected] of cases) expect(test(pattern, input), pattern).toBe(expected);
  });

  it("an `S*X` tail loses its choice and keeps its meaning", () => {
    const tail = disjointTail(branches("^.*[A-Z]")[0] as RegexNode[]);
    expect(isOnePassPattern([tail])).toBe(true);
    expect(disjointTail(branches("^.*[A-Z]$")[0] as RegexNode[])).toEqual(branches("^.*[A-Z]$")[0]); // anchored end: unchanged
  });

  it("keeps ECMAScript's answers (seeded random one-pass-shaped patterns, `S*X` tails and lookaheads)", () => {
    const rng = createRng(1414);
    let compared = 0;
    let onePass = 0;
    for (let i = 0; i < 300; i++) {
      const pattern = randomPattern(rng);
      const native = new RegExp(pattern, "u");
      const compiled = compileLinear(pattern);
      expect(compiled.ok, pattern).toBe(true);
      if (!compiled.ok) continue;
      if (isOnePassPattern(compiled.pattern.root.branches)) onePass++;
      for (let k = 0; k < 30; k++) {
        const input = randomInput(rng);
        expect(compiled.pattern.test(input), `/${pattern}/u on ${JSON.stringify(input)}`).toBe(native.test(input));
        compared++;
      }
    }
    expect(compared).toBe(9000);
    expect(onePass).toBeGreaterThan(60);
  });
});

const PIECES = ["a", "b", "-", "\\d", "[a-c]", "[^a-c\\n]", "\\p{Lu}", "é", ".", "x"];
const QUANTIFIERS = ["", "", "*", "+", "?", "{2}", "{1,3}"];

function randomPattern(rng: Rng): string {
  const term = (depth: number): string => {
    if (depth < 2 && rng.chance(0.25)) return `(?:${seq(depth + 1)}|${seq(depth + 1)})${rng.pick(QUANTIFIERS)}`;
    return `${rng.pick(PIECES)}${rng.pick(QUANTIFIERS)}`;
  };
  const seq = (depth: number): string => Array.from({ length: rng.int(1, 3) }, () => term(depth)).join("");
  const kind = rng.int(0, 2);
  if (kind === 0) return `^${seq(0)}${rng.chance(0.7) ? "$" : ""}`;
  // A tail S*X, unanchored end, with or without something before it.
  if (kind === 1) return `${rng.chance(0.7) ? "^" : ""}${rng.chance(0.5) ? seq(1) : ""}${rng.pick(PIECES)}*${rng.pick(PIECES)}`;
  return `^(?${rng.pick(["=", "!"])}.*${rng.pick(PIECES)})${seq(0)}$`;
}

function randomInput(rng: Rng): string {
  return Array.from({ length: rng.int(0, 10) }, () => rng.pick([..."ab-c1Aéx\n", "😀", "Ж"])).join("");
}
