/**
 * The bot as the bench runs it: the production app from the one composition root (openApp:
 * the real client over HTTP to the sandbox process, the ledger and desk on a real SQLite file,
 * the access gate, the admin features, conversations stored in SQLite, i18n), with Telegram
 * answered in-process through `client.fetch`, a real clock and cache times the bench can scale.
 * Every feature is on as in production: the access gate (purchases open to everyone, as a public
 * bot's would be, so each purchase still looks the person up), the admin commands and group
 * features, the admin notifications and the low-balance check (thresholds set, so every balance
 * read is checked and the desk reads the balance after a purchase when the quota is idle, as in
 * production).
 */
import type { ApiClientOptions, Bot } from "grammy";
import { openApp } from "../../src/app/index.js";
import type { BotContext } from "../../src/bot/context.js";
import { FAIR_SHARE_DEFAULTS, type FairShareConfig } from "../../src/config/index.js";
import type { SpendingLimits } from "../../src/ledger/types.js";
import { silentLogger } from "../../src/shared/logger.js";
import type { PurchaseDesk } from "../../src/purchases/types.js";
import type { GiveawayRunner } from "../../src/purchases/giveaway-runner.js";
import type { GiftServiceClient } from "../../src/service/types.js";
import { TEST_BOT_INFO } from "../../tools/testing/telegram-fake.js";
import { TEST_CREDENTIALS, testConfig } from "../../tools/testing/test-config.js";

/** Fake credentials in the shapes the service expects; never real ones. The peer uses them too. */
export const BENCH_CREDENTIALS = {
  mnemonic: TEST_CREDENTIALS.mnemonic,
  cookie: "stel_ssid=bench-session-cookie",
};

/** A client quota so large it never holds a request: "quota lifted". */
export const LIFTED_CLIENT_QUOTA = { limit: 1_000_000_000, windowMs: 1 };

/** The bench's admin: nobody the bench plays, so admin work costs what it costs in production. */
export const BENCH_ADMIN_ID = 4242;

/** Low-balance thresholds, so the check after each purchase runs as in production. */
const BENCH_ALERTS = { lowBalanceTon: "1", lowBalanceUsdt: "1" };

export interface StackOptions {
  dbPath: string;
  serviceUrl: string;
  fetch: NonNullable<ApiClientOptions["fetch"]>;
  clientQuota: { limit: number; windowMs: number };
  limits?: Partial<SpendingLimits>;
  recipientCacheMs?: number;
  balanceCacheMs?: number;
  /** The window of CHECKS_PER_USER_MINUTE, shortened with the service's quota window. */
  checkWindowMs?: number;
  /** Fair-share settings other than the defaults (e.g. lifted, to compare). */
  fairShare?: Partial<FairShareConfig>;
}

export interface BotStack {
  bot: Bot<BotContext>;
  client: GiftServiceClient;
  desk: PurchaseDesk;
  /** Sends giveaway batches (the giveaway phase drives it directly, past the admin's checks). */
  giveaways: GiveawayRunner;
  close(): Promise<void>;
}

export async function buildBotStack(options: StackOptions): Promise<BotStack> {
  const config = testConfig({
    databasePath: options.dbPath,
    serviceUrl: options.serviceUrl,
    token: "123456:BENCH-TOKEN-never-real",
    cookie: BENCH_CREDENTIALS.cookie,
    access: { adminIds: [BENCH_ADMIN_ID], publicPurchases: true },
    alerts: BENCH_ALERTS,
    ...(options.limits ? { limits: options.limits } : {}),
    // Production's fair share (the tests' config lifts it), unless the bench says otherwise.
    fairShare: { ...FAIR_SHARE_DEFAULTS, ...options.fairShare },
  });
  const app = await openApp(config, {
    logger: silentLogger,
    telegram: { fetch: options.fetch, botInfo: TEST_BOT_INFO },
    quota: options.clientQuota,
    cacheMs: {
      ...(options.recipientCacheMs !== undefined ? { recipient: options.recipientCacheMs } : {}),
      ...(options.balanceCacheMs !== undefined ? { balance: options.balanceCacheMs } : {}),
    },
    ...(options.checkWindowMs !== undefined ? { checkWindowMs: options.checkWindowMs } : {}),
  });
  return {
    bot: app.bot,
    client: app.service.client,
    desk: app.desk,
    giveaways: app.giveaways.runner,
    close: () => app.stop(),
  };
}

/** Limits high enough that a bench's thousands of purchases are never refused by them. */
export const BENCH_LIMITS: Partial<SpendingLimits> = {
  starsPerPurchase: 5_000,
  starsPerUserDay: 1_000_000,
  starsPerBotDay: 1_000_000_000,
};
