/**
 * The simulated "now" of every answer: synthesized dates are drawn around it (past ones before it, future
 * ones after it), an answer about today is dated by it, and upcoming items come after it. Fixed, so that
 * seeded runs give the same answers whatever day they run on.
 */
export const REFERENCE_DATE = new Date("2025-06-01T12:00:00Z");

/** The simulated today, as a date (`2025-06-01`). */
export const SIMULATED_TODAY = REFERENCE_DATE.toISOString().slice(0, 10);

/**
 * Whether a date or date-time is later than the simulated now of `today` (at the reference time of day): a later
 * day, or a time of that day after it where the value says its zone (`2025-06-01T20:30:12Z` is later than noon).
 */
export function isAfterNow(value: string, today: string = SIMULATED_TODAY): boolean {
  const v = value.trim();
  const day = v.slice(0, 10);
  if (day !== today) return day > today;
  if (!/^\d{4}-\d\d-\d\d[T ]\d\d:\d\d/.test(v) || !/(Z|[+-]\d\d:?\d\d)$/i.test(v)) return false;
  const t = Date.parse(v.replace(" ", "T"));
  return Number.isFinite(t) && t > nowOf(today);
}

/** The time of day of the simulated now (`12:00:00.000Z`). */
const NOW_TIME = REFERENCE_DATE.toISOString().slice(11);
const nowInstants = new Map<string, number>();

/** The simulated now on `today`, in milliseconds (memoized: answers ask it for every stamp of today). */
function nowOf(today: string): number {
  let t = nowInstants.get(today);
  if (t === undefined) {
    t = Date.parse(`${today}T${NOW_TIME}`);
    if (nowInstants.size > 1000) nowInstants.clear();
    nowInstants.set(today, t);
  }
  return t;
}

/**
 * A date-time moved back by whole hours to the simulated now of `today` at the latest, written as it was (its zone
 * and seconds kept): `2025-06-01T13:20:00Z` -> `2025-06-01T11:20:00Z`. Other values are returned as they are.
 */
export function notAfterNow(value: string, today: string = SIMULATED_TODAY): string {
  const m = /^(\d{4}-\d\d-\d\d)([T ])(\d\d):(\d\d)(:\d\d(?:\.\d+)?)?(Z|([+-])(\d\d):?(\d\d))$/i.exec(value.trim());
  if (!m || !isAfterNow(value, today)) return value;
  const t = Date.parse(value.trim().replace(" ", "T"));
  const now = nowOf(today);
  if (!Number.isFinite(t)) return value;
  const hours = Math.ceil((t - now) / 3_600_000);
  const offsetMinutes = m[7] === undefined ? 0 : (m[7] === "-" ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9]));
  const wall = new Date(t - hours * 3_600_000 + offsetMinutes * 60_000).toISOString();
  return `${wall.slice(0, 10)}${m[2]}${wall.slice(11, 16)}${m[5] ?? ""}${m[6]}`;
}
