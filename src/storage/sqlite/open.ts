/**
 * The one SQLite file the bot keeps, opened: checked, migrated and set up, then the storage on
 * it (src/storage/storage.ts).
 *
 * WAL lets readers go on while a purchase claim writes. A second connection that wants the write
 * lock while another holds it waits at most {@link BUSY_TIMEOUT_MS}, and that wait is short on
 * purpose: better-sqlite3 is synchronous, so SQLite's busy wait blocks the whole event loop (no
 * update, probe or timer runs meanwhile). A write that must land is tried again asynchronously,
 * with a growing pause, by its caller (src/shared/write-retry.ts). The commits that decide or
 * record money are made durable across a power loss (./driver.ts `syncFull`).
 *
 * The page cache is capped at {@link PAGE_CACHE_KIB} per connection on purpose (better-sqlite3's
 * build default is 16 MiB): every read the bot makes is a point lookup by key (a conversation's
 * state, an intent by id, a person's recent intents), which needs the B-trees' interior pages and
 * the few hot leaves, not the whole file. Pages beyond the cache come from the operating
 * system's file cache for the price of one read call. A fixed, small cache keeps the process's
 * resident memory predictable however large the file grows (10,000 parked flows are about 45 MB).
 */
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { latestVersion, migrationsFor } from "../migrations.js";
import { storageOn } from "../storage.js";
import type { Storage } from "../types.js";
import { backupDatabase } from "./backup.js";
import { type Db, SqliteDatabase } from "./driver.js";
import { DatabaseDamagedError, DatabaseTooNewError } from "./errors.js";
import { holdShared } from "./file-lock.js";
import { fileChange, fileIdentity } from "../../shared/file-identity.js";
import { createOwnerOnly, ensureOwnerOnlyFolder, makeOwnerOnly } from "../../shared/owner-only.js";

/** SQLite page cache per connection, in KiB (see above for why this size). */
const PAGE_CACHE_KIB = 8192;

/**
 * How long one statement waits for another connection's lock before SQLite answers
 * SQLITE_BUSY. The event loop stands still for that long, so it stays well under the 100 ms a
 * probe or a person would notice; waiting longer is the callers' asynchronous retry's job.
 */
const BUSY_TIMEOUT_MS = 25;

/**
 * Opens (creating and migrating it if needed) the database file at `path`, and the storage on
 * it, holding a shared lock on its lock file until closed (./file-lock.ts: throws
 * DatabaseLockedError while a restore holds it); throws at once when the file cannot be used
 * (see {@link openDatabase}). `onOpen` is handed the connection first: the tests' fault
 * injection needs the very connection the bot writes on.
 */
export function openSqliteStorage(path: string, onOpen?: (db: Db) => void): Promise<Storage> {
  const lock = path === ":memory:" ? undefined : holdShared(path);
  let db: Db;
  try {
    db = openDatabase(path);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const opened = fileIdentity(path);
  onOpen?.(db);
  const storage = storageOn(new SqliteDatabase(db), (dir, options) =>
    backupDatabase(db, dir, options),
  );
  return Promise.resolve({
    ...storage,
    fileChanged: () => fileChange(path, opened),
    close: async () => {
      await storage.close();
      lock?.release();
    },
  });
}

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
  // ledger's money commits run at FULL (./driver.ts `syncFull`).
  db.pragma("synchronous = NORMAL");
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  migrate(db);
  return db;
}

/**
 * Applies every migration newer than the file's `user_version` (src/storage/migrations.ts),
 * each in its own transaction. A database written by an older version is carried forward,
 * never dropped.
 */
export function migrate(db: Db, upTo: number = latestVersion("sqlite")): void {
  const current = schemaVersion(db);
  if (current > latestVersion("sqlite")) {
    throw new DatabaseTooNewError(db.name, current, latestVersion("sqlite"));
  }
  for (const migration of migrationsFor("sqlite")) {
    if (migration.version <= current || migration.version > upTo) continue;
    // PRAGMA foreign_keys is a no-op inside a transaction: it is switched around it.
    const foreignKeys = db.pragma("foreign_keys", { simple: true }) as number;
    if (migration.rebuildsTables) db.pragma("foreign_keys = OFF");
    try {
      db.transaction(() => {
        db.exec(migration.sql);
        if (migration.rebuildsTables) assertForeignKeys(db, migration.name);
        db.pragma(`user_version = ${migration.version}`);
      }).immediate();
    } finally {
      if (migration.rebuildsTables) db.pragma(`foreign_keys = ${foreignKeys}`);
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
  // One line each: SQLite's own report may span lines ("*** in database main ***" first).
  const problems = rows
    .map((row) => row.quick_check.replace(/\s*\n\s*/g, " "))
    .filter((line) => line !== "ok");
  if (problems.length > 0) {
    throw new DatabaseDamagedError(path, `quick_check: ${problems.slice(0, 3).join("; ")}`);
  }
}

/** The schema version of an open database. */
export function schemaVersion(db: Db): number {
  return db.pragma("user_version", { simple: true }) as number;
}
