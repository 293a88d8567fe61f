import { en } from "@faker-js/faker";
import { isCountry, isCurrency, isLanguage } from "./synthesize/world/world-data.js";
import { snakeName } from "./snake-name.js";
import { isProblemMap } from "./problem-maps.js";
import { isAfterNow, SIMULATED_TODAY } from "./synthesize/world/simulated-today.js";

/**
 * What a field's name says about its values, and whether a value is plausible for it (no spec needed: the world
 * audit judges any run's journal by it, the tester and the offline assistant the arguments they see): dates parse,
 * country, currency and language values are real codes or names, coordinates are in range, emails, URLs and phone
 * numbers are well formed, time zones exist, a person's name is no pair of dictionary words, and what already happened (`createdAt`, `measuredAt`) happened by the
 * simulated today.
 */

/** The kinds of typed values the audit checks. */
export type ValueKind = "date" | "stamp" | "country" | "currency" | "language" | "latitude" | "longitude" | "email" | "url" | "phone" | "timezone" | "person";

/** Names of a person's names (`first_name`, `learner_last_name`, `author_name`, `contact_full_name`). */
const PERSON_NAME = /(^|_)(first|given|fore|last|family|middle|sur|full|person|customer|contact|owner|recipient|sender|author|learner|student|patient|employee|user)_?name$/;

const kindCache = new Map<string, ValueKind | undefined>();

/** The kind of value a field of this name holds, when its name says so. */
export function valueKindOf(name: string): ValueKind | undefined {
  let hit = kindCache.get(name);
  if (hit !== undefined || kindCache.has(name)) return hit;
  hit = kindOf(snakeName(name));
  if (kindCache.size > 20_000) kindCache.clear();
  kindCache.set(name, hit);
  return hit;
}

function kindOf(n: string): ValueKind | undefined {
  if (n === "") return undefined;
  if (PERSON_NAME.test(n) && !/(^|_)user_?name$/.test(n)) return "person";
  if (/(^|_)(is|has|can|should|was)_|_(count|total|number|num|id|ids|type|format|name_?s?|label|zone|range|window|days|hours|minutes|seconds|ms|offset|status|flag|enabled)$/.test(n) && !/(_at|_date)$/.test(n)) {
    if (/(^|_)(time_?zone|tz)$/.test(n)) return "timezone";
    if (/^country_name$/.test(n)) return "country";
    if (/^(currency|language)_name$/.test(n)) return n.startsWith("currency") ? "currency" : "language";
    return undefined;
  }
  if (/(^|_)(e_?mail|email_address)$/.test(n)) return "email";
  if (/(^|_)(url|uri|href|website|homepage|web_url|image_url|avatar_url|link)$/.test(n) || /_(url|uri|href)$/.test(n)) return "url";
  if (/(^|_)(phone|phone_number|mobile_number|mobile_phone|telephone|tel|fax)$/.test(n)) return "phone";
  if (/(^|_)(lat|latitude)$/.test(n)) return "latitude";
  if (/(^|_)(lon|lng|long|longitude)$/.test(n)) return "longitude";
  if (/(^|_)(time_?zone|tz)$/.test(n)) return "timezone";
  if (/(^|_)(country|country_code|country_iso|country_iso2|country_iso3|nationality)$/.test(n)) return "country";
  if (/^(amount|total|price|cost|net|gross|fee|sum|value)_/.test(n)) return undefined;
  if (/^sort_|_sort$|^order_by/.test(n)) return undefined;
  if (/(^|_)(currency|currency_code|base_currency|target_currency|source_currency|quote_currency|from_currency|to_currency)$/.test(n)) return "currency";
  if (/(^|_)(language|lang|language_code|lang_code|locale|source_language|target_language|source_lang|target_lang|original_language)$/.test(n)) return "language";
  if (PAST_STAMP.test(n)) return "stamp";
  if (/(_at|_on|_date|_datetime|_timestamp)$|^(date|datetime|timestamp|created|updated|modified|published|deleted|expires|expiry|expiration|last_update|last_updated|last_modified|birthday|birth_date|date_of_birth|dob|deadline)$/.test(n)) return "date";
  return undefined;
}

/**
 * Names (snake case) of the moments something already happened: made, changed, measured, sent, done. A value of
 * such a field is a date on or before the simulated today (`last_activated_at` too). A `published_date` is a release
 * date (a book out next month), not a stamp; `published_at` is.
 */
