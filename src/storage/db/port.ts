/**
 * The database port: the little every store needs of a database, so each store is written once
 * over SQLite and PostgreSQL alike. SQL is written with `@name` parameters (better-sqlite3's own
 * syntax; the PostgreSQL driver turns them into `$n`) and in the SQL both databases speak
 * (`CAST(x AS BIGINT)`, `ON CONFLICT`, `RETURNING`, `IS NOT DISTINCT FROM`); what truly differs
 * is in the dialect (./dialect.ts). The drivers: src/storage/sqlite/driver.ts (better-sqlite3)
 * and src/storage/postgres/driver.ts (`pg`).
 */
import type { Dialect } from "./dialect.js";

/** The values of a statement's `@name` parameters (`undefined` is written as NULL). */
export type Params = Readonly<Record<string, unknown>>;

/** Statements: on the database (each its own transaction), or inside one transaction. */
export interface Statements {
  /** Runs a statement that answers rows (a SELECT, or a write with RETURNING). */
  rows<Row>(sql: string, params?: Params): Promise<Row[]>;
  /** Runs a statement that answers no rows; how many rows it changed. */
  run(sql: string, params?: Params): Promise<number>;
}

export interface Database extends Statements {
  readonly dialect: Dialect;
  /**
   * Runs `work` in one transaction: committed when it returns, rolled back when it throws. While
   * it runs, the connection is its own (SQLite: no other caller's statement runs inside it;
   * PostgreSQL: one pooled client). `durable`: the commit must survive a power loss once it has
   * returned (SQLite syncs it to disk; PostgreSQL always does). A COMMIT whose answer was lost is
   * settled before the caller hears of it (PostgreSQL: src/storage/postgres/commit.ts).
   */
  transaction<T>(work: (tx: Statements) => Promise<T>, options?: { durable?: boolean }): Promise<T>;
  /**
   * A durable transaction that passes the ledger gate first: the claim, and every write whose
   * effect a claim's rules read, run one at a time on every connection of every process.
   * SQLite's write transaction is exclusive already; PostgreSQL takes the dialect's gate (a
   * transaction-level advisory lock, let go at commit or rollback).
   */
  gated<T>(work: (tx: Statements) => Promise<T>): Promise<T>;
  /**
   * Whether a write that threw may succeed if tried again (a lock held elsewhere, the disk full,
   * a connection lost). Only the driver knows its errors.
   */
  isTransient(error: unknown): boolean;
  /** Whether the database answers now (the health report's "database"); false once closed. */
  isUp(): Promise<boolean>;
  isOpen(): boolean;
  close(): Promise<void>;
}
