/**
 * The one SQLite file the bot keeps: the purchase ledger, conversation state, settings.
 *
 * WAL lets readers go on while a purchase claim writes. A second connection that wants the write
 * lock while another holds it waits at most {@link BUSY_TIMEOUT_MS}, and that wait is short on
 * purpose: better-sqlite3 is synchronous, so SQLite's busy wait blocks the whole event loop (no
 * update, probe or timer runs meanwhile). A write that must land is tried again asynchronously,
 * with a growing pause, by its caller (src/storage/write-retry.ts). The commits that decide or
 * record money are made durable across a power loss with {@link durably}.
 *
 * The page cache is capped at {@link PAGE_CACHE_KIB} per connection on purpose (better-sqlite3's
 * build default is 16 MiB): every read the bot makes is a point lookup by key (a conversation's
 * state, an intent by id, a person's recent intents), which needs the B-trees' interior pages and
 * the few hot leaves, not the whole file. Pages beyond the cache come from the operating
 * system's file cache for the price of one read call. A fixed, small cache keeps the process's
 * resident memory predictable however large the file grows (10,000 parked flows are about 45 MB).
 */
import { dirname } from "node:path";
import Database, { type Statement } from "better-sqlite3";
import { DatabaseDamagedError, DatabaseTooNewError } from "./errors.js";
import { migrations } from "./migrations.js";
import { createOwnerOnly, ensureOwnerOnlyFolder, makeOwnerOnly } from "./owner-only.js";

export type Db = Database.Database;

/** SQLite page cache per connection, in KiB (see above for why this size). */
const PAGE_CACHE_KIB = 8192;

/**
 * How long one statement waits for another connection's lock before SQLite answers
 * SQLITE_BUSY. The event loop stands still for that long, so it stays well under the 100 ms a
 * probe or a person would notice; waiting longer is the callers' asynchronous retry's job.
 */
const BUSY_TIMEOUT_MS = 25;

/**
 * Opens (creating it and its folder if needed, owner-only: ./owner-only.ts), checks and
 * migrates the database at `path`.
 * Throws {@link DatabaseDamagedError} when the file is not a database or SQLite's quick check
 * finds it damaged, and {@link DatabaseTooNewError} when a newer bot wrote it.
 */
export function openDatabase(path: string): Db {
  if (path !== ":memory:") {
    ensureOwnerOnlyFolder(dirname(path));
    createOwnerOnly(path);
    makeOwnerOnly([`${path}-wal`, `${path}-shm`]);
  }
  const db = new Database(path);
  try {
    checkIntact(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // NORMAL for the many cheap commits (conversation state, drafts): in WAL mode they survive a
  // process crash, and losing the last ones at a power loss costs a person one step. The
  // ledger's money commits run at FULL through `durably`.
  db.pragma("synchronous = NORMAL");
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  migrate(db);
  return db;
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
export function durably<T>(db: Db, commit: () => T): T {
  const sync = synchronousPragmas(db);
  const level = sync.read.get() as number;
  if (level >= SYNCHRONOUS_FULL) return commit();
  sync.set(SYNCHRONOUS_FULL).run();
  try {
    return commit();
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
export function isTransientSqliteError(error: unknown): boolean {
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

/**
 * Applies every migration newer than the file's `user_version`, each in its own transaction.
 * A database written by an older version is carried forward, never dropped.
 */
export function migrate(db: Db, upTo: number = migrations.length): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > migrations.length) {
    throw new DatabaseTooNewError(db.name, current, migrations.length);
  }
  for (let version = current + 1; version <= upTo; version++) {
    const migration = migrations[version - 1];
    if (!migration) break;
    // PRAGMA foreign_keys is a no-op inside a transaction: it is switched around it.
    const foreignKeys = db.pragma("foreign_keys", { simple: true }) as number;
    if (migration.rebuildsTables === true) db.pragma("foreign_keys = OFF");
    try {
      db.transaction(() => {
        db.exec(migration.sql);
        if (migration.rebuildsTables === true) assertForeignKeys(db, migration.name);
        db.pragma(`user_version = ${version}`);
      }).immediate();
    } finally {
      if (migration.rebuildsTables === true) db.pragma(`foreign_keys = ${foreignKeys}`);
    }
  }
}

/** Refuses to commit a table rebuild that left a reference dangling. */
function assertForeignKeys(db: Db, name: string): void {
  const broken = db.pragma("foreign_key_check") as unknown[];
  if (broken.length > 0) {
    throw new Error(`Migration "${name}" would break ${broken.length} foreign key references.`);
  }
}

/**
 * SQLite's quick check (the structure of every page and index, without the slower index
 * contents check): a damaged file stops the bot before it reads or writes money. A file that
 * is not a database at all fails the first statement with SQLITE_NOTADB.
 */
function checkIntact(db: Db, path: string): void {
  let rows: { quick_check: string }[];
  try {
    rows = db.pragma("quick_check") as { quick_check: string }[];
  } catch (error) {
    if (error instanceof Database.SqliteError) throw new DatabaseDamagedError(path, error.code);
    throw error;
  }
  const problems = rows.map((row) => row.quick_check).filter((line) => line !== "ok");
  if (problems.length > 0) {
    throw new DatabaseDamagedError(path, `quick_check: ${problems.slice(0, 3).join("; ")}`);
  }
}

/** The schema version of an open database. */
export function schemaVersion(db: Db): number {
  return db.pragma("user_version", { simple: true }) as number;
}
