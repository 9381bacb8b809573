/**
 * The lock file beside a SQLite database (`<database>.lock`): who has the database open, as
 * the kernel knows it. Every bot process holds a shared lock on it for as long as it has the
 * database open (a standby of a rolling update as well as the lease holder); `npm run restore`
 * takes it exclusively for its whole run. So a restore is refused while any bot has the file
 * open, whether or not that bot holds the sender lease yet, and a bot cannot open the file while
 * a restore is replacing it.
 *
 * Node has no flock(2). SQLite's unix VFS locks a database file with POSIX advisory locks
 * (fcntl), which the kernel lets go when the process ends, however it ends (SIGKILL included),
 * and better-sqlite3, which the bot already runs on, reaches them: a read transaction holds a
 * SHARED lock until it ends, `BEGIN EXCLUSIVE` takes the EXCLUSIVE lock, refused (SQLITE_BUSY)
 * while anyone holds SHARED, and the reverse. The lock file is therefore an empty SQLite
 * database that nothing ever writes to: no journal is ever made beside it, and no native
 * module besides better-sqlite3 is needed. Locks are per process and per file: another
 * connection of the same process is refused the same way, so tests in one process see it too.
 * The file is never removed (removing a lock file while someone waits on it is a race); it is
 * owner-only, as the database is.
 */
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { createOwnerOnly, ensureOwnerOnlyFolder } from "../../shared/owner-only.js";

/** The lock file of the database at `database`. */
function lockPathOf(database: string): string {
  return `${database}.lock`;
}

/** A lock held on a database's lock file, until released or the process ends. */
export interface FileLock {
  /** Lets it go (idempotent). */
  release(): void;
}

/** A restore holds the database's lock file: the bot must not open the file now. */
export class DatabaseLockedError extends Error {
  override readonly name = "DatabaseLockedError";
  /** The exit code `main` ends with: a supervisor may start the bot again once it is let go. */
  static readonly exitCode = 6;

  constructor(readonly path: string) {
    super(
      `the database ${path} is being restored (${lockPathOf(path)} is held by npm run restore): start the bot once the restore has finished`,
    );
  }
}

/**
 * Holds a shared lock on `database`'s lock file for as long as the database is open. Throws
 * {@link DatabaseLockedError} while a restore holds it.
 */
export function holdShared(database: string): FileLock {
  const lock = tryLock(database, (db) => {
    db.exec("BEGIN");
    // The transaction takes its SHARED lock at its first read, and keeps it until it ends.
    db.prepare("SELECT COUNT(*) FROM sqlite_master").get();
  });
  if (lock === undefined) throw new DatabaseLockedError(database);
  return lock;
}

/**
 * Takes `database`'s lock file exclusively (a restore), or undefined while anyone holds it
 * (a bot has the database open).
 */
export function tryExclusive(database: string): FileLock | undefined {
  return tryLock(database, (db) => db.exec("BEGIN EXCLUSIVE"));
}

/** Opens the lock file and `take`s its lock; undefined when another's lock refuses it. */
function tryLock(database: string, take: (db: Database.Database) => void): FileLock | undefined {
  const db = openLockFile(database);
  try {
    take(db);
  } catch (error) {
    db.close();
    if (isBusy(error)) return undefined;
    throw error;
  }
  return {
    // Closing the connection ends its transaction, and with it the lock.
    release: () => {
      if (db.open) db.close();
    },
  };
}

function openLockFile(database: string): Database.Database {
  const path = lockPathOf(database);
  ensureOwnerOnlyFolder(dirname(path));
  createOwnerOnly(path);
  // Never wait for a lock: a held lock is an answer, not something to wait out.
  return new Database(path, { timeout: 0 });
}

function isBusy(error: unknown): boolean {
  return error instanceof Database.SqliteError && error.code.startsWith("SQLITE_BUSY");
}
