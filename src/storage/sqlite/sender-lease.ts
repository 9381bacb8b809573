/**
 * The sender lease in the SQLite file (see {@link SenderLease} and migration "the sender lease").
 * Each move is one statement, so two processes asking at once cannot both win: SQLite's write
 * lock orders them, and the second finds the lease taken. Taking it also reads, in the same
 * IMMEDIATE transaction, who had it before (the new holder waits for a holder that did not
 * release it: src/run/lease-keeper.ts).
 *
 * Times come from SQLite itself ({@link SQLITE_NOW_MS}), as the claim's fence reads them
 * (./claims.ts): one clock for every process on the file, whatever each process's own clock
 * says. On one machine that is the machine's clock; PostgreSQL's lease uses the server's.
 */
import type { Db } from "./database.js";
import type { LeaseGrant, LeaseHolder, SenderLease } from "../../ledger/types.js";

/** SQLite's clock in whole ms since the epoch (one value within a statement). */
export const SQLITE_NOW_MS = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";

interface LeaseRow {
  owner: string | null;
  epoch: number;
  expires_at: number;
}

interface TakenRow {
  epoch: number;
  at: number;
}

export class SqliteSenderLease implements SenderLease {
  readonly #db: Db;
  readonly #acquire;
  readonly #takeOver;
  readonly #renew;
  readonly #release;
  readonly #read;
  readonly #holder;

  constructor(db: Db) {
    this.#db = db;
    this.#acquire = db.prepare<{ owner: string; ttl: number }, TakenRow>(
      `UPDATE sender_lease SET owner = @owner, epoch = epoch + 1,
         expires_at = ${SQLITE_NOW_MS} + @ttl, renewed_at = ${SQLITE_NOW_MS}
       WHERE name = 'sender' AND (owner IS NULL OR expires_at <= ${SQLITE_NOW_MS})
       RETURNING epoch, expires_at - @ttl AS at`,
    );
    this.#takeOver = db.prepare<
      { owner: string; from: string; epoch: number; ttl: number },
      TakenRow
    >(
      `UPDATE sender_lease SET owner = @owner, epoch = epoch + 1,
         expires_at = ${SQLITE_NOW_MS} + @ttl, renewed_at = ${SQLITE_NOW_MS}
       WHERE name = 'sender' AND owner = @from AND epoch = @epoch
       RETURNING epoch, expires_at - @ttl AS at`,
    );
    this.#renew = db.prepare<{ owner: string; epoch: number; ttl: number }>(
      `UPDATE sender_lease SET expires_at = ${SQLITE_NOW_MS} + @ttl, renewed_at = ${SQLITE_NOW_MS}
       WHERE name = 'sender' AND owner = @owner AND epoch = @epoch
         AND expires_at > ${SQLITE_NOW_MS}`,
    );
    this.#release = db.prepare<{ owner: string; epoch: number }>(
      `UPDATE sender_lease SET owner = NULL, expires_at = 0
       WHERE name = 'sender' AND owner = @owner AND epoch = @epoch`,
    );
    this.#read = db.prepare<[], LeaseRow>(
      "SELECT owner, epoch, expires_at FROM sender_lease WHERE name = 'sender'",
    );
    this.#holder = db.prepare<[], LeaseRow>(
      `SELECT owner, epoch, expires_at FROM sender_lease
       WHERE name = 'sender' AND owner IS NOT NULL AND expires_at > ${SQLITE_NOW_MS}`,
    );
  }

  acquire(owner: string, ttlMs: number): LeaseGrant | undefined {
    return this.#take(() => this.#acquire.get({ owner, ttl: ttlMs }));
  }

  takeOver(
    owner: string,
    from: { owner: string; epoch: number },
    ttlMs: number,
  ): LeaseGrant | undefined {
    return this.#take(() =>
      this.#takeOver.get({ owner, from: from.owner, epoch: from.epoch, ttl: ttlMs }),
    );
  }

  renew(owner: string, epoch: number, ttlMs: number): boolean {
    return this.#renew.run({ owner, epoch, ttl: ttlMs }).changes === 1;
  }

  release(owner: string, epoch: number): void {
    this.#release.run({ owner, epoch });
  }

  holder(): LeaseHolder | undefined {
    const row = this.#holder.get();
    if (row?.owner === undefined || row.owner === null) return undefined;
    return { owner: row.owner, epoch: row.epoch, expiresAt: row.expires_at };
  }

  /** Runs a taking statement with the row as it was before, in one IMMEDIATE transaction. */
  #take(statement: () => TakenRow | undefined): LeaseGrant | undefined {
    return this.#db
      .transaction((): LeaseGrant | undefined => {
        const before = this.#read.get();
        const taken = statement();
        if (taken === undefined) return undefined;
        const previous =
          before?.owner === undefined || before.owner === null
            ? undefined
            : { owner: before.owner, expiresAt: before.expires_at };
        return { epoch: taken.epoch, at: taken.at, ...(previous ? { previous } : {}) };
      })
      .immediate();
  }
}
