import type { SchemaField } from "../../catalog/schema-fields.js";
import { snakeName } from "../../snake-name.js";
import { norm } from "../../synthesize/world/entity-shape.js";
import { idNoun, isIdName } from "../../words.js";
import { singularNoun } from "../../singular-noun.js";

/**
 * How binding inference reads a response's fields: names compared without case or separators, date
 * fields by format or name, the lists of records and their items' fields, the record's own fields.
 */

/** `countryCode`, `country_code`, `Country-Code` -> `countrycode` (the world's name comparison). */
export { norm };

/** `startDate` -> `start_date` (names compared by their words). */
export const snake = snakeName;

/** Whether a field holds a date: by its format, or by a name that says so (`date`, `created_at`, `startTime`). */
export function isDateField(f: SchemaField): boolean {
  return f.format === "date" || f.format === "date-time" || (f.type === "string" && /(^|_)(date|datetime|timestamp)$|_(at|on|date|time)$/.test(snake(f.name)));
}

/** The lists of objects of a response (the body itself, or lists among its top-level fields and one level down), by their path. */
export function mainLists(fields: readonly SchemaField[]): string[] {
  const lists = new Set<string>();
  for (const f of fields) {
    const i = f.path.indexOf("[]");
    if (i < 0) continue;
    const list = f.path.slice(0, i + 2);
    const depth = list === "[]" ? 0 : list.split(".").length;
    if (depth <= 2 && f.path.length > list.length) lists.add(list);
  }
  return [...lists];
}

/** The fields of the items of a list (paths directly in the item, or deeper with `nested`). */
export function itemFields(fields: readonly SchemaField[], list: string, nested = false): SchemaField[] {
  const prefix = list === "[]" ? "[]." : `${list}.`;
  return fields.filter((f) => f.path.startsWith(prefix) && (nested || !f.path.slice(prefix.length).includes(".")) && !f.path.slice(prefix.length).startsWith("["));
}

/** The fields of the record itself (none inside a list). */
export function recordFields(fields: readonly SchemaField[]): SchemaField[] {
  return fields.filter((f) => !f.path.includes("["));
}

/** Names of the date that dates a list item, best first (normalized). */
export const ITEM_DATES = ["date", "startdate", "start", "startsat", "starttime", "datetime", "publishedat", "published", "publishdate", "releasedate", "scheduledat", "eventdate", "day", "observedat", "time", "timestamp", "createdat", "postedat", "submittedat", "occurredat", "requestedat", "orderedat", "placedat", "bookedat", "sentat", "receivedat", "startedat", "createddate", "createdon"];

/** Stamps of a record's bookkeeping, not of what it is about (`generated_at` of a ride is not when it was taken). */
export const BOOKKEEPING_DATE = /^(generated|updated|modified|changed|expires|expiry|expiration|deleted|lastseen|lastmodified|lastupdated|synced|fetched|retrieved|cached|indexed)(at|on|date|time)?$/;

/** The first field (not an object) with one of these normalized names, in the order of the names. */
export function findBy(fields: readonly SchemaField[], names: readonly string[]): SchemaField | undefined {
  for (const n of names) {
    const hit = fields.find((f) => norm(f.name) === n && !f.object);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Whether a list's items are records of the kind an id argument names, each under its own id, rather than parts of
 * the one record it names: their only id field (of `names`) is the argument's and the list is of another noun
 * (`competitor[].company_id` for `companyId`: competitors are companies). `books[].authorId` beside `books[].id`
 * names the author of each book (a part), and `runs[].run_id` for `run_id` the run itself.
 */
export function listsOthersById(names: readonly string[], list: string, arg: string): boolean {
  if (!isIdName(arg)) return false;
  const ids = names.filter((name) => isIdName(name));
  const listNoun = list.replace(/\[\]$/, "").split(".").pop() ?? "";
  return ids.length === 1 && norm(ids[0] ?? "") === norm(arg) && norm(singularNoun(listNoun)) !== norm(idNoun(arg));
}
