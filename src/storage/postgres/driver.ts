/**
 * The database port on `pg` (one pool per process). SQL is written with `@name` parameters, as
 * for SQLite, turned here into `pg`'s `$n` (once per SQL text). A transaction runs on one pooled
 * client (READ COMMITTED, PostgreSQL's default, with the pool's limits on holding and waiting
 * for locks: ./connection.ts); a COMMIT whose answer is lost with the connection is settled by
 * asking the server (./commit.ts), so the caller learns what happened.
 */
import type pg from "pg";
import { POSTGRES } from "../db/dialect.js";
import type { Database, Params, Statements } from "../db/port.js";
import {
  type CommitCheck,
  DEFAULT_COMMIT_CHECK,
  learnCommitted,
  type PendingCommit,
  pendingCommit,
} from "./commit.js";
import {
  beginWith,
  DEFAULT_SESSION_LIMITS,
  isTransientPostgresError,
  type SessionLimits,
} from "./connection.js";

/** A statement as `pg` takes it: its text with `$n`, and the names in that order. */
interface Numbered {
  text: string;
  names: string[];
}

const known = new Map<string, Numbered>();

/**
 * `sql` with each `@name` replaced by `$n` (the same name, the same number), worked out once per
 * SQL text (the stores' texts are fixed strings).
 */
function numbered(sql: string): Numbered {
  let found = known.get(sql);
  if (found === undefined) {
    const names: string[] = [];
    const text = sql.replace(/@([A-Za-z_]\w*)/g, (_match, name: string) => {
      let index = names.indexOf(name);
      if (index < 0) index = names.push(name) - 1;
      return `$${index + 1}`;
    });
    found = { text, names };
    known.set(sql, found);
  }
  return found;
}

/**
 * PostgreSQL's text cannot hold U+0000, which SQLite keeps: a service's reason or hash holding
 * one would make an outcome's write fail for good. It becomes U+FFFD (the replacement
 * character), in plain text columns only: JSON is written escaped (`\u0000`) and kept exactly.
 */
function withoutNul(value: unknown): unknown {
  if (value === undefined) return null;
  return typeof value === "string" && value.includes("\u0000")
    ? value.replaceAll("\u0000", "\uFFFD")
    : value;
}

/** Statements on a pool (each its own transaction) or on one client (inside a transaction). */
class PgStatements implements Statements {
  constructor(protected readonly on: pg.Pool | pg.PoolClient) {}

  async rows<Row>(sql: string, params: Params = {}): Promise<Row[]> {
    return (await this.#query(sql, params)).rows as Row[];
  }

  async run(sql: string, params: Params = {}): Promise<number> {
    return (await this.#query(sql, params)).rowCount ?? 0;
  }

  #query(sql: string, params: Params): Promise<pg.QueryResult> {
    const { text, names } = numbered(sql);
    const values = names.map((name) => {
      // A name the statement uses but `params` lacks is a programming error.
      if (!(name in params)) throw new Error(`the SQL parameter @${name} has no value`);
      return withoutNul(params[name]);
    });
    return this.on.query(text, values);
  }
}

export class PostgresDatabase extends PgStatements implements Database {
  readonly dialect = POSTGRES;
  readonly #pool: pg.Pool;
  readonly #isUpTimeoutMs: number;
  /** BEGIN with the limits on holding and waiting for locks (./connection.ts). */
  readonly #begin: string;
  /** How long a COMMIT whose answer was lost is looked into (./commit.ts). */
  readonly #commitCheck: Readonly<CommitCheck>;
  #open = true;

  constructor(
    pool: pg.Pool,
    options: { isUpTimeoutMs: number; sessionLimits?: SessionLimits; commitCheck?: CommitCheck },
  ) {
    super(pool);
    this.#pool = pool;
    this.#isUpTimeoutMs = options.isUpTimeoutMs;
    this.#begin = beginWith(options.sessionLimits ?? DEFAULT_SESSION_LIMITS);
    this.#commitCheck = options.commitCheck ?? DEFAULT_COMMIT_CHECK;
  }

  /**
   * Runs `work` in one transaction on one client: committed when it returns, rolled back when it
   * throws. A client whose connection failed is not given back to the pool for reuse. Every
   * commit is durable on PostgreSQL (`durable` changes nothing).
   */
  async transaction<T>(work: (tx: Statements) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
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
      await client.query(this.#begin);
      let result: T;
      let pending: PendingCommit;
      try {
        result = await work(new PgStatements(client));
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
        await learnCommitted(this.#pool, pending, error, this.#commitCheck);
      }
      return result;
    } finally {
      release();
    }
  }

  /** A transaction that takes the ledger gate first (the dialect's advisory lock). */
  gated<T>(work: (tx: Statements) => Promise<T>): Promise<T> {
    const gate = this.dialect.gate;
    return this.transaction(async (tx) => {
      if (gate !== undefined) await tx.run(gate);
      return work(tx);
    });
  }

  isTransient(error: unknown): boolean {
    return isTransientPostgresError(error);
  }

  /**
   * Whether the database answers a trivial query in time. A database that fell silent (no
   * reset, only silence) would otherwise keep the health check, and every /healthz request
   * waiting on it, hanging for as long as the system takes to give up on the connection.
   */
  async isUp(): Promise<boolean> {
    if (!this.#open) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.#isUpTimeoutMs);
    });
    const answer = this.#pool.query("SELECT 1").then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  isOpen(): boolean {
    return this.#open;
  }

  async close(): Promise<void> {
    if (!this.#open) return;
    this.#open = false;
    await this.#pool.end();
  }
}
