/**
 * The sender lease (see {@link SenderLease} and migration "the sender lease"): one row, each
 * move one statement, so two processes asking at once cannot both win (SQLite's write lock
 * orders them; PostgreSQL's UPDATE locks the row, and a second one waiting for it re-checks its
 * WHERE on the new row).
 */
import type { LeaseHolder, SenderLease } from "../ledger/types.js";
import type { Database } from "./db/port.js";

const TAKE_SQL = `UPDATE sender_lease SET owner = @owner, epoch = epoch + 1,
    expires_at = CAST(@now AS BIGINT) + CAST(@ttl AS BIGINT), renewed_at = @now
  WHERE name = 'sender'`;

export class StoredSenderLease implements SenderLease {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async acquire(owner: string, now: number, ttlMs: number): Promise<number | undefined> {
    return this.#epochOf(`${TAKE_SQL} AND (owner IS NULL OR expires_at <= @now) RETURNING epoch`, {
      owner,
      now,
      ttl: ttlMs,
    });
  }

  async takeOver(
    owner: string,
    from: { owner: string; epoch: number },
    now: number,
    ttlMs: number,
  ): Promise<number | undefined> {
    return this.#epochOf(`${TAKE_SQL} AND owner = @from AND epoch = @epoch RETURNING epoch`, {
      ...{ owner, now, ttl: ttlMs },
      ...{ from: from.owner, epoch: from.epoch },
    });
  }

  async renew(owner: string, epoch: number, now: number, ttlMs: number): Promise<boolean> {
    const changed = await this.#db.run(
      `UPDATE sender_lease SET expires_at = CAST(@now AS BIGINT) + CAST(@ttl AS BIGINT),
         renewed_at = @now
       WHERE name = 'sender' AND owner = @owner AND epoch = @epoch AND expires_at > @now`,
      { owner, epoch, now, ttl: ttlMs },
    );
    return changed === 1;
  }

  async release(owner: string, epoch: number): Promise<void> {
    await this.#db.run(
      `UPDATE sender_lease SET owner = NULL, expires_at = 0
       WHERE name = 'sender' AND owner = @owner AND epoch = @epoch`,
      { owner, epoch },
    );
  }

  async holder(now: number): Promise<LeaseHolder | undefined> {
    const [row] = await this.#db.rows<{ owner: string | null; epoch: number; expires_at: number }>(
      "SELECT owner, epoch, expires_at FROM sender_lease WHERE name = 'sender'",
    );
    if (row?.owner === undefined || row.owner === null || row.expires_at <= now) return undefined;
    return { owner: row.owner, epoch: row.epoch, expiresAt: row.expires_at };
  }

  async #epochOf(sql: string, params: Record<string, unknown>): Promise<number | undefined> {
    return (await this.#db.rows<{ epoch: number }>(sql, params))[0]?.epoch;
  }
}
