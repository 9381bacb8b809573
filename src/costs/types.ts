/**
 * What a purchase cost, as recorded on its intent: measured after delivery, never guessed. The
 * service publishes no prices, so a cost is either the wallet's own balance difference across
 * the purchase or the purchase's outgoing transfer on chain; when neither is certain, no figure
 * is recorded (an unmeasured cost, with why), rather than a wrong one.
 */
import type { GiftKind, PaymentMethod } from "../gifts/catalogue.js";
import type { Currency, Money } from "./money.js";

/** Balances as decimal strings, as the service reported them. */
export interface BalanceSnapshot {
  ton: string | undefined;
  usdt: string | undefined;
}

/**
 * A wallet balance the service answered with figures the bot recognises, and when the read
 * started: the balance is the wallet's at that moment or later.
 */
export interface BalanceReading {
  balance: BalanceSnapshot;
  at: number;
}

/** One measured cost, for estimating the next purchase of the same kind. */
export interface CostSample {
  kind: GiftKind;
  quantity: number;
  paymentMethod: PaymentMethod;
  cost: Money;
}

/**
 * How a cost was measured:
 * - `balance_after`: the wallet read again right after delivery, minus the reading just before
 *   the claim;
 * - `later_balance`: a later balance read (shared with the summaries) served as the reading
 *   after, no other purchase having gone out in between;
 * - `on_chain`: the purchase's outgoing transfer on chain (TON_API_ENDPOINT).
 */
export type CostSource = "balance_after" | "later_balance" | "on_chain";

/** Why no figure was recorded. */
export type UnmeasuredReason =
  /** Another purchase went out between the two readings. */
  | "other_purchase"
  /** The balance rose (or a figure was missing or not a plain decimal): an outside transfer. */
  | "balance_moved"
  /** No reading from before the purchase was known. */
  | "no_reading_before"
  /** No usable reading came after the purchase before the measurement gave up. */
  | "no_reading_after";

export type PurchaseCost =
  | { measured: true; amount: string; currency: Currency; source: CostSource; at: number }
  | { measured: false; currency: Currency; reason: UnmeasuredReason; at: number };
