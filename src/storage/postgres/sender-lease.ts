/**
 * The sender lease in PostgreSQL (see {@link SenderLease}): the same single row and the same
 * one-statement moves as the SQLite lease (src/storage/sqlite/sender-lease.ts). Each UPDATE
 * locks the row, and a second one waiting for it re-checks its WHERE clause on the new row
 * (READ COMMITTED), so two replicas asking at once cannot both win.
 *
 * Every time is the server's `clock_timestamp()` ({@link POSTGRES_NOW_MS}), read when the
 * statement judges the row (after any wait for its lock), never a replica's clock: a replica
 * whose clock runs ahead would otherwise find a healthy holder's lease expired and take it
 * (issue #35). The claim's fence reads the same clock (./claims.ts).
 */
import type pg from "pg";
import type { LeaseGrant, LeaseHolder, SenderLease } from "../../ledger/types.js";

/** The server's clock in whole ms since the epoch, at the moment it is evaluated. */
export const POSTGRES_NOW_MS = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";

/**
 * Takes the row when `condition` holds, returning the new epoch, the time taken and the row as
 * it was before (locked first by the CTE, so the UPDATE and `before` see the same version).
 */
function takingSql(condition: string): string {
  return `
    WITH before AS (
      SELECT owner, expires_at FROM sender_lease WHERE name = 'sender' FOR UPDATE
    )
    UPDATE sender_lease AS l SET owner = $1, epoch = l.epoch + 1,
      expires_at = ${POSTGRES_NOW_MS} + $2::bigint, renewed_at = ${POSTGRES_NOW_MS}
    FROM before
    WHERE l.name = 'sender' AND ${condition}
    RETURNING l.epoch, l.expires_at - $2::bigint AS at, before.owner AS previous_owner,
      before.expires_at AS previous_expires_at`;
}

const ACQUIRE_SQL = takingSql(`(l.owner IS NULL OR l.expires_at <= ${POSTGRES_NOW_MS})`);
const TAKE_OVER_SQL = takingSql("l.owner = $3 AND l.epoch = $4");

interface TakenRow {
  epoch: number;
  at: number;
  previous_owner: string | null;
  previous_expires_at: number;
}

export class PostgresSenderLease implements SenderLease {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async acquire(owner: string, ttlMs: number): Promise<LeaseGrant | undefined> {
    return this.#take(ACQUIRE_SQL, [owner, ttlMs]);
  }

  async takeOver(
    owner: string,
    from: { owner: string; epoch: number },
    ttlMs: number,
  ): Promise<LeaseGrant | undefined> {
    return this.#take(TAKE_OVER_SQL, [owner, ttlMs, from.owner, from.epoch]);
  }

  async renew(owner: string, epoch: number, ttlMs: number): Promise<boolean> {
    const result = await this.#pool.query(
      `UPDATE sender_lease SET expires_at = ${POSTGRES_NOW_MS} + $3::bigint,
         renewed_at = ${POSTGRES_NOW_MS}
       WHERE name = 'sender' AND owner = $1 AND epoch = $2 AND expires_at > ${POSTGRES_NOW_MS}`,
      [owner, epoch, ttlMs],
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

  async holder(): Promise<LeaseHolder | undefined> {
    const result = await this.#pool.query<{ owner: string; epoch: number; expires_at: number }>(
      `SELECT owner, epoch, expires_at FROM sender_lease
       WHERE name = 'sender' AND owner IS NOT NULL AND expires_at > ${POSTGRES_NOW_MS}`,
    );
    const row = result.rows[0];
    return row === undefined
      ? undefined
      : { owner: row.owner, epoch: row.epoch, expiresAt: row.expires_at };
  }

  async #take(sql: string, values: unknown[]): Promise<LeaseGrant | undefined> {
    const row = (await this.#pool.query<TakenRow>(sql, values)).rows[0];
    if (row === undefined) return undefined;
    const previous =
      row.previous_owner === null
        ? undefined
        : { owner: row.previous_owner, expiresAt: row.previous_expires_at };
    return { epoch: row.epoch, at: row.at, ...(previous ? { previous } : {}) };
  }
}
