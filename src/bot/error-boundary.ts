/**
 * What happens when a handler throws: the person gets a short apology in their language, and
 * the error is logged with the update, chat and user ids, as the per-update logger logs them.
 * The context is never logged: grammY's BotError holds it, and `ctx.api` holds the bot token.
 */
import type { I18n } from "@grammyjs/i18n";
import type { BotError, Context, NextFunction } from "grammy";
import type { Logger } from "../shared/logger.js";
import type { BotContext } from "./context.js";
import { negotiateLocale, type UserSettingsStore } from "./i18n.js";

export function createErrorHandler(
  logger: Logger,
  i18n: I18n<Context>,
  settings: UserSettingsStore,
) {
  return async (botError: BotError<BotContext>, _next: NextFunction): Promise<void> => {
    const ctx = botError.ctx;
    logger.error(
      {
        updateId: ctx.update.update_id,
        chatId: ctx.chat?.id,
        userId: ctx.from?.id,
        error: botError.error,
      },
      "update handler failed",
    );
    const text = i18n.t(await negotiateLocale(ctx, settings), "error-generic");
    // A press may already have been answered before the failure: answering is best effort,
    // the message in the chat is what the person surely sees.
    if (ctx.callbackQuery !== undefined) {
      await ctx.answerCallbackQuery({ text }).catch(() => undefined);
    }
    try {
      if (ctx.chat !== undefined) await ctx.reply(text);
    } catch (error) {
      logger.warn({ updateId: ctx.update.update_id, error }, "could not apologise");
    }
  };
}
