/**
 * Language: the person's own choice (`/language`, remembered in SQLite) wins, then their
 * Telegram `language_code`, then English. Texts live only in `locales/*.ftl`.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { I18n } from "@grammyjs/i18n";
import { LRUCache } from "lru-cache";
import type { Context } from "grammy";
import type { KeyValue, KeyValueStores } from "../storage/types.js";
import { LOCALES, type Locale } from "./callback-data/lang.js";

export const DEFAULT_LOCALE: Locale = "en";

/**
 * Where the `.ftl` files are: the nearest `locales/` folder above this module, so it works
 * from `src/bot/` (tsx, tests) and from `dist/src/bot/` (the built bot) alike.
 */
export function localesDirectory(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(dir, "locales");
    if (existsSync(join(candidate, `${DEFAULT_LOCALE}.ftl`))) return candidate;
    dir = dirname(dir);
  }
  throw new Error("The locales folder (locales/en.ftl) was not found above src/bot.");
}

/** Maps a Telegram `language_code` (e.g. `ru`, `ru-RU`, `en-GB`) to a locale we speak. */
function localeFromLanguageCode(code: string | undefined): Locale | undefined {
  const base = code?.toLowerCase().split("-")[0];
  return LOCALES.find((l) => l === base);
}

interface UserSettings {
  /** Chosen with /language: wins over everything else. */
  language?: Locale;
  /**
   * The locale of the last Telegram `language_code` seen from the person, so messages that
   * answer no update of theirs (admin notifications) still speak their app's language.
   */
  telegramLanguage?: Locale;
}

/** People whose settings are remembered in memory; the least recently seen are read again. */
const MAX_REMEMBERED = 2_000;

/**
 * Per-person settings in the kv store: the chosen language and the last one Telegram told us.
 * Every update asks for its person's language, so the settings read are remembered in memory
 * (written through, as the bot's one process is the only writer).
 */
export class UserSettingsStore {
  readonly #store: KeyValue<UserSettings>;
  readonly #known = new LRUCache<number, UserSettings>({ max: MAX_REMEMBERED });

  constructor(stores: KeyValueStores) {
    this.#store = stores<UserSettings>("user-settings");
  }

  /**
   * Answered at once when the person's settings are in memory (every update asks, several
   * times): only a first read, from the store, is a promise.
   */
  language(userId: number): Locale | undefined | Promise<Locale | undefined> {
    const known = this.#known.get(userId);
    if (known !== undefined) return LOCALES.find((l) => l === known.language);
    return this.#read(userId).then((read) => LOCALES.find((l) => l === read.language));
  }

  /** The locale of the person's last seen Telegram `language_code`, when we speak it. */
  async telegramLanguage(userId: number): Promise<Locale | undefined> {
    const seen = (await this.#read(userId)).telegramLanguage;
    return LOCALES.find((l) => l === seen);
  }

  /**
   * The language to use when no update of the person is at hand: their choice, else the last
   * Telegram language seen, else undefined (the caller's default).
   */
  async preferredLanguage(userId: number): Promise<Locale | undefined> {
    return (await this.language(userId)) ?? (await this.telegramLanguage(userId));
  }

  /**
   * Remembers the locale of a Telegram `language_code` seen on an update. Written only when
   * it changed, so ordinary updates cost one read.
   */
  async noteTelegramLanguage(userId: number, code: string | undefined): Promise<void> {
    const locale = localeFromLanguageCode(code);
    if (locale === undefined) return;
    const current = await this.#read(userId);
    if (current.telegramLanguage === locale) return;
    await this.#write(userId, { ...current, telegramLanguage: locale });
  }

  async setLanguage(userId: number, language: Locale): Promise<void> {
    await this.#write(userId, { ...(await this.#read(userId)), language });
  }

  async #read(userId: number): Promise<UserSettings> {
    const known = this.#known.get(userId);
    if (known !== undefined) return known;
    const settings = (await this.#store.read(String(userId))) ?? {};
    this.#known.set(userId, settings);
    return settings;
  }

  async #write(userId: number, settings: UserSettings): Promise<void> {
    await this.#store.write(String(userId), settings);
    this.#known.set(userId, settings);
  }
}

/**
 * The i18n plugin, negotiating from the saved choice. The same instance's middleware is used
 * outside and inside conversations, so a conversation speaks the person's language too.
 */
export function createI18n(settings: UserSettingsStore): I18n<Context> {
  // The plugin negotiates in the global middleware, again in the conversations' copy of it, and
  // on every getLocale(): each a lookup in the settings the store remembers in memory.
  const i18n = new I18n<Context>({
    defaultLocale: DEFAULT_LOCALE,
    // Without this every inserted value is wrapped in invisible U+2068/U+2069 marks.
    fluentBundleOptions: { useIsolating: false },
    localeNegotiator: (ctx) => negotiateLocale(ctx, settings),
  });
  for (const locale of LOCALES) {
    i18n.loadLocaleSync(locale, { filePath: `${localesDirectory()}/${locale}.ftl` });
  }
  rememberBundleMatches(i18n);
  return i18n;
}

/** The part of the plugin's Fluent wrapper (@grammyjs/i18n 1.1) that picks a locale's bundles. */
interface BundleMatching {
  matchBundles?: (locales: string[]) => Set<unknown>;
}

/**
 * The plugin picks the bundles for a locale with Fluent's language negotiation on every
 * translation (a dozen per update), though the bundles never change once loaded: the answer
 * for each locale list is remembered. Should a later version of the plugin no longer have
 * this method, translations still work, only without the memo.
 */
function rememberBundleMatches(i18n: I18n<Context>): void {
  const fluent = i18n.fluent as unknown as BundleMatching;
  const match = fluent.matchBundles;
  if (typeof match !== "function") return;
  const known = new Map<string, Set<unknown>>();
  fluent.matchBundles = (locales) => {
    const key = locales.join("\n");
    let bundles = known.get(key);
    if (bundles === undefined) {
      bundles = match.call(fluent, locales);
      // Locales come from LOCALES or the default, so a handful; the cap guards against surprise.
      if (known.size < 32) known.set(key, bundles);
    }
    return bundles;
  };
}

/** The locale for this update's person. */
export function negotiateLocale(
  ctx: Context,
  settings: UserSettingsStore,
): Locale | Promise<Locale> {
  const userId = ctx.from?.id;
  const saved = userId === undefined ? undefined : settings.language(userId);
  const pick = (choice: Locale | undefined): Locale =>
    choice ?? localeFromLanguageCode(ctx.from?.language_code) ?? DEFAULT_LOCALE;
  return saved instanceof Promise ? saved.then(pick) : pick(saved);
}
