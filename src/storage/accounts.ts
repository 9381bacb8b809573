/**
 * The accounts ({@link PurchaseAccounts}): the cost columns of `purchase_intents`, and the
 * `balance_readings`, `daily_reports` and `breaker_openings` tables. Money is summed by the
 * ledger's rules (src/ledger/accounts.ts) with exact integers (src/costs/money.ts), never with
 * SQL's SUM over text, which would go through floats.
 */
import type { PurchaseCost } from "../costs/types.js";
import {
  type BalanceReading,
  type CostQuery,
  type CostSample,
  costSamples,
  type DayFigures,
  type PurchaseAccounts,
  type SentOnDay,
  type StoredCost,
  tallyDay,
} from "../ledger/accounts.js";
import type { BalanceSnapshot, PurchaseIntent } from "../ledger/types.js";
import { DAY_MS, utcDay } from "../shared/utc-day.js";
import type { Database } from "./db/port.js";
import { type IntentRow, rowToIntent } from "./ledger/rows.js";

/** A balance unchanged for this long is kept again, so a day's start is never far back. */
const READING_REFRESH_MS = 3_600_000;

interface ReadingRow {
  at: number;
  ton: string | null;
  usdt: string | null;
}

/** The purchases sent in `[@from, @to)`, as the day's figures count them. */
const SENT_ON_DAY_SQL = `SELECT status, kind, quantity, cost_amount AS "costAmount",
    cost_currency AS "costCurrency"
  FROM purchase_intents WHERE sent_at >= @from AND sent_at < @to`;

/** The service's refusals of purchases sent in `[@from, @to)`, by reason, most first. */
const REFUSALS_SQL = `SELECT COALESCE(outcome_detail, '') AS reason, COUNT(*) AS count
  FROM purchase_intents
  WHERE status = 'rejected' AND sent_at >= @from AND sent_at < @to
    AND COALESCE(outcome_detail, '') NOT LIKE 'not sent:%'
  GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10`;

export class StoredAccounts implements PurchaseAccounts {
  constructor(private readonly db: Database) {}