const PAST_STAMP = /^(?:last_)?(created|requested|ordered|booked|placed|updated|modified|changed|measured|observed|recorded|published(?!_date$)|posted|submitted|occurred|issued|generated|fetched|retrieved|registered|joined|signed_up|started|finished|ended|completed|activated|deactivated|triggered|executed|processed|imported|exported|synced|scanned|resolved|closed|opened|approved|verified|confirmed|uploaded|captured|delivered|paid|shipped|cancelled|canceled|sent|received|reported|accessed|viewed|last_(login|seen|active|activity|modified|updated|changed|used|synced|checked|accessed|viewed|run|ping|heartbeat|visit|refresh|deploy|build|backup))(_(at|on|time|date|datetime|timestamp))?$/;

const ISO_DATE = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?$/i;
const OTHER_DATES = [/^(\d\d?)\/(\d\d?)\/(\d{4})$/, /^(\d\d?)\.(\d\d?)\.(\d{4})$/, /^(\d{4})\/(\d\d?)\/(\d\d?)$/, /^(\d{4})(\d\d)(\d\d)$/];
const TIME_ONLY = /^\d\d?:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/;
/** Compact ISO 8601 (`20200803T131236`, DICOM's `20201228T160340.253201`). */
const COMPACT = /^(\d{4})(\d\d)(\d\d)T\d{6}(\.\d+)?Z?$/;
const EMAIL = /^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

function plausibleYear(y: number): boolean {
  return y >= 1800 && y <= 2200;
}

function isDate(v: unknown): boolean {
  if (typeof v === "number") return (v >= 1e8 && v <= 5e9) || (v >= 1e11 && v <= 5e12) || (Number.isInteger(v) && plausibleYear(v));
  if (typeof v !== "string") return false;
  const s = v.trim();
  const compact = COMPACT.exec(s);
  if (compact) return plausibleYear(Number(compact[1])) && Number(compact[2]) >= 1 && Number(compact[2]) <= 12;
  const iso = ISO_DATE.exec(s);
  if (iso) {
    const [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    return plausibleYear(y) && m >= 1 && m <= 12 && d >= 1 && d <= 31 && (iso[4] === undefined || Number(iso[4]) < 24);
  }
  if (TIME_ONLY.test(s)) return true;
  if (/^\d{4}(-\d\d)?$/.test(s)) return plausibleYear(Number(s.slice(0, 4)));
  for (const re of OTHER_DATES) if (re.test(s)) return true;
  if (/^\d{9,13}$/.test(s)) return isDate(Number(s));
  // RFC 2822 / "June 1, 2025" and the like: must name a plausible year.
  const t = Date.parse(s);
  const year = /\b(1[89]\d\d|2[01]\d\d)\b/.exec(s);
  return Number.isFinite(t) && year !== null;
}

function isUrl(v: unknown): boolean {
  if (typeof v !== "string") return false;
  const s = v.trim();
  if (/^(\/|\.\.?\/)/.test(s) && !/\s/.test(s)) return true;
  // A host with a path and no scheme (`my-app.now.sh`, `www.example.com/docs`).
  if (/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}(?::\d+)?(?:\/\S*)?$/i.test(s)) return true;
  try {
    const u = new URL(s);
    if (/^(https?|ftp|wss?):$/.test(u.protocol)) return u.hostname.includes(".") || u.hostname === "localhost";
    return /^(mailto|tel|urn|data|s3|gs|file):$/.test(u.protocol);
  } catch {
    return false;
  }
}

function isPhone(v: unknown): boolean {
  if (typeof v === "number") return String(v).length >= 6 && String(v).length <= 15;
  if (typeof v !== "string") return false;
  const s = v.trim();
  if (!/^\+?[0-9 ().\-/x]+$/i.test(s)) return false;
  const digits = s.replace(/\D/g, "").length;
  return digits >= 6 && digits <= 18;
}

const zones = new Set<string>(Intl.supportedValuesOf("timeZone"));

function isTimeZone(v: unknown): boolean {
  if (typeof v !== "string") return typeof v === "number" && Math.abs(v) <= 14 * 3600;
  const s = v.trim();
  if (zones.has(s) || /^(UTC|GMT|Z)$/i.test(s) || /^(UTC|GMT)?\s?[+-]\d\d?(:?\d\d)?$/i.test(s)) return true;
  try {
    new Intl.DateTimeFormat("en", { timeZone: s });
    return true;
  } catch {
    return /^[A-Z]{3,5}$/.test(s); // an abbreviation (CET, PST, AEST)
  }
}

function pair(v: string, check: (s: string) => boolean): boolean {
  const parts = v.split(/[/_:\- ]|(?<=^[A-Z]{3})(?=[A-Z]{3}$)/).filter((p) => p !== "");
  return parts.length >= 1 && parts.length <= 2 && parts.every(check);
}

