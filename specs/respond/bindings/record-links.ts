import { isObject, pointerSegment, type Json } from "../../json-object.js";
import type { Edits } from "./answer-edits.js";

/**
 * A record's links follow its id: when a call makes a record another one (`fetchQuestion(26v1)` over an example
 * of record 21), the record's URLs and paths that name the old id as a path segment (`links.self:
 * /pub/question/21`, `source_url: .../records/1788754/source`) name the new one. Nested objects of the record
 * count, lists inside it do not.
 */

/**
 * The text with each `needle` (`/21`) that ends a path segment (the text ends there, or `/`, `?`, `#` or `.` follows)
 * replaced: no regular expression is made for each id.
 */
function replaceSegments(text: string, needle: string, replacement: string): string {
  let out = "";
  let from = 0;
  let at = text.indexOf(needle);
  while (at >= 0) {
    const end = at + needle.length;
    const next = text.charCodeAt(end);
    // end of text (NaN), "/", "?", "#", "."
    if (Number.isNaN(next) || next === 47 || next === 63 || next === 35 || next === 46) {
      out += text.slice(from, at) + replacement;
      from = end;
      at = text.indexOf(needle, end);
    } else at = text.indexOf(needle, at + 1);
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Rewrites the old id where it stands as a path segment in the record's strings. */
export function followLinks(edits: Edits, record: unknown, recordPointer: string, except: string, oldId: string | number, newId: string | number, depth = 0): void {
  const old = String(oldId);
  if (!isObject(record) || depth > 2 || old === String(newId) || old === "") return;
  follow(edits, record, recordPointer, except, String(newId), `/${old}`, depth);
}

/** {@link followLinks} with the ids as text and the segment looked for (`/21`); pointers are made only for the fields it may change. */
function follow(edits: Edits, record: Json, recordPointer: string, except: string, newId: string, needle: string, depth: number): void {
  for (const k in record) {
    if (!Object.prototype.hasOwnProperty.call(record, k)) continue;
    const v = record[k];
    const nested = isObject(v);
    if (!nested && !(typeof v === "string" && v.includes(needle))) continue;
    const pointer = `${recordPointer}/${pointerSegment(k)}`;
    if (pointer === except || edits.pinned.has(pointer)) continue;
    if (nested) {
      if (depth < 2) follow(edits, v, pointer, except, newId, needle, depth + 1);
    } else {
      const moved = replaceSegments(v as string, needle, `/${encodeURIComponent(newId)}`);
      if (moved !== v) edits.follow(record, k, pointer, moved);
    }
  }
}
