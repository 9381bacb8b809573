/**
 * The command menu per language, for setMyCommands. Descriptions come from the locale files
 * like every other text.
 */

import { I18n } from "@grammyjs/i18n";
import type { Api } from "grammy";
import type { BotCommand } from "grammy/types";
import { LOCALES, type Locale } from "./callback-data/lang.js";
import { DEFAULT_LOCALE, localesDirectory } from "./i18n.js";

/** Commands a person has in a private chat, in menu order. */
export const PRIVATE_COMMANDS = [
  "start",
  "stars",
  "premium",
  "history",
  "language",
  "cancel",
  "help",
] as const;

let translations: I18n | undefined;

/** Translation without a context (command descriptions), loaded once. */
function translator(): I18n {
  if (translations === undefined) {
    const i18n = new I18n({
      defaultLocale: DEFAULT_LOCALE,
      fluentBundleOptions: { useIsolating: false },
    });
    for (const locale of LOCALES) {
      i18n.loadLocaleSync(locale, { filePath: `${localesDirectory()}/${locale}.ftl` });
    }
    translations = i18n;
  }
  return translations;
}

/** The command list in one language. */
export function commandsFor(locale: Locale): BotCommand[] {
  const i18n = translator();
  return PRIVATE_COMMANDS.map((command) => ({
    command,
    description: i18n.t(locale, `command-${command}`),
  }));
}

/**
 * Registers the command menu: English as the default for every language, then one list per
 * locale we speak (Telegram picks it by the person's app language).
 */
export async function registerCommands(bot: { api: Api }): Promise<void> {
  await bot.api.setMyCommands(commandsFor(DEFAULT_LOCALE), {
    scope: { type: "all_private_chats" },
  });
  for (const locale of LOCALES) {
    await bot.api.setMyCommands(commandsFor(locale), {
      scope: { type: "all_private_chats" },
      language_code: locale,
    });
  }
}