/** Whether a value of a kind is plausible; undefined when it is not a value the kind judges (null, objects). */
export function isPlausible(kind: ValueKind, value: unknown, field?: string): boolean | undefined {
  // A number under a bare name (`updated: 171`, `deleted: 1`, `Sent: 21`, `mobile: 76`) is a count or a flag as often as a date or a phone.
  if (typeof value === "number" && field !== undefined && (kind === "date" || kind === "stamp" || kind === "phone") && !/(_at|At|date|Date|time|Time|stamp|Stamp|_on|number|Number)$/.test(field)) return undefined;
  if (value === null || value === undefined || typeof value === "boolean") return undefined;
  if (typeof value === "object") return undefined;
  switch (kind) {
    case "date":
      return isDate(value);
    case "stamp":
      return isDate(value) && !(typeof value === "string" && ISO_DATE.test(value.trim()) && isAfterNow(value, SIMULATED_TODAY));
    case "email":
      return typeof value === "string" && EMAIL.test(value.trim());
    case "url":
      return isUrl(value);
    case "phone":
      return isPhone(value);
    case "latitude":
    case "longitude": {
      const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
      return Number.isFinite(n) && Math.abs(n) <= (kind === "latitude" ? 90 : 180);
    }
    case "timezone":
      return isTimeZone(value);
    case "country":
      return typeof value === "string" && (isCountry(value) || WILDCARD.test(value));
    case "currency":
      return typeof value === "string" && (isCurrency(value) || pair(value, isCurrency));
    case "language":
      return typeof value === "string" && (isLanguage(value) || WILDCARD.test(value));
    case "person":
      return typeof value === "string" ? !isWordSalad(value) : undefined;
  }
}

const dictionary = new Set<string>(Object.values(en.word ?? {}).flat() as string[]);
const personNames = new Set<string>(
  [en.person?.first_name, en.person?.last_name, en.person?.middle_name].flatMap((group) => (group === undefined || group === null ? [] : Object.values(group).flat())).map((n) => String(n).toLowerCase()),
);

/**
 * Whether a person's name is dictionary words put together (`Tepid Hundred`, `Crowded Hierarchy`): two or more
 * words, each an English dictionary word and none a name people have. One word is not judged (`Young` is both).
 */
function isWordSalad(value: string): boolean {
  const words = value.trim().toLowerCase().split(/[\s-]+/).filter((w) => w !== "");
  return words.length >= 2 && words.every((w) => dictionary.has(w) && !personNames.has(w));
}

/** A filter's "any" (a podcast directory's `Any language`, `All countries`): no value of the kind, but a real option. */
const WILDCARD = /^\s*(any|all)(\s+(languages?|countries|country|regions?))?\s*$/i;

/** One typed value met in a journal and its verdict. */
export interface TypedValue {
  kind: ValueKind;
  field: string;
  value: unknown;
  plausible: boolean;
}

/** The kind of a field by the object holding it: `name` or `code` of a country, currency or language (`countries[].name`). */
function kindByHolder(field: string, holder: string | undefined): ValueKind | undefined {
  if (holder === undefined || !/^(name|code|iso_?code|iso2|alpha2|alpha_2|alpha3|alpha_3)$/i.test(field)) return undefined;
  const h = snakeName(holder).replace(/ies$/, "y").replace(/s$/, "");
  if (/^(country|nationality)$/.test(h)) return "country";
  if (/^currenc(y|ie)$/.test(h)) return "currency";
  if (/^language$/.test(h)) return "language";
  return undefined;
}

/**
 * Every typed scalar value in a JSON value: fields named like a kind, scalars in lists under such a name
 * (`currencies: ["EUR"]`), and the name or code of an object that is a country, currency or language.
 */
export function typedValues(value: unknown, out: TypedValue[] = [], depth = 0, field?: string, inList = false, holder?: string): TypedValue[] {
  if (depth > 12) return out;
  if (Array.isArray(value)) {
    for (const v of value) typedValues(v, out, depth + 1, field, true, holder);
    return out;
  }
  if (typeof value === "object" && value !== null) {
    // A map of problems by field (`rejected: {created_at: "Expected a date..."}`): its keys name fields, its values are messages.
    if (field !== undefined && isProblemMap(field, value)) return out;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) typedValues(v, out, depth + 1, k, false, field);
    return out;
  }
  if (field === undefined) return out;
  const kind = valueKindOf(field) ?? (inList && field.endsWith("s") ? valueKindOf(field.slice(0, -1)) : undefined) ?? kindByHolder(field, holder);
  if (kind === undefined) return out;
  const verdict = isPlausible(kind, value, field);
  if (verdict !== undefined) out.push({ kind, field: holder !== undefined && kindByHolder(field, holder) === kind && valueKindOf(field) === undefined ? `${holder}.${field}` : field, value, plausible: verdict });
  return out;
}
