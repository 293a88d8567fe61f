import { describe, expect, it } from "vitest";
import { caseInsensitive, checkPattern, compilesAsPattern } from "../../../specs/load/patterns/regex-pattern.js";

/** The pattern a check leaves: the repaired one, the original when fine, undefined when unusable. */
function kept(pattern: string): string | undefined {
  const found = checkPattern(pattern);
  return found.kind === "ok" ? pattern : found.kind === "repaired" ? found.pattern : undefined;
}

describe("checkPattern", () => {
  it("leaves patterns JavaScript compiles alone", () => {
    for (const p of ["^[a-z0-9._-]+$", "\\d{3}-\\d{4}", "^/api/.*$", "/users/", "^(?:a|b)$"]) expect(checkPattern(p)).toEqual({ kind: "ok" });
  });

  it("rewrites a leading (?i) as a case-insensitive pattern without flags", () => {
    const found = checkPattern("(?i)^abc$");
    expect(found).toMatchObject({ kind: "repaired", pattern: "^[aA][bB][cC]$" });
    const re = new RegExp(kept("(?i)^abc$") as string);
    expect(["abc", "ABC", "aBc"].map((s) => re.test(s))).toEqual([true, true, true]);
    expect(["abd", "xabc"].map((s) => re.test(s))).toEqual([false, false]);
  });

  it("reads a regex literal whose slashes make it match nothing as its source and flags", () => {
    expect(kept("/^[a-z0-9._]+$/")).toBe("^[a-z0-9._]+$");
    const re = new RegExp(kept("/^3[A-Z]{3,}$/i") as string);
    expect(["3ABC", "3abcd", "3aBc"].map((s) => re.test(s))).toEqual([true, true, true]);
    expect(["3ab", "4ABC"].map((s) => re.test(s))).toEqual([false, false]);
    // Without anchors next to the slashes the literal reading is not clear: kept as written.
    expect(kept("/users/")).toBe("/users/");
  });

  it("reports what it cannot repair as unusable", () => {
    expect(checkPattern("(?P<name>x)")).toMatchObject({ kind: "unusable" });
    expect(checkPattern("a{2,1}")).toMatchObject({ kind: "unusable" });
    expect(checkPattern("(?s)^a.b$")).toMatchObject({ kind: "unusable" }); // dotAll has no flag-free form here
    expect(checkPattern("/^a$/m")).toMatchObject({ kind: "unusable" });
  });
});

describe("caseInsensitive", () => {
  it("folds letters, letter ranges and classes, and keeps escapes, quantifiers and group names", () => {
    const cases: Array<[string, string[], string[]]> = [
      ["^[a-f0-9]+$", ["DEADbeef", "09af"], ["g1"]],
      ["^[^a-z]$", ["1", "-"], ["a", "A"]],
      ["^\\d{2}[x-z]\\u00e9$", ["12Xé", "12zé"], ["12wé", "1Xé"]],
      ["^(?<word>ok)-(?:ok)$", ["OK-ok", "ok-OK"], ["ok-no"]],
      ["^\\w+\\.TXT$", ["Notes.txt", "a_1.TXT"], ["a.doc"]],
    ];
    for (const [source, yes, no] of cases) {
      const folded = caseInsensitive(source);
      expect(folded, source).toBeDefined();
      expect(compilesAsPattern(folded as string), source).toBe(true);
      const re = new RegExp(folded as string);
      for (const s of yes) expect(re.test(s), `${source} ~ ${s}`).toBe(true);
      for (const s of no) expect(re.test(s), `${source} !~ ${s}`).toBe(false);
    }
  });

  it("gives up on backreferences, which only the real flag makes case-insensitive", () => {
    expect(caseInsensitive("^(a)\\1$")).toBeUndefined();
    expect(caseInsensitive("^(?<w>a)\\k<w>$")).toBeUndefined();
    expect(checkPattern("(?i)^(a)\\1$")).toMatchObject({ kind: "unusable" });
  });
});
