/** The outcome of a parse or validation boundary: a value, or the errors that prevented it. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; errors: E[] };

/** A successful result. */
export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** A failed result. */
export function fail<E>(errors: E[]): { ok: false; errors: E[] } {
  return { ok: false, errors };
}
