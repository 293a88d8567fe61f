import { isObject, pointerSegment, type Json } from "../../json-object.js";
import type { Edits } from "./answer-edits.js";

/**
 * A record's links follow its id: when a call makes a record another one (`fetchQuestion(26v1)` over an example
 * of record 21), the record's URLs and paths that name the old id as a path segment (`links.self:
 * /pub/question/21`, `source_url: .../records/1788754/source`) name the new one. Nested objects of the record
 * count, lists inside it do not.
 */

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Rewrites the old id where it stands as a path segment in the record's strings. */
export function followLinks(edits: Edits, record: unknown, recordPointer: string, except: string, oldId: string | number, newId: string | number, depth = 0): void {
  if (!isObject(record) || depth > 2 || String(oldId) === String(newId) || String(oldId) === "") return;
  // Made only for a string that names the old id at all (most records have none).
  let segment: RegExp | undefined;
  for (const [k, v] of Object.entries(record)) {
    const pointer = `${recordPointer}/${pointerSegment(k)}`;
    if (pointer === except || edits.pinned.has(pointer)) continue;
    if (isObject(v)) followLinks(edits, v, pointer, except, oldId, newId, depth + 1);
    else if (typeof v === "string" && v.includes(`/${String(oldId)}`)) {
      segment ??= new RegExp(`/${escaped(String(oldId))}(?=$|[/?#.])`, "g");
      const moved = v.replace(segment, `/${encodeURIComponent(String(newId))}`);
      if (moved !== v) edits.follow(record as Json, k, pointer, moved);
    }
  }
}
