import { countryCode, countryName, findCountry, fold, languageCode } from "../../synthesize/world/world-data.js";
import type { BindingMatch } from "./bindings.js";

/**
 * How bound values compare and convert: the same value in another type (`"3"` and `3`), a date by its day,
 * a country or language by code or name (`JP` and `Japan`), coordinates within half a degree, a part of a
 * text or an element of a list. Shared by the responders that obey bindings and the checks that judge them.
 */

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const DATE_PREFIX = /^(\d{4})-(\d\d)-(\d\d)/;
/** A language code or tag (`pt`, `pt-BR`, `zh_Hans`): what may be compared with a language's name. */
const LANGUAGE_LIKE = /^[a-z]{2,3}(?:[-_](?:[A-Za-z]{4}|[A-Z]{2}|\d{3}))?$/;

/** The day of a date or date-time string (`2025-06-01`), if it is one. */
export function dayOf(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  const m = DATE_PREFIX.exec(v.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

/** The year of a date (or a year number), if any. */
export function yearOf(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  const d = dayOf(v);
  if (d !== undefined) return Number(d.slice(0, 4));
  if (typeof v === "string" && /^\d{4}$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

function text(v: unknown): string | undefined {
  if (typeof v === "string") return fold(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return undefined;
}

/** Whether two scalars say the same thing: folded text, numbers by value, dates by day, countries and languages by code or name. */
export function sameScalar(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  const ta = text(a);
  const tb = text(b);
  if (ta === undefined || tb === undefined) return false;
  if (ta === tb) return true;
  if (ta !== "" && tb !== "" && Number.isFinite(Number(ta)) && Number.isFinite(Number(tb))) return Number(ta) === Number(tb);
  const da = dayOf(a);
  const db = dayOf(b);
  if (da !== undefined && db !== undefined && (ta.length <= 10 || tb.length <= 10)) return da === db;
  if (typeof a === "string" && typeof b === "string") {
    const ca = countryCode(a);
    if (ca !== undefined && ca === countryCode(b)) return true;
    if (LANGUAGE_LIKE.test(a) || LANGUAGE_LIKE.test(b)) {
      const la = languageCode(a);
      if (la !== undefined && la === languageCode(b)) return true;
    }
  }
  return false;
}

/** Whether `field` holds `arg` (objects: every field the argument has, as given; lists: the same items). */
export function sameValue(field: unknown, arg: unknown): boolean {
  if (isObject(arg)) return isObject(field) && Object.entries(arg).every(([k, v]) => v === undefined || (k in field && sameValue(field[k], v)));
  if (Array.isArray(arg)) {
    if (!Array.isArray(field)) return false;
    if (arg.every((a) => !isObject(a) && !Array.isArray(a)) && field.every((f) => !isObject(f) && !Array.isArray(f))) {
      return arg.length === field.length && arg.every((a) => field.some((f) => sameScalar(f, a)));
    }
    return arg.length === field.length && arg.every((a, i) => sameValue(field[i], a));
  }
  if (Array.isArray(field)) return false;
  return sameScalar(field, arg);
}

/** The words a search looks for (`"heat wave AND Spain"` -> heat, wave, spain), or the whole text when it has none. */
export function searchWords(query: unknown): string[] {
  const t = text(query) ?? "";
  const words = t
    .replace(/\b(and|or|not)\b/g, " ")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3);
  return words.length > 0 ? words : t.trim() !== "" ? [t.trim()] : [];
}

/** Whether a field's value agrees with an argument under a match; undefined when the field cannot tell (missing, null). */
export function agrees(field: unknown, arg: unknown, match: BindingMatch = "exact"): boolean | undefined {
  if (field === undefined || field === null) return undefined;
  switch (match) {
    case "oneOf": {
      if (!Array.isArray(arg)) return agrees(field, arg, "exact");
      if (arg.length === 0) return undefined;
      const each = arg.map((a) => agrees(field, a, "exact"));
      return each.some((x) => x === true) ? true : each.every((x) => x === undefined) ? undefined : false;
    }
    case "near": {
      const a = Number(field);
      const b = Number(arg);
      return Number.isFinite(a) && Number.isFinite(b) ? Math.abs(a - b) <= 0.5 : undefined;
    }
    case "year": {
      const y = yearOf(field);
      return y === undefined ? undefined : y === Number(arg);
    }
    case "day": {
      const a = dayOf(field);
      const b = dayOf(arg);
      return a !== undefined && b !== undefined ? a === b : sameValue(field, arg);
    }
    case "contains": {
      if (Array.isArray(field)) {
        if (field.length === 0) return undefined;
        if (field.some((f) => isObject(f) || Array.isArray(f))) return undefined;
        return field.some((f) => sameScalar(f, arg) || (typeof f === "string" && typeof arg === "string" && fold(f).includes(fold(arg))));
      }
      if (typeof field === "string" && typeof arg === "string") return fold(field).includes(fold(arg)) || sameScalar(field, arg);
      return sameValue(field, arg);
    }
    case "selects":
      return undefined;
    default:
      if (Array.isArray(field) && !Array.isArray(arg)) return field.length === 0 ? undefined : field.some((f) => sameScalar(f, arg));
      return sameValue(field, arg);
  }
}

/**
 * An argument's value as the field at hand would hold it, keeping what the field says beyond it: a number
 * for a numeric field, a string for a text, the field's time of day on a new day, a country's code where
 * the field holds codes and its name where it holds names. `undefined` when it cannot be said (an object
 * for a number).
 */
export function convertFor(current: unknown, arg: unknown, match: BindingMatch = "exact"): unknown {
  if (match === "year") {
    const y = Number(arg);
    if (!Number.isInteger(y)) return undefined;
    if (typeof current === "number") return y;
    return typeof current === "string" && DATE_PREFIX.test(current) ? `${String(y).padStart(4, "0")}${current.slice(4)}` : undefined;
  }
  if (isObject(arg) || Array.isArray(arg)) return arg;
  if (Array.isArray(current)) {
    if (current.some((c) => isObject(c))) return undefined;
    const one = current.length > 0 ? convertFor(current[0], arg) : arg;
    // Codes of a scope (`IT-RM`) keep company only in that scope: `DE-BW` is no subdivision of Italy.
    const scope = typeof arg === "string" ? /^([A-Z]{2})-[A-Z0-9]{1,3}$/.exec(arg)?.[1] : undefined;
    const others = current.filter((c) => !sameScalar(c, arg) && (scope === undefined || typeof c !== "string" || !/^[A-Z]{2}-/.test(c) || c.startsWith(`${scope}-`)));
    return current.some((c) => sameScalar(c, arg)) && others.length === current.length - 1 ? current : [one, ...others.slice(0, Math.max(0, current.length - 1))];
  }
  if (typeof current === "number") {
    const n = typeof arg === "number" ? arg : typeof arg === "string" && arg.trim() !== "" ? Number(arg) : NaN;
    return Number.isFinite(n) ? n : undefined;
  }
  if (typeof current === "boolean") {
    if (typeof arg === "boolean") return arg;
    if (arg === "true" || arg === "false") return arg === "true";
    return undefined;
  }
  if (typeof current === "string") {
    if (typeof arg !== "string") return typeof arg === "number" || typeof arg === "boolean" ? String(arg) : undefined;
    const day = dayOf(arg);
    if ((match === "day" || day !== undefined) && DATE_PREFIX.test(current)) {
      if (day === undefined) return arg;
      // A day for a date-time keeps the field's time; a date-time for a date keeps its day.
      if (arg.length <= 10 && current.length > 10) return `${day}${current.slice(10)}`;
      if (arg.length > 10 && current.length <= 10) return day;
      return arg;
    }
    const codeLike = /^[A-Z]{2,3}$/.test(current);
    const nameLike = current.length > 3 && /^[A-Z][a-z]/.test(current);
    const code = countryCode(arg);
    if (code !== undefined && (codeLike || nameLike) && countryCode(current) !== undefined) {
      if (codeLike) return current.length === 3 ? findCountry(code)?.alpha3 : code;
      return countryName(code) ?? arg;
    }
    return arg;
  }
  return arg;
}
