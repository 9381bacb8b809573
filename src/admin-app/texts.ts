/**
 * The admin's language and the page's texts in it, from `locales/` through the bot's i18n.
 */
import { PREMIUM_DURATIONS } from "../gifts/catalogue.js";
import type { AppUser } from "./init-data.js";
import { PAGE_TEXT_KEYS, type PageTexts } from "./text-keys.js";
import type { AppTexts } from "./types.js";

/** The admin's language: their /language choice, else their app's, else the default. */
export async function localeOf(user: AppUser, texts: AppTexts): Promise<string> {
  const chosen = await texts.preferred(user.id);
  if (chosen !== undefined && texts.locales.includes(chosen)) return chosen;
  const fromApp = user.languageCode?.toLowerCase().split("-")[0];
  if (fromApp !== undefined && texts.locales.includes(fromApp)) return fromApp;
  return texts.locales[0] ?? "en";
}

/**
 * A Premium gift's name for each duration sold, as the chat names it (Fluent's plural rules
 * pick "month" or "months": the page has no Fluent of its own).
 */
export function premiumNames(texts: AppTexts, locale: string): Record<string, string> {
  return Object.fromEntries(
    PREMIUM_DURATIONS.map((months) => [
      String(months),
      texts.t(locale, "gift-premium", { months }),
    ]),
  );
}

/** Every text the page shows, in `locale` (a `{ $n }` left as `{n}` for the page to fill). */
export function pageTexts(texts: AppTexts, locale: string): PageTexts {
  return Object.fromEntries(
    PAGE_TEXT_KEYS.map((key) => [key, texts.t(locale, key, { n: "{n}" })]),
  ) as PageTexts;
}
