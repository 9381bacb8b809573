/**
 * The daily report's delivery: once a day, at REPORT_HOUR_UTC or later, every admin gets the
 * report of the UTC day before, in their language. Which admin got which day's report is
 * recorded in the database before the message goes out (and the mark taken back when sending
 * fails), so a restart, a second check in the same hour or a second process never sends a day
 * twice, and an hour missed while the bot was down is made up at the next start.
 */
import type { I18n, TranslationVariables } from "@grammyjs/i18n";
import type { Api, Context } from "grammy";
import { utcDay } from "../../shared/utc-day.js";
import type { Logger } from "../../shared/logger.js";
import type { PurchaseRecords } from "../../purchases/records.js";
import type { Translate } from "../context.js";
import { isPassingTelegramFailure } from "../admin-notifications/messenger.js";
import { DEFAULT_LOCALE, type UserSettingsStore } from "../i18n.js";
import { type DailyReport, dailyReportText } from "./daily-report.js";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface DailyReporterOptions {
  api: Api;
  admins: readonly number[];
  records: PurchaseRecords;
  i18n: I18n<Context>;
  settings: UserSettingsStore;
  /** REPORT_HOUR_UTC; undefined: no reports. */
  hourUtc: number | undefined;
  clock: () => number;
  logger: Logger;
  /** The bot's own Stars now and topped up in [from, to) (Premium through Telegram). */
  stars?: ((from: number, to: number) => Promise<DailyReport["stars"]>) | undefined;
}

/**
 * The UTC day a report is due for at `now`: the day before, once today's report hour has
 * come; undefined before it.
 */
export function dueReportDay(now: number, hourUtc: number): number | undefined {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return now >= today + hourUtc * HOUR_MS ? today - DAY_MS : undefined;
}

export class DailyReporter {
  readonly #options: DailyReporterOptions;
  #running: Promise<number> | undefined;

  constructor(options: DailyReporterOptions) {
    this.#options = options;
  }

  /**
   * Sends the report that is due to every admin who has not had it yet; resolves to how many
   * were sent. Calls while one is running share it. Never rejects.
   */
  sendDue(): Promise<number> {
    this.#running ??= this.#send()
      .catch((err: unknown) => {
        this.#options.logger.error({ err }, "daily report failed");
        return 0;
      })
      .finally(() => {
        this.#running = undefined;
      });
    return this.#running;
  }

  /** Resolves when a report being sent has gone out (shutdown waits for it). */
  async idle(): Promise<void> {
    await this.#running;
  }

  async #send(): Promise<number> {
    const { hourUtc, records, clock } = this.#options;
    if (hourUtc === undefined) return 0;
    const dayStart = dueReportDay(clock(), hourUtc);
    if (dayStart === undefined) return 0;
    // Asked every minute once the hour has come: the day's figures are worked out only while
    // some admin still waits for them.
    const day = utcDay(dayStart);
    const waiting = [];
    for (const adminId of this.#options.admins) {
      if (!(await records.reportSent(day, adminId))) waiting.push(adminId);
    }
    if (waiting.length === 0) return 0;
    const figures = await records.dayFigures(dayStart);
    const limits = records.limits();
    const report = {
      ...figures,
      unconfirmedNow: (await records.status()).unconfirmed,
      stars: await this.#options.stars?.(dayStart, dayStart + DAY_MS),
      limits: { starsPerBotDay: limits.starsPerBotDay, premiumPerBotDay: limits.premiumPerBotDay },
    };
    let sent = 0;
    for (const adminId of this.#options.admins) {
      if (!(await records.markReportSent(figures.day, adminId))) continue;
      const locale = (await this.#options.settings.preferredLanguage(adminId)) ?? DEFAULT_LOCALE;
      const t: Translate = (key: string, variables?: TranslationVariables) =>
        this.#options.i18n.t(locale, key, variables);
      try {
        await this.#options.api.sendMessage(adminId, dailyReportText(t, locale, report));
        sent++;
      } catch (error) {
        // Telegram unreachable or busy: the next check (a minute later) tries again. An admin
        // who blocked the bot or never opened it fails the same way every time: that day's
        // report stays marked, rather than a warning every minute for the rest of the day.
        const passing = isPassingTelegramFailure(error);
        if (passing) await records.unmarkReportSent(figures.day, adminId);
        this.#options.logger.warn(
          { adminId, err: error, willRetry: passing },
          "could not send the daily report",
        );
      }
    }
    if (sent > 0)
      this.#options.logger.info({ day: figures.day, admins: sent }, "daily report sent");
    return sent;
  }
}
