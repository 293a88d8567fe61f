import { describe, expect, it } from "vitest";
import { stableStringify } from "../../specs/stable-stringify.js";

/** The definition: keys sorted by UTF-16 code units at every level, undefined members left out (null in lists). */
function reference(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : reference(v))).join(",")}]`;
  const record = value as Record<string, unknown>;
  const parts = Object.keys(record)
    .sort()
    .filter((k) => record[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${reference(record[k])}`);
  return `{${parts.join(",")}}`;
}

describe("stableStringify", () => {
  const cases: Array<[string, unknown]> = [
    ["keys in order", { a: 1, b: "two", c: [1, 2, { d: null, e: true }] }],
    ["keys out of order", { b: 1, a: { z: 1, y: 2 } }],
    ["out of order only deep down", { a: { b: [{ y: 1, x: 2 }] } }],
    ["integer-like keys (listed first by the engine)", { "10": "a", "9": "b", a: 1 }],
    ["undefined members", { a: undefined, b: [undefined, 1], c: 2 }],
    ["non-finite numbers", { a: Number.NaN, b: Number.POSITIVE_INFINITY, c: -0 }],
    ["escapes and non-ASCII keys", { "é": "\u2028", "a\"b": "\n", Z: "ü" }],
    ["a null-prototype object", Object.assign(Object.create(null) as object, { b: 1, a: 2 })],
    ["a date (toJSON is not what keys say)", { when: new Date(0) }],
    ["a function member", { a: 1, f: () => 1 }],
    ["nested past the fast path's depth", JSON.parse(`${"[".repeat(80)}{"b":1,"a":2}${"]".repeat(80)}`) as unknown],
    ["a list", [3, "x", { b: 1, a: 1 }]],
    ["a scalar", "text"],
  ];
  for (const [name, value] of cases) {
    it(`writes ${name} with sorted keys`, () => {
      expect(stableStringify(value)).toBe(reference(value));
    });
  }

  it("gives equal strings for equal values whatever the key order", () => {
    expect(stableStringify({ q: "x", page: 2, filters: { to: 3, from: 1 } })).toBe(stableStringify({ filters: { from: 1, to: 3 }, page: 2, q: "x" }));
  });
});
