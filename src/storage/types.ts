/**
 * What the bot keeps, as interfaces: the bot, the access rules and the app use these, never
 * SQLite itself, so a second implementation (e.g. PostgreSQL, for several processes) could
 * provide them. The SQLite ones are in src/storage/sqlite, the PostgreSQL ones in
 * src/storage/postgres; the ledger's own interfaces are in src/ledger/types.ts.
 */
import type { PurchaseAccounts } from "../ledger/accounts.js";
import type { AdminReads } from "../ledger/admin-reads.js";
import type { GiveawayBatches } from "../ledger/giveaways.js";
import type { PurchaseLedger, SenderLease } from "../ledger/types.js";
import type { MaybePromise } from "../shared/maybe-promise.js";

/** One namespace of JSON values by key (conversation state, settings, notices). */
export interface KeyValue<T> {
  read(key: string): MaybePromise<T | undefined>;
  write(key: string, value: T): MaybePromise<void>;
  delete(key: string): MaybePromise<void>;
  /**
   * As {@link write}, but a write the store refuses for a passing reason (another connection
   * holding its lock) is tried again after asynchronous pauses, for about 3 s, instead of
   * failing at once. For the writes every update makes (conversation state): waiting inside
   * the store would stall every chat, failing at once would fail the person's step.
   */
  writeRetrying(key: string, value: T): Promise<void>;
  /** As {@link delete}, retried like {@link writeRetrying}. */
  deleteRetrying(key: string): Promise<void>;
}

/** Opens a namespace of the key-value store; namespaces never see each other's keys. */
export type KeyValueStores = <T>(namespace: string) => KeyValue<T>;

/** A buyer or a group an admin allowed in the bot. */
export interface StoredGrant {
  id: number;
  addedBy: number;
  addedAt: number;
  /** A name to show admins (a username or a group title), when known. */
  label: string | undefined;
}

/** The buyers and groups admins allow in the bot (the configured ones are not stored). */
export interface AccessStore {
  hasUser(userId: number): MaybePromise<boolean>;
  hasChat(chatId: number): MaybePromise<boolean>;
  /** Adds (or keeps, updating a known label) an allowed buyer. */
  addUser(grant: StoredGrant): MaybePromise<void>;
  addChat(grant: StoredGrant): MaybePromise<void>;
  /** True when it was stored and is now removed. */
  removeUser(userId: number): MaybePromise<boolean>;
  removeChat(chatId: number): MaybePromise<boolean>;
  /** Oldest first. */
  users(): MaybePromise<StoredGrant[]>;
  chats(): MaybePromise<StoredGrant[]>;
}

/** A checked backup file: where, how big, and when it was taken (ms since the epoch). */
export interface BackupResult {
  path: string;
  bytes: number;
  at: number;
}

/** Options of the purchase ledger a storage opens (see src/storage/sqlite/ledger.ts). */
interface LedgerSettings {
  limits?: Partial<PurchaseLedger["limits"]>;
  draftTtlMs?: number;
  clock?: () => number;
}

/** Everything one bot process keeps, opened once by the app and closed at its stop. */
export interface Storage {
  /** The purchase ledger (one per storage: build it once). */
  openLedger(settings: LedgerSettings): PurchaseLedger;
  /**
   * The books beside the ledger: costs, balance readings, the export, daily reports sent. The
   * same object on every call (it remembers recent costs until it records one itself).
   */
  openAccounts(): PurchaseAccounts;
  /** Giveaway batches, beside the ledger on the same database. */
  giveaways: GiveawayBatches;
  /** The admins' Mini App reads (src/admin-app): purchases searched, spending per day. */
  adminReads: AdminReads;
  keyValues: KeyValueStores;
  access: AccessStore;
  /** The sender lease: one process at a time takes updates and sends purchases. */
  senderLease: SenderLease;
  /**
   * An online backup into `dir`, checked, keeping the newest `keep` (SQLite); undefined where
   * the store is backed up by other means (PostgreSQL: pg_dump, the service's own backups).
   */
  backup:
    ((dir: string, options: { keep: number; now: number }) => Promise<BackupResult>) | undefined;
  /** Whether the store answers (the health report's "database"); false once closed. */
  isUp(): MaybePromise<boolean>;
  isOpen(): boolean;
  /**
   * How the database file the store opened is no longer the one at its path (replaced by
   * another file, or removed), or undefined while it still is. A process that goes on with the
   * file it opened writes where no other process looks (SQLite; undefined for PostgreSQL).
   */
  fileChanged?: () => string | undefined;
  close(): MaybePromise<void>;
}
