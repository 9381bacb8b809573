/**
 * The bot's real translations (the locale files through @grammyjs/i18n), for tests of texts
 * built outside an update: one translator per locale, on a throwaway SQLite file closed when
 * the test finishes.
 */
import { join } from "node:path";
import { onTestFinished } from "vitest";
import type { Translate } from "../../src/bot/context.js";
import { createI18n, UserSettingsStore } from "../../src/bot/i18n.js";
import { openSqliteStorage } from "../../src/storage/sqlite/open.js";
import { tempDir } from "./temp-dir.js";

export async function translators(): Promise<Record<"en" | "ru", Translate>> {
  const storage = await openSqliteStorage(join(tempDir(), "db.sqlite"));
  onTestFinished(() => storage.close());
  const i18n = createI18n(new UserSettingsStore(storage.keyValues));
  const t =
    (locale: string): Translate =>
    (key, variables) =>
      i18n.t(locale, key, variables);
  return { en: t("en"), ru: t("ru") };
}
