/**
 * The SQLite implementation of {@link Storage}: one file holds the ledger, the key-value
 * namespaces and the access lists. Only src/storage and src/ledger know it is SQLite.
 */
import { Ledger } from "./ledger.js";
import { SqliteAccounts } from "./accounts.js";
import { SqliteSenderLease } from "./sender-lease.js";
import { SqliteAccessStore } from "./access-store.js";
import { SqliteGiveawayBatches } from "./giveaway-batches.js";
import { backupDatabase } from "./backup.js";
import { type Db, openDatabase } from "./database.js";
import { KeyValueStore } from "./key-value-store.js";
import type { Storage } from "../types.js";

/**
 * Opens (creating and migrating it if needed) the database file at `path`. `onOpen` is handed
 * the connection first: the tests' fault injection needs the very connection the bot writes on.
 */
export function openSqliteStorage(path: string, onOpen?: (db: Db) => void): Storage {
  const db = openDatabase(path);
  onOpen?.(db);
  // One object for the file: it remembers recent costs until it records one itself.
  let accounts: SqliteAccounts | undefined;
  return {
    openLedger: (settings) => new Ledger(db, settings),
    openAccounts: () => (accounts ??= new SqliteAccounts(db)),
    giveaways: new SqliteGiveawayBatches(db),
    keyValues: <T>(namespace: string) => new KeyValueStore<T>(db, namespace),
    access: new SqliteAccessStore(db),
    senderLease: new SqliteSenderLease(db),
    backup: (dir, options) => backupDatabase(db, dir, options),
    isUp: () => db.open && db.prepare("SELECT 1 AS one").get() !== undefined,
    isOpen: () => db.open,
    close: () => {
      db.close();
    },
  };
}
