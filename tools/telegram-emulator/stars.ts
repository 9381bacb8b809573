/**
 * The bot's own Telegram Stars as Telegram keeps them (issue #39), shared by the emulator and the
 * tests' fake: the balance (`getMyStarBalance`), the books (`getStarTransactions`), Premium
 * gifted from the balance (`giftPremiumSubscription`, at Telegram's fixed prices), invoices in
 * Stars (`XTR`) that people pay, and their refunds (`refundStarPayment`).
 *
 * Faults, queued per gift: `timeout` (nothing done, no answer ever comes), `error` (nothing done,
 * 500), `lost` (the gift IS made, then the connection drops) and `lost_timeout` (made, then no
 * answer). A gift the balance cannot pay is Telegram's own 400 `BALANCE_TOO_LOW`.
 */
import { BotApiError, badRequest } from "./errors.js";

/** Telegram's price of Premium gifted by a bot, by months. */
const PREMIUM_PRICES: Readonly<Record<number, number>> = { 3: 1000, 6: 1500, 12: 2500 };

export type GiftFault = "timeout" | "error" | "lost" | "lost_timeout";

/**
 * A call whose answer never reaches the bot: `hang` holds it until the bot gives up, `reset`
 * drops the connection. What the call did (a gift made or not) is already done.
 */
export class AnswerDropped extends Error {
  constructor(readonly how: "hang" | "reset") {
    super(`answer dropped (${how})`);
    this.name = "AnswerDropped";
  }
}

interface StarUser {
  id: number;
  is_bot: false;
  first_name: string;
  username?: string;
}

/** A StarTransaction as the Bot API returns it. */
export interface StarTransactionObject {
  id: string;
  amount: number;
  date: number;
  source?: Record<string, unknown>;
  receiver?: Record<string, unknown>;
}

/** An invoice the bot sent, payable once. */
interface Invoice {
  chatId: number;
  messageId: number;
  payload: string;
  stars: number;
}

/** A paid invoice: Telegram's charge id names it in a refund. */
interface Payment {
  chargeId: string;
  userId: number;
  stars: number;
  refunded: boolean;
}

export class BotStarsModel {
  balance: number;
  readonly transactions: StarTransactionObject[] = [];
  /** Every gift call as it came (made or not). */
  readonly giftCalls: { userId: number; months: number; starCount: number }[] = [];
  readonly #faults: GiftFault[] = [];
  readonly #invoices = new Map<string, Invoice>();
  readonly #payments = new Map<string, Payment>();
  readonly #now: () => number;
  #seq = 0;

  constructor(options: { balance?: number; now?: () => number } = {}) {
    this.balance = options.balance ?? 0;
    this.#now = options.now ?? Date.now;
  }

  /** The next gift calls meet these faults, in order. */
  fault(...faults: GiftFault[]): void {
    this.#faults.push(...faults);
  }

  myStarBalance(): { amount: number; nanostar_amount: number } {
    return { amount: this.balance, nanostar_amount: 0 };
  }

  /** Telegram's list, newest first, `offset`/`limit` as the Bot API reads them. */
  starTransactions(offset = 0, limit = 100): { transactions: StarTransactionObject[] } {
    const newestFirst = [...this.transactions].reverse();
    return { transactions: structuredClone(newestFirst.slice(offset, offset + limit)) };
  }

  /** `giftPremiumSubscription`: true, or Telegram's refusal; a fault may drop the answer. */
  giftPremium(user: StarUser, months: number, starCount: number): true {
    this.giftCalls.push({ userId: user.id, months, starCount });
    const price = PREMIUM_PRICES[months];
    if (price === undefined) throw badRequest("PREMIUM_GIFT_MONTHS_INVALID");
    if (starCount !== price) throw badRequest("STARS_AMOUNT_INVALID");
    const fault = this.#faults.shift();
    if (fault === "timeout") throw new AnswerDropped("hang");
    if (fault === "error") throw new BotApiError(500, "Internal Server Error");
    if (this.balance < price) throw badRequest("BALANCE_TOO_LOW");
    this.balance -= price;
    this.#add({
      amount: price,
      receiver: {
        type: "user",
        transaction_type: "premium_purchase",
        user,
        premium_subscription_duration: months,
      },
    });
    if (fault === "lost") throw new AnswerDropped("reset");
    if (fault === "lost_timeout") throw new AnswerDropped("hang");
    return true;
  }

  /** Keeps an invoice the bot sent (`sendInvoice` in Stars). */
  invoiceSent(invoice: Invoice): void {
    if (invoice.stars <= 0 || !Number.isInteger(invoice.stars)) {
      throw badRequest("invalid price");
    }
    this.#invoices.set(`${invoice.chatId}:${invoice.messageId}`, invoice);
  }

  /** The invoice on a message, if it is one the bot sent. */
  invoiceOn(chatId: number, messageId: number): Invoice | undefined {
    return this.#invoices.get(`${chatId}:${messageId}`);
  }

  /**
   * A person paid an invoice (after the bot said yes to its pre-checkout query): the bot's
   * balance grows, the books keep it. Returns the `successful_payment` object.
   */
  paid(user: StarUser, invoice: Invoice): Record<string, unknown> {
    const chargeId = `stxCharge${++this.#seq}_${user.id}`;
    this.#payments.set(chargeId, {
      chargeId,
      userId: user.id,
      stars: invoice.stars,
      refunded: false,
    });
    this.balance += invoice.stars;
    this.#add({
      amount: invoice.stars,
      source: {
        type: "user",
        transaction_type: "invoice_payment",
        user,
        invoice_payload: invoice.payload,
      },
    });
    return {
      currency: "XTR",
      total_amount: invoice.stars,
      invoice_payload: invoice.payload,
      telegram_payment_charge_id: chargeId,
      provider_payment_charge_id: "",
    };
  }

  /** `refundStarPayment`: the Stars go back to whoever paid. */
  refund(userId: number, chargeId: string, user: StarUser): true {
    const payment = this.#payments.get(chargeId);
    if (payment === undefined || payment.userId !== userId) throw badRequest("CHARGE_NOT_FOUND");
    if (payment.refunded) throw badRequest("CHARGE_ALREADY_REFUNDED");
    if (this.balance < payment.stars) throw badRequest("BALANCE_TOO_LOW");
    payment.refunded = true;
    this.balance -= payment.stars;
    this.#add({
      amount: payment.stars,
      receiver: { type: "user", transaction_type: "invoice_payment", user },
    });
    return true;
  }

  #add(transaction: Omit<StarTransactionObject, "id" | "date">): void {
    const date = Math.floor(this.#now() / 1000);
    this.transactions.push({ id: `stx${++this.#seq}`, date, ...transaction });
  }
}

/** The Stars amount of a `sendInvoice`'s prices (one price in XTR), or Telegram's refusal. */
export function invoiceStars(currency: unknown, prices: unknown): number {
  if (currency !== "XTR") throw badRequest("CURRENCY_INVALID");
  if (!Array.isArray(prices) || prices.length !== 1) throw badRequest("STARS_INVOICE_INVALID");
  const amount = (prices[0] as { amount?: unknown }).amount;
  if (typeof amount !== "number" || !Number.isInteger(amount) || amount <= 0) {
    throw badRequest("STARS_INVOICE_INVALID");
  }
  return amount;
}
