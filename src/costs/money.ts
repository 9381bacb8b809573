/**
 * Money as exact integers of each currency's smallest unit: nano-TON (9 decimals, through
 * @ton/core's toNano/fromNano) and micro-USDT (6 decimals, the USDT jetton's). The service
 * reports balances as decimal strings (docs/service-contract.md); a float never touches them,
 * so a cost is exactly the difference of two readings, never `0.1 + 0.2`.
 */
import { fromNano, toNano } from "@ton/core";
import type { PaymentMethod } from "../gifts/catalogue.js";

/** The currencies a purchase can be paid in. */
export type Currency = "ton" | "usdt";

/** An exact amount: `units` of the currency's smallest unit (nano-TON, micro-USDT). */
export interface Money {
  currency: Currency;
  units: bigint;
}

/** Decimal places of each currency's smallest unit. */
const DECIMALS: Readonly<Record<Currency, number>> = { ton: 9, usdt: 6 };

const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** The currency a payment method spends: `usdt_ton` pays in USDT on TON, `ton` in TON. */
export function currencyOf(method: PaymentMethod): Currency {
  return method === "ton" ? "ton" : "usdt";
}

/** The balance figure of `currency` in a reading of both. */
export function balanceIn(
  balance: { ton: string | undefined; usdt: string | undefined },
  currency: Currency,
): string | undefined {
  return currency === "ton" ? balance.ton : balance.usdt;
}

/**
 * Parses a plain decimal ("12.5", "-0.75") exactly. Undefined for anything else, and for more
 * fraction digits than the currency has: rounding a reading would make a cost up.
 */
export function parseMoney(currency: Currency, text: string | undefined): Money | undefined {
  if (text === undefined || !PLAIN_DECIMAL.test(text)) return undefined;
  const fraction = text.split(".")[1] ?? "";
  if (fraction.length > DECIMALS[currency]) return undefined;
  if (currency === "ton") return { currency, units: toNano(text) };
  const negative = text.startsWith("-");
  const [whole = "0"] = text.replace(/^-/, "").split(".");
  const units = BigInt(whole) * 10n ** 6n + BigInt(fraction.padEnd(6, "0"));
  return { currency, units: negative ? -units : units };
}

/** The amount as a plain decimal string without trailing zeros ("0.75", "12", "-3.5"). */
export function formatMoney(money: Money): string {
  if (money.currency === "ton") return fromNano(money.units);
  const negative = money.units < 0n;
  const abs = negative ? -money.units : money.units;
  const whole = abs / 10n ** 6n;
  const fraction = (abs % 10n ** 6n).toString().padStart(6, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}

/**
 * What was spent between two readings of one currency: `before - after`. Undefined when either
 * is not an exact figure of that currency.
 */
export function spentBetween(
  currency: Currency,
  before: string | undefined,
  after: string | undefined,
): Money | undefined {
  const a = parseMoney(currency, before);
  const b = parseMoney(currency, after);
  if (a === undefined || b === undefined) return undefined;
  return { currency, units: a.units - b.units };
}

/** The sum of amounts of one currency (zero for none). */
export function sumMoney(currency: Currency, amounts: readonly Money[]): Money {
  let units = 0n;
  for (const amount of amounts) {
    if (amount.currency !== currency) throw new Error("cannot add amounts of two currencies");
    units += amount.units;
  }
  return { currency, units };
}

/**
 * `money * numerator / denominator`, rounded half up to the smallest unit: the one rounding an
 * estimate makes (e.g. the recent price of a star times this purchase's stars).
 */
export function scaleMoney(money: Money, numerator: bigint, denominator: bigint): Money {
  if (denominator <= 0n) throw new Error("denominator must be positive");
  const product = money.units * numerator;
  const sign = product < 0n ? -1n : 1n;
  const abs = product * sign;
  return {
    currency: money.currency,
    units: sign * ((abs * 2n + denominator) / (2n * denominator)),
  };
}

/** Whether `a` is more than `b` (same currency). */
export function exceeds(a: Money, b: Money): boolean {
  if (a.currency !== b.currency) throw new Error("cannot compare amounts of two currencies");
  return a.units > b.units;
}
