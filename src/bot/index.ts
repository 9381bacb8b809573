/**
 * The bot: createBot(deps) wires grammY, i18n, conversations and every feature, each a
 * `Composer` installed side by side (the private flows, group gifting, the admins' commands),
 * and nothing else. It does not start polling or a webhook (src/app runs the bot), so a test
 * can build one, feed it updates with `bot.handleUpdate`, and intercept every outgoing call
 * through `deps.fetch`.
 */
import { conversations } from "@grammyjs/conversations";
import { sequentialize } from "@grammyjs/runner";
import { type ApiClientOptions, Bot, type Composer } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { AccessList } from "../access/access-list.js";
import {
  balanceShownTo,
  FAIR_SHARE_DEFAULTS,
  type FairShareConfig,
  GIVEAWAY_DEFAULTS,
} from "../config/types.js";
import type { Logger } from "../shared/logger.js";
import type { PurchaseRecords } from "../purchases/records.js";
import type { PurchaseDesk } from "../purchases/types.js";
import type { PaymentMethod } from "../service/types.js";
import type { KeyValueStores } from "../storage/types.js";
import type { RestoreNotice } from "../ledger/types.js";
import { createAccessCheck } from "./access/check.js";
import { GroupAdminChecker } from "./access/group-admins.js";
import {
  type AdminMessageRetry,
  AdminNotifier,
  type BalanceAlerts,
} from "./admin-notifications/index.js";
import { announceRestore } from "./admin-notifications/restore.js";
import { registerCommands } from "./commands.js";
import type { BotContext, FlowContext } from "./context.js";
import { createConversationStorage } from "./conversation-storage.js";
import { createErrorHandler } from "./error-boundary.js";
import { registerAdminCommands } from "./features/admin/command-menu.js";
import { adminCommandsFeature } from "./features/admin/commands.js";
import { starsOfDay, topUpFeature } from "./features/admin/top-up.js";
import type { StarTopUps } from "../ledger/star-top-ups.js";
import { dashboardFeature, registerDashboardButtons } from "./features/admin/dashboard.js";
import { tellIfReopened } from "./reopened.js";
import type { WalletInfo } from "./admin-views.js";
import { cancelFeature } from "./features/cancel.js";
import { fallbackFeature } from "./features/fallback.js";
import { giftConversations, giftFeature } from "./features/gift.js";
import {
  GROUP_PROMPT_TTL_MS,
  groupPremiumFeature,
  sweepGroupMessages,
} from "./features/group/premium.js";
import { GroupPromptStore } from "./features/group/prompts.js";
import { GiveawayBoard } from "./features/giveaway/board.js";
import { giveawayConversation, giveawayFeature } from "./features/giveaway/feature.js";
import { giveawayBatchFeature } from "./features/giveaway/batch-buttons.js";
import { GiveawaySending } from "./features/giveaway/sending.js";
import type { GiveawayRunner } from "../purchases/giveaway-runner.js";
import { type Later, realLater } from "./features/giveaway/run-checks.js";
import type { GiveawayDeps } from "./features/giveaway/flow.js";
import { historyFeature } from "./features/history.js";
import { languageFeature } from "./features/language.js";
import { startFeature } from "./features/start.js";
import { summaryFeature } from "./features/summary.js";
import { FloodBoard } from "./flood-board.js";
import { floodGuard } from "./fair-share/flood-guard.js";
import { strangerCooldown } from "./fair-share/stranger-cooldown.js";
import { createI18n, negotiateLocale, UserSettingsStore } from "./i18n.js";
import { OpenSummaryStore } from "./open-summaries.js";
import { PauseWaiters } from "./pause-waiters.js";
import { tellSettlements } from "./settled-notice.js";
import { fitToTelegram } from "./telegram-limits.js";
import { KnownPeople } from "./people.js";
import { DailyReporter } from "./reports/daily-reporter.js";
import type { AccessCheck } from "./access-check.js";
import { BackgroundWork } from "./background.js";
import type { BackupTaker, BotServices } from "./services.js";

