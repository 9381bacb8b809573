/**
 * At start, intents a previous process left `sending` become unconfirmed (the desk's
 * `recoverInterrupted`). The person who pressed Confirm saw "Sending…" and nothing after: they
 * must learn that the outcome is unknown and that they must not try again. Their summary message
 * is edited into that outcome when the bot still knows it; otherwise they get a new message.
 */
import type { Api } from "grammy";
import type { Translate } from "../bot/context.js";
import { DEFAULT_LOCALE } from "../bot/i18n.js";
import type { BotServices } from "../bot/services.js";
import { outcomeText } from "../bot/views.js";
import type { PurchaseIntent } from "../ledger/types.js";
import type { Logger } from "../logger.js";

/**
 * Tells each recovered intent's requester, in their saved language, that the outcome is
 * unknown. Never throws: a person who blocked the bot must not stop the bot from starting.
 */
export async function tellRequestersOutcomeUnknown(
  api: Api,
  services: BotServices,
  intents: readonly PurchaseIntent[],
  logger: Logger,
): Promise<void> {
  for (const intent of intents) {
    const { userId, chatId } = intent.requester;
    const locale = services.settings.preferredLanguage(userId) ?? DEFAULT_LOCALE;
    const t: Translate = (key, variables) => services.i18n.t(locale, key, variables);
    const text = outcomeText(t, locale, {
      kind: "unconfirmed",
      intent,
      ambiguity: {
        kind: "ambiguous",
        cause: "transport",
        detail: "interrupted while the request was in flight",
      },
    });
    const summary = services.summaries.list(chatId, userId).find((s) => s.intentId === intent.id);
    try {
      if (summary === undefined) {
        await api.sendMessage(chatId, text);
      } else {
        // Editing without reply_markup also removes the (already used) Confirm buttons.
        await api.editMessageText(chatId, summary.messageId, text).catch(async () => {
          await api.sendMessage(chatId, text);
        });
        services.summaries.remove(chatId, userId, intent.id);
      }
      logger.info({ intentId: intent.id, chatId }, "requester told the outcome is unknown");
    } catch (error) {
      logger.warn(
        {
          intentId: intent.id,
          chatId,
          err: error,
        },
        "could not tell the requester that the outcome is unknown",
      );
    }
  }
}
