/**
 * The simulated TON wallet: a USDT and a TON balance in exact nano-units (see pricing.ts) that
 * purchases spend. A purchase the balance cannot pay is refused the way the service refuses it
 * (400 with `insufficient: true`), and nothing is charged.
 */
import { type Currency, formatDecimal, parseDecimal, type Price } from "./pricing.js";
import type { Reply } from "./reply.js";

/** A balance as the service's decimal strings. */
export interface DecimalBalance {
  ton: string;
  usdt: string;
}

/** "TON" or "USDT", as the service names currencies in its bodies. */
export function currencyLabel(currency: Currency): string {
  return currency === "ton" ? "TON" : "USDT";
}

export class Wallet {
  private balance: Record<Currency, bigint>;

  constructor(private readonly starting: DecimalBalance) {
    this.balance = Wallet.parse(starting);
  }

  set(balance: DecimalBalance): void {
    this.balance = Wallet.parse(balance);
  }

  /** Back to the balance the sandbox started with. */
  refill(): void {
    this.set(this.starting);
  }

  /** Both balances to zero: every purchase is then refused for insufficient funds. */
  drain(): void {
    this.balance = { ton: 0n, usdt: 0n };
  }

  get(): DecimalBalance {
    return { ton: formatDecimal(this.balance.ton), usdt: formatDecimal(this.balance.usdt) };
  }

  /** Takes the price from the balance, or answers the refusal when the balance is too low. */
  charge(price: Price): { charged: true } | { charged: false; refusal: Reply } {
    const available = this.balance[price.currency];
    if (available < price.nano) {
      return { charged: false, refusal: insufficientFunds(price, available) };
    }
    this.balance[price.currency] = available - price.nano;
    return { charged: true };
  }

  private static parse(balance: DecimalBalance): Record<Currency, bigint> {
    return { ton: parseDecimal(balance.ton), usdt: parseDecimal(balance.usdt) };
  }
}

/** The service's refusal of a purchase the wallet cannot pay: 400, `insufficient: true`. */
function insufficientFunds(price: Price, available: bigint): Reply {
  const currency = currencyLabel(price.currency);
  return {
    status: 400,
    body: {
      ok: false,
      error: "INSUFFICIENT_BALANCE",
      reason: `Not enough ${currency} in the wallet`,
      insufficient: true,
      info: {
        currency,
        required: formatDecimal(price.nano),
        available: formatDecimal(available),
      },
    },
  };
}
