/**
 * A bot wired to real parts, for tests that must prove behaviour end to end: the real sandbox
 * service over 127.0.0.1, the real HTTP client, the real ledger and desk on a real SQLite file,
 * and the real grammY bot whose Telegram calls go to the recording fake.
 *
 * `restart()` imitates a process restart: the app is stopped (its database closed) and a new
 * one is built on the same file, while the sandbox and the fake Telegram (the outside world)
 * stay as they were.
 */
import { join } from "node:path";
import type { Bot } from "grammy";
import type { Update } from "grammy/types";
import { type App, openApp } from "../../src/app/index.js";
import type { BotContext } from "../../src/bot/context.js";
import type { AdminMessageRetry, BalanceAlerts, AccessCheck } from "../../src/bot/index.js";
import type {
  AccessConfig,
  BackupsConfig,
  FairShareConfig,
  GiveawayConfig,
  ReportsConfig,
} from "../../src/config/index.js";
import type { PurchaseLedger, SpendingLimits } from "../../src/ledger/types.js";
import { type Logger, silentLogger } from "../../src/shared/logger.js";
import type { PurchaseRecords } from "../../src/purchases/records.js";
import type { PurchaseDesk } from "../../src/purchases/types.js";
import type { GiftServiceClient, PaymentMethod } from "../../src/service/types.js";
import type { Db } from "../../src/storage/sqlite/driver.js";
import { openDatabase, openSqliteStorage } from "../../src/storage/sqlite/open.js";
import { openPostgresStorage } from "../../src/storage/postgres/open.js";
import { startSandbox } from "../sandbox/server.js";
import type { Sandbox, SandboxOptions } from "../sandbox/types.js";
import { createTestClock, type TestClock } from "./clock.js";
import { createTelegramFake, TEST_BOT_INFO, type TelegramFake } from "./telegram-fake.js";
import { type FakeStars, installStars } from "./telegram-stars.js";
import { testConfig } from "./test-config.js";
import { createUpdateFactory, type UpdateFactory } from "./updates.js";

export interface BotHarnessOptions {
  /** A temporary folder for the SQLite file (the caller removes it, e.g. test/helpers/temp-dir). */
  dir: string;
  /**
   * A PostgreSQL database (DATABASE_URL) instead of the SQLite file: the same bot on the other
   * store. `db` and `appDb` (SQLite connections) are then unavailable.
   */
  databaseUrl?: string;
  sandbox?: SandboxOptions;
  /** The client's shared quota (default: the client's 30 per minute). */
  clientQuota?: { limit: number; windowMs: number };
  /** The client's read retries (default: the client's 2). */
  clientReadRetries?: number;
  limits?: Partial<SpendingLimits>;
  draftTtlMs?: number;
  defaultPaymentMethod?: PaymentMethod;
  /** ADMIN_IDS (default none). */
  admins?: number[];
  /** The rest of the access settings; default: purchases open to everyone. */
  access?: Partial<Omit<AccessConfig, "adminIds">>;
  /** LOW_BALANCE_TON / LOW_BALANCE_USDT. */
  alerts?: BalanceAlerts;
  /** REPORT_HOUR_UTC and TON_EXPLORER_URL. */
  reports?: Partial<ReportsConfig>;
  backups?: Partial<BackupsConfig>;
  /** The paying wallet shown to admins. */
  wallet?: { address?: string; version?: "v5r1" | "v4r2" | "v3r2" };
  /** CHECKS_PER_USER_MINUTE and the other fair-share settings (default: production's). */
  fairShare?: Partial<FairShareConfig>;
  /** GIVEAWAY_MAX (default 200). */
  giveaway?: Partial<GiveawayConfig>;
  /** Replaces the access check (a test's own rule for who may buy). */
  canBuy?: AccessCheck;
  /** How admin messages Telegram did not take are sent again (default: the notifier's). */
  adminMessageRetry?: AdminMessageRetry;
  logger?: Logger;
  /** PREMIUM_VIA (default `service`). */
  premiumVia?: "service" | "telegram" | "telegram-first";
  /** The bot's own Telegram Stars on the fake (tools/testing/telegram-stars.ts). */
  stars?: { balance: number };
  /** How long a Premium gift through Telegram waits for its answer (default 30 s). */
  giftTimeoutMs?: number;
}

