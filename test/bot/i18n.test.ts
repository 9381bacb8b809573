/**
 * Languages: the settings each person keeps (kept in SQLite, remembered in memory) and the
 * translations picked per locale, from the real locale files on a real SQLite file.
 */
import { describe, expect, it } from "vitest";
import { createI18n, UserSettingsStore } from "../../src/bot/i18n.js";
import { ledgerFixture } from "../helpers/ledger.js";

describe("each person's language settings", () => {
  it("keeps a choice and Telegram's language in the database, seen by a store opened later", async () => {
    const { storage } = await ledgerFixture();
    const settings = new UserSettingsStore(storage.keyValues);
    expect(await settings.preferredLanguage(7)).toBeUndefined();
    await settings.noteTelegramLanguage(7, "ru-RU");
    expect(await settings.preferredLanguage(7)).toBe("ru");
    await settings.setLanguage(7, "en");
    expect(await settings.language(7)).toBe("en");
    expect(await settings.telegramLanguage(7)).toBe("ru");

    const reopened = new UserSettingsStore(storage.keyValues);
    expect(await reopened.language(7)).toBe("en");
    expect(await reopened.telegramLanguage(7)).toBe("ru");
    expect(await reopened.preferredLanguage(8)).toBeUndefined();
  });

  it("a choice made after the settings were read is the one used", async () => {
    const settings = new UserSettingsStore((await ledgerFixture()).storage.keyValues);
    expect(await settings.language(7)).toBeUndefined();
    await settings.setLanguage(7, "ru");
    expect(await settings.language(7)).toBe("ru");
    await settings.setLanguage(7, "en");
    expect(await settings.language(7)).toBe("en");
  });
});

describe("translations", () => {
  it("picks each locale's own text however the locales alternate, English for others", async () => {
    const i18n = createI18n(new UserSettingsStore((await ledgerFixture()).storage.keyValues));
    const english = "Cancelled. Nothing was bought.";
    const russian = "Отменено. Ничего не куплено.";
    for (let round = 0; round < 3; round++) {
      expect(i18n.t("en", "cancel-done")).toBe(english);
      expect(i18n.t("ru", "cancel-done")).toBe(russian);
      expect(i18n.t("de", "cancel-done")).toBe(english);
    }
    expect(i18n.t("ru", "start-greeting", { name: "Bea" })).toMatch(/^Здравствуйте, Bea!/);
  });
});
