/**
 * What the admins' Mini App is built from. It reads through the purchases room (the records,
 * the admin reads) and acts through the same operations as the chat's buttons (the desk's
 * admin door, the giveaway runner); what only the bot can do (tell people in their chats, put
 * names on ids, translate) comes in as functions the app wires up.
 */
import type { AdminReads } from "../ledger/admin-reads.js";
import type { LeaseHolder } from "../ledger/types.js";
import type { GiveawayRunner } from "../purchases/giveaway-runner.js";
import type { PurchaseRecords } from "../purchases/records.js";
import type { PurchaseDesk } from "../purchases/types.js";
import type { Logger } from "../shared/logger.js";

/** The texts of `locales/`, as the bot's i18n gives them. */
export interface AppTexts {
  /** The locales spoken (`en` first: the default). */
  locales: readonly string[];
  t(locale: string, key: string, variables?: Record<string, string | number>): string;
  /** The language an admin picked with /language, else their Telegram one, if known. */
  preferred(userId: number): Promise<string | undefined>;
}

/** Who sends purchases: this process, or another replica on the same database. */
interface LeaseView {
  /** This process's lease owner id. */
  self: string;
  /** Who holds the lease now (the database's row). */
  holder(): Promise<LeaseHolder | undefined>;
  /** Whether this process holds it and may act (writes go through the holder's desk). */
  holdsLease(): boolean;
}

export interface AdminAppDeps {
  /** The bot's token: only to check the init data's signature. */
  token: string;
  /** ADMIN_IDS now. */
  isAdmin: (userId: number) => boolean;
  /** ADMIN_APP_MAX_AGE_SECONDS: older init data is refused. */
  maxAgeSeconds: number;
  records: PurchaseRecords;
  reads: AdminReads;
  desk: PurchaseDesk;
  giveaways: GiveawayRunner;
  lease: LeaseView;
  /** When the last backup of this process succeeded; undefined: none yet, or none here. */
  lastBackupAt: () => number | undefined;
  /** Whether this store is backed up by the bot (SQLite). */
  backupsKept: boolean;
  texts: AppTexts;
  /** Names the bot knows for these ids (people and groups). */
  names: (ids: readonly number[]) => Promise<Map<number, string>>;
  /** Tells those who met the pause, once nothing holds purchases any more (the bot's). */
  purchasesReopened: () => Promise<void>;
  /** TON_EXPLORER_URL: a transaction link is it followed by the hash. */
  explorerUrl: string | undefined;
  clock: () => number;
  logger: Logger;
}
