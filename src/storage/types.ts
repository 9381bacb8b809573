/**
 * What the bot keeps, as interfaces: the bot, the access rules and the app use these, never a
 * database itself. One implementation over SQLite and PostgreSQL alike (./storage.ts); the
 * ledger's own interfaces are in src/ledger/types.ts.
 */
import type { PurchaseAccounts } from "../ledger/accounts.js";
import type { AdminReads } from "../ledger/admin-reads.js";
import type { GiveawayBatches } from "../ledger/giveaways.js";
import type { StarTopUps } from "../ledger/star-top-ups.js";
import type { PurchaseLedger, SenderLease, SpendingLimits } from "../ledger/types.js";

/** One namespace of JSON values by key (conversation state, settings, notices). */
export interface KeyValue<T> {
  read(key: string): Promise<T | undefined>;
  write(key: string, value: T): Promise<void>;
  delete(key: string): Promise<void>;
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
  hasUser(userId: number): Promise<boolean>;
  hasChat(chatId: number): Promise<boolean>;
  /** Adds (or keeps, updating a known label) an allowed buyer. */
  addUser(grant: StoredGrant): Promise<void>;
  addChat(grant: StoredGrant): Promise<void>;
  /** True when it was stored and is now removed. */
  removeUser(userId: number): Promise<boolean>;
  removeChat(chatId: number): Promise<boolean>;
  /** Oldest first. */
  users(): Promise<StoredGrant[]>;
  chats(): Promise<StoredGrant[]>;
}

/** A checked backup file: where, how big, and when it was taken (ms since the epoch). */
export interface BackupResult {
  path: string;
  bytes: number;
  at: number;
}

/** How the ledger is opened (src/storage/ledger/ledger.ts). */
export interface LedgerOptions {
  /** Missing members take DEFAULT_LIMITS (src/ledger/limits.ts). */
  limits?: Partial<SpendingLimits> | undefined;
  /** How long a draft (a summary shown) stays confirmable. */
  draftTtlMs?: number | undefined;
  /** Milliseconds since the epoch; tests move time without sleeping. */
  clock?: (() => number) | undefined;
}

/** Everything one bot process keeps, opened once by the app and closed at its stop. */
export interface Storage {
  /** The purchase ledger (one per storage: build it once). */
  openLedger(settings: LedgerOptions): PurchaseLedger;
  /** The accounts beside the ledger: costs, balance readings, the export, daily reports sent. */
  openAccounts(): PurchaseAccounts;
  /** Giveaway batches, beside the ledger on the same database. */
  giveaways: GiveawayBatches;
  /** The admins' Mini App reads (src/admin-app): purchases searched, spending per day. */
  adminReads: AdminReads;
  keyValues: KeyValueStores;
  access: AccessStore;
  /** The sender lease: one process at a time takes updates and sends purchases. */
  senderLease: SenderLease;
  /** The bot's own Telegram Stars: the top-ups admins paid, and their refunds. */
  starTopUps: StarTopUps;
  /**
   * An online backup into `dir`, checked, keeping the newest `keep` (SQLite); undefined where
   * the store is backed up by other means (PostgreSQL: pg_dump, the service's own backups).
   */
  backup:
    ((dir: string, options: { keep: number; now: number }) => Promise<BackupResult>) | undefined;
  /** Whether the store answers (the health report's "database"); false once closed. */
  isUp(): Promise<boolean>;
  isOpen(): boolean;
  /**
   * How the database file the store opened is no longer the one at its path (replaced by
   * another file, or removed), or undefined while it still is. A process that goes on with the
   * file it opened writes where no other process looks (SQLite; undefined for PostgreSQL).
   */
  fileChanged?: () => string | undefined;
  close(): Promise<void>;
}