export type { AdminMessageRetry, BalanceAlerts } from "./admin-notifications/index.js";
export { registerCommands } from "./commands.js";
export type { BotContext } from "./context.js";
export type { AccessCheck } from "./access-check.js";
export type { GiveawaySending } from "./features/giveaway/sending.js";
export interface BotDeps {
  /** The bot token. It is handed to grammY only, never logged. */
  token: string;
  /** Skips `getMe` at start (tests, or a caller that already fetched it). */
  botInfo?: UserFromGetMe | undefined;
  /** A local Bot API server (TELEGRAM_API_ROOT), or the emulator. */
  apiRoot?: string | undefined;
  /** Replaces grammY's fetch: the one interception point that also sees calls made inside conversations. */
  fetch?: ApiClientOptions["fetch"];
  /** The only door to buying. */
  desk: PurchaseDesk;
  /** The ledger, read-only (history, lists, status, limits). */
  records: PurchaseRecords;
  /**
   * The key-value namespaces the bot keeps: conversation state, per-person settings, open
   * summaries, group prompts and what admins were already told.
   */
  stores: KeyValueStores;
  /** Admins, buyers and groups: who may buy, and who may use the admin commands. */
  access: AccessList;
  logger: Logger;
  /** The payment method a summary starts with (PAYMENT_METHOD). */
  defaultPaymentMethod: PaymentMethod;
  /** The paying wallet, shown to admins by /balance. */
  wallet?: WalletInfo | undefined;
  /** Whom strangers are told to ask for access (ADMIN_CONTACT), e.g. `@shop_support`. */
  contact?: string | undefined;
  /** LOW_BALANCE_TON / LOW_BALANCE_USDT: admins are told when the wallet falls below them. */
  alerts?: BalanceAlerts | undefined;
  /**
   * TON_EXPLORER_URL: a transaction link is this followed by the hash; undefined shows the bare
   * hash (the demo, whose sandbox purchases are on no real chain).
   */
  explorerUrl?: string | undefined;
  /** REPORT_HOUR_UTC: when the admins' daily report is due; undefined: no report. */
  reportHourUtc?: number | undefined;
  /** Who may start and confirm purchases; default: the access check built on `access`. */
  canBuy?: AccessCheck | undefined;
  /** The clock deciding whether a summary or a group prompt has expired; the desk's in tests. */
  now?: (() => number) | undefined;
  /** How long a group administrator check is reused before asking Telegram again; 30 s. */
  groupAdminCacheMs?: number | undefined;
  /** At most one refusal reply per group in this window; default 30 s. */
  groupRefusalCooldownMs?: number | undefined;
  /** How admin messages Telegram did not take are sent again (default: the notifier's). */
  adminMessageRetry?: AdminMessageRetry | undefined;
  /** Update floods and strangers' answers (docs/operations.md "Fair share"); default FAIR_SHARE_DEFAULTS. */
  fairShare?: FairShareConfig | undefined;
  /** Online backups for /backup (undefined: /backup says there are none here). */
  backups?: BackupTaker | undefined;
  /**
   * SHOW_BALANCE_TO: who besides the admins sees the wallet's balance on a summary; undefined:
   * buyers while purchases are not public (read live: PUBLIC_PURCHASES reloads).
   */
  showBalanceTo?: "admins" | "buyers" | undefined;
  /** GIVEAWAY_MAX, and the timers of a giveaway's checks (tests); default 200 and real timers. */
  giveaway?: { maxRecipients?: number; later?: Later; editIntervalMs?: number } | undefined;
  /** Sends confirmed giveaways (src/purchases/giveaway-runner.ts). */
  giveawayRunner: GiveawayRunner;
  /** The admins' Mini App's page (ADMIN_APP_URL); undefined: not offered in the chat. */
  adminAppUrl?: string | undefined;
  /**
   * The top-ups of the bot's own Telegram Stars (/topup, /refund, the daily report); undefined
   * when PREMIUM_VIA is `service`.
   */
  starTopUps?: StarTopUps | undefined;
}

