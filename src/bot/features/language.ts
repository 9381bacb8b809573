/**
 * /language: a picker; the choice is remembered and wins over the Telegram language. Private
 * chats only: a group is no place for one member's settings menu.
 */
import { Composer } from "grammy";
import { decodeLanguage, LANG_DATA } from "../callback-data/lang.js";
import type { BotContext } from "../context.js";
import { languageKeyboard } from "../keyboards/index.js";
import { decodedPress } from "../press.js";
import type { BotServices } from "../services.js";

export function languageFeature(services: BotServices): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("language", async (ctx) => {
    await ctx.reply(ctx.t("language-choose"), { reply_markup: languageKeyboard(ctx.t) });
  });
  composer.callbackQuery(
    LANG_DATA,
    decodedPress(decodeLanguage, async (ctx, locale) => {
      await services.settings.setLanguage(ctx.from.id, locale);
      await ctx.i18n.renegotiateLocale();
      await ctx.answerCallbackQuery({ text: ctx.t("language-changed") });
      await ctx.editMessageText(ctx.t("language-changed"));
    }),
  );
  return composer;
}
