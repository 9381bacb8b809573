/**
 * The database port on better-sqlite3 (one connection to the SQLite file), answering with
 * promises like the PostgreSQL driver. better-sqlite3 itself is synchronous, so a transaction
 * that awaits between its statements would let any other caller's statement run inside it: a
 * transaction holds the connection, and every other statement or transaction waits until it has
 * committed or rolled back. The hold covers every connection of this process to the same file
 * (tests open several): another one's BEGIN would otherwise wait for the file's write lock in
 * SQLite's busy handler, which blocks the event loop, so the holder could never commit.
 * Statements are prepared once per SQL text and reused (preparing costs more than running most
 * of them; the texts are the stores' fixed strings).
 *
 * Every write transaction is BEGIN IMMEDIATE: it takes the file's write lock first, so the reads
 * inside see what the writes will change, and SQLite's single writer makes it exclusive across
 * connections and processes (the ledger gate needs nothing more). A second connection that
 * wants the lock waits at most the busy timeout (./open.ts), then fails with SQLITE_BUSY, which
 * {@link isTransientSqliteError} calls transient: the callers try again asynchronously
 * (src/shared/write-retry.ts), since SQLite's own wait blocks the event loop.
 */
import { resolve } from "node:path";
import Database, { type Statement } from "better-sqlite3";
import { SQLITE } from "../db/dialect.js";
import type { Database as Port, Params, Statements } from "../db/port.js";

export type Db = Database.Database;

/**
 * The hold on a file's connections in this process: whether a transaction holds them, and who
 * waits for it, in order. A waiter is handed the hold as the holder lets go (FIFO).
 */
interface Hold {
  held: boolean;
  waiters: (() => void)[];
}

const holds = new Map<string, Hold>();

const NO_PARAMS: Params = Object.freeze({});

/** The hold shared by this process's connections to `db`'s file (its own for `:memory:`). */
function holdOf(db: Db): Hold {
  if (db.memory) return { held: false, waiters: [] };
  const file = resolve(db.name);
  let hold = holds.get(file);
  if (hold === undefined) {
    hold = { held: false, waiters: [] };
    holds.set(file, hold);
  }
  return hold;
}

export class SqliteDatabase implements Port {
  readonly dialect = SQLITE;
  readonly #db: Db;
  readonly #statements = new Map<string, Statement>();
  readonly #hold: Hold;
  /** The holding transaction's own statements (which must not wait for it). */
  readonly #inside: Statements = {
    rows: <Row>(sql: string, params?: Params) => this.#statement<Row[]>(sql, params, true),
    run: (sql, params) => this.#statement<number>(sql, params, false),
  };

  constructor(db: Db) {
    this.#db = db;
    this.#hold = holdOf(db);
  }

  rows<Row>(sql: string, params?: Params): Promise<Row[]> {
    return this.#inTurn(() => this.#statement<Row[]>(sql, params, true));
  }

  run(sql: string, params?: Params): Promise<number> {
    return this.#inTurn(() => this.#statement<number>(sql, params, false));
  }

  async transaction<T>(
    work: (tx: Statements) => Promise<T>,
    options: { durable?: boolean } = {},
  ): Promise<T> {
    const waiting = this.#take();
    if (waiting !== undefined) await waiting;
    const level = options.durable === true ? this.#syncFull() : undefined;
    try {
      this.#prepare("BEGIN IMMEDIATE").run();
      try {
        const result = await work(this.#inside);
        this.#prepare("COMMIT").run();
        return result;
      } catch (error) {
        // SQLite rolls some failures back by itself (a full disk, an I/O error).
        if (this.#db.inTransaction) this.#prepare("ROLLBACK").run();
        throw error;
      }
    } finally {
      if (level !== undefined) this.#prepare(`PRAGMA synchronous = ${level}`).run();
      this.#let();
    }
  }

  gated<T>(work: (tx: Statements) => Promise<T>): Promise<T> {
    return this.transaction(work, { durable: true });
  }

  isTransient(error: unknown): boolean {
    return isTransientSqliteError(error);
  }

  async isUp(): Promise<boolean> {
    return this.#db.open && (await this.rows("SELECT 1 AS one")).length === 1;
  }

  isOpen(): boolean {
    return this.#db.open;
  }

  async close(): Promise<void> {
    await this.#take();
    this.#db.close();
    this.#let();
  }

  /** Takes the hold: at once when free, else when handed it in turn. */
  #take(): Promise<void> | undefined {
    if (!this.#hold.held) {
      this.#hold.held = true;
      return undefined;
    }
    return new Promise((resolve) => this.#hold.waiters.push(resolve));
  }

  /** Lets the hold go: to the next waiter, if any. */
  #let(): void {
    const next = this.#hold.waiters.shift();
    if (next === undefined) this.#hold.held = false;
    else next();
  }

  /** A statement now when no transaction holds the connection, else in its turn behind it. */
  async #inTurn<T>(statement: () => Promise<T>): Promise<T> {
    if (!this.#hold.held) return statement();
    await this.#take();
    try {
      return await statement();
    } finally {
      this.#let();
    }
  }

  /** Runs a statement now: its rows, or how many rows it changed; a refusal is a rejection. */
  #statement<T>(sql: string, params: Params | undefined, rows: boolean): Promise<T> {
    try {
      const statement = this.#prepare(sql);
      const bound = params ?? NO_PARAMS;
      return Promise.resolve((rows ? statement.all(bound) : statement.run(bound).changes) as T);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * Switches the connection to `synchronous = FULL` for one durable transaction; answers the
   * level to restore after it, or undefined when it is FULL already. In WAL mode with NORMAL, a
   * committed transaction can roll back at a power loss or OS crash; with FULL the WAL is synced
   * before the commit returns, together with every frame written before it. A claim whose
   * request has left, or an outcome, must never roll back: were a claim lost, the restart would
   * find a draft it may send again. Per commit rather than per connection, because each FULL
   * commit waits for an fsync on the event loop (better-sqlite3 is synchronous), and
   * conversation state is written on every update. The pragmas are prepared once, as every
   * statement is (`db.pragma()` would prepare them at every call).
   */
  #syncFull(): number | undefined {
    const level = (this.#prepare("PRAGMA synchronous").get() as { synchronous: number })
      .synchronous;
    if (level >= SYNCHRONOUS_FULL) return undefined;
    this.#prepare(`PRAGMA synchronous = ${SYNCHRONOUS_FULL}`).run();
    return level;
  }

  #prepare(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

/** `PRAGMA synchronous` levels: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA. */
const SYNCHRONOUS_FULL = 2;

/**
 * Whether SQLite refused a statement for a reason that passes by itself: another connection
 * holds the lock (BUSY, LOCKED), the disk is full (FULL: space may be freed) or an I/O error
 * (IOERR). Retrying such a write is worth it. Everything else fails the same way every time
 * and is not retried: the file read-only (READONLY), a constraint or trigger (CONSTRAINT),
 * a damaged file (CORRUPT, NOTADB), a closed connection, a ledger refusal, a bug. Extended
 * codes (`SQLITE_BUSY_SNAPSHOT`, `SQLITE_IOERR_WRITE`) are judged by their primary code.
 */
function isTransientSqliteError(error: unknown): boolean {
  if (!(error instanceof Database.SqliteError)) return false;
  const { code } = error;
  return TRANSIENT_SQLITE_CODES.some(
    (primary) => code === primary || code.startsWith(`${primary}_`),
  );
}

const TRANSIENT_SQLITE_CODES = ["SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_FULL", "SQLITE_IOERR"];
