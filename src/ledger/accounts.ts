/**
 * The accounts kept beside the ledger: what each purchase cost, the wallet's balance over time,
 * a day's figures for the admins' report, the purchases of a date range for the accountant's
 * export, and which daily reports were sent. None of it decides whether a purchase may be sent
 * (the ledger's claim alone does); it is written after the fact and read for reports.
 */
import { type Currency, formatMoney, type Money, parseMoney, sumMoney } from "../costs/money.js";
import type { BalanceReading, CostSample, PurchaseCost } from "../costs/types.js";
import type { GiftKind, PaymentMethod } from "../gifts/catalogue.js";
import { SPENDING_STATUSES } from "./transitions.js";
import { DAY_MS, utcDay } from "../shared/utc-day.js";
import type {
  BalanceSnapshot,
  DayTotals,
  IntentKind,
  IntentStatus,
  PurchaseIntent,
} from "./types.js";

export type { CostSample } from "../costs/types.js";

/** Money spent in one currency on a day, from the measured costs. */
interface SpentIn {
  currency: Currency;
  /** A plain decimal string, exact. */
  amount: string;
  /** How many purchases the sum is made of. */
  purchases: number;
}

export type { BalanceReading } from "../costs/types.js";

/** One UTC day's purchases, as the daily report shows them. */
export interface DayFigures {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  /** Purchases sent that day, by the status they are in now. */
  byStatus: Partial<Record<IntentStatus, number>>;
  /** Stars delivered (succeeded, or settled as delivered by an admin). */
  starsBought: number;
  premiumGifts: number;
  premiumMonths: number;
  /** Measured costs of the day's delivered purchases, summed per currency. */
  spent: SpentIn[];
  /** Delivered purchases whose cost was not measured (not in `spent`). */
  unmeasured: number;
  /** The last reading before the day began (else the day's first), and the day's last. */
  balanceStart: BalanceSnapshot | undefined;
  balanceEnd: BalanceSnapshot | undefined;
  /** What the day's purchases counted against the bot's daily limits. */
  limitsUsed: { stars: number; premium: number };
  /** Purchases the service refused that day, by its reason, most first. */
  refusals: { reason: string; count: number }[];
  /** How often the purchase breaker opened that day (it pauses purchases). */
  breakerOpenings: number;
}

/** One purchase sent on the day, as its figures count it (its cost as recorded, if any). */
export interface SentOnDay {
  status: IntentStatus;
  kind: IntentKind;
  quantity: number;
  costAmount: string | null;
  costCurrency: Currency | null;
}

/**
 * The figures of the UTC day `day` from the purchases sent that day, and what else was read of
 * that day (balances, refusals, breaker openings).
 */
export function tallyDay(
  day: string,
  purchases: readonly SentOnDay[],
  read: Pick<DayFigures, "balanceStart" | "balanceEnd" | "refusals" | "breakerOpenings">,
): DayFigures {
  const figures: DayFigures = {
    ...{ day, byStatus: {}, starsBought: 0, premiumGifts: 0, premiumMonths: 0 },
    ...{ spent: [], unmeasured: 0, limitsUsed: { stars: 0, premium: 0 }, ...read },
  };
  const costs: Money[] = [];
  for (const row of purchases) {
    figures.byStatus[row.status] = (figures.byStatus[row.status] ?? 0) + 1;
    if (SPENDING_STATUSES.includes(row.status)) {
      if (row.kind === "stars") figures.limitsUsed.stars += row.quantity;
      else figures.limitsUsed.premium += 1;
    }
    if (row.status !== "succeeded" && row.status !== "delivered") continue;
    if (row.kind === "stars") figures.starsBought += row.quantity;
    else {
      figures.premiumGifts += 1;
      figures.premiumMonths += row.quantity;
    }
    const cost =
      row.costCurrency === null
        ? undefined
        : parseMoney(row.costCurrency, row.costAmount ?? undefined);
    if (cost === undefined) figures.unmeasured += 1;
    else costs.push(cost);
  }
  figures.spent = (["usdt", "ton"] as const).flatMap((currency) => {
    const of = costs.filter((c) => c.currency === currency);
    if (of.length === 0) return [];
    return [{ currency, amount: formatMoney(sumMoney(currency, of)), purchases: of.length }];
  });
  return figures;
}

