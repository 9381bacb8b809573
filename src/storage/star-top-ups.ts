/** The books of the bot's Stars ({@link StarTopUps}): the `star_top_ups` table, over the port. */
import type { StarTopUps, StarTopUp } from "../ledger/star-top-ups.js";
import type { Database } from "./db/port.js";

interface TopUpRow {
  charge_id: string;
  user_id: number;
  stars: number;
  payload: string;
  paid_at: number;
  refunded_at: number | null;
  refunded_by: number | null;
}

function rowToTopUp(row: TopUpRow): StarTopUp {
  return {
    chargeId: row.charge_id,
    userId: Number(row.user_id),
    stars: Number(row.stars),
    payload: row.payload,
    paidAt: Number(row.paid_at),
    refundedAt: row.refunded_at === null ? undefined : Number(row.refunded_at),
    refundedBy: row.refunded_by === null ? undefined : Number(row.refunded_by),
  };
}

export class StoredStarTopUps implements StarTopUps {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async recordTopUp(topUp: Omit<StarTopUp, "refundedAt" | "refundedBy">): Promise<boolean> {
    const inserted = await this.#db.run(
      `INSERT INTO star_top_ups (charge_id, user_id, stars, payload, paid_at)
       VALUES (@chargeId, @userId, @stars, @payload, @paidAt)
       ON CONFLICT (charge_id) DO NOTHING`,
      { ...topUp },
    );
    return inserted === 1;
  }

  async topUp(chargeId: string): Promise<StarTopUp | undefined> {
    const [row] = await this.#db.rows<TopUpRow>(
      "SELECT * FROM star_top_ups WHERE charge_id = @chargeId",
      { chargeId },
    );
    return row === undefined ? undefined : rowToTopUp(row);
  }

  async recentTopUps(limit: number): Promise<StarTopUp[]> {
    const rows = await this.#db.rows<TopUpRow>(
      "SELECT * FROM star_top_ups ORDER BY paid_at DESC, charge_id LIMIT @limit",
      { limit: Math.max(1, Math.trunc(limit)) },
    );
    return rows.map(rowToTopUp);
  }

  async markRefunded(chargeId: string, adminId: number, at: number): Promise<boolean> {
    const changed = await this.#db.run(
      `UPDATE star_top_ups SET refunded_at = @at, refunded_by = @adminId
       WHERE charge_id = @chargeId AND refunded_at IS NULL`,
      { chargeId, adminId, at },
    );
    return changed === 1;
  }

  async toppedUpBetween(from: number, to: number): Promise<{ stars: number; count: number }> {
    const [row] = await this.#db.rows<{ stars: number | null; count: number }>(
      `SELECT SUM(stars) AS stars, COUNT(*) AS count FROM star_top_ups
       WHERE paid_at >= @from AND paid_at < @to AND refunded_at IS NULL`,
      { from, to },
    );
    return { stars: Number(row?.stars ?? 0), count: Number(row?.count ?? 0) };
  }
}
