/**
 * The bot as the bench runs it: the real client (over HTTP to the sandbox process), the real
 * ledger and desk on a real SQLite file, and the real grammY bot (conversations stored in
 * SQLite, i18n), with Telegram answered in-process through `client.fetch`. It mirrors
 * tools/testing/bot-harness.ts, but with a real clock and cache times the bench can scale.
 */
import type { ApiClientOptions, Bot } from "grammy";
import type { BotContext } from "../../src/bot/context.js";
import { createBot } from "../../src/bot/index.js";
import { Ledger } from "../../src/ledger/ledger.js";
import type { SpendingLimits } from "../../src/ledger/types.js";
import { silentLogger } from "../../src/logger.js";
import { createPurchaseDesk } from "../../src/purchases/desk.js";
import type { PurchaseDesk } from "../../src/purchases/types.js";
import { createGiftServiceClient } from "../../src/service/client.js";
import type { GiftServiceClient } from "../../src/service/types.js";
import { type Db, openDatabase } from "../../src/storage/database.js";
import { TEST_BOT_INFO } from "../../tools/testing/telegram-fake.js";

/** Fake credentials in the shapes the service expects; never real ones. */
export const BENCH_CREDENTIALS = {
  mnemonic: Array.from({ length: 24 }, () => "abandon").join(" "),
  cookie: "stel_ssid=bench-session-cookie",
};

/** A client quota so large it never holds a request: "quota lifted". */
export const LIFTED_CLIENT_QUOTA = { limit: 1_000_000_000, windowMs: 1 };

export interface StackOptions {
  dbPath: string;
  serviceUrl: string;
  fetch: NonNullable<ApiClientOptions["fetch"]>;
  clientQuota: { limit: number; windowMs: number };
  limits?: Partial<SpendingLimits>;
  recipientCacheMs?: number;
  balanceCacheMs?: number;
}

export interface BotStack {
  bot: Bot<BotContext>;
  db: Db;
  client: GiftServiceClient;
  desk: PurchaseDesk;
  close(): Promise<void>;
}

export function buildBotStack(options: StackOptions): BotStack {
  const db = openDatabase(options.dbPath);
  const client = createGiftServiceClient({
    baseUrl: options.serviceUrl,
    credentials: BENCH_CREDENTIALS,
    quota: options.clientQuota,
    logger: silentLogger,
  });
  const ledger = new Ledger(db, options.limits ? { limits: options.limits } : {});
  const desk = createPurchaseDesk({
    ledger,
    client,
    logger: silentLogger,
    ...(options.recipientCacheMs !== undefined
      ? { recipientCacheMs: options.recipientCacheMs }
      : {}),
    ...(options.balanceCacheMs !== undefined ? { balanceCacheMs: options.balanceCacheMs } : {}),
  });
  const bot = createBot({
    token: "123456:BENCH-TOKEN-never-real",
    botInfo: TEST_BOT_INFO,
    fetch: options.fetch,
    desk,
    db,
    logger: silentLogger,
    defaultPaymentMethod: "usdt_ton",
    admins: [],
  });
  return {
    bot,
    db,
    client,
    desk,
    async close() {
      await client.close();
      db.close();
    },
  };
}

/** Limits high enough that a bench's thousands of purchases are never refused by them. */
export const BENCH_LIMITS: Partial<SpendingLimits> = {
  starsPerPurchase: 5_000,
  starsPerUserDay: 1_000_000,
  starsPerBotDay: 1_000_000_000,
};
