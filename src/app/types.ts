/**
 * The app's public shape: what a test or the bench may replace in the app `main` builds
 * ({@link AppOverrides}), and the running bot's parts ({@link App}).
 */
import type { ApiClientOptions, Bot } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { AccessList } from "../access/access-list.js";
import type { BotContext, GiveawaySending, AccessCheck } from "../bot/index.js";
import type { AdminMessageRetry, AdminNotifier } from "../bot/admin-notifications/index.js";
import type { BotServices } from "../bot/services.js";
import type { Config } from "../config/index.js";
import type { PurchaseLedger } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";
import type { PurchaseRecords } from "../purchases/records.js";
import type { PurchaseDesk } from "../purchases/types.js";
import type { HealthReport, ServiceMonitor } from "../run/health.js";
import type { WebhookServer } from "../run/webhook-server.js";
import type { Storage } from "../storage/types.js";
import type { UpdateTracker } from "./in-flight.js";
import type { Observability } from "./observability.js";

/**
 * What a test or the bench may replace in the app that `main` builds from the Config alone.
 * Everything else comes from the Config, so a test builds exactly the production bot.
 */
export interface AppOverrides {
  /** Replaces the logger built from the config (tests capture lines with it). */
  logger?: Logger;
  /**
   * Called when the bot can no longer take updates (long polling ended with an error Telegram
   * will not recover from, e.g. a revoked token or another instance polling): `main` stops and
   * exits non-zero so a supervisor restarts it.
   */
  onFatal?: (error: unknown) => void;
  /**
   * Telegram reached in-process: grammY's fetch (the one interception point) and getMe's
   * answer. `autoRetry: false` leaves out the retries of 429, 5xx and network failures, so a
   * test's fake Telegram is asked exactly once per call (default true, as in production).
   */
  telegram?: { fetch?: ApiClientOptions["fetch"]; botInfo?: UserFromGetMe; autoRetry?: boolean };
  /** How long a Premium gift through Telegram waits for its answer (default 30 s). */
  giftTimeoutMs?: number;
  /** One clock for the ledger, the desk and the bot (tests move time by hand). */
  clock?: () => number;
  /** The client's shared quota, when its window is not a minute (the bench shortens it). */
  quota?: { limit: number; windowMs: number };
  /** Retries of a rate-limited read (default 2). */
  readRetries?: number;
  /** How long the desk reuses a recipient check and a balance read (the bench scales them). */
  cacheMs?: { recipient?: number; balance?: number };
  /**
   * The window of CHECKS_PER_USER_MINUTE when the service's quota window is not a minute
   * (the bench shortens both by the same factor).
   */
  checkWindowMs?: number;
  /** Replaces the access check: who may start and confirm purchases (a test's own rule). */
  accessCheck?: AccessCheck;
  /** How admin messages Telegram did not take are sent again (tests shorten the pauses). */
  adminMessageRetry?: AdminMessageRetry;
  /** Opens the SQLite file at the configured path (tests reach its connection). */
  openStorage?: (path: string) => Promise<Storage>;
  /** A store already open (a test's own); the app closes it at its stop. */
  storage?: Storage;
}

/** The running bot's parts, for `main`, the health endpoint and tests. */
export interface App {
  readonly config: Config;
  readonly logger: Logger;
  /** What the process keeps (SQLite, or PostgreSQL with DATABASE_URL); closed by `stop`. */
  readonly storage: Storage;
  readonly ledger: PurchaseLedger;
  readonly desk: PurchaseDesk;
  /** The ledger, read-only (what the bot's history and admin lists read). */
  readonly records: PurchaseRecords;
  readonly access: AccessList;
  readonly bot: Bot<BotContext>;
  readonly services: BotServices;
  /** Admin messages that answer no update; `notifier.idle()` waits for those started. */
  readonly notifier: AdminNotifier;
  /** Giveaways being sent and shown (`runner.idle()`, then `idle()`, wait for them: tests). */
  readonly giveaways: GiveawaySending;
  readonly service: ServiceMonitor;
  readonly updates: UpdateTracker;
  /** The Telegram watch, readiness, the probe servers and (when on) the metrics. */
  readonly observability: Observability;
  /** The webhook server once started in webhook mode. */
  readonly webhookServer: WebhookServer | undefined;
  health(): Promise<HealthReport>;
  /**
   * Takes on reloaded settings (see RELOADABLE_VARIABLES): credentials from the next service
   * request on, configured buyers and groups, limits, low-balance alerts.
   */
  applySettings(config: Config): void;
  /** Deletes expired group prompts and short replies (start runs it every minute). */
  sweepGroups(): Promise<number>;
  /**
   * Sends the daily report to every admin who has not had the one due yet (REPORT_HOUR_UTC;
   * start runs it at once and every minute). Resolves to how many were sent.
   */
  sendDueReports(): Promise<number>;
  /** Tells the admins what a restore from a backup stopped, once (start runs it). */
  announceRestore(): Promise<void>;
  /** Connects to Telegram, recovers interrupted purchases, then takes updates. */
  start(): Promise<void>;
  /**
   * Stops taking updates and purchases not yet sent, waits for the updates in flight and the
   * admin messages they started, then closes the client and the database. Idempotent.
   */
  stop(): Promise<void>;
}
