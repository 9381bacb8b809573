/** The books of the bot's Stars ({@link StarTopUps}): the `star_top_ups` table, over the port. */
import { type StarTopUp, type StarTopUps, tallyTopUps } from "../ledger/star-top-ups.js";
import type { Database, Params } from "./db/port.js";
import { camelRow } from "./ledger/rows.js";

export class StoredStarTopUps implements StarTopUps {
  constructor(private readonly db: Database) {}

  /** The top-ups `where` selects (it ends with its ORDER BY). */
  async #select(where: string, params: Params): Promise<StarTopUp[]> {
    const rows = await this.db.rows<object>(`SELECT * FROM star_top_ups WHERE ${where}`, params);
    return rows.map((row) => camelRow<StarTopUp>(row));
  }

  async recordTopUp(topUp: Omit<StarTopUp, "refundedAt" | "refundedBy">): Promise<boolean> {
    const inserted = await this.db.run(
      `INSERT INTO star_top_ups (charge_id, user_id, stars, payload, paid_at)
       VALUES (@chargeId, @userId, @stars, @payload, @paidAt)
       ON CONFLICT (charge_id) DO NOTHING`,
      { ...topUp },
    );
    return inserted === 1;
  }

  async topUp(chargeId: string): Promise<StarTopUp | undefined> {
    return (await this.#select("charge_id = @chargeId", { chargeId }))[0];
  }

  recentTopUps(limit: number): Promise<StarTopUp[]> {
    const newest = { limit: Math.max(1, Math.trunc(limit)) };
    return this.#select("TRUE ORDER BY paid_at DESC, charge_id LIMIT @limit", newest);
  }

  async markRefunded(chargeId: string, adminId: number, at: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE star_top_ups SET refunded_at = @at, refunded_by = @adminId
       WHERE charge_id = @chargeId AND refunded_at IS NULL`,
      { chargeId, adminId, at },
    );
    return changed === 1;
  }

  async toppedUpBetween(from: number, to: number): Promise<{ stars: number; count: number }> {
    return tallyTopUps(await this.#select("paid_at >= @from AND paid_at < @to", { from, to }));
  }
}
