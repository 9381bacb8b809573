/**
 * /start: the greeting and the two ways in, or, for a person who may not buy, the access
 * message with their id at once (buttons that would only refuse them are never shown).
 * /help: what the bot does.
 */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import { maxStarsWithin, MIN_STARS } from "../../gifts/catalogue.js";
import { startMenuKeyboard } from "../keyboards/index.js";
import type { BotServices } from "../services.js";

export function startFeature(services: BotServices): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const privateChat = composer.chatType("private");
  privateChat.command("start", async (ctx) => {
    // Access does not depend on the kind of gift in a private chat.
    const decision = await services.canBuy(ctx, { kind: "stars", stage: "start" });
    if (!decision.allowed) {
      await ctx.reply(decision.text ?? ctx.t("purchase-not-allowed"));
      return;
    }
    await ctx.reply(ctx.t("start-greeting", { name: ctx.from.first_name }), {
      reply_markup: startMenuKeyboard(ctx.t),
    });
  });
  privateChat.command("help", async (ctx) => {
    // The range a person can actually type: the configured per-purchase limit may be lower
    // than the service's own maximum (the flow asks within the same bounds).
    const max = maxStarsWithin(services.records.limits().starsPerPurchase);
    const help = ctx.t("help-text", { min: MIN_STARS, max });
    // Admins' commands are listed to admins only (everyone else never learns they exist).
    await ctx.reply(services.admins.has(ctx.from.id) ? `${help}\n\n${ctx.t("help-admin")}` : help);
  });
  return composer;
}
