/**
 * The reads of the admins' Mini App (src/admin-app) that the ledger's other questions do not
 * answer: every purchase searched, filtered and paged, the spending of the last days per day,
 * and the giveaways not ended. Read-only; one implementation per store.
 */
import type { Currency } from "../costs/money.js";
import { type Money, parseMoney, formatMoney, sumMoney } from "../costs/money.js";
import type { MaybePromise } from "../shared/maybe-promise.js";
import { utcDay } from "../shared/utc-day.js";
import type { GiveawayBatch } from "./giveaways.js";
import type { IntentKind, IntentStatus, PurchaseIntent } from "./types.js";

/** What narrows the list of purchases; every field left out matches everything. */
export interface PurchaseFilter {
  /**
   * The person who asked: their user id, or part of the name the bot knows them by
   * (the `people` key-value namespace of src/bot/people.ts), case-insensitive.
   */
  person?: string;
  /** Part of the recipient's username, with or without `@`, case-insensitive. */
  recipient?: string;
  statuses?: readonly IntentStatus[];
  kind?: IntentKind;
  /** Created at or after this (ms since the epoch). */
  from?: number;
  /** Created before this. */
  to?: number;
}

/** One page of purchases, newest first, and how many match in all. */
export interface PurchasePage {
  intents: PurchaseIntent[];
  total: number;
}

/** One UTC day's delivered purchases (succeeded, or settled as delivered). */
export interface DaySpending {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  gifts: number;
  stars: number;
  premiumGifts: number;
  premiumMonths: number;
  /** Measured costs, a plain decimal string per currency (exact; "0" when none). */
  spent: Record<Currency, string>;
}

/** A delivered purchase as the day tally reads it. */
export interface DeliveredRow {
  sentAt: number;
  kind: IntentKind;
  quantity: number;
  costCurrency: Currency | null;
  costAmount: string | null;
}

/** The most a page holds. */
export const MAX_PAGE_SIZE = 100;

export interface AdminReads {
  /** Purchases matching `filter`, newest first, `limit` (at most 100) from `offset`. */
  purchasesPage(
    filter: PurchaseFilter,
    page: { limit: number; offset: number },
  ): MaybePromise<PurchasePage>;
  /** Delivered purchases per UTC day, sent in `[from, to)`, oldest first (days with any). */
  dailySpending(from: number, to: number): MaybePromise<DaySpending[]>;
  /** Giveaway batches not ended yet (running, paused, stopped), newest first. */
  openBatches(): MaybePromise<GiveawayBatch[]>;
}

/** The statuses that mean a purchase was delivered. */
export const DELIVERED_STATUSES: readonly IntentStatus[] = ["succeeded", "delivered"];

/** A search text as a LIKE pattern: `%`, `_` and `\` taken literally (ESCAPE '\'). */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The person searched for as a user id, when the text is one. */
export function personId(person: string): number | undefined {
  const trimmed = person.trim();
  return /^-?\d{1,15}$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** The recipient searched for, without a leading `@`. */
export function recipientText(recipient: string): string {
  return recipient.trim().replace(/^@/, "");
}

/** Delivered rows summed per day, oldest day first; costs added exactly per currency. */
export function tallyDays(rows: Iterable<DeliveredRow>): DaySpending[] {
  const days = new Map<string, DaySpending & { costs: Money[] }>();
  for (const row of rows) {
    const name = utcDay(row.sentAt);
    let day = days.get(name);
    if (day === undefined) {
      day = {
        ...{ day: name, gifts: 0, stars: 0, premiumGifts: 0, premiumMonths: 0 },
        spent: { ton: "0", usdt: "0" },
        costs: [],
      };
      days.set(name, day);
    }
    day.gifts += 1;
    if (row.kind === "stars") day.stars += row.quantity;
    else {
      day.premiumGifts += 1;
      day.premiumMonths += row.quantity;
    }
    const cost =
      row.costCurrency === null ? undefined : parseMoney(row.costCurrency, row.costAmount ?? "");
    if (cost !== undefined) day.costs.push(cost);
  }
  return [...days.values()]
    .sort((a, b) => (a.day < b.day ? -1 : 1))
    .map(({ costs, ...day }) => ({
      ...day,
      spent: {
        ton: formatMoney(
          sumMoney(
            "ton",
            costs.filter((c) => c.currency === "ton"),
          ),
        ),
        usdt: formatMoney(
          sumMoney(
            "usdt",
            costs.filter((c) => c.currency === "usdt"),
          ),
        ),
      },
    }));
}
