/**
 * The estimate a summary shows before Confirm, from the costs recent purchases of the same
 * kind and payment method were measured at (src/ledger/accounts.ts): no request, no delay.
 * Stars are priced per star (the recent total over the recent stars, times this amount);
 * premium per duration (the recent average for these months). One rounding, half up, to the
 * currency's smallest unit.
 */
import type { GiftKind, PaymentMethod } from "../gifts/catalogue.js";
import type { CostSample } from "./types.js";
import { currencyOf, exceeds, parseMoney, scaleMoney, sumMoney, type Money } from "./money.js";

/** How many recent measured costs an estimate is made from, at most. */
export const ESTIMATE_SAMPLE_SIZE = 10;

export interface CostEstimate {
  cost: Money;
  /** How many measured purchases it is based on. */
  basedOn: number;
}

/** What is being estimated: a draft's kind, quantity (stars or months) and payment method. */
export interface EstimateTarget {
  kind: GiftKind;
  quantity: number;
  paymentMethod: PaymentMethod;
}

/**
 * The estimate for `target` from `samples`; undefined when none of them is of the same kind,
 * payment method (and, for premium, duration), so nothing is shown rather than a guess.
 */
export function estimateCost(
  target: EstimateTarget,
  samples: readonly CostSample[],
): CostEstimate | undefined {
  const currency = currencyOf(target.paymentMethod);
  const same = samples.filter(
    (s) =>
      s.kind === target.kind &&
      s.paymentMethod === target.paymentMethod &&
      s.cost.currency === currency &&
      (target.kind === "stars" || s.quantity === target.quantity),
  );
  if (same.length === 0) return undefined;
  const total = sumMoney(
    currency,
    same.map((s) => s.cost),
  );
  const cost =
    target.kind === "stars"
      ? scaleMoney(total, BigInt(target.quantity), BigInt(same.reduce((n, s) => n + s.quantity, 0)))
      : scaleMoney(total, 1n, BigInt(same.length));
  return { cost, basedOn: same.length };
}

/**
 * Whether the estimate is more than the wallet holds in that currency; undefined when the
 * balance is not known (then the summary says nothing about it).
 */
export function estimateExceedsBalance(
  estimate: CostEstimate,
  balance: string | undefined,
): boolean | undefined {
  const available = parseMoney(estimate.cost.currency, balance);
  return available === undefined ? undefined : exceeds(estimate.cost, available);
}
