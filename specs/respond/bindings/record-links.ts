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
  const old = String(oldId);
  if (!isObject(record) || depth > 2 || old === String(newId) || old === "") return;
  follow(edits, record, recordPointer, except, old, String(newId), `/${old}`, depth);
}

/** {@link followLinks} with the ids as text and the segment looked for (`/21`); pointers are made only for the fields it may change. */
function follow(edits: Edits, record: Json, recordPointer: string, except: string, oldId: string, newId: string, needle: string, depth: number): void {
  // Made only for a string that names the old id at all (most records have none).
  let segment: RegExp | undefined;
  for (const k in record) {
    if (!Object.prototype.hasOwnProperty.call(record, k)) continue;
    const v = record[k];
    const nested = isObject(v);
    if (!nested && !(typeof v === "string" && v.includes(needle))) continue;
    const pointer = `${recordPointer}/${pointerSegment(k)}`;
    if (pointer === except || edits.pinned.has(pointer)) continue;
    if (nested) {
      if (depth < 2) follow(edits, v, pointer, except, oldId, newId, needle, depth + 1);
    } else {
      segment ??= new RegExp(`/${escaped(oldId)}(?=$|[/?#.])`, "g");
      const moved = (v as string).replace(segment, `/${encodeURIComponent(newId)}`);
      if (moved !== v) edits.follow(record, k, pointer, moved);
    }
  }
}
