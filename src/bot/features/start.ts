/** /start: the greeting and the two ways in. /help: what the bot does. */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import { startMenuKeyboard } from "../keyboards/index.js";

export function startFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const privateChat = composer.chatType("private");
  privateChat.command("start", async (ctx) => {
    await ctx.reply(ctx.t("start-greeting", { name: ctx.from.first_name }), {
      reply_markup: startMenuKeyboard(ctx.t),
    });
  });
  privateChat.command("help", async (ctx) => {
    await ctx.reply(ctx.t("help-text"));
  });
  return composer;
}
