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
import { StoredStarTopUps } from "./star-top-ups.js";
import type { Storage } from "./types.js";

/** `backup`: online backups, where the driver takes them (SQLite). */
export function storageOn(db: Database, backup?: Storage["backup"]): Storage {
  const accounts = new StoredAccounts(db);
  return {
    openLedger: (settings) => openLedger(db, settings),
    openAccounts: () => accounts,
    giveaways: new StoredGiveawayBatches(db),
    adminReads: new StoredAdminReads(db),
    keyValues: <T>(namespace: string) => new KeyValueStore<T>(db, namespace),
    access: new StoredAccess(db),
    senderLease: new StoredSenderLease(db),
    starTopUps: new StoredStarTopUps(db),
    backup,
    isUp: () => db.isUp(),
    isOpen: () => db.isOpen(),
    close: () => db.close(),
  };
}
