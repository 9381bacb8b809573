/**
 * A bot wired to real parts, for tests that must prove behaviour end to end: the real sandbox
 * service over 127.0.0.1, the real HTTP client, the real ledger and desk on a real SQLite file,
 * and the real grammY bot whose Telegram calls go to the recording fake.
 *
 * `restart()` imitates a process restart: the database is closed and reopened, and a new
 * client, ledger, desk and bot are built on it, while the sandbox and the fake Telegram (the
 * outside world) stay as they were.
 */
import { join } from "node:path";
import type { Bot } from "grammy";
import type { Update } from "grammy/types";
import type { BotContext } from "../../src/bot/context.js";
import { type BotDeps, createGiftBot, type GiftBot } from "../../src/bot/index.js";
import { Ledger } from "../../src/ledger/ledger.js";
import type { SpendingLimits } from "../../src/ledger/types.js";
import { type Logger, silentLogger } from "../../src/logger.js";
import { createPurchaseDesk } from "../../src/purchases/desk.js";
import type { PurchaseDesk } from "../../src/purchases/types.js";
import { startSandbox } from "../sandbox/server.js";
import type { Sandbox, SandboxOptions } from "../sandbox/types.js";
import {
  createGiftServiceClient,
  type GiftServiceClientOptions,
} from "../../src/service/client.js";
import type { GiftServiceClient, PaymentMethod } from "../../src/service/types.js";
import { type Db, openDatabase } from "../../src/storage/database.js";
import { createTestClock, type TestClock } from "./clock.js";
import { createTelegramFake, TEST_BOT_INFO, type TelegramFake } from "./telegram-fake.js";
import { createUpdateFactory, type UpdateFactory } from "./updates.js";

/** Fake credentials in the shapes the service expects; never real ones. */
export const TEST_CREDENTIALS = {
  mnemonic: Array.from({ length: 24 }, () => "abandon").join(" "),
  cookie: "stel_ssid=test-session-cookie",
};

export interface BotHarnessOptions {
  /** A temporary folder for the SQLite file (the caller removes it, e.g. test/helpers/temp-dir). */
  dir: string;
  sandbox?: SandboxOptions;
  /** The client's shared quota (default: the client's 30 per minute). */
  clientQuota?: GiftServiceClientOptions["quota"];
  /** The client's read retries (default: the client's 2). */
  clientReadRetries?: number;
  limits?: Partial<SpendingLimits>;
  draftTtlMs?: number;
  defaultPaymentMethod?: PaymentMethod;
  admins?: number[];
  canBuy?: BotDeps["canBuy"];
  extraFeatures?: BotDeps["extraFeatures"];
  logger?: Logger;
  /**
   * Builds more of the bot from each (re)start's parts: another desk for the bot, the purchase
   * gate, extra features, and `attach`, run once the bot exists (what it returns runs at
   * teardown). Overrides `canBuy` and `extraFeatures` when it sets them.
   */
  plugIn?: (parts: HarnessParts) => HarnessPlugIn;
}

/** What a plug-in may build on: the parts of one (re)start. */
export interface HarnessParts {
  db: Db;
  desk: PurchaseDesk;
  ledger: Ledger;
  clock: TestClock;
  logger: Logger;
}

export interface HarnessPlugIn {
  desk?: PurchaseDesk;
  canBuy?: BotDeps["canBuy"];
  extraFeatures?: BotDeps["extraFeatures"];
  attach?: (bot: GiftBot) => () => void;
}

export interface BotHarness {
  readonly bot: Bot<BotContext>;
  readonly desk: PurchaseDesk;
  readonly ledger: Ledger;
  readonly client: GiftServiceClient;
  readonly db: Db;
  readonly sandbox: Sandbox;
  readonly telegram: TelegramFake;
  readonly updates: UpdateFactory;
  /** Shared by the ledger, the desk and the bot; `clock.advance(ms)` moves time. */
  readonly clock: TestClock;
  readonly dbPath: string;
  /** Feeds one update to the current bot. */
  send(update: Update): Promise<void>;
  /** A new process on the same database: new client, ledger, desk and bot. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function createBotHarness(options: BotHarnessOptions): Promise<BotHarness> {
  const sandbox = await startSandbox(options.sandbox);
  const telegram = createTelegramFake();
  const updates = createUpdateFactory();
  const clock = createTestClock();
  const dbPath = join(options.dir, "giftbot.sqlite");
  const logger = options.logger ?? silentLogger;

  function build() {
    const db = openDatabase(dbPath);
    const client = createGiftServiceClient({
      baseUrl: sandbox.url,
      credentials: TEST_CREDENTIALS,
      ...(options.clientQuota ? { quota: options.clientQuota } : {}),
      ...(options.clientReadRetries !== undefined
        ? { readRetries: options.clientReadRetries }
        : {}),
      logger,
    });
    const ledger = new Ledger(db, {
      clock,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.draftTtlMs !== undefined ? { draftTtlMs: options.draftTtlMs } : {}),
    });
    const desk = createPurchaseDesk({ ledger, client, clock, logger });
    const plugIn = options.plugIn?.({ db, desk, ledger, clock, logger }) ?? {};
    const canBuy = plugIn.canBuy ?? options.canBuy;
    const extraFeatures = plugIn.extraFeatures ?? options.extraFeatures;
    const giftBot = createGiftBot({
      token: "123456:TEST-TOKEN-never-real",
      botInfo: TEST_BOT_INFO,
      fetch: telegram.fetch,
      desk: plugIn.desk ?? desk,
      db,
      logger,
      defaultPaymentMethod: options.defaultPaymentMethod ?? "usdt_ton",
      admins: options.admins ?? [],
      now: clock,
      ...(canBuy ? { canBuy } : {}),
      ...(extraFeatures ? { extraFeatures } : {}),
    });
    const detach = plugIn.attach?.(giftBot);
    return { db, client, ledger, desk, bot: giftBot.bot, detach };
  }

  let parts = build();
  let closed = false;

  async function teardownParts(): Promise<void> {
    parts.detach?.();
    await parts.client.close();
    parts.db.close();
  }

  return {
    get bot() {
      return parts.bot;
    },
    get desk() {
      return parts.desk;
    },
    get ledger() {
      return parts.ledger;
    },
    get client() {
      return parts.client;
    },
    get db() {
      return parts.db;
    },
    sandbox,
    telegram,
    updates,
    clock,
    dbPath,
    send: (update) => parts.bot.handleUpdate(update),
    async restart() {
      await teardownParts();
      parts = build();
    },
    async close() {
      if (closed) return;
      closed = true;
      await teardownParts();
      await sandbox.close();
    },
  };
}