/** The grammY bot plus what the app runs beside it. */
export interface GiftBot {
  bot: Bot<BotContext>;
  services: BotServices;
  /** Messages to the admins that answer no update (unconfirmed purchases, low balance). */
  notifier: AdminNotifier;
  /** The admins' daily report; the app checks every minute whether one is due. */
  reporter: DailyReporter;
  /**
   * Deletes the bot's group prompts and short replies older than their expiry (10 minutes),
   * in every group; the app runs it every minute. Resolves to how many messages were cleaned
   * up; never rejects.
   */
  sweepGroups(): Promise<number>;
  /** Registers the command menus: everyone's, the admins' and the group administrators'. */
  registerCommandMenus(): Promise<void>;
  /** Stops the giveaways' checks under way (the app is stopping: they are not waited for). */
  stopGiveaways(): void;
  /**
   * Once nothing holds purchases any more, tells those who met the pause (as /resume does):
   * for decisions made outside the chat (the admins' app).
   */
  purchasesReopened(): Promise<void>;
  /** Giveaways being sent, as their admins see them (the app's start shows resumed ones). */
  giveawaySending: GiveawaySending;
  /**
   * At start, after a restore from a backup: tells the admins what it stopped (`onTold` once
   * the first has it) and shows its giveaways, stopped for good, on their progress messages.
   */
  announceRestore(notice: RestoreNotice, onTold: () => void): Promise<void>;
}

/** Builds the bot without starting it. */
export function createBot(deps: BotDeps): GiftBot {
  const bot = newGrammyBot(deps);
  const { services, settings, i18n, groupAdmins, accessParts, now } = buildServices(deps);
  const notifier = new AdminNotifier({
    api: bot.api,
    admins: [...services.admins],
    desk: deps.desk,
    records: deps.records,
    stores: deps.stores,
    i18n,
    settings,
    alerts: deps.alerts,
    walletAddress: deps.wallet?.address,
    explorerUrl: deps.explorerUrl,
    logger: deps.logger,
    retry: deps.adminMessageRetry,
    names: services.people,
  });
  notifier.listen();
  tellSettlements(deps.desk, bot.api, services);
  const reporter = new DailyReporter({
    api: bot.api,
    admins: [...services.admins],
    records: deps.records,
    i18n,
    settings,
    hourUtc: deps.reportHourUtc,
    clock: now,
    stars: starsOfDay(deps.desk, deps.starTopUps),
    logger: deps.logger,
  });
  const prompts = new GroupPromptStore(deps.stores);

  const giveaways = giveawayDeps(deps, bot, { i18n, settings, now });
  const giveawaySending = giveaways.sending;

  const safe = installMiddleware(bot, services, deps);
  safe.use(giveawayConversation(services, giveaways));
  installFeatures(safe, services, [
    adminCommandsFeature(services, {
      access: deps.access,
      notifier,
      groupAdmins,
      wallet: deps.wallet ?? {},
    }),
    groupPremiumFeature(services, {
      ...accessParts,
      prompts,
      ...(deps.groupRefusalCooldownMs !== undefined
        ? { refusalCooldownMs: deps.groupRefusalCooldownMs }
        : {}),
    }),
    giveawayFeature(services, giveaways),
    giveawayBatchFeature(services, giveawaySending),
    dashboardFeature(services, deps.adminAppUrl),
    topUpFeature(services, { starTopUps: deps.starTopUps, access: deps.access }),
  ]);
  return {
    bot,
    services,
    notifier,
    reporter,
    sweepGroups: () => sweepGroups(bot, prompts, services),
    registerCommandMenus: async () => {
      await registerCommands(bot);
      await registerAdminCommands(bot.api, services, { stars: deps.starTopUps !== undefined });
      if (deps.adminAppUrl !== undefined) {
        await registerDashboardButtons(bot.api, services, deps.adminAppUrl);
      }
    },
    stopGiveaways: () => giveaways.board.stopAll(),
    purchasesReopened: async () => {
      await tellIfReopened(bot.api, services);
    },
    giveawaySending,
    announceRestore: async (notice, onTold) => {
      announceRestore(notifier, notice, onTold);
      await giveawaySending.showBatches(notice.stoppedBatches.map((batch) => batch.id));
    },
  };
}

