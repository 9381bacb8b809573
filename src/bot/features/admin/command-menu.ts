/**
 * The command menus admins and group administrators see. Admin commands are listed only in
 * each admin's own chat (a per-chat scope), so nobody else learns they exist; /premium is
 * listed for group administrators, who are the only ones it works for in a group.
 */
import type { Api } from "grammy";
import type { BotCommand } from "grammy/types";
import { LOCALES, type Locale } from "../../callback-data/lang.js";
import { commandsFor } from "../../commands.js";
import { DEFAULT_LOCALE } from "../../i18n.js";
import type { BotServices } from "../../services.js";

/** Admin commands in menu order (each has a `command-<name>` text). */
export const ADMIN_COMMANDS = [
  "balance",
  "purchases",
  "pending",
  "pause",
  "resume",
  "allow",
  "deny",
  "allowed",
  "limits",
  "export",
  "backup",
  "giveaway",
  "dashboard",
  "topup",
  "refund",
] as const;

/** An admin's whole menu in one language: the person's commands, then the admin ones. */
function adminCommandsFor(services: BotServices, locale: Locale, stars: boolean): BotCommand[] {
  const t = (key: string) => services.i18n.t(locale, key);
  return [
    ...commandsFor(locale),
    ...ADMIN_COMMANDS.filter((command) => stars || !STARS_COMMANDS.has(command)).map((command) => ({
      command,
      description: t(`command-${command}`),
    })),
  ];
}

/** Listed only when the bot's own Stars are used (PREMIUM_VIA is not `service`). */
const STARS_COMMANDS: ReadonlySet<string> = new Set(["topup", "refund"]);

/**
 * Registers the admins' menus (per admin chat, per language) and the group administrators'
 * /premium (the admins are `services.admins`). Call at start, after registerCommands. An admin who never opened the bot makes
 * Telegram refuse their chat scope: that admin is skipped, the others still get theirs.
 */
export async function registerAdminCommands(
  api: Api,
  services: BotServices,
  options: { stars: boolean } = { stars: false },
): Promise<void> {
  for (const adminId of services.admins) {
    try {
      await api.setMyCommands(adminCommandsFor(services, DEFAULT_LOCALE, options.stars), {
        scope: { type: "chat", chat_id: adminId },
      });
      for (const locale of LOCALES) {
        await api.setMyCommands(adminCommandsFor(services, locale, options.stars), {
          scope: { type: "chat", chat_id: adminId },
          language_code: locale,
        });
      }
    } catch (error) {
      services.logger.warn({ adminId, error }, "could not set an admin's command menu");
    }
  }
  const groupMenu = (locale: Locale): BotCommand[] => [
    { command: "premium", description: services.i18n.t(locale, "command-group-premium") },
  ];
  await api.setMyCommands(groupMenu(DEFAULT_LOCALE), {
    scope: { type: "all_chat_administrators" },
  });
  for (const locale of LOCALES) {
    await api.setMyCommands(groupMenu(locale), {
      scope: { type: "all_chat_administrators" },
      language_code: locale,
    });
  }
}
