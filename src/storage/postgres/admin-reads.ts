/**
 * The admins' Mini App reads on PostgreSQL, with the SQLite store's SQL
 * (src/storage/sqlite/admin-reads.ts); `seq` breaks ties where SQLite uses its rowid.
 */
import type pg from "pg";
import {
  type AdminReads,
  type DaySpending,
  type DeliveredGroup,
  type PurchaseFilter,
  type PurchasePage,
  tallyDays,
} from "../../ledger/admin-reads.js";
import type { GiveawayBatch } from "../../ledger/giveaways.js";
import { DELIVERED_SQL, filterSql, OPEN_BATCHES_SQL, pageBounds } from "../sqlite/admin-reads.js";
import { type BatchRow, rowToBatch } from "../sqlite/giveaway-batches.js";
import { type IntentRow, rowToIntent } from "../sqlite/rows.js";
import { rows } from "./sql.js";

export class PostgresAdminReads implements AdminReads {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async purchasesPage(
    filter: PurchaseFilter,
    page: { limit: number; offset: number },
  ): Promise<PurchasePage> {
    const { where, params } = filterSql(filter);
    const [found, counted] = await Promise.all([
      rows<IntentRow>(
        this.#pool,
        `SELECT * FROM purchase_intents ${where}
         ORDER BY created_at DESC, seq DESC LIMIT @limit OFFSET @offset`,
        { ...params, ...pageBounds(page) },
      ),
      rows<{ total: string }>(
        this.#pool,
        `SELECT COUNT(*) AS total FROM purchase_intents ${where}`,
        params,
      ),
    ]);
    return { intents: found.map(rowToIntent), total: Number(counted[0]?.total ?? 0) };
  }

  async dailySpending(from: number, to: number): Promise<DaySpending[]> {
    return tallyDays(await rows<DeliveredGroup>(this.#pool, DELIVERED_SQL, { from, to }));
  }

  async openBatches(): Promise<GiveawayBatch[]> {
    return (await rows<BatchRow>(this.#pool, OPEN_BATCHES_SQL)).map(rowToBatch);
  }
}
