import { describe, expect, it } from "vitest";
import { answerRecords, mayRepeatIds } from "../../../specs/respond/world/entity-memory.js";
import { createRng } from "../../../specs/seed.js";

// The quick look for repeated ids must never miss a list in which `answerRecords` finds one id twice.

function repeatsInOneList(value: unknown): boolean {
  const seen = new Set<string>();
  for (const r of answerRecords(value, { path: "/books" })) {
    if (!r.inList) continue;
    const key = `${r.pointer.slice(0, r.pointer.lastIndexOf("/"))} ${r.id}`;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

describe("mayRepeatIds", () => {
  it("tells lists that repeat an id, under one id field or two, from lists that do not", () => {
    expect(mayRepeatIds([{ id: 1 }, { id: 2 }])).toBe(false);
    expect(mayRepeatIds([{ id: 1 }, { id: 1 }])).toBe(true);
    expect(mayRepeatIds({ items: [{ id: "b1", title: "x" }, { bookId: "b1", title: "y" }] })).toBe(true);
    expect(mayRepeatIds({ book: { id: "b1" }, author: { id: "b1" } })).toBe(false);
    expect(mayRepeatIds({ data: { results: [{ uuid: "u" }, { uuid: "u" }] } })).toBe(true);
    expect(mayRepeatIds([{ name: "same" }, { name: "same" }])).toBe(false);
  });

  it("is true wherever answerRecords finds one id twice in a list (400 seeded answers)", () => {
    const rng = createRng(11);
    const keys = ["id", "uuid", "bookId", "book_id", "name", "title"];
    const record = (depth: number): unknown => {
      const o: Record<string, unknown> = {};
      for (const k of keys) if (rng.chance(0.4)) o[k] = rng.chance(0.5) ? rng.int(1, 3) : `v${rng.int(1, 3)}`;
      if (depth < 3 && rng.chance(0.3)) o["items"] = Array.from({ length: rng.int(0, 3) }, () => record(depth + 1));
      return o;
    };
    let repeating = 0;
    for (let i = 0; i < 400; i++) {
      const answer = rng.chance(0.5) ? Array.from({ length: rng.int(1, 4) }, () => record(1)) : record(0);
      if (repeatsInOneList(answer)) {
        repeating++;
        expect(mayRepeatIds(answer)).toBe(true);
      }
    }
    expect(repeating).toBeGreaterThanOrEqual(65);
  });
});
