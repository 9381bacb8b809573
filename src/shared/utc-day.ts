/**
 * UTC days. Limits reset at UTC midnight so that every admin, wherever they are, sees the same
 * day boundaries as the database.
 */
export const DAY_MS = 86_400_000;

/** The UTC midnight at or before `at`. */
export function utcDayStart(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

/**
 * The number of the UTC day holding `at` (days since 1970-01-01): how the running daily totals
 * in SQLite name a day (`sent_at / 86400000`, integer division).
 */
export function utcDayNumber(at: number): number {
  return Math.floor(at / DAY_MS);
}

/** The next UTC midnight after `at`: when today's limits reset. */
export function nextUtcMidnight(at: number): number {
  return utcDayStart(at) + DAY_MS;
}

/** `YYYY-MM-DD` of the UTC day holding `at`. */
export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}