/** A giveaway's parts: the open giveaways' board, GIVEAWAY_MAX, and the sending's display. */
function giveawayDeps(
  deps: BotDeps,
  bot: Bot<BotContext>,
  parts: { i18n: ReturnType<typeof createI18n>; settings: UserSettingsStore; now: () => number },
): GiveawayDeps {
  const { i18n, settings, now } = parts;
  return {
    sending: new GiveawaySending({
      runner: deps.giveawayRunner,
      api: bot.api,
      i18n,
      settings,
      now,
      logger: deps.logger,
      ...(deps.giveaway?.later ? { later: deps.giveaway.later } : {}),
      ...(deps.giveaway?.editIntervalMs !== undefined
        ? { editIntervalMs: deps.giveaway.editIntervalMs }
        : {}),
    }),
    board: new GiveawayBoard(now),
    maxRecipients: deps.giveaway?.maxRecipients ?? GIVEAWAY_DEFAULTS.maxRecipients,
    download: { apiRoot: deps.apiRoot, fetch: deps.fetch },
    later: deps.giveaway?.later ?? realLater,
    editIntervalMs: deps.giveaway?.editIntervalMs,
  };
}

/** What every feature is handed (see {@link BotServices}), and the parts they share. */
function buildServices(deps: BotDeps) {
  const settings = new UserSettingsStore(deps.stores);
  const i18n = createI18n(settings);
  const now = deps.now ?? Date.now;
  const groupAdmins = new GroupAdminChecker({
    now,
    ...(deps.groupAdminCacheMs !== undefined ? { ttlMs: deps.groupAdminCacheMs } : {}),
  });
  const accessParts = { access: deps.access, groupAdmins, contact: deps.contact };
  const services: BotServices = {
    desk: deps.desk,
    records: deps.records,
    i18n,
    settings,
    summaries: new OpenSummaryStore(deps.stores),
    canBuy: deps.canBuy ?? createAccessCheck(accessParts),
    admins: new Set(deps.access.adminIds),
    walletAddress: deps.wallet?.address,
    defaultPaymentMethod: deps.defaultPaymentMethod,
    floods: new FloodBoard(now),
    explorerUrl: deps.explorerUrl,
    now,
    logger: deps.logger,
    people: new KnownPeople(deps.stores),
    background: new BackgroundWork(),
    backups: deps.backups,
    balanceShownTo: (userId) =>
      balanceShownTo(
        { showBalanceTo: deps.showBalanceTo, publicPurchases: deps.access.publicPurchases },
        deps.access.adminIds.includes(userId),
      ),
    costsShownIn: (requester) =>
      balanceShownTo(
        { showBalanceTo: deps.showBalanceTo, publicPurchases: deps.access.publicPurchases },
        // A group's members read it, whoever asked: the setting for buyers decides.
        requester.chatType === "private" && deps.access.adminIds.includes(requester.userId),
      ),
    pauseWaiters: new PauseWaiters(),
  };
  return { services, settings, i18n, groupAdmins, accessParts, now };
}

/** The grammY bot itself: token, API root, fetch, and the button-answer courtesy. */
function newGrammyBot(deps: BotDeps): Bot<BotContext> {
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
  bot.api.config.use(fitToTelegram);
  bot.api.config.use(async (prev, method, payload, signal) => {
    const response = await prev(method, payload, signal);
    if (method !== "answerCallbackQuery" || response.ok) return response;
    deps.logger.debug({ description: response.description }, "could not answer a button press");
    return { ok: true, result: true } as unknown as typeof response;
  });
  return bot;
}

/**
 * What every update passes before the features: ordering, its logger, i18n, conversations.
 * Returns the error boundary the features go inside.
 */
