import { describe, expect, it } from "vitest";
import { compileLinear, linearRegExp, patternTest } from "../../../specs/load/patterns/linear-pattern.js";
import { checkPattern } from "../../../specs/load/patterns/regex-pattern.js";
import { createRng, type Rng } from "../../../specs/seed.js";

/** The pattern compiled (the test fails with the reason when it is refused). */
function linear(pattern: string): { test(s: string): boolean; translated?: string } {
  const compiled = compileLinear(pattern);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.reason}`);
  return compiled.pattern;
}

describe("patterns on the linear-time engine", () => {
  it("answers catastrophic-backtracking patterns on long inputs at once, with the right answer", () => {
    // Each of these takes a backtracking engine longer than the age of the universe on the failing input.
    const cases: Array<[string, string, boolean]> = [
      ["^(a+)+$", `${"a".repeat(50_000)}!`, false],
      ["^(a+)+$", "a".repeat(50_000), true],
      ["^(a|a)*$", `${"a".repeat(50_000)}b`, false],
      ["^(\\w+\\s?)*$", `${"word ".repeat(10_000)}!`, false],
      ["^([a-z]+)*[0-9]$", `${"abc".repeat(20_000)}x`, false],
      ["(x+x+)+y", "x".repeat(50_000), false],
    ];
    for (const [pattern, input, expected] of cases) expect(linear(pattern).test(input), pattern).toBe(expected);
  });

  it("reads patterns with Unicode semantics: \\p{L} is a letter, not the text p{L}", () => {
    const tag = linear("^([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)$");
    for (const ok of ["Name", "héllo wörld", "日本語", "Ünïcode 42", "a_b.c:d/e=f+g-h@i", "", "ΑΒΓ"]) expect(tag.test(ok), ok).toBe(true);
    for (const bad of ["=.{-@", "p{L}", "a{b}", "semi;colon", "tab\tkey", "emoji😀"]) expect(tag.test(bad), bad).toBe(false);
    expect(linear("^\\p{Lu}\\P{Lu}*$").test("Ärger")).toBe(true);
    expect(linear("^\\p{Script=Greek}+$").test("αβγ")).toBe(true);
    expect(linear("^\\p{Script=Greek}+$").test("abc")).toBe(false);
    // A surrogate pair is one character; `.` and `\s` are ECMAScript's.
    expect(linear("^.$").test("😀")).toBe(true);
    expect(linear("^\\u{1F600}$").test("😀")).toBe(true);
    expect(linear("^.$").test("\u2028")).toBe(false);
    expect(linear("^\\s+$").test("\u00a0\u3000\ufeff")).toBe(true);
    expect(linear("^\\d+$").test("١٢٣")).toBe(false); // \d is ASCII digits only
  });

  it("gives the same answers as ECMAScript with the u flag (seeded random patterns and inputs)", () => {
    const rng = createRng(14);
    let compared = 0;
    for (let i = 0; i < 400; i++) {
      const pattern = randomPattern(rng);
      let native: RegExp;
      try {
        native = new RegExp(pattern, "u");
      } catch {
        continue;
      }
      const compiled = compileLinear(pattern);
      expect(compiled.ok, `${pattern}: ${compiled.ok ? "" : compiled.reason}`).toBe(true);
      if (!compiled.ok) continue;
      for (let k = 0; k < 25; k++) {
        const input = randomInput(rng);
        expect(compiled.pattern.test(input), `/${pattern}/u on ${JSON.stringify(input)}`).toBe(native.test(input));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(8000);
  });

  it("translates lookarounds at a fixed distance from an anchor into separate checks, exactly", () => {
    const password = linear("^(?=.*[A-Z])(?=.*\\d)[A-Za-z\\d]{8,}$");
    expect(password.translated).toContain("lookahead");
    expect(["Abcdefg1", "12345678A"].map((s) => password.test(s))).toEqual([true, true]);
    expect(["abcdefg1", "Abcdefgh", "Ab1"].map((s) => password.test(s))).toEqual([false, false, false]);
    const ssn = linear("^(?!000)\\d{3}-(?!00)\\d{2}-(?!0000)\\d{4}$");
    expect(["123-45-6789", "000-12-3456", "123-00-1234", "123-45-0000"].map((s) => ssn.test(s))).toEqual([true, false, false, false]);
    const noTrailingDash = linear("^[a-z-]+(?<!-)$");
    expect(["ab-c", "abc-"].map((s) => noTrailingDash.test(s))).toEqual([true, false]);
    // Same answers as the backtracking engine on every input tried.
    const rng = createRng(7);
    for (const pattern of ["^(?=.*[A-Z])(?=.*\\d)[A-Za-z\\d]{8,}$", "^(?!000)\\d{3}-(?!00)\\d{2}-(?!0000)\\d{4}$", "^[a-z-]+(?<!-)$", "^(?!.*--)[a-z-]+$"]) {
      const native = new RegExp(pattern, "u");
      for (let k = 0; k < 300; k++) {
        const input = Array.from({ length: rng.int(0, 12) }, () => rng.pick([..."aA1-0b9Z"])).join("");
        expect(linear(pattern).test(input), `${pattern} on ${input}`).toBe(native.test(input));
      }
    }
  });

  it("runs repetitions beyond RE2's limit of 1000: chunked, or as a length check", () => {
    const long = linear("^.{0,65535}$");
    expect(long.test("x".repeat(65_535))).toBe(true);
    expect(long.test("x".repeat(65_536))).toBe(false);
    // Not one the native engine takes (an alternation): RE2 with the repetition as a length check.
    const lengthChecked = linear("^(?:ab|cd)[a-z ]{1,5000}$");
    expect(lengthChecked.translated).toContain("checked as a length");
    expect([lengthChecked.test(`ab${"x".repeat(5000)}`), lengthChecked.test(`cd${"x".repeat(5001)}`), lengthChecked.test("ab")]).toEqual([true, false, false]);
    const prefixed = linear("^[a-z]{1,5000}@x$");
    expect([prefixed.test(`${"a".repeat(5000)}@x`), prefixed.test(`${"a".repeat(5001)}@x`), prefixed.test("@x")]).toEqual([true, false, false]);
    // Nested counts whose product exceeds 1000 (RE2 refuses `(?:[a-z]{1,64}\.){0,20}` as written).
    const host = linear("^(?:[a-z]{1,64}\\.){0,20}[a-z]{2,63}$");
    expect([host.test("api.example.com"), host.test(`${"a.".repeat(21)}com`), host.test("a.b")]).toEqual([true, false, false]);
    expect(linear("^(?:ab){1500}$").test("ab".repeat(1500))).toBe(true);
    expect(linear("^(?:ab){1500}$").test("ab".repeat(1499))).toBe(false);
  });

  it("runs patterns a backtracking engine runs in linear time anyway natively, and the others on RE2", () => {
    const engine = (pattern: string): string | undefined => {
      const compiled = compileLinear(pattern);
      return compiled.ok ? compiled.pattern.engine : undefined;
    };
    for (const p of ["^[a-z]+@[a-z]+\\.[a-z]{2,}$", "^\\d{3}-\\d{4}$", "^([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)$", "^(a+)+$", "^[A-Z][a-z]*$", "^.{0,65535}$"]) expect(engine(p), p).toBe("native");
    // Ambiguous (a repetition can give characters back), unanchored, or beyond sequences of sets: RE2.
    for (const p of ["^(a|ab)*c$", "^[a-z]*[a-z0-9]$", "[a-z]+x", "^(\\w+\\s?)*$", "^a*a*$", "^(?:ab)+$", "^\\bword$"]) expect(engine(p), p).toBe("re2");
  });

  it("refuses what needs backtracking, saying why", () => {
    for (const [pattern, why] of [
      ["^(\\w+)-\\1$", "backreference"],
      ["^(?<w>a)\\k<w>$", "backreference"],
      ["a(?=b)c*d", "lookahead"],
      ["^a+(?=b)c+$", "lookahead"],
    ] as const) {
      const compiled = compileLinear(pattern);
      expect(compiled.ok, pattern).toBe(false);
      if (!compiled.ok) {
        expect(compiled.syntax).toBe(false);
        expect(compiled.reason).toContain(why);
      }
    }
    const bad = compileLinear("x{2,1}");
    expect(bad.ok || bad.syntax).toBe(true);
    expect(patternTest("(unclosed", "unclosed")).toBe(false);
  });

  it("is ajv's regExp engine: toString is distinct per pattern, and a refused pattern fails to compile", () => {
    expect(String(linearRegExp("^a$", "u"))).not.toBe(String(linearRegExp("^b$", "u")));
    expect(linearRegExp("^(a+)+$", "u").test("aaa")).toBe(true);
    expect(() => linearRegExp("^(a)\\1$", "u")).toThrow(/cannot run in linear time: a backreference/);
  });

  it("checkPattern keeps translated patterns (with a note) and drops those no linear-time engine can run", () => {
    expect(checkPattern("^[a-z]+$")).toEqual({ kind: "ok" });
    expect(checkPattern("^(?=.*\\d).{8,}$")).toMatchObject({ kind: "ok", translated: expect.stringContaining("lookahead") });
    expect(checkPattern("^(\\w+)-\\1$")).toMatchObject({ kind: "unusable", unsupported: true, reason: expect.stringContaining("backreference") });
    expect(checkPattern("(?i)^\\p{Lu}x$")).toMatchObject({ kind: "repaired", pattern: "^\\p{Lu}[xX]$" });
  });
});

const ATOMS = ["a", "b", "-", "\\.", ".", "[a-c]", "[^a]", "\\d", "\\w", "\\s", "\\W", "[\\d-]", "\\p{L}", "\\P{Lu}", "[\\p{N}a]", "é", "\\u00e9", "(?:ab)", "(a|b-)", "\\b"];
const QUANTIFIERS = ["", "", "", "*", "+", "?", "{2}", "{1,3}", "{0,}", "*?"];

function randomPattern(rng: Rng): string {
  const term = (depth: number): string => {
    if (depth < 2 && rng.chance(0.15)) return `(?:${sequence(depth + 1)}|${sequence(depth + 1)})${rng.pick(QUANTIFIERS)}`;
    const atom = rng.pick(ATOMS);
    return atom === "\\b" ? atom : `${atom}${rng.pick(QUANTIFIERS)}`;
  };
  const sequence = (depth: number): string => Array.from({ length: rng.int(1, 4) }, () => term(depth)).join("");
  let body = sequence(0);
  const anchored = rng.chance(0.6);
  // A lookahead right after ^ (a fixed distance from it): translated into a separate check.
  if (anchored && rng.chance(0.3)) body = `(?${rng.pick(["=", "!"])}${rng.pick(["a", ".*\\d", "[^-]", "\\w{2}"])})${body}`;
  return `${anchored ? "^" : ""}${body}${rng.chance(0.6) ? "$" : ""}`;
}

function randomInput(rng: Rng): string {
  return Array.from({ length: rng.int(0, 8) }, () => rng.pick([..."ab-. 1Aé\n_", "😀", "Ж"])).join("");
}
