import { deriveSeed } from "../../seed.js";
import { isObject, pointerSegment } from "../../json-object.js";

/**
 * What the coherence of one answer works with: the edits made so far (each undoable), the pointers a binding
 * pinned (never changed), and the small helpers every coherer shares.
 */

type Json = Record<string, unknown>;

/** One change to a value: where, and what it was and became. */
export interface ValueEdit {
  holder: Json | unknown[];
  key: string | number;
  before: unknown;
  after: unknown;
  /** JSON pointer of the changed value. */
  pointer: string;
  /** Whether the key was absent before. */
  added?: boolean;
}

/** The state of one coherence pass over an answer. */
export interface Ctx {
  edits: ValueEdit[];
  pinned: ReadonlySet<string>;
  /** The parents of the pinned pointers (only when `pinnedOnly`). */
  pinnedParents: ReadonlySet<string>;
  seed: number;
  pinnedOnly: boolean;
  /** The point a call asked about (pinned coordinates of an enclosing object): its places are there. */
  point?: { lat: number; lon: number };
}

/** The object's own key for the first of these normalized names it has. */
export function first(keys: Map<string, string>, names: readonly string[]): string | undefined {
  for (const n of names) {
    const k = keys.get(n);
    if (k !== undefined) return k;
  }
  return undefined;
}

/** Writes a scalar field unless a binding pinned it (absent, empty and structured fields are left as they are). */
export function set(ctx: Ctx, o: Json, key: string | undefined, value: unknown, at: string): void {
  if (key === undefined || value === undefined) return;
  const before = o[key];
  if (before === undefined || before === null || isObject(before) || Array.isArray(before)) return;
  const pointer = `${at}/${pointerSegment(key)}`;
  if (ctx.pinned.has(pointer)) return;
  let after = value;
  if (typeof before === "number" && typeof value === "string") return;
  if (typeof before === "string" && typeof value === "number") after = String(value);
  if (before === after) return;
  o[key] = after;
  ctx.edits.push({ holder: o, key, before, after, pointer });
}

/** The value of a field a binding pinned, if it is pinned. */
export function pinnedValue(ctx: Ctx, o: Json, key: string | undefined, at: string): unknown {
  return key !== undefined && ctx.pinned.has(`${at}/${pointerSegment(key)}`) ? o[key] : undefined;
}

/** A seeded pick of one row (the same for the same seed and index). */
export function pick<T>(rows: readonly T[], seed: number, index: number): T | undefined {
  if (rows.length === 0) return undefined;
  return rows[(deriveSeed(seed, index) >>> 0) % rows.length];
}
