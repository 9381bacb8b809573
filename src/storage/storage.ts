/**
 * The {@link Storage} on a database, whichever driver opened it (src/storage/sqlite/open.ts,
 * src/storage/postgres/open.ts): the ledger, the accounts, the giveaway batches, the key-value
 * namespaces, the access lists and the sender lease, each written once over the port.
 */
import { StoredAccess } from "./access-store.js";
import { StoredAccounts } from "./accounts.js";
import { StoredAdminReads } from "./admin-reads.js";
import type { Database } from "./db/port.js";
import { StoredGiveawayBatches } from "./giveaway-batches.js";
import { KeyValueStore } from "./key-value-store.js";
import { openLedger } from "./ledger/ledger.js";
import { StoredSenderLease } from "./sender-lease.js";
import type { Storage } from "./types.js";

export interface StorageOptions {
  /** Online backups, where the driver takes them (SQLite). */
  backup?: Storage["backup"];
  /**
   * The accounts remember recent costs until they record one themselves: right only while one
   * process records every cost (SQLite's one file), not for replicas (./recent-costs.ts).
   */
  rememberCosts: boolean;
}

export function storageOn(db: Database, options: StorageOptions): Storage {
  // One object for the database: it remembers recent costs until it records one itself.
  let accounts: StoredAccounts | undefined;
  return {
    openLedger: (settings) => openLedger(db, settings),
    openAccounts: () => (accounts ??= new StoredAccounts(db, options)),
    giveaways: new StoredGiveawayBatches(db),
    adminReads: new StoredAdminReads(db),
    keyValues: <T>(namespace: string) => new KeyValueStore<T>(db, namespace),
    access: new StoredAccess(db),
    senderLease: new StoredSenderLease(db),
    backup: options.backup,
    isUp: () => db.isUp(),
    isOpen: () => db.isOpen(),
    close: () => db.close(),
  };
}
