import { snakeName } from "../../snake-name.js";
import { pinnedValue, set, type Ctx } from "./coherence-context.js";

/**
 * A record's address that carries a day names the record's own day: an article published on 2 March is at
 * `/2025/03/02/chip-plants`, not `/2025/06/14/chip-plants` (news sites, blogs, the Guardian's `/2024/jun/14/`).
 * The address follows the record's date; a date left as it was follows an address a call gave.
 */

type Json = Record<string, unknown>;

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"] as const;

/** `/YYYY/MM/DD/` or `/YYYY/mon/DD/` in a path (a day of 1990-2099). */
const URL_DAY = /\/((?:19|20)\d{2})\/(0[1-9]|1[0-2]|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\/(0?[1-9]|[12]\d|3[01])(?=[/?#]|$)/i;
/** The stems of a record's own day (`publishedAt`, `pub_date`, `datePublished`, `date`). */
const DAY_STEM = /^(?:web_|first_|original_)?(published|publication|pub|posted|date|date_published|release|released|created|issued)(_(at|on|date|time|datetime|timestamp))?$/;
/** Addresses of the record itself (not of its image or author). */
const OWN_URL = /^(url|link|href|permalink|web_url|canonical_url|article_url|share_url|short_url|story_url|post_url)$/;
const DATE_VALUE = /^((?:19|20)\d{2})-(\d{2})-(\d{2})/;

/** The day an address names (`.../2024/jun/14/...` -> `2024-06-14`), if it names one. */
export function dayInUrl(url: string): string | undefined {
  const m = URL_DAY.exec(url);
  if (!m) return undefined;
  const [, y = "", mon = "", d = ""] = m;
  const month = /^\d+$/.test(mon) ? Number(mon) : MONTHS.indexOf(mon.toLowerCase() as (typeof MONTHS)[number]) + 1;
  return `${y}-${String(month).padStart(2, "0")}-${d.padStart(2, "0")}`;
}

/** The keys of a record's own day and own address, when it has both. */
export function urlDateKeys(keys: readonly string[]): { day: string; url: string } | undefined {
  const url = keys.find(isOwnUrlKey);
  if (url === undefined) return undefined;
  const day = keys.find((k) => DAY_STEM.test(snakeName(k)));
  return day !== undefined ? { day, url } : undefined;
}

/** Makes a record's address name its day (or its day the address's, when only the address was asked for). */
export function cohereUrlDate(ctx: Ctx, o: Json, at: string, keys: { day: string; url: string }): void {
  const url = o[keys.url];
  const day = o[keys.day];
  if (typeof url !== "string" || typeof day !== "string") return;
  const date = DATE_VALUE.exec(day);
  if (!date || !URL_DAY.test(url)) return;
  const [, year = "", month = "", dom = ""] = date;
  const written = dayInUrl(url) ?? "";
  if (written === `${year}-${month}-${dom}`) return;
  if (pinnedValue(ctx, o, keys.url, at) !== undefined && pinnedValue(ctx, o, keys.day, at) === undefined) {
    // The address was asked for: the record is of its day (the time of day kept).
    if (!Number.isNaN(Date.parse(`${written}T00:00:00Z`))) set(ctx, o, keys.day, written + day.slice(10), at);
    return;
  }
  set(ctx, o, keys.url, withUrlDay(url, `${year}-${month}-${dom}`), at);
}

/** An address with the day it names replaced by `isoDay` (`YYYY-MM-DD`), written as it writes days (a month's number or name, in its case). */
export function withUrlDay(url: string, isoDay: string): string {
  const inUrl = URL_DAY.exec(url);
  const day = DATE_VALUE.exec(isoDay);
  if (!inUrl || !day) return url;
  const [whole, , um = "", ud = ""] = inUrl;
  const [, year = "", month = "", dom = ""] = day;
  const name = MONTHS[Number(month) - 1] ?? "";
  const monthText = /^\d+$/.test(um) ? month : um === um.toUpperCase() ? name.toUpperCase() : um[0] === um[0]?.toUpperCase() ? name.charAt(0).toUpperCase() + name.slice(1) : name;
  const domText = ud.length === 1 ? String(Number(dom)) : dom;
  return `${url.slice(0, inUrl.index)}/${year}/${monthText}/${domText}${url.slice(inUrl.index + whole.length)}`;
}

/** Whether a key names a record's own address (`url`, `link`, `webUrl`, `permalink`; not an image's). */
export function isOwnUrlKey(key: string): boolean {
  return OWN_URL.test(snakeName(key));
}