export interface BotHarness {
  /** The app of the current "process" (rebuilt by restart). */
  readonly app: App;
  readonly bot: Bot<BotContext>;
  readonly desk: PurchaseDesk;
  /** The ledger, read-only, as the bot reads it. */
  readonly records: PurchaseRecords;
  readonly ledger: PurchaseLedger;
  readonly client: GiftServiceClient;
  /**
   * A connection of the test's own to the same file, for writing what no code path writes
   * (rows as an older version left them). Opened on first use, closed at restart and close.
   */
  readonly db: Db;
  /**
   * The app's own connection (the one the ledger writes on), for injecting faults that only a
   * function registered on that connection can raise (test/helpers/write-fault.ts).
   */
  readonly appDb: Db;
  readonly sandbox: Sandbox;
  readonly telegram: TelegramFake;
  /** The bot's Stars on the fake, when the options asked for them. */
  readonly stars: FakeStars | undefined;
  readonly updates: UpdateFactory;
  /** Shared by the ledger, the desk and the bot; `clock.advance(ms)` moves time. */
  readonly clock: TestClock;
  readonly dbPath: string;
  /** The PostgreSQL database the app runs on, when it does (else the SQLite file at `dbPath`). */
  readonly databaseUrl: string | undefined;
  /** Feeds one update to the current bot. */
  send(update: Update): Promise<void>;
  /** A new process on the same database: a new app (client, ledger, desk and bot). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The app as `openApp` builds it for production, from a Config for the sandbox and fake
 * credentials, with Telegram answered by the fake and time on the test clock. It is not
 * started (no polling, no command menus, no recovery): tests feed updates with `send`. Only
 * what `start` does first for admins is done, as a new process would: intents no admin was
 * told about are announced, and what a restore from a backup stopped.
 */
export async function createBotHarness(options: BotHarnessOptions): Promise<BotHarness> {
  const sandbox = await startSandbox(options.sandbox);
  const telegram = createTelegramFake();
  const stars = options.stars === undefined ? undefined : installStars(telegram, options.stars);
  const updates = createUpdateFactory();
  const clock = createTestClock();
  const dbPath = join(options.dir, "giftbot.sqlite");
  const config = testConfig({
    databasePath: dbPath,
    serviceUrl: sandbox.url,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.draftTtlMs !== undefined ? { draftTtlMs: options.draftTtlMs } : {}),
    ...(options.defaultPaymentMethod ? { defaultPaymentMethod: options.defaultPaymentMethod } : {}),
    access: { ...options.access, adminIds: options.admins ?? [] },
    ...(options.alerts ? { alerts: options.alerts } : {}),
    ...(options.wallet ? { wallet: options.wallet } : {}),
    ...(options.fairShare ? { fairShare: options.fairShare } : {}),
    ...(options.giveaway ? { giveaway: options.giveaway } : {}),
    ...(options.reports ? { reports: options.reports } : {}),
    ...(options.backups ? { backups: options.backups } : {}),
    ...(options.premiumVia ? { premiumVia: options.premiumVia } : {}),
  });

  let appDb: Db | undefined;

  async function build(): Promise<App> {
    const url = options.databaseUrl;
    const store = url === undefined ? undefined : await openPostgresStorage(url);
    const app = await openApp(config, {
      ...(store === undefined
        ? { openStorage: (path: string) => openSqliteStorage(path, (db) => (appDb = db)) }
        : { storage: store }),
      logger: options.logger ?? silentLogger,
      telegram: { fetch: telegram.fetch, botInfo: TEST_BOT_INFO, autoRetry: false },
      clock,
      ...(options.clientQuota ? { quota: options.clientQuota } : {}),
      ...(options.clientReadRetries !== undefined
        ? { readRetries: options.clientReadRetries }
        : {}),
      ...(options.canBuy ? { accessCheck: options.canBuy } : {}),
      ...(options.adminMessageRetry ? { adminMessageRetry: options.adminMessageRetry } : {}),
      ...(options.giftTimeoutMs === undefined ? {} : { giftTimeoutMs: options.giftTimeoutMs }),
    });
    // Awaited, as start awaits it: the store has not yet named the intents to announce when
    // build returns otherwise, and the notifier's idle() would miss them.
    await app.notifier.announcePending();
    await app.announceRestore();
    return app;
  }

  let app = await build();
  let closed = false;
  let sql: Db | undefined;

  async function stopApp(): Promise<void> {
    sql?.close();
    sql = undefined;
    await app.stop();
  }

  return {
    get app() {
      return app;
    },
    get bot() {
      return app.bot;
    },
    get desk() {
      return app.desk;
    },
    get records() {
      return app.records;
    },
    get ledger() {
      return app.ledger;
    },
    get client() {
      return app.service.client;
    },
    get db() {
      if (options.databaseUrl !== undefined) throw new Error("the harness runs on PostgreSQL");
      sql ??= openDatabase(dbPath);
      return sql;
    },
    get appDb() {
      if (appDb === undefined) throw new Error("the app has not opened its database");
      return appDb;
    },
    sandbox,
    telegram,
    stars,
    updates,
    clock,
    dbPath,
    databaseUrl: options.databaseUrl,
    // As a person sees it: the update, then what its handler left running (a receipt's cost,
    // the desk's balance read after a purchase, whether or not a receipt waits for it).
    send: async (update) => {
      await app.bot.handleUpdate(update);
      await app.services.background.idle();
      await app.desk.settled();
    },
    async restart() {
      await stopApp();
      app = await build();
    },
    async close() {
      if (closed) return;
      closed = true;
      await stopApp();
      await sandbox.close();
    },
  };
}
