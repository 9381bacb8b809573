/**
 * The SQL the ledger's pieces share: the pause switch's keys, the running daily totals the claim
 * and the limits read, and the window of purchases that were out.
 */
import type { Dialect } from "../db/dialect.js";

/** The pause switch's row in `ledger_settings`: "true" while purchases are paused. */
export const PAUSED_KEY = "purchases_paused";
/** Who paused and why, JSON `{ source, detail }`, next to the switch itself. */
export const PAUSE_REASON_KEY = "purchases_paused_reason";

/**
 * What may have been spent on the UTC day `@day` (`sent_at / 86400000`): a `quantity` (stars) or
 * a count of `purchases` (premium), for one person (`@userId`) or the whole bot (`0`). One lookup
 * in the running totals that triggers keep in the status change's own transaction (migration
 * "running daily totals"), so the claim and the limits shown to people cost the same on a busy
 * day as on a quiet one, and are exact for every connection and process.
 */
export function spent(
  column: "quantity" | "purchases",
  kind: "stars" | "premium",
  who: "@userId" | "0",
): string {
  return `COALESCE((SELECT d.${column} FROM daily_spending d
    WHERE d.day = @day AND d.kind = '${kind}' AND d.requester_user_id = ${who}), 0)`;
}

/** Aliases are quoted: PostgreSQL folds unquoted names to lower case. */
export const USAGE_SQL = `
SELECT
  ${spent("quantity", "stars", "0")} AS "starsBot",
  ${spent("purchases", "premium", "0")} AS "premiumBot",
  ${spent("quantity", "stars", "@userId")} AS "starsUser",
  ${spent("purchases", "premium", "@userId")} AS "premiumUser"
`;

/**
 * The intents whose request was out at some moment between `@from` and `@to` (not rejected:
 * those spent nothing). Two lookups in the index by when each finished (still out, or finished
 * within the window), not a walk through every purchase sent before `@to`.
 */
export function outBetween(dialect: Dialect): string {
  const seq = dialect.seq;
  return `${seq} IN (
    SELECT ${seq} FROM purchase_intents WHERE finished_at IS NULL AND sent_at < @to
    UNION ALL
    SELECT ${seq} FROM purchase_intents WHERE finished_at >= @from AND sent_at < @to)
  AND status <> 'rejected'`;
}
