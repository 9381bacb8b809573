/**
 * The sender lease (see {@link SenderLease} and migration "the sender lease"): one row, each
 * move one statement, so two processes asking at once cannot both win (SQLite's write lock
 * orders them; PostgreSQL's UPDATE locks the row, and a second one waiting for it re-checks its
 * WHERE on the new row). Taking it also reads, in the same transaction and with the row locked,
 * who had it before (a new holder waits for one that did not let go: src/run/lease-keeper.ts).
 * Every time is the database's own clock (the dialect's `nowMs`), read when the statement
 * judges the row, as the claim's fence reads it (./ledger/claims.ts).
 */
import type { LeaseGrant, LeaseHolder, SenderLease } from "../ledger/types.js";
import type { Database } from "./db/port.js";
import { camelRow } from "./ledger/rows.js";

export class StoredSenderLease implements SenderLease {
  readonly #now: string;

  constructor(private readonly db: Database) {
    this.#now = db.dialect.nowMs;
  }

  acquire(owner: string, ttlMs: number): Promise<LeaseGrant | undefined> {
    const free = `(owner IS NULL OR expires_at <= ${this.#now})`;
    return this.#take(free, { owner, ttl: ttlMs });
  }

  takeOver(
    owner: string,
    from: { owner: string; epoch: number },
    ttlMs: number,
  ): Promise<LeaseGrant | undefined> {
    const held = "owner = @from AND epoch = @epoch";
    return this.#take(held, { owner, ttl: ttlMs, from: from.owner, epoch: from.epoch });
  }

  async renew(owner: string, epoch: number, ttlMs: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE sender_lease SET expires_at = ${this.#now} + CAST(@ttl AS BIGINT),
         renewed_at = ${this.#now}
       WHERE name = 'sender' AND owner = @owner AND epoch = @epoch AND expires_at > ${this.#now}`,
      { owner, epoch, ttl: ttlMs },
    );
    return changed === 1;
  }

  async release(owner: string, epoch: number): Promise<void> {
    await this.db.run(
      `UPDATE sender_lease SET owner = NULL, expires_at = 0
       WHERE name = 'sender' AND owner = @owner AND epoch = @epoch`,
      { owner, epoch },
    );
  }

  async holder(): Promise<LeaseHolder | undefined> {
    const [row] = await this.db.rows<object>(
      `SELECT owner, epoch, expires_at FROM sender_lease
       WHERE name = 'sender' AND owner IS NOT NULL AND expires_at > ${this.#now}`,
    );
    return row === undefined ? undefined : camelRow<LeaseHolder>(row);
  }

  /** Takes the row when `condition` holds, with the row as it was before, in one transaction. */
  #take(condition: string, params: Record<string, unknown>): Promise<LeaseGrant | undefined> {
    const now = this.#now;
    return this.db.transaction(async (tx) => {
      const [before] = await tx.rows<{ owner: string | null; expires_at: number }>(
        `SELECT owner, expires_at FROM sender_lease WHERE name = 'sender'${this.db.dialect.forUpdate}`,
      );
      const [taken] = await tx.rows<{ epoch: number; at: number }>(
        `UPDATE sender_lease SET owner = @owner, epoch = epoch + 1,
           expires_at = ${now} + CAST(@ttl AS BIGINT), renewed_at = ${now}
         WHERE name = 'sender' AND ${condition}
         RETURNING epoch, expires_at - CAST(@ttl AS BIGINT) AS at`,
        params,
      );
      if (taken === undefined) return undefined;
      const owner = before?.owner ?? null;
      const previous = owner === null ? {} : { previous: { owner, expiresAt: before!.expires_at } };
      return { epoch: taken.epoch, at: taken.at, ...previous };
    });
  }
}
