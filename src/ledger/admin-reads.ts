/**
 * The reads of the admins' Mini App (src/admin-app) that the ledger's other questions do not
 * answer: every purchase searched, filtered and paged, the spending of the last days per day,
 * and the giveaways not ended. Read-only; one implementation per store.
 */
import type { Currency } from "../costs/money.js";
import { formatMoney } from "../costs/money.js";
import { DAY_MS, utcDay } from "../shared/utc-day.js";
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

/**
 * Delivered purchases of one UTC day, one kind and one cost currency, summed by the store: the
 * costs as a whole number of billionths of the currency (exact: TON has 9 decimals, USDT 6).
 */
export interface DeliveredGroup {
  /** Days since 1970-01-01 (UTC). */
  dayNumber: number;
  kind: IntentKind;
  gifts: number;
  /** Stars, or Premium months. */
  quantity: number;
  costCurrency: Currency | null;
  costBillionths: number | string | bigint | null;
}

/** The most a page holds. */
export const MAX_PAGE_SIZE = 100;

export interface AdminReads {
  /** Purchases matching `filter`, newest first, `limit` (at most 100) from `offset`. */
  purchasesPage(
    filter: PurchaseFilter,
    page: { limit: number; offset: number },
  ): Promise<PurchasePage>;
  /** Delivered purchases per UTC day, sent in `[from, to)`, oldest first (days with any). */
  dailySpending(from: number, to: number): Promise<DaySpending[]>;
  /** Giveaway batches not ended yet (running, paused, stopped), newest first. */
  openBatches(): Promise<GiveawayBatch[]>;
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

/** The stores' groups summed per day, oldest day first; costs exact per currency. */
export function tallyDays(groups: Iterable<DeliveredGroup>): DaySpending[] {
  const days = new Map<number, DaySpending & { billionths: Record<Currency, bigint> }>();
  for (const group of groups) {
    const dayNumber = Number(group.dayNumber);
    let day = days.get(dayNumber);
    if (day === undefined) {
      day = {
        ...{ day: utcDay(dayNumber * DAY_MS), gifts: 0, stars: 0, premiumGifts: 0 },
        ...{ premiumMonths: 0, spent: { ton: "0", usdt: "0" }, billionths: { ton: 0n, usdt: 0n } },
      };
      days.set(dayNumber, day);
    }
    const gifts = Number(group.gifts);
    const quantity = Number(group.quantity);
    day.gifts += gifts;
    if (group.kind === "stars") day.stars += quantity;
    else {
      day.premiumGifts += gifts;
      day.premiumMonths += quantity;
    }
    if (group.costCurrency !== null && group.costBillionths !== null) {
      day.billionths[group.costCurrency] += BigInt(group.costBillionths);
    }
  }
  return [...days.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, { billionths, ...day }]) => ({
      ...day,
      spent: {
        ton: formatMoney({ currency: "ton", units: billionths.ton }),
        // USDT's smallest unit is a millionth.
        usdt: formatMoney({ currency: "usdt", units: billionths.usdt / 1000n }),
      },
    }));
}
