/**
 * The sender lease in PostgreSQL (see {@link SenderLease}): the same single row and the same
 * one-statement moves as the SQLite lease (src/storage/sqlite/sender-lease.ts). Each UPDATE
 * locks the row, and a second one waiting for it re-checks its WHERE clause on the new row
 * (READ COMMITTED), so two replicas asking at once cannot both win.
 */
import type pg from "pg";
import type { LeaseHolder, SenderLease } from "../../ledger/types.js";

export class PostgresSenderLease implements SenderLease {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async acquire(owner: string, now: number, ttlMs: number): Promise<number | undefined> {
    return this.#epochOf(
      `UPDATE sender_lease SET owner = $1, epoch = epoch + 1, expires_at = $2::bigint + $3::bigint, renewed_at = $2
       WHERE name = 'sender' AND (owner IS NULL OR expires_at <= $2) RETURNING epoch`,
      [owner, now, ttlMs],
    );
  }

  async takeOver(
    owner: string,
    from: { owner: string; epoch: number },
    now: number,
    ttlMs: number,
  ): Promise<number | undefined> {
    return this.#epochOf(
      `UPDATE sender_lease SET owner = $1, epoch = epoch + 1, expires_at = $2::bigint + $3::bigint, renewed_at = $2
       WHERE name = 'sender' AND owner = $4 AND epoch = $5 RETURNING epoch`,
      [owner, now, ttlMs, from.owner, from.epoch],
    );
  }

  async renew(owner: string, epoch: number, now: number, ttlMs: number): Promise<boolean> {
    const result = await this.#pool.query(
      `UPDATE sender_lease SET expires_at = $3::bigint + $4::bigint, renewed_at = $3
       WHERE name = 'sender' AND owner = $1 AND epoch = $2 AND expires_at > $3`,
      [owner, epoch, now, ttlMs],
    );
    return result.rowCount === 1;
  }

  async release(owner: string, epoch: number): Promise<void> {
    await this.#pool.query(
      `UPDATE sender_lease SET owner = NULL, expires_at = 0
       WHERE name = 'sender' AND owner = $1 AND epoch = $2`,
      [owner, epoch],
    );
  }

  async holder(now: number): Promise<LeaseHolder | undefined> {
    const result = await this.#pool.query<{
      owner: string | null;
      epoch: number;
      expires_at: number;
    }>("SELECT owner, epoch, expires_at FROM sender_lease WHERE name = 'sender'");
    const row = result.rows[0];
    if (row?.owner === undefined || row.owner === null || row.expires_at <= now) return undefined;
    return { owner: row.owner, epoch: row.epoch, expiresAt: row.expires_at };
  }

  async #epochOf(sql: string, values: unknown[]): Promise<number | undefined> {
    const result = await this.#pool.query<{ epoch: number }>(sql, values);
    return result.rows[0]?.epoch;
  }
}
