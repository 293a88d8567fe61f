/**
 * The simulated "now" of every answer: synthesized dates are drawn around it (past ones before it, future
 * ones after it), an answer about today is dated by it, and upcoming items come after it. Fixed, so that
 * seeded runs give the same answers whatever day they run on.
 */
export const REFERENCE_DATE = new Date("2025-06-01T12:00:00Z");

/** The simulated today, as a date (`2025-06-01`). */
export const SIMULATED_TODAY = REFERENCE_DATE.toISOString().slice(0, 10);
