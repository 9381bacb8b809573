/**
 * Measuring what a delivered purchase cost from two wallet readings: the one taken just before
 * its claim and one taken after its answer. The difference is the cost only when nothing else
 * could have moved the balance in between; otherwise no figure is recorded (docs in
 * src/costs/types.ts), because a wrong cost in the accounts is worse than a missing one.
 */
import type { BalanceSnapshot } from "./types.js";
import { balanceIn, type Currency, formatMoney, spentBetween } from "./money.js";
import type { CostSource, PurchaseCost, UnmeasuredReason } from "./types.js";

/** A reading of the wallet and when it was taken (the read's start). */
export interface Reading {
  balance: BalanceSnapshot;
  at: number;
}

/** What one "after" reading says about a purchase's cost. */
export type Measurement =
  | { kind: "done"; cost: PurchaseCost }
  /**
   * The reading shows no change yet (the transfer may not have settled when the service
   * answered): a later reading may still measure it.
   */
  | { kind: "not_yet" };

export interface MeasureInput {
  currency: Currency;
  /** The reading just before the claim (the intent's "balance before"), if known. */
  before: Reading | undefined;
  after: Reading;
  source: Exclude<CostSource, "on_chain">;
  /** How many other purchases were out between the two readings (the ledger's `outBetween`). */
  othersSent: number;
  /** When the measurement is recorded. */
  now: number;
}

/** Judges one "after" reading (see {@link Measurement}). */
export function measureFromBalances(input: MeasureInput): Measurement {
  const { currency, now } = input;
  const none = (reason: UnmeasuredReason): Measurement => ({
    kind: "done",
    cost: { measured: false, currency, reason, at: now },
  });
  if (input.before === undefined) return none("no_reading_before");
  if (input.othersSent > 0) return none("other_purchase");
  const spent = spentBetween(
    currency,
    balanceIn(input.before.balance, currency),
    balanceIn(input.after.balance, currency),
  );
  if (spent === undefined) return none("balance_moved");
  if (spent.units === 0n) return { kind: "not_yet" };
  // The balance rose: money came in from outside, and the purchase's share cannot be told.
  if (spent.units < 0n) return none("balance_moved");
  return {
    kind: "done",
    cost: { measured: true, amount: formatMoney(spent), currency, source: input.source, at: now },
  };
}
