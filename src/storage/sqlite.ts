/**
 * The SQLite implementation of {@link Storage}: one file holds the ledger, the key-value
 * namespaces and the access lists. Only src/storage and src/ledger know it is SQLite.
 */
import { Ledger } from "../ledger/ledger.js";
import { SqliteAccounts } from "../ledger/sqlite-accounts.js";
import { SqliteAccessStore } from "./access-store.js";
import { openDatabase } from "./database.js";
import { KeyValueStore } from "./key-value-store.js";
import type { Storage } from "./types.js";

/** Opens (creating and migrating it if needed) the database file at `path`. */
export function openSqliteStorage(path: string): Storage {
  const db = openDatabase(path);
  // One object for the file: it remembers recent costs until it records one itself.
  let accounts: SqliteAccounts | undefined;
  return {
    openLedger: (settings) => new Ledger(db, settings),
    openAccounts: () => (accounts ??= new SqliteAccounts(db)),
    keyValues: <T>(namespace: string) => new KeyValueStore<T>(db, namespace),
    access: new SqliteAccessStore(db),
    isUp: () => db.open && db.prepare("SELECT 1 AS one").get() !== undefined,
    isOpen: () => db.open,
    close: () => db.close(),
  };
}
