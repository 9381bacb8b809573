/**
 * What the stores' SQL says differently on SQLite and PostgreSQL, and nothing else (in the
 * spirit of pg-boss's `src/dialect.ts`). Everything else is written once, in SQL both speak.
 */
export interface Dialect {
  readonly name: "sqlite" | "postgres";
  /**
   * The column that orders `purchase_intents` by insertion, to break ties between equal times:
   * SQLite's rowid, PostgreSQL's identity column `seq` (made by its migration 2).
   */
  readonly seq: string;
  /**
   * Appended to a SELECT inside a transaction: locks the rows read, so a move judged on them
   * cannot be overtaken by another connection's. PostgreSQL takes row locks (`FOR UPDATE`, or
   * `FOR SHARE` to keep a row from changing while others may read it too); SQLite's write
   * transaction (BEGIN IMMEDIATE) already holds the whole file, so it needs none.
   */
  readonly forUpdate: string;
  readonly forShare: string;
  /**
   * The statement that takes the ledger gate inside a transaction (src/storage/db/port.ts
   * `gated`): PostgreSQL's transaction-level advisory lock; none in SQLite, whose write
   * transaction is exclusive already.
   */
  readonly gate: string | undefined;
  /**
   * The database's own clock in whole ms since the epoch, read when the statement judges the
   * row: the sender lease and the claim's fence go by it, never by a process's clock (a replica
   * whose clock is off can neither take the lease early nor keep it late). PostgreSQL's
   * `clock_timestamp()`; on SQLite, the machine's clock as SQLite reads it.
   */
  readonly nowMs: string;
  /**
   * Names the index a SELECT on `purchase_intents` must use: SQLite, which keeps no statistics
   * here, may otherwise pick a worse one; PostgreSQL's planner has its statistics.
   */
  indexedBy(index: string): string;
}

/**
 * The ledger gate's advisory lock key: any fixed number no other program on the database uses
 * (the migrations' lock is 7_460_215_001).
 */
const LEDGER_GATE_KEY = 7_460_215_002;

export const SQLITE: Dialect = {
  name: "sqlite",
  seq: "rowid",
  forUpdate: "",
  forShare: "",
  gate: undefined,
  nowMs: "CAST(unixepoch('subsec') * 1000 AS INTEGER)",
  indexedBy: (index) => `INDEXED BY ${index}`,
};

export const POSTGRES: Dialect = {
  name: "postgres",
  seq: "seq",
  forUpdate: " FOR UPDATE",
  forShare: " FOR SHARE",
  gate: `SELECT pg_advisory_xact_lock(${LEDGER_GATE_KEY})`,
  nowMs: "CAST(extract(epoch FROM clock_timestamp()) * 1000 AS BIGINT)",
  indexedBy: () => "",
};
