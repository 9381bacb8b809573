/**
 * The bot: createBot(deps) wires grammY, i18n, conversations and the features, and nothing
 * else. It does not start polling or a webhook (running the bot is another room's job), so a
 * test can build one, feed it updates with `bot.handleUpdate`, and intercept every outgoing
 * call through `deps.fetch`.
 */
import { conversations } from "@grammyjs/conversations";
import { sequentialize } from "@grammyjs/runner";
import { type ApiClientOptions, Bot } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { Logger } from "../logger.js";
import type { PurchaseDesk } from "../purchases/types.js";
import type { PaymentMethod } from "../service/types.js";
import type { Db } from "../storage/database.js";
import type { BotContext, FlowContext } from "./context.js";
import { createConversationStorage } from "./conversation-storage.js";
import { createErrorHandler } from "./error-boundary.js";
import { cancelFeature } from "./features/cancel.js";
import { fallbackFeature } from "./features/fallback.js";
import { giftConversations, giftFeature } from "./features/gift.js";
import { historyFeature } from "./features/history.js";
import { languageFeature } from "./features/language.js";
import { startFeature } from "./features/start.js";
import { summaryFeature } from "./features/summary.js";
import { createI18n, UserSettingsStore } from "./i18n.js";
import { OpenSummaryStore } from "./open-summaries.js";
import { allowEveryone, type PurchaseGate } from "./purchase-gate.js";
import type { BotServices } from "./services.js";

export { commandsFor, registerCommands } from "./commands.js";
export type { BotContext, FlowContext } from "./context.js";
export type { PurchaseGate, PurchaseGateDecision, PurchaseGateRequest } from "./purchase-gate.js";
export { allowEveryone } from "./purchase-gate.js";

export interface BotDeps {
  /** The bot token. It is handed to grammY only, never logged. */
  token: string;
  /** Skips `getMe` at start (tests, or a caller that already fetched it). */
  botInfo?: UserFromGetMe;
  /** A local Bot API server (TELEGRAM_API_ROOT), or the emulator. */
  apiRoot?: string;
  /** Replaces grammY's fetch: the one interception point that also sees calls made inside conversations. */
  fetch?: ApiClientOptions["fetch"];
  /** The only door to buying. */
  desk: PurchaseDesk;
  /** For conversation state and per-person settings, through the kv store only. */
  db: Db;
  logger: Logger;
  /** The payment method a summary starts with (PAYMENT_METHOD). */
  defaultPaymentMethod: PaymentMethod;
  /** ADMIN_IDS: passed to the desk at confirmation (admins may be exempt from per-user limits). */
  admins: readonly number[];
  /** The paying wallet's address, when known (shown to admins by the admin features). */
  walletAddress?: string;
  /** Who may start and confirm purchases; default: everyone. Access control replaces it. */
  canBuy?: PurchaseGate;
  /** The clock deciding whether a summary has expired; pass the desk's clock in tests. */
  now?: () => number;
  /**
   * Extra features (admin commands, group flows) installed inside the error boundary, after
   * the built-in commands and before the catch-all callback answer.
   */
  extraFeatures?: (services: BotServices) => Parameters<Bot<BotContext>["use"]>[0][];
}

/** The grammY bot plus what features built on it may need. */
export interface GiftBot {
  bot: Bot<BotContext>;
  services: BotServices;
}

/** Builds the bot without starting it. */
export function createBot(deps: BotDeps): Bot<BotContext> {
  return createGiftBot(deps).bot;
}

/** Like createBot, also returning the shared services (for features added by other rooms). */
export function createGiftBot(deps: BotDeps): GiftBot {
  const client: ApiClientOptions = {};
  if (deps.apiRoot !== undefined) client.apiRoot = deps.apiRoot;
  if (deps.fetch !== undefined) client.fetch = deps.fetch;
  const bot = new Bot<BotContext>(deps.token, {
    ...(deps.botInfo ? { botInfo: deps.botInfo } : {}),
    client,
  });
  // Answering a press is a courtesy toast; what the press does must not depend on it. Telegram
  // refuses answers to presses older than about 15 s ("query is too old"), e.g. a Confirm that
  // waited behind a slow purchase in the same chat: that refusal is logged, not thrown.
  bot.api.config.use(async (prev, method, payload, signal) => {
    const response = await prev(method, payload, signal);
    if (method !== "answerCallbackQuery" || response.ok) return response;
    deps.logger.debug({ description: response.description }, "could not answer a button press");
    return { ok: true, result: true } as unknown as typeof response;
  });

  const settings = new UserSettingsStore(deps.db);
  const i18n = createI18n(settings);
  const services: BotServices = {
    desk: deps.desk,
    i18n,
    settings,
    summaries: new OpenSummaryStore(deps.db),
    canBuy: deps.canBuy ?? allowEveryone,
    admins: new Set(deps.admins),
    walletAddress: deps.walletAddress,
    defaultPaymentMethod: deps.defaultPaymentMethod,
    now: deps.now ?? Date.now,
    logger: deps.logger,
  };

  // One chat's updates in order, different chats concurrently, whatever runs the bot (runner,
  // webhook or a test calling handleUpdate concurrently). It must come before conversations:
  // they have no locking of their own.
  bot.use(sequentialize<BotContext>((ctx) => ctx.chat?.id.toString()));
  bot.use(async (ctx, next) => {
    ctx.log = deps.logger.child({
      updateId: ctx.update.update_id,
      chatId: ctx.chat?.id,
      userId: ctx.from?.id,
    });
    await next();
  });

  const safe = bot.errorBoundary(createErrorHandler(deps.logger, i18n, settings));
  // Remember each admin's Telegram language: messages that answer none of their updates
  // (admin notifications) use it when they never chose one with /language.
  safe.use(async (ctx, next) => {
    const from = ctx.from;
    // Only admins are ever messaged out of the blue; for everyone else this would be a
    // database read (and sometimes a write) on every update for nothing.
    if (from !== undefined && services.admins.has(from.id)) {
      settings.noteTelegramLanguage(from.id, from.language_code);
    }
    await next();
  });
  safe.use(i18n.middleware());
  safe.use(
    conversations<BotContext, FlowContext>({
      storage: createConversationStorage(deps.db),
      plugins: [i18n.middleware()],
    }),
  );
  safe.use(giftConversations(services));
  safe.use(startFeature(services));
  safe.use(cancelFeature(services));
  safe.use(languageFeature(services));
  safe.use(historyFeature(services));
  safe.use(giftFeature(services));
  safe.use(summaryFeature(services));
  for (const feature of deps.extraFeatures?.(services) ?? []) safe.use(feature);
  safe.use(fallbackFeature());
  return { bot, services };
}
