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
