/**
 * The sender lease in the SQLite file (see {@link SenderLease} and migration "the sender lease").
 * Each move is one statement, so two processes asking at once cannot both win: SQLite's write
 * lock orders them, and the second finds the lease taken.
 */
import type { Db } from "./database.js";
import type { LeaseHolder, SenderLease } from "../../ledger/types.js";

interface LeaseRow {
  owner: string | null;
  epoch: number;
  expires_at: number;
}

export class SqliteSenderLease implements SenderLease {
  readonly #acquire;
  readonly #takeOver;
  readonly #renew;
  readonly #release;
  readonly #read;

  constructor(db: Db) {
    this.#acquire = db
      .prepare<{ owner: string; now: number; ttl: number }, number>(
        `UPDATE sender_lease SET owner = @owner, epoch = epoch + 1, expires_at = @now + @ttl,
           renewed_at = @now
         WHERE name = 'sender' AND (owner IS NULL OR expires_at <= @now)
         RETURNING epoch`,
      )
      .pluck();
    this.#takeOver = db
      .prepare<{ owner: string; from: string; epoch: number; now: number; ttl: number }, number>(
        `UPDATE sender_lease SET owner = @owner, epoch = epoch + 1, expires_at = @now + @ttl,
           renewed_at = @now
         WHERE name = 'sender' AND owner = @from AND epoch = @epoch
         RETURNING epoch`,
      )
      .pluck();
    this.#renew = db.prepare<{ owner: string; epoch: number; now: number; ttl: number }>(
      `UPDATE sender_lease SET expires_at = @now + @ttl, renewed_at = @now
       WHERE name = 'sender' AND owner = @owner AND epoch = @epoch AND expires_at > @now`,
    );
    this.#release = db.prepare<{ owner: string; epoch: number }>(
      `UPDATE sender_lease SET owner = NULL, expires_at = 0
       WHERE name = 'sender' AND owner = @owner AND epoch = @epoch`,
    );
    this.#read = db.prepare<[], LeaseRow>(
      "SELECT owner, epoch, expires_at FROM sender_lease WHERE name = 'sender'",
    );
  }

  acquire(owner: string, now: number, ttlMs: number): number | undefined {
    return this.#acquire.get({ owner, now, ttl: ttlMs });
  }

  takeOver(
    owner: string,
    from: { owner: string; epoch: number },
    now: number,
    ttlMs: number,
  ): number | undefined {
    return this.#takeOver.get({ owner, from: from.owner, epoch: from.epoch, now, ttl: ttlMs });
  }

  renew(owner: string, epoch: number, now: number, ttlMs: number): boolean {
    return this.#renew.run({ owner, epoch, now, ttl: ttlMs }).changes === 1;
  }

  release(owner: string, epoch: number): void {
    this.#release.run({ owner, epoch });
  }

  holder(now: number): LeaseHolder | undefined {
    const row = this.#read.get();
    if (row?.owner === undefined || row.owner === null || row.expires_at <= now) return undefined;
    return { owner: row.owner, epoch: row.epoch, expiresAt: row.expires_at };
  }
}
