/**
 * The admins' Mini App reads (src/ledger/admin-reads.ts), written once over the port in the SQL
 * both databases speak; only the tie-break column is the dialect's.
 */
import {
  type AdminReads,
  type DaySpending,
  DELIVERED_STATUSES,
  type DeliveredGroup,
  likePattern,
  MAX_PAGE_SIZE,
  type PurchaseFilter,
  type PurchasePage,
  personId,
  recipientText,
  tallyDays,
} from "../ledger/admin-reads.js";
import type { GiveawayBatch } from "../ledger/giveaways.js";
import type { Database } from "./db/port.js";
import { camelRow, type IntentRow, rowToIntent } from "./ledger/rows.js";

/** A WHERE clause with `@name` parameters, and their values. */
interface FilterSql {
  where: string;
  params: Record<string, string | number>;
}

/**
 * The filter as SQL over `purchase_intents`. A person's name is looked up in the names the bot
 * keeps (the `people` namespace of the key-value table, written by src/bot/people.ts).
 */
function filterSql(filter: PurchaseFilter): FilterSql {
  const clauses: string[] = [];
  const params: Record<string, string | number> = {};
  const person = filter.person?.trim() ?? "";
  if (person !== "") {
    const id = personId(person);
    params.personName = likePattern(person);
    const byName = `CAST(requester_user_id AS TEXT) IN (SELECT key FROM kv
      WHERE namespace = 'people' AND lower(value) LIKE @personName ESCAPE '\\')`;
    if (id === undefined) clauses.push(byName);
    else {
      params.personId = id;
      clauses.push(`(requester_user_id = @personId OR ${byName})`);
    }
  }
  const recipient = recipientText(filter.recipient ?? "");
  if (recipient !== "") {
    params.recipient = likePattern(recipient);
    clauses.push("lower(recipient) LIKE @recipient ESCAPE '\\'");
  }
  if (filter.statuses !== undefined && filter.statuses.length > 0) {
    const names = filter.statuses.map((status, i) => {
      params[`status${i}`] = status;
      return `@status${i}`;
    });
    clauses.push(`status IN (${names.join(", ")})`);
  }
  if (filter.kind !== undefined) {
    params.kind = filter.kind;
    clauses.push("kind = @kind");
  }
  if (filter.from !== undefined) {
    params.from = filter.from;
    clauses.push("created_at >= @from");
  }
  if (filter.to !== undefined) {
    params.to = filter.to;
    clauses.push("created_at < @to");
  }
  return { where: clauses.length === 0 ? "" : `WHERE ${clauses.join(" AND ")}`, params };
}

interface Page {
  limit: number;
  offset: number;
}

/** The page bounds, whole and within range. */
function pageBounds(page: Page): Page {
  const limit = Math.max(1, Math.min(Math.trunc(page.limit), MAX_PAGE_SIZE));
  return { limit, offset: Math.max(0, Math.trunc(page.offset)) };
}

/**
 * A decimal cost (`12`, `0.75`, `-3.5`) as a whole number of billionths, exact (unlike a
 * float), with functions both stores have: the digits before the point are what `ltrim` of
 * the digits leaves off (the point and the fraction, or nothing), the fraction's digits are
 * padded to nine.
 */
const DIGITS = "ltrim(cost_amount, '-')";
const TAIL = `ltrim(${DIGITS}, '0123456789')`;
const WHOLE = `COALESCE(CAST(NULLIF(substr(${DIGITS}, 1, length(${DIGITS}) - length(${TAIL})), '') AS BIGINT), 0)`;
const FRACTION = `CAST(substr(substr(${TAIL}, 2) || '000000000', 1, 9) AS BIGINT)`;
const BILLIONTHS = `CASE WHEN cost_amount LIKE '-%' THEN -1 ELSE 1 END * (${WHOLE} * 1000000000 + ${FRACTION})`;

/** Delivered purchases sent in `[@from, @to)`, summed per UTC day, kind and cost currency. */
const DELIVERED_SQL = `SELECT sent_at / 86400000 AS "dayNumber", kind, COUNT(*) AS gifts,
    SUM(quantity) AS quantity, cost_currency AS "costCurrency",
    SUM(CASE WHEN cost_amount IS NULL THEN NULL ELSE ${BILLIONTHS} END) AS "costBillionths"
  FROM purchase_intents
  WHERE status IN (${DELIVERED_STATUSES.map((s) => `'${s}'`).join(", ")})
    AND sent_at >= @from AND sent_at < @to
  GROUP BY sent_at / 86400000, kind, cost_currency`;

/** Batches not ended, newest first. */
const OPEN_BATCHES_SQL = `SELECT * FROM giveaway_batches
  WHERE status IN ('running', 'paused', 'stopped') ORDER BY created_at DESC, id`;

export class StoredAdminReads implements AdminReads {
  constructor(private readonly db: Database) {}

  async purchasesPage(filter: PurchaseFilter, page: Page): Promise<PurchasePage> {
    const { where, params } = filterSql(filter);
    const [found, counted] = await Promise.all([
      this.db.rows<IntentRow>(
        `SELECT * FROM purchase_intents ${where}
         ORDER BY created_at DESC, ${this.db.dialect.seq} DESC LIMIT @limit OFFSET @offset`,
        { ...params, ...pageBounds(page) },
      ),
      // PostgreSQL's COUNT is a bigint, which its driver answers as text.
      this.db.rows<{ total: number | string }>(
        `SELECT COUNT(*) AS total FROM purchase_intents ${where}`,
        params,
      ),
    ]);
    return { intents: found.map(rowToIntent), total: Number(counted[0]?.total ?? 0) };
  }

  async dailySpending(from: number, to: number): Promise<DaySpending[]> {
    return tallyDays(await this.db.rows<DeliveredGroup>(DELIVERED_SQL, { from, to }));
  }

  async openBatches(): Promise<GiveawayBatch[]> {
    const found = await this.db.rows<object>(OPEN_BATCHES_SQL);
    return found.map((row) => camelRow<GiveawayBatch>(row));
  }
}
