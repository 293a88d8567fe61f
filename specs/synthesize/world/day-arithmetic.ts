/**
 * Whole days on dates as APIs write them (`2025-06-01`, `2025-06-01T09:30:00+02:00`): moved in the same form
 * (a date-time keeps its time and offset), and counted between two days. A day no calendar has is left alone.
 */

const DAY = /^(\d{4})-(\d\d)-(\d\d)/;

/** A date or date-time moved by whole days, in the same form; the value as it is when it is no real day. */
export function shiftDays(value: string, days: number): string {
  const m = DAY.exec(value.trim());
  if (!m || !Number.isFinite(days)) return value;
  const d = new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`);
  if (!Number.isFinite(d.getTime())) return value;
  d.setUTCDate(d.getUTCDate() + days);
  return `${d.toISOString().slice(0, 10)}${value.trim().slice(10)}`;
}

/** Days from day `a` to day `b` (`YYYY-MM-DD`); NaN when either is no real day. */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b.slice(0, 10)}T00:00:00Z`) - Date.parse(`${a.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
}

const DATE_TIME = /^(\d{4}-\d\d-\d\d)([T ])(\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?(Z|([+-])(\d\d):?(\d\d))?$/i;

/**
 * An instant (epoch milliseconds) written in the form of `like`: a date (`2025-06-01`), a date-time with its
 * zone, seconds and fraction as `like` has them (the wall time in its offset), epoch seconds or milliseconds;
 * undefined when `like` is no stamp.
 */
export function instantLike(ms: number, like: unknown): string | number | undefined {
  if (!Number.isFinite(ms)) return undefined;
  if (typeof like === "number") return Number.isInteger(like) && like > 1e11 ? ms : Number.isInteger(like) && like > 1e8 ? Math.floor(ms / 1000) : undefined;
  if (typeof like !== "string") return undefined;
  const v = like.trim();
  if (/^\d{4}-\d\d-\d\d$/.test(v)) return new Date(ms).toISOString().slice(0, 10);
  const m = DATE_TIME.exec(v);
  if (!m) return undefined;
  const offsetMinutes = m[8] === undefined ? 0 : (m[8] === "-" ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10]));
  const wall = new Date(ms + offsetMinutes * 60_000).toISOString();
  const fraction = m[6] === undefined ? "" : `.${wall.slice(20, 23).padEnd(m[6].length - 1, "0").slice(0, m[6].length - 1)}`;
  const seconds = m[5] === undefined ? "" : `:${wall.slice(17, 19)}${fraction}`;
  return `${wall.slice(0, 10)}${m[2]}${wall.slice(11, 16)}${seconds}${m[7] ?? ""}`;
}

/** The instant a stamp names (epoch milliseconds; a date-time without a zone read as UTC, epoch seconds as seconds); undefined when it names none. */
export function instantOf(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) && value > 1e11 ? value : Number.isInteger(value) && value > 1e8 ? value * 1000 : undefined;
  if (typeof value !== "string") return undefined;
  const v = value.trim();
  if (/^\d{4}-\d\d-\d\d$/.test(v)) return Date.parse(`${v}T00:00:00Z`);
  const m = DATE_TIME.exec(v);
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[3]}:${m[4]}:${m[5] ?? "00"}${m[6] ?? ""}${m[7] === undefined ? "Z" : m[7].toUpperCase() === "Z" ? "Z" : `${m[8]}${m[9]}:${m[10]}`}`);
  return Number.isFinite(t) ? t : undefined;
}

