/**
 * Everything access control and administration adds to the bot, behind one entry point for
 * the composition root:
 *
 * ```ts
 * const admin = createAdminFeatures({ access, desk, db, alerts: config.alerts, logger,
 *   wallet: { address: config.wallet.address, version: config.wallet.effectiveVersion } });
 * const giftBot = createGiftBot({ ...deps, desk: admin.desk, canBuy: admin.canBuy,
 *   extraFeatures: admin.extraFeatures });
 * const detach = admin.attach(giftBot);   // before desk.recoverInterrupted()
 * await registerAdminCommands(giftBot, config.access.adminIds);   // after registerCommands
 * ```
 *
 * - `canBuy`: the purchase gate (admins, buyers, public purchases, group administrators).
 * - `desk`: the same desk, whose `confirm` also checks the balance thresholds afterwards.
 * - `extraFeatures`: admin commands and buttons, and group premium gifting.
 * - `attach`: starts the admin notifications (unconfirmed purchases, low balance).
 */
import type { Middleware } from "grammy";
import type { AccessList } from "../../../access/access-list.js";
import type { Logger } from "../../../logger.js";
import type { PurchaseDesk } from "../../../purchases/types.js";
import type { Db } from "../../../storage/database.js";
import { createAccessGate } from "../../access/gate.js";
import { GroupAdminChecker } from "../../access/group-admins.js";
import { AdminNotifier, type BalanceAlerts } from "../../admin-notifications/index.js";
import type { BotContext } from "../../context.js";
import type { GiftBot } from "../../index.js";
import type { PurchaseGate } from "../../purchase-gate.js";
import type { BotServices } from "../../services.js";
import { GROUP_PROMPT_TTL_MS, groupPremiumFeature, sweepGroupMessages } from "../group/premium.js";
import { GroupPromptStore } from "../group/prompts.js";
import { adminCommandsFeature } from "./commands.js";
import type { WalletInfo } from "./views.js";

export type { BalanceAlerts } from "../../admin-notifications/index.js";
export { registerAdminCommands } from "./command-menu.js";
export { GROUP_REFUSAL_COOLDOWN_MS } from "../group/refusal-throttle.js";
export type { WalletInfo } from "./views.js";

export interface AdminFeaturesOptions {
  /** Admins, buyers and groups (src/access). */
  access: AccessList;
  /** The desk the rest of the app uses; `AdminFeatures.desk` wraps it. */
  desk: PurchaseDesk;
  /** The bot's database (kv store: group prompts, what admins were already told). */
  db: Db;
  /** LOW_BALANCE_TON / LOW_BALANCE_USDT (Config.alerts). */
  alerts?: BalanceAlerts | undefined;
  /** The paying wallet, shown by /balance (Config.wallet.address / effectiveVersion). */
  wallet?: WalletInfo | undefined;
  /** Whom strangers are told to ask for access (ADMIN_CONTACT), e.g. `@shop_support`. */
  contact?: string | undefined;
  /** How long a group administrator check is reused before asking Telegram again; 30 s. */
  groupAdminCacheMs?: number;
  /**
   * At most one refusal reply per group in this window (a crowd of members trying /premium
   * gets one answer); default GROUP_REFUSAL_COOLDOWN_MS, 30 s.
   */
  groupRefusalCooldownMs?: number;
  /** The clock (tests pass the desk's). */
  now?: () => number;
  logger: Logger;
}

export interface AdminFeatures {
  /** Pass as `BotDeps.canBuy`. */
  canBuy: PurchaseGate;
  /** Pass as `BotDeps.desk`: `confirm` checks the balance thresholds after each purchase. */
  desk: PurchaseDesk;
  /** Pass as `BotDeps.extraFeatures`. */
  extraFeatures: (services: BotServices) => Middleware<BotContext>[];
  /**
   * Call once with the built bot, before `desk.recoverInterrupted()`: admins are then told
   * about every purchase that ends unconfirmed. Returns a function that stops that.
   */
  attach(bot: GiftBot): () => void;
  /** Resolves when the admin messages started so far are sent (tests, shutdown). */
  idle(): Promise<void>;
  /**
   * Deletes the bot's group prompts and short replies older than their expiry (10 minutes),
   * in every group. Call it on an interval (the app's minute timer) once `attach` ran; the
   * group feature also does this for a group at its next /premium or /cancel. Resolves to how
   * many messages were cleaned up; never rejects.
   */
  sweepGroups(): Promise<number>;
}

export function createAdminFeatures(options: AdminFeaturesOptions): AdminFeatures {
  const groupAdmins = new GroupAdminChecker({
    ...(options.groupAdminCacheMs !== undefined ? { ttlMs: options.groupAdminCacheMs } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  const gate = { access: options.access, groupAdmins, contact: options.contact };
  const prompts = new GroupPromptStore(options.db);
  let notifier: AdminNotifier | undefined;
  let attached: GiftBot | undefined;

  function notifierFor(services: BotServices): AdminNotifier {
    notifier ??= new AdminNotifier({
      admins: [...services.admins],
      desk: options.desk,
      db: options.db,
      i18n: services.i18n,
      settings: services.settings,
      alerts: options.alerts,
      logger: options.logger,
    });
    return notifier;
  }

  const desk = wrapDesk(options.desk, () => notifier?.afterPurchase());

  return {
    canBuy: createAccessGate(gate),
    desk,
    extraFeatures: (services) => [
      adminCommandsFeature(services, {
        access: options.access,
        notifier: notifierFor(services),
        groupAdmins,
        wallet: options.wallet ?? {},
      }),
      groupPremiumFeature(services, {
        ...gate,
        prompts,
        ...(options.groupRefusalCooldownMs !== undefined
          ? { refusalCooldownMs: options.groupRefusalCooldownMs }
          : {}),
      }),
    ],
    attach: (bot) => {
      attached = bot;
      const detach = notifierFor(bot.services).attach(bot.bot.api);
      return () => {
        detach();
        attached = undefined;
      };
    },
    idle: async () => notifier?.idle(),
    sweepGroups: async () => {
      const bot = attached;
      if (bot === undefined) return 0;
      try {
        return await sweepGroupMessages(bot.bot.api, prompts, {
          before: bot.services.now() - GROUP_PROMPT_TTL_MS,
          logger: options.logger,
        });
      } catch (error) {
        options.logger.warn({ error }, "could not sweep group messages");
        return 0;
      }
    },
  };
}

/**
 * The desk with one addition: after a confirmation that sent a request (whatever its
 * outcome), `afterPurchase` runs, in the background of the person's answer. A purchase that
 * was not sent (cancelled at shutdown, refused by the client) spent nothing: no check.
 */
function wrapDesk(desk: PurchaseDesk, afterPurchase: () => void): PurchaseDesk {
  return new Proxy(desk, {
    get(target, property, receiver) {
      if (property === "confirm") {
        const confirm: PurchaseDesk["confirm"] = async (id, userId, confirmOptions) => {
          const result = await target.confirm(id, userId, confirmOptions);
          // Only when a request went out: refused, already-premium and not-sent spent nothing.
          if (
            result.kind !== "refused" &&
            result.kind !== "recipient_has_premium" &&
            result.kind !== "not_sent"
          ) {
            afterPurchase();
          }
          return result;
        };
        return confirm;
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
