/**
 * The admins' Mini App in the chat (src/admin-app): /dashboard answers with a button that opens
 * it, and each admin's chat gets it as its menu button. The menu button is set per admin chat
 * only, so nobody else sees it; the app itself answers admins only anyway.
 */
import { type Api, Composer, InlineKeyboard } from "grammy";
import type { BotContext } from "../../context.js";
import { DEFAULT_LOCALE } from "../../i18n.js";
import type { BotServices } from "../../services.js";

/** /dashboard for admins in their private chat; anyone else's falls through, as for /balance. */
export function dashboardFeature(
  services: BotServices,
  appUrl: string | undefined,
): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer
    .chatType("private")
    .filter((ctx) => services.admins.has(ctx.from.id))
    .command("dashboard", async (ctx) => {
      if (appUrl === undefined) {
        await ctx.reply(ctx.t("dashboard-not-configured"));
        return;
      }
      await ctx.reply(ctx.t("dashboard-open"), {
        reply_markup: new InlineKeyboard().webApp(ctx.t("dashboard-button"), appUrl),
      });
    });
  return composer;
}

/**
 * Sets the app as the menu button of each admin's chat, in that admin's language. An admin
 * who never opened the bot makes Telegram refuse their chat: skipped, the others still get it.
 */
export async function registerDashboardButtons(
  api: Api,
  services: BotServices,
  appUrl: string,
): Promise<void> {
  for (const adminId of services.admins) {
    try {
      const locale = (await services.settings.preferredLanguage(adminId)) ?? DEFAULT_LOCALE;
      await api.setChatMenuButton({
        chat_id: adminId,
        menu_button: {
          type: "web_app",
          text: services.i18n.t(locale, "dashboard-button"),
          web_app: { url: appUrl },
        },
      });
    } catch (error) {
      services.logger.warn({ adminId, err: error }, "could not set an admin's app menu button");
    }
  }
}
