/**
 * Small helpers the PostgreSQL stores share: SQL written with `@name` parameters (as the SQLite
 * store's, so the two read alike) turned into `pg`'s `$n`, and transactions on one pooled client.
 */
import type pg from "pg";
import { learnCommitted, type PendingCommit, pendingCommit } from "./commit.js";
import { transactionSettings } from "./connection.js";

/** A pool (one statement, any connection) or one client (inside a transaction). */
export type Queryable = pg.Pool | pg.PoolClient;

/** The values of a statement's `@name` parameters. */
export type Params = Record<string, unknown>;

/**
 * `sql` with each `@name` replaced by `$n` (the same name, the same number), and the values in
 * that order. A name the statement uses but `params` lacks is a programming error: it throws.
 */
function named(sql: string, params: Params): [string, unknown[]] {
  const order: string[] = [];
  const text = sql.replace(/@([A-Za-z_]\w*)/g, (_match, name: string) => {
    let index = order.indexOf(name);
    if (index < 0) {
      if (!(name in params)) throw new Error(`the SQL parameter @${name} has no value`);
      order.push(name);
      index = order.length - 1;
    }
    return `$${index + 1}`;
  });
  return [text, order.map((name) => withoutNul(params[name]))];
}

/**
 * PostgreSQL's text cannot hold U+0000, which SQLite keeps: a service's reason or hash holding
 * one would make an outcome's write fail for good. It becomes U+FFFD (the replacement
 * character), in plain text columns only: JSON is written escaped (`\u0000`) and kept exactly.
 */
function withoutNul(value: unknown): unknown {
  return typeof value === "string" && value.includes("\u0000")
    ? value.replaceAll("\u0000", "\uFFFD")
    : value;
}

/** Runs one `@name`-parameter statement and answers its rows. */
export async function rows<Row extends pg.QueryResultRow>(
  on: Queryable,
  sql: string,
  params: Params = {},
): Promise<Row[]> {
  const [text, values] = named(sql, params);
  return (await on.query<Row>(text, values)).rows;
}

/** Runs one `@name`-parameter statement and answers how many rows it changed. */
export async function run(on: Queryable, sql: string, params: Params = {}): Promise<number> {
  const [text, values] = named(sql, params);
  return (await on.query(text, values)).rowCount ?? 0;
}

/**
 * Runs `work` in one transaction on one client of `pool` (READ COMMITTED, PostgreSQL's
 * default; the pool's limits on holding and waiting for locks, ./connection.ts): committed when it returns, rolled back when it throws. A client whose connection
 * failed is not given back to the pool for reuse. A COMMIT whose answer is lost with the
 * connection is settled by asking the server (./commit.ts): the caller learns what happened.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const settings = transactionSettings(pool);
  const client = await pool.connect();
  let broken: Error | undefined;
  // A connection lost while the client is checked out is also emitted as an 'error' event,
  // besides failing the query; the pool listens only to its idle clients, and an event
  // nobody listens to would end the process.
  const onError = (error: Error): void => {
    broken = error;
  };
  client.on("error", onError);
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    client.off("error", onError);
    client.release(broken);
  };
  try {
    await client.query(settings.begin);
    let result: T;
    let pending: PendingCommit;
    try {
      result = await work(client);
      pending = await pendingCommit(client);
    } catch (error) {
      await client.query("ROLLBACK").catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error("rollback failed");
      });
      throw error;
    }
    try {
      await client.query("COMMIT");
    } catch (error) {
      // Given back first: the pool may have no other connection to ask the server with.
      release();
      await learnCommitted(pool, pending, error, settings.commitCheck);
    }
    return result;
  } finally {
    release();
  }
}
