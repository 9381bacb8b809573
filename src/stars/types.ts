/**
 * The bot's own Telegram Stars, as the rest of the bot sees them: Premium gifted by the bot
 * itself (Bot API `giftPremiumSubscription`, paid from its Star balance), the balance, and the
 * bot's Star transactions, Telegram's own books, which settle an unknown outcome with proof.
 */
import type { PremiumDuration } from "../gifts/catalogue.js";
import type { PurchaseOutcome } from "../service/types.js";

/** One Premium gift through Telegram: to a user named by id, for 3, 6 or 12 months. */
export interface PremiumGift {
  recipientUserId: number;
  months: PremiumDuration;
}

/**
 * What a gift through Telegram came to: the same typed outcomes as a purchase through the
 * service (src/service/types.ts), or `not_sent` when it was withheld before it left (the
 * process may no longer hold the sender lease, or the bot is stopping): nothing was spent.
 */
export type GiftOutcome = PurchaseOutcome | { kind: "not_sent"; detail: string };

export interface GiftCallOptions {
  /**
   * Asked as the very last step before the call is handed to the network (grammY's innermost
   * step for it): false withholds it, and it ends `not_sent`.
   */
  mayLeave?: () => boolean;
}

/** The bot's Star balance as read (`getMyStarBalance`), whole Stars. */
export type StarBalanceRead =
  { kind: "ok"; stars: number; at: number } | { kind: "unavailable"; detail: string };

/** One of the bot's Star transactions, as much of it as the bot reads. */
export interface StarTransactionSeen {
  id: string;
  /** Whole Stars moved. */
  amount: number;
  /** Telegram's time of it, seconds since the epoch. */
  date: number;
  /** Out of the bot's balance (a gift, a refund) or into it (a paid invoice). */
  direction: "out" | "in";
  /** The user on the other side, when it is a user. */
  userId: number | undefined;
  /** `premium_purchase`, `invoice_payment`, ... (TransactionPartnerUser's `transaction_type`). */
  type: string | undefined;
  /** premium_purchase only: the months gifted (`premium_subscription_duration`). */
  premiumMonths: number | undefined;
}

/** What one look at the bot's Star transactions read, and how much of the list it covered. */
export type StarTransactionsRead =
  | {
      kind: "ok";
      transactions: StarTransactionSeen[];
      /** The list's entries read (every page, `offset` 0 up), and whether it reached the end. */
      read: number;
      complete: boolean;
      at: number;
    }
  | { kind: "unavailable"; detail: string };

/** The bot's Stars: its Premium gifts, its balance and its books. */
export interface TelegramStars {
  /** Sends exactly one `giftPremiumSubscription`, never retried, with Telegram's exact price. */
  giftPremium(gift: PremiumGift, options?: GiftCallOptions): Promise<GiftOutcome>;
  balance(): Promise<StarBalanceRead>;
  /** The bot's Star transactions (every page, bounded), for a proof after an unknown answer. */
  transactions(): Promise<StarTransactionsRead>;
  /** Shutdown's first step: no further gift leaves (each ends `not_sent`). Reads go on. */
  stopGifts(): void;
  /** Whether {@link stopGifts} was called. */
  giftsStopped(): boolean;
}