  /**
   * Records a delivered purchase's cost once: the first measurement wins (a later shared read or
   * the chain cannot overwrite it). False when already recorded or not delivered.
   */
  async recordCost(intentId: string, cost: PurchaseCost): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE purchase_intents SET cost_amount = @amount, cost_currency = @currency,
         cost_source = @source, cost_unmeasured = @reason, cost_at = @at
       WHERE id = @id AND cost_at IS NULL AND status IN ('succeeded', 'delivered')`,
      {
        id: intentId,
        amount: cost.measured ? cost.amount : null,
        currency: cost.currency,
        source: cost.measured ? cost.source : null,
        reason: cost.measured ? null : cost.reason,
        at: cost.at,
      },
    );
    return changed === 1;
  }

  async recentCosts(query: CostQuery): Promise<CostSample[]> {
    const limit = Math.max(1, Math.trunc(query.limit));
    // Asked at every summary, of the database each time: a short walk of the costs' index from
    // the newest, cheaper than keeping answers that another replica's recording makes stale.
    const found = await this.db.rows<StoredCost>(
      `SELECT quantity, cost_amount AS "costAmount", cost_currency AS "costCurrency"
       FROM purchase_intents
       WHERE kind = @kind AND payment_method = @method AND cost_amount IS NOT NULL
         AND (CAST(@quantity AS INTEGER) IS NULL OR quantity = @quantity)
       ORDER BY cost_at DESC, ${this.db.dialect.seq} DESC LIMIT @limit`,
      { kind: query.kind, method: query.paymentMethod, quantity: query.quantity ?? null, limit },
    );
    return costSamples(query, found);
  }

  /** Keeps a reading unless the newest one kept says the same and is under an hour old. */
  async recordBalance(reading: BalanceReading): Promise<void> {
    await this.db.run(
      `INSERT INTO balance_readings (at, ton, usdt)
       SELECT CAST(@at AS BIGINT), CAST(@ton AS TEXT), CAST(@usdt AS TEXT) WHERE NOT EXISTS (
         SELECT 1 FROM (SELECT at, ton, usdt FROM balance_readings ORDER BY at DESC LIMIT 1) last
         WHERE last.ton IS NOT DISTINCT FROM @ton AND last.usdt IS NOT DISTINCT FROM @usdt
           AND @at - last.at < ${READING_REFRESH_MS})`,
      { at: reading.at, ton: reading.balance.ton ?? null, usdt: reading.balance.usdt ?? null },
    );
  }

  async dayFigures(dayStart: number): Promise<DayFigures> {
    const window = { from: dayStart, to: dayStart + DAY_MS };
    const [openings] = await this.db.rows<{ count: number }>(
      "SELECT COUNT(*) AS count FROM breaker_openings WHERE at >= @from AND at < @to",
      window,
    );
    return tallyDay(utcDay(dayStart), await this.db.rows<SentOnDay>(SENT_ON_DAY_SQL, window), {
      balanceStart: snapshotOf(
        (await this.#reading("at < @from ORDER BY at DESC", window)) ??
          (await this.#reading("at >= @from AND at < @to ORDER BY at", window)),
      ),
      balanceEnd: snapshotOf(await this.#reading("at < @to ORDER BY at DESC", window)),
      refusals: await this.db.rows<{ reason: string; count: number }>(REFUSALS_SQL, window),
      breakerOpenings: openings?.count ?? 0,
    });
  }

  async #reading(where: string, window: { from: number; to: number }) {
    const sql = `SELECT at, ton, usdt FROM balance_readings WHERE ${where} LIMIT 1`;
    return (await this.db.rows<ReadingRow>(sql, window))[0];
  }

  /**
   * The purchases sent in `[from, to)`, oldest first, a page at a time keyed on (sent_at, the
   * insertion order): no cursor is held open between pages, so a long export can be streamed
   * while the bot keeps using the database.
   */
  async *sentBetween(from: number, to: number, pageSize = 500): AsyncGenerator<PurchaseIntent> {
    const seq = this.db.dialect.seq;
    let afterSent = Number.MIN_SAFE_INTEGER;
    let afterSeq = 0;
    for (;;) {
      const page = await this.db.rows<IntentRow & { row_seq: number }>(
        `SELECT ${seq} AS row_seq, * FROM purchase_intents
         WHERE sent_at >= @from AND sent_at < @to
           AND (sent_at > @afterSent OR (sent_at = @afterSent AND ${seq} > @afterSeq))
         ORDER BY sent_at, ${seq} LIMIT @limit`,
        { from, to, afterSent, afterSeq, limit: pageSize },
      );
      for (const row of page) yield rowToIntent(row);
      const last = page.at(-1);
      if (last === undefined || page.length < pageSize) return;
      afterSent = last.sent_at ?? afterSent;
      afterSeq = last.row_seq;
    }
  }

  async recordBreakerOpening(at: number, cause: string): Promise<void> {
    const sql = "INSERT INTO breaker_openings (at, cause) VALUES (@at, @cause)";
    await this.db.run(sql, { at, cause });
  }

  async reportSent(day: string, adminId: number): Promise<boolean> {
    const sql = "SELECT 1 AS one FROM daily_reports WHERE day = @day AND admin_id = @adminId";
    return (await this.db.rows(sql, { day, adminId })).length > 0;
  }

  async markReportSent(day: string, adminId: number, at: number): Promise<boolean> {
    const changed = await this.db.run(
      `INSERT INTO daily_reports (day, admin_id, sent_at) VALUES (@day, @adminId, @at)
       ON CONFLICT DO NOTHING`,
      { day, adminId, at },
    );
    return changed === 1;
  }

  async unmarkReportSent(day: string, adminId: number): Promise<void> {
    const sql = "DELETE FROM daily_reports WHERE day = @day AND admin_id = @adminId";
    await this.db.run(sql, { day, adminId });
  }
}

function snapshotOf(row: ReadingRow | undefined): BalanceSnapshot | undefined {
  return row === undefined ? undefined : { ton: row.ton ?? undefined, usdt: row.usdt ?? undefined };
}
