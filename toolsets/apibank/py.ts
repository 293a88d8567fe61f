/*
 * The bits of Python's semantics that API-Bank's APIs depend on, so their answers are Python-equal: exceptions
 * with Python's messages (`str(e)`), `datetime.strptime` / `strftime` for the formats the APIs use, `==` on JSON
 * values (1 == 1.0, dicts by content), `repr` and `str` of values (a float is `6.0`, `77.33333333333333`, `1e-05`).
 */

/** An exception raised inside an API: its message is Python's `str(e)`; `type` is the Python class name. */
export class PyException extends Error {
  override name = "PyException";
  constructor(
    message: string,
    /** `Exception`, `ValueError`, `KeyError`, `TypeError`, `IndexError`, `ZeroDivisionError`, `AttributeError`... */
    readonly type: string = "Exception",
  ) {
    super(message);
  }
}

/** Python's `raise KeyError(key)`: its `str()` is the key's repr (`'Paris'`). */
export function keyError(key: unknown): PyException {
  return new PyException(pyRepr(key), "KeyError");
}

/** Python's float repr: shortest round-trip digits, `.0` on integers, exponent below 1e-4 and from 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mant = "", expText = "0"] = Math.abs(x).toExponential().split("e");
  const digits = mant.replace(".", "");
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
  const frac = digits.slice(exp + 1);
  return `${sign}${intPart}.${frac === "" ? "0" : frac}`;
}

/** Python's repr of a str: single quotes unless the text holds a single quote and no double quote. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of s) {
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}

/** Python's `repr()` of a JSON value (numbers that are floats in Python keep their `.0` when `floats` says so). */
export function pyRepr(v: unknown, floats = false): string {
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return floats || !Number.isInteger(v) ? pyFloatRepr(v) : String(v);
  if (typeof v === "string") return pyStrRepr(v);
  if (Array.isArray(v)) return `[${v.map((x) => pyRepr(x, floats)).join(", ")}]`;
  if (typeof v === "object") return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x, floats)}`).join(", ")}}`;
  return String(v);
}

/** Python's `str()`: a str is itself, anything else its repr. */
export function pyStr(v: unknown, floats = false): string {
  return typeof v === "string" ? v : pyRepr(v, floats);
}

/** Python's `==` on JSON values: numbers by value (True == 1), lists in order, dicts by content. */
export function pyEquals(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  const num = (x: unknown): number | undefined => (typeof x === "number" ? x : typeof x === "boolean" ? Number(x) : undefined);
  const na = num(a);
  const nb = num(b);
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && na === nb;
  if (a === null || b === null) return a === b;
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => pyEquals(x, b[i]));
  }
  if (typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a as object);
    const kb = Object.keys(b as object);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && pyEquals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

/** A date and time as `datetime` holds it. */
export interface PyDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const DIRECTIVES: Record<string, string> = {
  Y: "(\\d\\d\\d\\d)",
  m: "(1[0-2]|0[1-9]|[1-9])",
  d: "(3[01]|[12]\\d|0[1-9]|[1-9]| [1-9])",
  H: "(2[0-3]|[0-1]\\d|\\d)",
  M: "([0-5]\\d|\\d)",
  S: "(6[0-1]|[0-5]\\d|\\d)",
};

const FORMAT_CACHE = new Map<string, { re: RegExp; fields: string[] }>();

