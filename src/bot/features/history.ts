/** /history: the person's own gifts, newest first, with their status. */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import type { BotServices } from "../services.js";
import { historyLine } from "../purchase-views.js";

/** How many gifts /history lists. */
const HISTORY_LIMIT = 10;

export function historyFeature(services: BotServices): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("history", async (ctx) => {
    const intents = (
      await services.records.recent({ limit: HISTORY_LIMIT * 2, userId: ctx.from.id })
    )
      // Drafts that were never confirmed are noise in a person's history.
      .filter((intent) => intent.status !== "draft")
      .slice(0, HISTORY_LIMIT);
    if (intents.length === 0) {
      await ctx.reply(ctx.t("history-empty"));
      return;
    }
    const locale = await ctx.i18n.getLocale();
    // What gifts cost is the operator's figure (SHOW_BALANCE_TO), in /history as on a receipt.
    const showCost = services.balanceShownTo(ctx.from.id);
    const lines = intents.map((intent) => historyLine(ctx.t, locale, intent, showCost));
    await ctx.reply([ctx.t("history-title"), "", ...lines].join("\n"));
  });
  return composer;
}
