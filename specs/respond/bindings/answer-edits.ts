import type { FieldSpot } from "../../catalog/field-path.js";
import type { ValueEdit } from "../../synthesize/world/coherent-entities.js";

type Json = Record<string, unknown>;

/**
 * The edits made to an answer so that it obeys its call: each kept with its value before (so that one the
 * schema rejects can be undone), and the pointers of the fields a binding settled (pinned: coherence leaves
 * them as they are).
 */
export class Edits {
  readonly list: ValueEdit[] = [];
  readonly pinned = new Set<string>();

  /** Writes a value at a spot (a value it already holds only pins it). */
  write(spot: FieldSpot, value: unknown, pin = true): void {
    const before = spot.value;
    if (before !== value) {
      this.list.push({ holder: spot.holder, key: spot.key, before, after: value, pointer: spot.pointer });
      if (Array.isArray(spot.holder)) spot.holder[spot.key as number] = value;
      else spot.holder[spot.key as string] = value;
      spot.value = value;
    }
    if (pin) this.pinned.add(spot.pointer);
  }

  /** Moves a value that follows a bound one (an end date after its start): written, but left to coherence. */
  follow(holder: Json, key: string, pointer: string, value: unknown): void {
    this.write({ holder, key, value: holder[key], pointer, items: [] }, value, false);
  }

  /** Adds a key an object lacks (undone by deleting it). */
  add(holder: Json, key: string, pointer: string, value: unknown): void {
    this.list.push({ holder, key, before: undefined, after: value, pointer, added: true });
    holder[key] = value;
    this.pinned.add(pointer);
  }

  /** Takes a key out of an object (undone by putting its value back). */
  remove(holder: Json, key: string, pointer: string): void {
    if (!(key in holder)) return;
    this.list.push({ holder, key, before: holder[key], after: undefined, pointer });
    delete holder[key];
    this.pinned.add(pointer);
  }

  /** Writes a value under a key of an object (at `pointer`). */
  writeKey(holder: Json, key: string, pointer: string, value: unknown): void {
    this.write({ holder, key, value: holder[key], pointer, items: [] }, value);
  }
}

/** Puts back what an edit replaced. */
export function undo(edit: ValueEdit): void {
  if (Array.isArray(edit.holder)) edit.holder[edit.key as number] = edit.before;
  else if (edit.added === true) delete edit.holder[edit.key as string];
  else edit.holder[edit.key as string] = edit.before;
}

/** Whether pointer `a` is `b` or lies inside it. */
export function within(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`);
}
