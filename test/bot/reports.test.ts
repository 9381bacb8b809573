import { I18n } from "@grammyjs/i18n";
import type { Context } from "grammy";
import { describe, expect, it } from "vitest";
import type { Translate } from "../../src/bot/context.js";
import { localesDirectory } from "../../src/bot/i18n.js";
import { type DailyReport, dailyReportText } from "../../src/bot/reports/daily-report.js";

function translator(locale: "en" | "ru"): Translate {
  const i18n = new I18n<Context>({
    defaultLocale: "en",
    fluentBundleOptions: { useIsolating: false },
  });
  i18n.loadLocaleSync(locale, { filePath: `${localesDirectory()}/${locale}.ftl` });
  return (key, variables) => i18n.t(locale, key, variables);
}

const report: DailyReport = {
  day: "2026-11-22",
  byStatus: { succeeded: 3, rejected: 2, unconfirmed: 1 },
  starsBought: 150,
  premiumGifts: 1,
  premiumMonths: 6,
  spent: [
    { currency: "usdt", amount: "17.5", purchases: 3 },
    { currency: "ton", amount: "0.1875", purchases: 1 },
  ],
  unmeasured: 1,
  balanceStart: { ton: "100", usdt: "1000" },
  balanceEnd: { ton: "99.8125", usdt: "982.5" },
  limitsUsed: { stars: 150, premium: 1 },
  refusals: [
    { reason: "PRICE_GUARD", count: 2 },
    { reason: "", count: 1 },
  ],
  breakerOpenings: 0,
  unconfirmedNow: 1,
  limits: { starsPerBotDay: 10_000, premiumPerBotDay: 5 },
};

describe("the daily report's text", () => {
  it("says every figure of the day in English", () => {
    const text = dailyReportText(translator("en"), "en", report);
    expect(text).toContain("Daily report for 2026-11-22");
    expect(text).toContain("6 purchases sent");
    expect(text).toContain("• delivered: 3");
    expect(text).toContain("• refused, nothing spent: 2");
    expect(text).toContain("Bought: 150 stars, one Premium gift (6 months)");
    expect(text).toContain("Spent: 17.5 USDT (measured on 3 purchases)");
    expect(text).toContain("Spent: 0.1875 TON (measured on one purchase)");
    expect(text).toContain("One delivered purchase has no measured cost");
    expect(text).toContain("start of the day: 100 TON, 1,000 USDT");
    expect(text).toContain("end of the day: 99.8125 TON, 982.5 USDT");
    expect(text).toContain("Unknown outcomes waiting for a check now: 1");
    expect(text).toContain("150 of 10,000 stars, 1 of 5 Premium gifts");
    expect(text).toContain("• PRICE_GUARD: 2");
    expect(text).toContain("• no reason given: 1");
    expect(text).toContain("Purchases paused by themselves after the service's refusals: never");
  });

  it("speaks Russian to a Russian admin, and says what is not known", () => {
    const text = dailyReportText(translator("ru"), "ru", {
      ...report,
      spent: [],
      unmeasured: 0,
      balanceStart: undefined,
      refusals: [],
      unconfirmedNow: 0,
      breakerOpenings: 2,
    });
    expect(text).toContain("Отчёт за 2026-11-22");
    expect(text).toContain("измеренных стоимостей нет");
    expect(text).toContain("Баланс на начало дня: неизвестен");
    expect(text).toContain("Отказы сервиса: нет");
    expect(text).toContain("приостанавливались автоматически после отказов сервиса: 2 раза");
    expect(text).not.toMatch(/report-|cost-|\{ \$/);
  });
});
