import type { Json } from "../../json-object.js";
import { norm } from "./entity-shape.js";

/**
 * Counts of a list beside it (`entryCount` beside `entries`, `item_count` beside `items`, `numTracks` beside
 * `tracks`): the list's length, where the object holds the whole list (no page, cursor or total beside it).
 */

const PAGING = /^(page|pagesize|perpage|limit|offset|cursor|next|nextcursor|nextpage|nextpagetoken|hasmore|total|totalcount|totalresults|totalitems|count)$/;


function plurals(noun: string): string[] {
  return [`${noun}s`, `${noun}es`, noun.endsWith("y") ? `${noun.slice(0, -1)}ies` : `${noun}s`, noun];
}

/** The count fields of an object with the length of the list they count (only where the object is not a page of a longer list). */
export function listCounts(o: Json): Array<{ key: string; length: number }> {
  const keys = Object.keys(o);
  if (keys.some((k) => PAGING.test(norm(k)))) return [];
  const lists = new Map<string, number>();
  for (const k of keys) if (Array.isArray(o[k])) lists.set(norm(k), (o[k] as unknown[]).length);
  if (lists.size === 0) return [];
  const out: Array<{ key: string; length: number }> = [];
  for (const k of keys) {
    if (typeof o[k] !== "number") continue;
    const n = norm(k);
    const noun = /^(.+?)count$/.exec(n)?.[1] ?? /^(?:num|number|numberof|nb|n)(.+)$/.exec(n)?.[1];
    if (noun === undefined || noun === "") continue;
    const length = plurals(noun).map((p) => lists.get(p)).find((l) => l !== undefined);
    if (length !== undefined) out.push({ key: k, length });
  }
  return out;
}