function installMiddleware(
  bot: Bot<BotContext>,
  services: BotServices,
  deps: BotDeps,
): Composer<BotContext> {
  const { i18n, settings } = services;
  // One chat's updates in order, different chats concurrently, whatever runs the bot (runner,
  // webhook or a test calling handleUpdate concurrently). It must come before conversations:
  // they have no locking of their own.
  const fairShare = deps.fairShare ?? FAIR_SHARE_DEFAULTS;
  // A storm of one person's updates is dropped as it arrives, before it costs any work.
  bot.use(
    floodGuard<BotContext>({
      perWindow: fairShare.updatesPerUser,
      windowMs: fairShare.updatesWindowSeconds * 1000,
      board: services.floods,
      slowDownText: async (ctx, seconds) =>
        i18n.t(await negotiateLocale(ctx, settings), "flood-slow-down", { seconds }),
      now: services.now,
      logger: deps.logger,
    }),
  );
  bot.use(sequentialize<BotContext>((ctx) => ctx.chat?.id.toString()));
  bot.use(async (ctx, next) => {
    // Built on first use: most updates log nothing, and a child logger is not free.
    let log: Logger | undefined;
    Object.defineProperty(ctx, "log", {
      get: () =>
        (log ??= deps.logger.child({
          updateId: ctx.update.update_id,
          chatId: ctx.chat?.id,
          userId: ctx.from?.id,
        })),
      configurable: true,
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
      await settings.noteTelegramLanguage(from.id, from.language_code);
    }
    // Who this is, for the admins' lists (written only when the name changed): only people
    // who may use the bot where they write. A stranger's name is not kept (their first
    // message is answered with their id, which is all an admin needs to /allow them).
    if (from !== undefined && (await mayUseHere(deps.access, from.id, ctx.chat))) {
      services.people.note(from);
    }
    // An allowed group's title, for /allowed (a group from ALLOWED_CHAT_IDS has no other).
    const chat = ctx.chat;
    if (chat?.type === "group" || chat?.type === "supergroup") {
      if (await deps.access.isChatAllowed(chat.id)) services.people.noteGroup(chat);
    }
    await next();
  });
  safe.use(i18n.middleware());
  // Strangers get one answer per cooldown, and nothing they send reaches a feature.
  safe.use(
    strangerCooldown({
      mayBuy: (userId) => deps.access.mayBuy(userId),
      cooldownMs: fairShare.strangerCooldownSeconds * 1000,
      now: services.now,
    }),
  );
  safe.use(
    conversations<BotContext, FlowContext>({
      storage: createConversationStorage(deps.stores),
      // Calls made inside a conversation go through an Api of its own (stack facts): the
      // length guard is installed on each.
      plugins: [
        i18n.middleware(),
        async (ctx, next) => {
          ctx.api.config.use(fitToTelegram);
          await next();
        },
      ],
    }),
  );
  return safe;
}

/**
 * The features, side by side: the private flows and their commands, then the admins' commands
 * and group gifting, then the catch-all answers (which must come last).
 */
function installFeatures(
  composer: Composer<BotContext>,
  services: BotServices,
  adminAndGroup: Composer<BotContext>[],
): void {
  composer.use(giftConversations(services));
  composer.use(startFeature(services));
  composer.use(cancelFeature(services));
  composer.use(languageFeature(services));
  composer.use(historyFeature(services));
  composer.use(giftFeature(services));
  composer.use(summaryFeature(services));
  for (const feature of adminAndGroup) composer.use(feature);
  composer.use(fallbackFeature());
}

/** Deletes expired group prompts and short replies; never rejects. */
async function sweepGroups(
  bot: Bot<BotContext>,
  prompts: GroupPromptStore,
  services: BotServices,
): Promise<number> {
  try {
    return await sweepGroupMessages(bot.api, prompts, {
      before: services.now() - GROUP_PROMPT_TTL_MS,
      logger: services.logger,
    });
  } catch (error) {
    services.logger.warn({ error }, "could not sweep group messages");
    return 0;
  }
}

/** Whether this person may use the bot in this chat: an admin, a buyer, or an allowed group. */
async function mayUseHere(
  access: Pick<AccessList, "mayBuy" | "isChatAllowed">,
  userId: number,
  chat: { id: number; type: string } | undefined,
): Promise<boolean> {
  if (await access.mayBuy(userId)) return true;
  return chat !== undefined && chat.type !== "private" && (await access.isChatAllowed(chat.id));
}
