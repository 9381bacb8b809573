/**
 * The books of the bot's own Telegram Stars (issue #39): each top-up an admin paid (an invoice
 * in Stars, `XTR`, paid from their own Telegram account) kept once by Telegram's charge id,
 * with its refund when an admin made one. Premium gifted through Telegram is spent from this
 * balance; the gifts themselves are purchase intents in the ledger, like every purchase.
 */

/** One paid top-up, as Telegram's `successful_payment` told it. */
export interface StarTopUp {
  /** Telegram's `telegram_payment_charge_id`: what a refund names. */
  chargeId: string;
  /** Who paid (an admin, from their own account). */
  userId: number;
  stars: number;
  /** The invoice's payload the bot set (`topup:<stars>:<admin>`). */
  payload: string;
  paidAt: number;
  /** When it was refunded, and by which admin; undefined while it is not. */
  refundedAt: number | undefined;
  refundedBy: number | undefined;
}

export interface StarTopUps {
  /** Keeps a paid top-up; false when that charge was kept already (Telegram told it twice). */
  recordTopUp(topUp: Omit<StarTopUp, "refundedAt" | "refundedBy">): Promise<boolean>;
  /** One top-up by its charge id. */
  topUp(chargeId: string): Promise<StarTopUp | undefined>;
  /** The newest top-ups first. */
  recentTopUps(limit: number): Promise<StarTopUp[]>;
  /** Marks a top-up refunded; false when it was unknown or refunded already. */
  markRefunded(chargeId: string, adminId: number, at: number): Promise<boolean>;
  /** Stars topped up (and not refunded) in `[from, to)`, for the daily report. */
  toppedUpBetween(from: number, to: number): Promise<{ stars: number; count: number }>;
}

/** What top-ups added to the bot's Stars: a refunded one added nothing. */
export function tallyTopUps(topUps: readonly StarTopUp[]): { stars: number; count: number } {
  const kept = topUps.filter((topUp) => topUp.refundedAt === undefined);
  return { stars: kept.reduce((sum, topUp) => sum + topUp.stars, 0), count: kept.length };
}
