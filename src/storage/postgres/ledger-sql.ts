/**
 * The SQL the PostgreSQL ledger's pieces share: the pause switch's keys (the same rows as
 * SQLite's), the running daily totals the claim and the limits read, and the window of
 * purchases that were out. Aliases are quoted: PostgreSQL folds unquoted names to lower case.
 */
export { PAUSE_REASON_KEY, PAUSED_KEY } from "../sqlite/ledger-sql.js";

/**
 * What may have been spent on the UTC day `@day`: a `quantity` (stars) or a count of
 * `purchases` (premium), for one person (`@userId`) or the whole bot (`0`). One lookup in the
 * running totals the trigger keeps (migration "purchase ledger ...").
 */
export function spent(
  column: "quantity" | "purchases",
  kind: "stars" | "premium",
  who: string,
): string {
  return `COALESCE((SELECT d.${column} FROM daily_spending d
    WHERE d.day = @day AND d.kind = '${kind}' AND d.requester_user_id = ${who}), 0)`;
}

/**
 * The intents whose request was out at some moment between `@from` and `@to` (not rejected:
 * those spent nothing): still out, or finished within the window.
 */
export const OUT_BETWEEN_SQL = `(finished_at IS NULL OR finished_at >= @from)
  AND sent_at IS NOT NULL AND sent_at < @to AND status <> 'rejected'`;

export const USAGE_SQL = `
SELECT
  ${spent("quantity", "stars", "0")} AS "starsBot",
  ${spent("purchases", "premium", "0")} AS "premiumBot",
  ${spent("quantity", "stars", "@userId")} AS "starsUser",
  ${spent("purchases", "premium", "@userId")} AS "premiumUser"
`;
