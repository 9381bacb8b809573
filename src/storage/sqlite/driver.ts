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
 * (src/storage/write-retry.ts), since SQLite's own wait blocks the event loop.
 */
import { resolve } from "node:path";
import Database, { type Statement } from "better-sqlite3";
import { SQLITE } from "../db/dialect.js";
import type { Database as Port, Params, Statements } from "../db/port.js";

export type Db = Database.Database;

/** What holds a file's connections in this process: the transaction under way, if any. */
interface Hold {
  /** Settles when the transaction holding the file has ended; undefined while none does. */
  held: Promise<void> | undefined;
}

const holds = new Map<string, Hold>();

/** The hold shared by this process's connections to `db`'s file (its own for `:memory:`). */
function holdOf(db: Db): Hold {
  if (db.memory) return { held: undefined };
  const file = resolve(db.name);
  let hold = holds.get(file);
  if (hold === undefined) {
    hold = { held: undefined };
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
    rows: (sql, params) => this.#now(() => this.#prepare(sql).all(params ?? {})),
    run: (sql, params) => this.#now(() => this.#prepare(sql).run(params ?? {}).changes),
  };

  constructor(db: Db) {
    this.#db = db;
    this.#hold = holdOf(db);
  }

  rows<Row>(sql: string, params?: Params): Promise<Row[]> {
    const held = this.#hold.held;
    if (held !== undefined) return held.then(() => this.rows<Row>(sql, params));
    return this.#inside.rows<Row>(sql, params);
  }

  run(sql: string, params?: Params): Promise<number> {
    const held = this.#hold.held;
    if (held !== undefined) return held.then(() => this.run(sql, params));
    return this.#inside.run(sql, params);
  }

  async transaction<T>(
    work: (tx: Statements) => Promise<T>,
    options: { durable?: boolean } = {},
  ): Promise<T> {
    while (this.#hold.held !== undefined) await this.#hold.held;
    let release = (): void => undefined;
    this.#hold.held = new Promise((settle) => {
      release = settle;
    });
    try {
      const transaction = () => this.#immediate(work);
      return await (options.durable === true ? durably(this.#db, transaction) : transaction());
    } finally {
      this.#hold.held = undefined;
      release();
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
    while (this.#hold.held !== undefined) await this.#hold.held;
    this.#db.close();
  }

  async #immediate<T>(work: (tx: Statements) => Promise<T>): Promise<T> {
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
  }

  /** Runs a statement now; a refusal becomes a rejection. */
  #now<T>(statement: () => unknown): Promise<T> {
    return new Promise((resolve) => resolve(statement() as T));
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

/**
 * Runs `commit` (one whole transaction, started and committed inside it) with
 * `synchronous = FULL`, then restores the connection's level. In WAL mode with NORMAL, a
 * committed transaction can roll back at a power loss or OS crash; with FULL the WAL is synced
 * before the commit returns, together with every frame written before it. A claim whose request
 * has left, or an outcome, must never roll back: were a claim lost, the restart would find a
 * draft it may send again. Per commit rather than per connection, because each FULL commit
 * waits for an fsync on the event loop (better-sqlite3 is synchronous), and conversation state
 * is written on every update.
 */
async function durably<T>(db: Db, commit: () => Promise<T>): Promise<T> {
  const sync = synchronousPragmas(db);
  const level = sync.read.get() as number;
  if (level >= SYNCHRONOUS_FULL) return commit();
  sync.set(SYNCHRONOUS_FULL).run();
  try {
    return await commit();
  } finally {
    sync.set(level).run();
  }
}

/** `PRAGMA synchronous` levels: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA. */
const SYNCHRONOUS_FULL = 2;

interface SynchronousPragmas {
  read: Statement;
  set(level: number): Statement;
}

/**
 * Each connection's `PRAGMA synchronous` statements, prepared once: `db.pragma()` prepares its
 * statement on every call, and `durably` runs three per money commit.
 */
const synchronousStatements = new WeakMap<Db, SynchronousPragmas>();

function synchronousPragmas(db: Db): SynchronousPragmas {
  let known = synchronousStatements.get(db);
  if (known === undefined) {
    const setters = new Map<number, Statement>();
    known = {
      read: db.prepare("PRAGMA synchronous").pluck(),
      set: (level) => {
        let statement = setters.get(level);
        if (statement === undefined) {
          statement = db.prepare(`PRAGMA synchronous = ${Math.trunc(level)}`);
          setters.set(level, statement);
        }
        return statement;
      },
    };
    synchronousStatements.set(db, known);
  }
  return known;
}

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
  return TRANSIENT_SQLITE_CODES.has(primaryCode(error.code));
}

const TRANSIENT_SQLITE_CODES: ReadonlySet<string> = new Set([
  "SQLITE_BUSY",
  "SQLITE_LOCKED",
  "SQLITE_FULL",
  "SQLITE_IOERR",
]);

/** `SQLITE_IOERR_WRITE` → `SQLITE_IOERR`. */
function primaryCode(code: string): string {
  const second = code.indexOf("_", "SQLITE_".length);
  return second === -1 ? code : code.slice(0, second);
}