function compileFormat(format: string): { re: RegExp; fields: string[] } {
  let cached = FORMAT_CACHE.get(format);
  if (cached) return cached;
  const fields: string[] = [];
  let re = "";
  for (let i = 0; i < format.length; i++) {
    const c = format[i] as string;
    if (c === "%" && i + 1 < format.length) {
      const d = format[++i] as string;
      const part = DIRECTIVES[d];
      if (part === undefined) throw new Error(`strptime: directive %${d} is not supported`);
      fields.push(d);
      re += part;
    } else if (/\s/.test(c)) re += "\\s+";
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  cached = { re: new RegExp(`^(?:${re})`, "i"), fields };
  FORMAT_CACHE.set(format, cached);
  return cached;
}

function daysIn(year: number, month: number): number {
  return [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
}

/** Python's `datetime.strptime(text, format)` for `%Y %m %d %H %M %S` formats, with its leniency and its errors. */
export function strptime(text: unknown, format: string): PyDateTime {
  if (typeof text !== "string") throw new PyException(`strptime() argument 1 must be str, not ${pyTypeName(text)}`, "TypeError");
  const { re, fields } = compileFormat(format);
  const m = re.exec(text);
  if (!m) throw new PyException(`time data ${pyStrRepr(text)} does not match format ${pyStrRepr(format)}`, "ValueError");
  if (m[0].length !== text.length) throw new PyException(`unconverted data remains: ${text.slice(m[0].length)}`, "ValueError");
  const dt: PyDateTime = { year: 1900, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  fields.forEach((f, i) => {
    const v = Number((m[i + 1] as string).trim());
    if (f === "Y") dt.year = v;
    else if (f === "m") dt.month = v;
    else if (f === "d") dt.day = v;
    else if (f === "H") dt.hour = v;
    else if (f === "M") dt.minute = v;
    else if (f === "S") dt.second = v;
  });
  if (dt.second > 59) throw new PyException("second must be in 0..59", "ValueError");
  if (dt.year < 1) throw new PyException(`year 0 is out of range`, "ValueError");
  if (dt.day > daysIn(dt.year, dt.month)) throw new PyException("day is out of range for month", "ValueError");
  return dt;
}

/** Python's `strftime` for `%Y %m %d %H %M %S` formats. */
export function strftime(dt: PyDateTime, format: string): string {
  const two = (n: number): string => String(n).padStart(2, "0");
  return format.replace(/%([YmdHMS])/g, (_, d: string) =>
    d === "Y" ? String(dt.year).padStart(4, "0") : two(d === "m" ? dt.month : d === "d" ? dt.day : d === "H" ? dt.hour : d === "M" ? dt.minute : dt.second),
  );
}

/** Orders two datetimes (negative, zero or positive). */
export function compareDateTime(a: PyDateTime, b: PyDateTime): number {
  return a.year - b.year || a.month - b.month || a.day - b.day || a.hour - b.hour || a.minute - b.minute || a.second - b.second;
}

/**
 * API-Bank's `format_check` of a date or time: stripped, a short year zero-filled to four digits
 * (`23-3-5` -> `0023-3-5`), then parsed and written back in the canonical format; the parse error is
 * returned (not thrown), as the APIs do, for the caller to raise.
 */
export function formatCheck(text: unknown, format: string): string | PyException {
  const s = pyStrip(text);
  const parts = s.split("-");
  let t = s;
  if (parts.length === 3 && (parts[0] as string).length !== 4) t = [(parts[0] as string).padStart(4, "0"), parts[1], parts[2]].join("-");
  try {
    return strftime(strptime(t, format), format);
  } catch (e) {
    if (e instanceof PyException) return e;
    throw e;
  }
}

/** The Python type name of a JSON value (in messages). */
export function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return "NoneType";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (typeof v === "string") return "str";
  if (Array.isArray(v)) return "list";
  return "dict";
}

/** Calls a str method on a value: a non-str raises Python's AttributeError. */
export function asStr(v: unknown, method: string): string {
  if (typeof v !== "string") throw new PyException(`'${pyTypeName(v)}' object has no attribute '${method}'`, "AttributeError");
  return v;
}

/** Python's `s.strip()` (whitespace as Python counts it). */
export function pyStrip(v: unknown): string {
  return asStr(v, "strip").replace(/^[\s\u001c-\u001f\u0085]+|[\s\u001c-\u001f\u0085]+$/g, "");
}

/** Python's `s.split(' ')` as a set (API-Bank's word-overlap checks). */
export function wordSet(s: string): Set<string> {
  return new Set(s.split(" "));
}

/** API-Bank's content check: the Jaccard overlap of the words split on single spaces is above one half. */
export function contentSatisfied(a: string, b: string): boolean {
  const x = wordSet(a);
  const y = wordSet(b);
  let inter = 0;
  for (const w of x) if (y.has(w)) inter++;
  const union = new Set([...x, ...y]).size;
  return union > 0 && inter / union > 0.5;
}

/** A `format_check` result as Python uses it: the exception it returned raised, else the value. */
export function raiseIf(v: string | PyException): string {
  if (v instanceof PyException) throw v;
  return v;
}

/** Python's `==` between two format_check results (an exception equals only itself). */
export function sameChecked(a: string | PyException | null, b: string | PyException | null): boolean {
  return a instanceof PyException || b instanceof PyException ? a === b : a === b;
}