/** The intents sent on one UTC day (`day`: ms since the epoch / {@link DAY_MS}) in one status. */
export interface DayStatusGroup {
  day: number;
  status: IntentStatus;
  kind: string;
  /** How many, and their quantities summed. */
  n: number;
  quantity: number;
}

/**
 * The admins' overview per UTC day ({@link DayTotals}) from the intents grouped by day, status
 * and kind, in the order of the days given; stars and premium gifts count only in the statuses
 * that may have spent money.
 */
export function tallyDayTotals(groups: readonly DayStatusGroup[]): DayTotals[] {
  const byDay = new Map<number, DayTotals>();
  for (const group of groups) {
    let totals = byDay.get(group.day);
    if (totals === undefined) {
      totals = { day: utcDay(group.day * DAY_MS), starsSpent: 0, premiumGifts: 0, byStatus: {} };
      byDay.set(group.day, totals);
    }
    totals.byStatus[group.status] = (totals.byStatus[group.status] ?? 0) + group.n;
    if (SPENDING_STATUSES.includes(group.status)) {
      if (group.kind === "stars") totals.starsSpent += group.quantity;
      else totals.premiumGifts += group.n;
    }
  }
  return [...byDay.values()];
}

/** A measured cost as the accounts keep it, with its purchase's quantity. */
export interface StoredCost {
  quantity: number;
  costAmount: string;
  costCurrency: Currency;
}

/**
 * The samples for estimates of `query`'s purchases from the costs kept, newest first; a cost
 * whose amount does not read as money is left out.
 */
export function costSamples(query: CostQuery, costs: readonly StoredCost[]): CostSample[] {
  return costs.flatMap(({ quantity, costAmount, costCurrency }) => {
    const cost = parseMoney(costCurrency, costAmount);
    return cost === undefined
      ? []
      : [{ kind: query.kind, quantity, paymentMethod: query.paymentMethod, cost }];
  });
}

/** What {@link PurchaseAccounts.recentCosts} is asked for. */
export type CostQuery = Parameters<PurchaseAccounts["recentCosts"]>[0];

/** Where costs, balance readings, day figures, the export and the report log are kept. */
export interface PurchaseAccounts {
  /**
   * Records a delivered purchase's cost once: the first measurement wins (a later shared read
   * or the chain cannot overwrite it). False when already recorded or not delivered.
   */
  recordCost(intentId: string, cost: PurchaseCost): Promise<boolean>;
  /** The newest measured costs of one kind and payment method (premium: of one duration). */
  recentCosts(query: {
    kind: GiftKind;
    paymentMethod: PaymentMethod;
    /** Premium only: the duration in months. */
    quantity?: number;
    limit: number;
  }): Promise<CostSample[]>;
  /** Keeps a balance reading when it differs from the last one kept (or an hour has passed). */
  recordBalance(reading: BalanceReading): Promise<void>;
  /** Keeps that the purchase breaker opened (for the daily report), with its cause. */
  recordBreakerOpening(at: number, cause: string): Promise<void>;
  /** Figures of the UTC day starting at `dayStart`. */
  dayFigures(dayStart: number): Promise<DayFigures>;
  /**
   * The purchases (intents whose request went out) sent in `[from, to)`, oldest first. Read a
   * page at a time and never holding a cursor open between pages, so a long export can be
   * streamed while the bot keeps using the database.
   */
  sentBetween(from: number, to: number, pageSize?: number): AsyncIterable<PurchaseIntent>;
  /** Whether the day's report was sent to `adminId` (read before the figures are worked out). */
  reportSent(day: string, adminId: number): Promise<boolean>;
  /** Marks the day's report as sent to `adminId`; false when it already was. */
  markReportSent(day: string, adminId: number, at: number): Promise<boolean>;
  /** Undoes {@link markReportSent} when sending failed, so the next attempt tries again. */
  unmarkReportSent(day: string, adminId: number): Promise<void>;
}
