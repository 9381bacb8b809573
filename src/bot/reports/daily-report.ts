/**
 * The admins' daily report as text: a pure function of the day's figures (src/ledger/accounts.ts)
 * and a translator, so what it says can be tested without a bot, a clock or a database.
 */
import type { DayFigures } from "../../ledger/accounts.js";
import type { BalanceSnapshot, IntentStatus } from "../../ledger/types.js";
import type { Translate } from "../context.js";
import { quoteServiceText } from "../../service/quote.js";
import { formatDecimal } from "../format.js";

/** Everything one report says: the day's figures and the state at the time of the report. */
export interface DailyReport extends DayFigures {
  /** Purchases waiting for an admin's check now, whatever day they were sent. */
  unconfirmedNow: number;
  /** The bot's daily limits, to show the day's use against. */
  limits: { starsPerBotDay: number; premiumPerBotDay: number };
  /**
   * The bot's own Telegram Stars (Premium through Telegram): the balance now, and what admins
   * topped up that day; absent when PREMIUM_VIA is `service`.
   */
  stars?: { now: number | undefined; stars: number; count: number } | undefined;
}

/** The statuses a report lists, in this order (drafts never left, so they are not purchases). */
const REPORTED_STATUSES: readonly IntentStatus[] = [
  "succeeded",
  "delivered",
  "rejected",
  "unconfirmed",
  "not_delivered",
  "sending",
];

/** The report's text in the translator's language. */
export function dailyReportText(t: Translate, locale: string, report: DailyReport): string {
  const number = (value: string): string => formatDecimal(locale, value) ?? value;
  const sent = REPORTED_STATUSES.reduce((n, s) => n + (report.byStatus[s] ?? 0), 0);
  const lines = [t("report-title", { day: report.day }), t("report-purchases", { count: sent })];
  for (const status of REPORTED_STATUSES) {
    const count = report.byStatus[status];
    if (count) lines.push(t("report-status-line", { status: t(`status-${status}`), count }));
  }
  lines.push(
    t("report-bought", {
      stars: report.starsBought,
      gifts: report.premiumGifts,
      months: report.premiumMonths,
    }),
  );
  if (report.spent.length === 0) lines.push(t("report-spent-none"));
  for (const spent of report.spent) {
    lines.push(
      t("report-spent", {
        amount: number(spent.amount),
        currency: spent.currency.toUpperCase(),
        count: spent.purchases,
      }),
    );
  }
  if (report.unmeasured > 0) lines.push(t("report-unmeasured", { count: report.unmeasured }));
  lines.push(balanceLine(t, number, "report-balance-start", report.balanceStart));
  lines.push(balanceLine(t, number, "report-balance-end", report.balanceEnd));
  const stars = report.stars;
  if (stars !== undefined) {
    const added = { added: stars.stars, count: stars.count };
    lines.push(
      stars.now === undefined
        ? t("report-stars-unknown", added)
        : t("report-stars", { ...added, stars: stars.now }),
    );
  }
  lines.push(
    report.unconfirmedNow > 0
      ? t("report-unconfirmed", { count: report.unconfirmedNow })
      : t("report-unconfirmed-none"),
  );
  lines.push(
    t("report-limits", {
      stars: report.limitsUsed.stars,
      starsMax: report.limits.starsPerBotDay,
      premium: report.limitsUsed.premium,
      premiumMax: report.limits.premiumPerBotDay,
    }),
  );
  lines.push(...refusalLines(t, report.refusals));
  lines.push(t("report-breaker", { count: report.breakerOpenings }));
  return lines.join("\n");
}

function balanceLine(
  t: Translate,
  number: (value: string) => string,
  key: "report-balance-start" | "report-balance-end",
  balance: BalanceSnapshot | undefined,
): string {
  if (balance === undefined) return t(`${key}-unknown`);
  const unknown = t("report-figure-unknown");
  return t(key, {
    ton: balance.ton === undefined ? unknown : number(balance.ton),
    usdt: balance.usdt === undefined ? unknown : number(balance.usdt),
  });
}

/**
 * Longest quote of one refusal's reason in the report: its ten most frequent reasons must fit
 * one message with every other line.
 */
const MAX_REPORTED_REASON = 200;

function refusalLines(t: Translate, refusals: DailyReport["refusals"]): string[] {
  if (refusals.length === 0) return [t("report-refusals-none")];
  return [
    t("report-refusals"),
    ...refusals.map((r) =>
      t("report-refusal-line", {
        reason:
          r.reason === ""
            ? t("report-refusal-no-reason")
            : quoteServiceText(r.reason, MAX_REPORTED_REASON),
        count: r.count,
      }),
    ),
  ];
}
