/**
 * What the features share, built once per bot by createBot. Features receive this instead of
 * reaching for globals, so a test (or a second bot instance on the same database) gets its own.
 */
import type { I18n } from "@grammyjs/i18n";
import type { Context } from "grammy";
import type { Logger } from "../shared/logger.js";
import type { PurchaseRecords } from "../purchases/records.js";
import type { PurchaseDesk } from "../purchases/types.js";
import type { PurchaseIntent } from "../ledger/types.js";
import type { PaymentMethod } from "../gifts/catalogue.js";
import type { FloodBoard } from "./flood-board.js";
import type { UserSettingsStore } from "./i18n.js";
import type { OpenSummaryStore } from "./open-summaries.js";
import type { PauseWaiters } from "./pause-waiters.js";
import type { KnownPeople } from "./people.js";
import type { AccessCheck } from "./access-check.js";

import type { BackgroundWork } from "./background.js";

export interface BotServices {
  /** The only door to buying (and to every other change of an intent). */
  desk: PurchaseDesk;
  /** The ledger, read-only: history, lists, status, limits, usage. */
  records: PurchaseRecords;
  i18n: I18n<Context>;
  settings: UserSettingsStore;
  summaries: OpenSummaryStore;
  canBuy: AccessCheck;
  admins: ReadonlySet<number>;
  /** The paying wallet's address, when configured or derived (for admin features). */
  walletAddress: string | undefined;
  defaultPaymentMethod: PaymentMethod;
  /** Who the update flood guard cut short recently (for the admins' /balance). */
  floods: FloodBoard;
  /** TON_EXPLORER_URL (a transaction link is it followed by the hash); undefined: no link. */
  explorerUrl: string | undefined;
  /** The clock that decides whether a summary has expired; the desk's clock in tests. */
  now: () => number;
  logger: Logger;
  /** Names of the people the bot has seen, shown to admins next to their ids. */
  people: KnownPeople;
  /** What handlers leave running (a receipt's cost edit); the app's stop waits for it. */
  background: BackgroundWork;
  /** Online backups of the database, for /backup; undefined where the store has none. */
  backups: BackupTaker | undefined;
  /** Whether this person's summaries show the wallet's balance (SHOW_BALANCE_TO). */
  balanceShownTo: (userId: number) => boolean;
  /**
   * Whether what a gift cost may be shown where it was asked for: as the balance is
   * (SHOW_BALANCE_TO), to the person in a private chat; in a group, to every member, so only
   * when the setting shows it to buyers, whoever asked.
   */
  costsShownIn: (requester: Pick<PurchaseIntent["requester"], "userId" | "chatType">) => boolean;
  /** Who met a pause, to be told once purchases reopen. */
  pauseWaiters: PauseWaiters;
}

/** Takes a backup now (src/run/backups.ts); `dir` is where they go. */
export interface BackupTaker {
  readonly dir: string;
  takeNow(): Promise<{ path: string; bytes: number }>;
}
