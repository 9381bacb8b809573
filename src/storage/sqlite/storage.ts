/**
 * The SQLite implementation of {@link Storage}: one file holds the ledger, the key-value
 * namespaces and the access lists. Only src/storage and src/ledger know it is SQLite.
 */
import { statSync } from "node:fs";
import { Ledger } from "./ledger.js";
import { SqliteAccounts } from "./accounts.js";
import { SqliteAdminReads } from "./admin-reads.js";
import { SqliteSenderLease } from "./sender-lease.js";
import { SqliteAccessStore } from "./access-store.js";
import { SqliteGiveawayBatches } from "./giveaway-batches.js";
import { backupDatabase } from "./backup.js";
import { type Db, openDatabase } from "./database.js";
import { holdShared } from "./file-lock.js";
import { KeyValueStore } from "./key-value-store.js";
import type { Storage } from "../types.js";

/**
 * Opens (creating and migrating it if needed) the database file at `path`, holding a shared
 * lock on its lock file until closed (./file-lock.ts: throws DatabaseLockedError while a
 * restore holds it). `onOpen` is handed the connection first: the tests' fault injection needs
 * the very connection the bot writes on.
 */
export function openSqliteStorage(path: string, onOpen?: (db: Db) => void): Storage {
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
  // One object for the file: it remembers recent costs until it records one itself.
  let accounts: SqliteAccounts | undefined;
  return {
    openLedger: (settings) => new Ledger(db, settings),
    openAccounts: () => (accounts ??= new SqliteAccounts(db)),
    giveaways: new SqliteGiveawayBatches(db),
    adminReads: new SqliteAdminReads(db),
    keyValues: <T>(namespace: string) => new KeyValueStore<T>(db, namespace),
    access: new SqliteAccessStore(db),
    senderLease: new SqliteSenderLease(db),
    backup: (dir, options) => backupDatabase(db, dir, options),
    isUp: () => db.open && db.prepare("SELECT 1 AS one").get() !== undefined,
    isOpen: () => db.open,
    fileChanged: () => fileChange(path, opened),
    close: () => {
      db.close();
      lock?.release();
    },
  };
}

/** Which file a path names now (device and inode), or undefined when none does. */
function fileIdentity(path: string): string | undefined {
  if (path === ":memory:") return undefined;
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat === undefined ? undefined : `${stat.dev}:${stat.ino}`;
}

/** How the file at `path` is no longer the one opened (`opened`), or undefined when it still is. */
function fileChange(path: string, opened: string | undefined): string | undefined {
  if (opened === undefined) return undefined;
  const now = fileIdentity(path);
  if (now === opened) return undefined;
  return now === undefined ? `${path} was removed` : `${path} was replaced by another file`;
}
