import type { Json } from "../../json-object.js";
import { norm } from "./entity-shape.js";

/**
 * A page of a paged list says which page it is and how many there are (`current_page: 20`, `total_pages: 13`): the
 * page shown is one of them, so the count of pages is at least its number.
 */

const CURRENT = /^(page|currentpage|pagenumber|pagenum|pageno)$/;
const TOTAL = /^(totalpages|pagecount|pages|lastpage|numpages|numberofpages|totalpagecount|pagestotal)$/;

/** The page number and page count fields of an object, when it has one of each (numbers). */
export function pageNumbers(o: Json): { current: string; total: string } | undefined {
  let current: string | undefined;
  let total: string | undefined;
  for (const k in o) {
    if (typeof o[k] !== "number") continue;
    const n = norm(k);
    if (current === undefined && CURRENT.test(n)) current = k;
    else if (total === undefined && TOTAL.test(n)) total = k;
  }
  return current !== undefined && total !== undefined ? { current, total } : undefined;
}

/** The count of pages an object should say: at least the number of the page it is (undefined: it says so already). */
export function pageCountShort(o: Json): { key: string; count: number } | undefined {
  const p = pageNumbers(o);
  if (p === undefined) return undefined;
  const current = o[p.current] as number;
  const total = o[p.total] as number;
  return Number.isInteger(current) && current > total ? { key: p.total, count: current } : undefined;
}
