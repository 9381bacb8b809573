/**
 * The bot's own Stars through its grammY Api (the app's, never a conversation's): Premium gifted
 * with `giftPremiumSubscription`, a peer of the service client behind the same typed outcomes,
 * the balance (`getMyStarBalance`) and the transactions (`getStarTransactions`).
 *
 * A gift is one call, never retried (the app keeps auto-retry off the spending methods:
 * {@link NEVER_RETRIED}), with Telegram's exact price for its duration, and bounded by its own
 * timeout. Its `mayLeave` (the sender lease, as for a purchase through the service) is asked by
 * a transformer on the Api, the last step of grammY's pipeline this process controls before the
 * request is built and handed to fetch: a call withheld there was never sent. No secret of the
 * wallet or the marketplace is known here; the bot's token travels as in every Bot API call.
 */
import type { Api, Transformer } from "grammy";
import type { StarTransaction, TransactionPartner } from "grammy/types";
import { isPremiumDuration, PREMIUM_STAR_PRICES } from "../gifts/catalogue.js";
import type { Logger } from "../shared/logger.js";
import { answerOf, failureOf } from "./answers.js";
import type {
  GiftCallOptions,
  GiftOutcome,
  PremiumGift,
  StarBalanceRead,
  StarTransactionSeen,
  StarTransactionsRead,
  TelegramStars,
} from "./types.js";

/** Bot API methods that spend or give back Stars: sent once, never retried automatically. */
export const NEVER_RETRIED: ReadonlySet<string> = new Set([
  "giftPremiumSubscription",
  "refundStarPayment",
]);

/** How long a gift waits for Telegram's answer before its outcome is unknown. */
const GIFT_TIMEOUT_MS = 30_000;

/** Transactions read per page (Telegram's most) and the pages one look reads at most. */
const PAGE = 100;
const MAX_PAGES = 50;

/** grammY's type of a call's signal (an older AbortSignal's typing); the object is Node's. */
type GiftSignal = Parameters<Api["giftPremiumSubscription"]>[4];

/** Thrown by the guard when a gift may not leave; caught by the gifter as `not_sent`. */
class GiftWithheld extends Error {
  override readonly name = "GiftWithheld";
}

export interface TelegramStarsOptions {
  /** The app's grammY Api (set once the bot is built: {@link TelegramStarsClient.attach}). */
  logger: Logger;
  /** A gift's own deadline (default 30 s); tests shorten it. */
  giftTimeoutMs?: number;
  clock?: () => number;
}

export class TelegramStarsClient implements TelegramStars {
  #api: Api | undefined;
  #stopped = false;
  readonly #logger: Logger;
  readonly #timeoutMs: number;
  readonly #clock: () => number;
  /** Each gift's `mayLeave`, by the signal of its one call: what the guard asks. */
  readonly #leaving = new WeakMap<object, () => boolean>();

  constructor(options: TelegramStarsOptions) {
    this.#logger = options.logger;
    this.#timeoutMs = options.giftTimeoutMs ?? GIFT_TIMEOUT_MS;
    this.#clock = options.clock ?? Date.now;
  }

  /**
   * Uses the app's Api from now on, with the guard installed on it: a gift leaves only with the
   * signal its gifter registered and only while its `mayLeave` says yes; any other
   * `giftPremiumSubscription` (a call from elsewhere in the bot) is refused unsent.
   */
  attach(api: Api): void {
    this.#api = api;
    api.config.use(this.#guard);
  }

  readonly #guard: Transformer = (prev, method, payload, signal) => {
    if (method === "giftPremiumSubscription") {
      const mayLeave = signal === undefined ? undefined : this.#leaving.get(signal);
      if (mayLeave === undefined) throw new GiftWithheld("a gift that did not come from the desk");
      if (this.#stopped) throw new GiftWithheld("the bot is stopping");
      if (!mayLeave()) throw new GiftWithheld("this process may no longer hold the sender lease");
    }
    return prev(method, payload, signal);
  };

  stopGifts(): void {
    this.#stopped = true;
  }

  giftsStopped(): boolean {
    return this.#stopped;
  }

  async giftPremium(gift: PremiumGift, options: GiftCallOptions = {}): Promise<GiftOutcome> {
    const api = this.#api;
    if (!Number.isSafeInteger(gift.recipientUserId) || gift.recipientUserId <= 0) {
      return { kind: "invalid", field: "username", detail: "the recipient's user id" };
    }
    if (!isPremiumDuration(gift.months)) {
      return { kind: "invalid", field: "duration", detail: "3, 6 or 12 months" };
    }
    if (api === undefined || this.#stopped) {
      return { kind: "not_sent", detail: "not sent: cancelled at shutdown" };
    }
    const controller = new AbortController();
    this.#leaving.set(controller.signal, options.mayLeave ?? (() => true));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.#timeoutMs);
    try {
      const price = PREMIUM_STAR_PRICES[gift.months];
      const signal = controller.signal as unknown as GiftSignal;
      const result: unknown = await api.giftPremiumSubscription(
        gift.recipientUserId,
        gift.months,
        price,
        undefined,
        signal,
      );
      return answerOf(result);
    } catch (error) {
      if (error instanceof GiftWithheld)
        return { kind: "not_sent", detail: `not sent: ${error.message}` };
      return failureOf(error, timedOut);
    } finally {
      clearTimeout(timer);
    }
  }

  async balance(): Promise<StarBalanceRead> {
    const api = this.#api;
    if (api === undefined) return { kind: "unavailable", detail: "not connected yet" };
    const at = this.#clock();
    try {
      const amount = await api.getMyStarBalance();
      return { kind: "ok", stars: Math.trunc(amount.amount), at };
    } catch (error) {
      this.#logger.warn({ err: error }, "could not read the bot's Star balance");
      return { kind: "unavailable", detail: describe(error) };
    }
  }

  async transactions(): Promise<StarTransactionsRead> {
    const api = this.#api;
    if (api === undefined) return { kind: "unavailable", detail: "not connected yet" };
    const at = this.#clock();
    const seen: StarTransactionSeen[] = [];
    try {
      for (let page = 0; page < MAX_PAGES; page++) {
        const { transactions } = await api.getStarTransactions({
          offset: page * PAGE,
          limit: PAGE,
        });
        seen.push(...transactions.map(seenOf));
        if (transactions.length < PAGE)
          return { kind: "ok", transactions: seen, read: seen.length, complete: true, at };
      }
      return { kind: "ok", transactions: seen, read: seen.length, complete: false, at };
    } catch (error) {
      this.#logger.warn({ err: error }, "could not read the bot's Star transactions");
      return { kind: "unavailable", detail: describe(error) };
    }
  }
}

/** The partner of a transaction, when it is a user. */
function userPartner(partner: TransactionPartner | undefined) {
  return partner?.type === "user" ? partner : undefined;
}

function seenOf(transaction: StarTransaction): StarTransactionSeen {
  const out = transaction.receiver !== undefined;
  const user = userPartner(out ? transaction.receiver : transaction.source);
  return {
    id: transaction.id,
    amount: transaction.amount,
    date: transaction.date,
    direction: out ? "out" : "in",
    userId: user?.user.id,
    type: user?.transaction_type,
    premiumMonths: user?.premium_subscription_duration,
  };
}

/** A read's failure in a few words (the error's class and Telegram's description, if any). */
function describe(error: unknown): string {
  if (error instanceof Error && "description" in error) {
    return String((error as { description: unknown }).description);
  }
  return error instanceof Error ? error.name : "failed";
}
