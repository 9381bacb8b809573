/**
 * Whether the bot's Star transactions prove that a Premium gift whose answer was lost was made
 * (docs/telegram-premium.md, "An unknown outcome that settles itself"). Telegram keeps the
 * bot's books: each Premium gift is an outgoing transaction whose receiver is the user, of type
 * `premium_purchase`, with the months gifted and the price paid. A gift is proved by such a
 * transaction dated after its request left (less a margin for the two clocks), that no other
 * gift of the same recipient and duration the bot made in that time explains.
 */
import { PREMIUM_STAR_PRICES, type PremiumDuration } from "../gifts/catalogue.js";
import type { StarTransactionSeen } from "./types.js";

/**
 * How far before the request's time (this machine's clock) a transaction's date (Telegram's) may
 * be and still be its gift: the two clocks may differ by this much.
 */
export const CLOCK_MARGIN_MS = 120_000;

export interface ProofQuery {
  recipientUserId: number;
  months: PremiumDuration;
  /** When the request left (ms since the epoch, this machine's clock). */
  sentAt: number;
  /**
   * Other gifts of the same recipient and duration the bot sent from `sentAt - CLOCK_MARGIN_MS`
   * on and knows were made (or may have been): each explains one matching transaction.
   */
  otherGifts: number;
}

/** The transactions that are this recipient's Premium gift of this duration, at its price. */
export function matchingGifts(
  transactions: readonly StarTransactionSeen[],
  query: Pick<ProofQuery, "recipientUserId" | "months" | "sentAt">,
): StarTransactionSeen[] {
  const since = Math.floor((query.sentAt - CLOCK_MARGIN_MS) / 1000);
  const price = PREMIUM_STAR_PRICES[query.months];
  return transactions
    .filter(
      (t) =>
        t.direction === "out" &&
        t.type === "premium_purchase" &&
        t.userId === query.recipientUserId &&
        t.premiumMonths === query.months &&
        Math.abs(t.amount) === price &&
        t.date >= since,
    )
    .sort((a, b) => a.date - b.date);
}

/**
 * The transaction that proves the gift (the newest match, when there are more matches than
 * other gifts explain), or undefined when none does.
 */
export function proofOf(
  transactions: readonly StarTransactionSeen[],
  query: ProofQuery,
): StarTransactionSeen | undefined {
  const matches = matchingGifts(transactions, query);
  return matches.length > query.otherGifts ? matches.at(-1) : undefined;
}
