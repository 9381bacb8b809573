/**
 * The sandbox's price list and exact decimal arithmetic. Balances are decimal strings (docs/service-contract.md §3),
 * so money is held as integer nano-units (9 decimals) in BigInt: no float ever touches it.
 */

/** Decimal places kept for both currencies (TON uses 9; USDT needs fewer, 9 is harmless). */
const SCALE = 9;
const UNIT = 10n ** BigInt(SCALE);

/** Thrown when a balance string given to the sandbox is not a plain non-negative decimal. */
class InvalidDecimalError extends Error {
  override readonly name = "InvalidDecimalError";
}

/** Parses "12.5" into nano-units. Only plain non-negative decimals, at most 9 fraction digits. */
export function parseDecimal(text: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,9}))?$/.exec(text.trim());
  if (!match) throw new InvalidDecimalError(`not a decimal amount: ${JSON.stringify(text)}`);
  const whole = BigInt(match[1] ?? "0");
  const fraction = BigInt((match[2] ?? "").padEnd(SCALE, "0"));
  return whole * UNIT + fraction;
}

/** Formats nano-units as a decimal string without trailing zeros ("99.985", "100"). */
export function formatDecimal(nano: bigint): string {
  const whole = nano / UNIT;
  const fraction = (nano % UNIT).toString().padStart(SCALE, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

/** USDT per star: 0.015. */
const STAR_PRICE_USDT = "0.015";
/** Premium prices in USDT by months. */
const PREMIUM_PRICES_USDT: Readonly<Record<3 | 6 | 12, string>> = {
  3: "12",
  6: "16",
  12: "29",
};
/** The fixed exchange rate: 1 TON = 4 USDT, chosen so every TON price is an exact decimal. */
const USDT_PER_TON = 4n;

export type Currency = "usdt" | "ton";

/** A price in the currency the payment method spends. */
export interface Price {
  currency: Currency;
  nano: bigint;
}

function inCurrency(usdtNano: bigint, method: "usdt_ton" | "ton"): Price {
  return method === "ton"
    ? { currency: "ton", nano: usdtNano / USDT_PER_TON }
    : { currency: "usdt", nano: usdtNano };
}

/** What `amount` stars cost with this payment method. */
export function starsPrice(amount: number, method: "usdt_ton" | "ton"): Price {
  return inCurrency(parseDecimal(STAR_PRICE_USDT) * BigInt(amount), method);
}

/** What `months` of premium cost with this payment method. */
export function premiumPrice(months: 3 | 6 | 12, method: "usdt_ton" | "ton"): Price {
  return inCurrency(parseDecimal(PREMIUM_PRICES_USDT[months]), method);
}
