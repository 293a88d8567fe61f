import { keepStampsPast as moveStamps } from "../../synthesize/world/dated-examples.js";
import type { Edits } from "../bindings/answer-edits.js";

/**
 * What already happened happened by today, in an answer: a record whose `createdAt`, `submittedAt` or `measuredAt`
 * comes after the simulated today moves back by whole days until its latest such stamp is today, with all it holds
 * (an order's delivery stays three days after it was placed), the items of a list together. Each move is an edit
 * (checked against the schema, undone where it breaks it); dates a binding set (pinned) stay as they are. The rule
 * itself is the world's (`synthesize/world/dated-examples.ts`), which restates a spec's examples the same way.
 */

export { hasFutureStamp } from "../../synthesize/world/dated-examples.js";

/** Brings an answer's past stamps back to `today` at the latest, through `edits`. */
export function keepStampsPast(value: unknown, today: string, edits: Edits): void {
  moveStamps(value, today, (holder, key, pointer, moved) => {
    if (!edits.pinned.has(pointer)) edits.follow(holder as Record<string, unknown>, key, pointer, moved);
  });
}
