import { describe, expect, it } from "vitest";
import { patternString } from "../../../specs/synthesize/pattern-string.js";

const CAP = 10_000;

/** Strings for a pattern over many seeds, each checked by an independent validator (ECMAScript with the u flag). */
function checkedStrings(pattern: string, options: { minLength?: number; maxLength?: number } = {}, seeds = 300): string[] {
  const validator = new RegExp(pattern, "u");
  const out: string[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const made = patternString(pattern, { seed, cap: CAP, ...options });
    expect(made.ok, `${pattern} seed ${seed}`).toBe(true);
    if (!made.ok) continue;
    expect(validator.test(made.value), `${pattern} made ${JSON.stringify(made.value)}`).toBe(true);
    const length = [...made.value].length;
    if (options.minLength !== undefined) expect(length).toBeGreaterThanOrEqual(options.minLength);
    if (options.maxLength !== undefined) expect(length).toBeLessThanOrEqual(options.maxLength);
    out.push(made.value);
  }
  return out;
}

describe("patternString", () => {
  it("makes values for AWS's tag pattern that an independent validator accepts (\\p{L} is a letter)", () => {
    const values = checkedStrings("^([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)$", { minLength: 1, maxLength: 128 }, 1000);
    // Mostly letters and digits, as tags read; never the literal text of a property escape.
    expect(values.some((v) => /^[A-Za-z0-9]+$/.test(v))).toBe(true);
    expect(values.some((v) => v.includes("{"))).toBe(false);
  });

  it("makes values for patterns of every kind, within the schema's lengths", () => {
    checkedStrings("^[A-Z]{2}\\d{2}[A-Z0-9]{1,30}$");
    checkedStrings("^(?=.*[A-Z])(?=.*\\d)(?=.*[a-z])[A-Za-z\\d]{8,}$");
    checkedStrings("^(?!000)\\d{3}-(?!00)\\d{2}-(?!0000)\\d{4}$");
    checkedStrings("^\\p{Script=Greek}+$", { maxLength: 5 });
    checkedStrings("^[^\\x00-\\x7f]+$");
    checkedStrings("^[\\u4e00-\\u9fff]{2,4}$");
    checkedStrings("^(?:[a-z]{1,64}\\.){0,20}[a-z]{2,63}$", { maxLength: 80 });
    checkedStrings("[0-9]+", { minLength: 20, maxLength: 20 });
    checkedStrings("^.{0,65535}$", { minLength: 10 });
  });

  it("stays bounded whatever the pattern asks: ReDoS shapes, huge counts, a body that matches nothing", () => {
    checkedStrings("^(a+)+$", {}, 50);
    checkedStrings("^([a-z]+)*[0-9]$", {}, 50);
    const huge = patternString("^a{1000000}$", { seed: 1, cap: CAP });
    expect(huge).toEqual({ ok: false, reason: "cap", minimum: 1_000_000 });
    const within = patternString("^a{1000000}$", { seed: 1, cap: 2_000_000 });
    expect(within.ok && within.value.length).toBe(1_000_000);
    expect(patternString("^(?:(?:a?){1000000000})b$", { seed: 1, cap: CAP }).ok).toBe(false);
    expect(patternString("a^b", { seed: 1, cap: CAP })).toEqual({ ok: false, reason: "unsatisfiable" });
    expect(patternString("^[a-z]{5}$", { seed: 1, cap: CAP, maxLength: 3 })).toEqual({ ok: false, reason: "unsatisfiable" });
  });

  it("gives one string per seed", () => {
    const a = patternString("^[a-z]{3,12}-\\d+$", { seed: 42, cap: CAP });
    const b = patternString("^[a-z]{3,12}-\\d+$", { seed: 42, cap: CAP });
    expect(a).toEqual(b);
    const values = new Set(Array.from({ length: 20 }, (_, i) => JSON.stringify(patternString("^[a-z]{3,12}-\\d+$", { seed: i, cap: CAP }))));
    expect(values.size).toBeGreaterThan(15);
  });
});
