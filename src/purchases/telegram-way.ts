/**
 * Premium the bot gifts itself through Telegram (issue #39), the steps of a confirmation that
 * differ from a purchase through the service; ./claim-and-send.ts runs them in the same order
 * and under the same rules (the claim, the lane, the lease's `mayLeave`, the outcome written,
 * an unknown one never resent):
 * - right before the claim, the bot's Star balance is read: less than Telegram's price is a
 *   clear refusal, and nothing is sent;
 * - the one `giftPremiumSubscription` call, with the exact price;
 * - after an unknown answer, the proof: Telegram keeps the bot's books, so its Star
 *   transactions are read at once; a matching one settles the intent as delivered
 *   (src/stars/proof.ts), with the transaction kept; none leaves it for an admin, with what
 *   was looked at kept beside it.
 */
import { PREMIUM_STAR_PRICES, type PremiumDuration, type PremiumVia } from "../gifts/catalogue.js";
import type { PurchaseIntent, PurchaseLedger, RecordedOutcome } from "../ledger/types.js";
import type { Ambiguous, PurchaseOutcome } from "../service/types.js";
import { confirmResultOf } from "./decisions.js";
import type { Logger } from "../shared/logger.js";
import { CLOCK_MARGIN_MS, matchingGifts, proofOf } from "../stars/proof.js";
import type { GiftOutcome, TelegramStars } from "../stars/types.js";
import type { DeskEventHub } from "./desk-events.js";
import { keptStarsBefore } from "./stars-evidence.js";
import type {
  ConfirmRefusal,
  ConfirmResult,
  DraftRequest,
  PremiumWay,
  StarProof,
} from "./types.js";

/** Statuses of another gift that may explain one matching transaction. */
const MAY_HAVE_BEEN_MADE = new Set(["sending", "succeeded", "unconfirmed", "delivered"]);

export interface TelegramWayParts {
  stars: TelegramStars;
  ledger: PurchaseLedger;
  clock: () => number;
  logger: Logger;
  /** Told of a settlement by proof, and of an unknown outcome left for an admin. */
  events: DeskEventHub;
}

/**
 * The desk's way through Telegram when PREMIUM_VIA lets Premium be paid in Stars and the bot
 * has its Stars; every good balance read is told (the low-balance alert hears each one).
 */
export function telegramWayFor(
  deps: { stars?: TelegramStars | undefined; premiumVia?: PremiumVia; ledger: PurchaseLedger },
  clock: () => number,
  logger: Logger,
  events: DeskEventHub,
): TelegramWay | undefined {
  const { stars, premiumVia: via = "service" } = deps;
  if (stars === undefined || via === "service") return undefined;
  const parts = { ledger: deps.ledger, clock, logger, events };
  const told: TelegramStars = {
    giftPremium: (gift, options) => stars.giftPremium(gift, options),
    transactions: () => stars.transactions(),
    stopGifts: () => stars.stopGifts(),
    giftsStopped: () => stars.giftsStopped(),
    balance: async () => {
      const read = await stars.balance();
      if (read.kind === "ok") parts.events.emit("starBalanceRead", undefined, read.stars);
      return read;
    },
  };
  return new TelegramWay({ ...parts, stars: told }, via);
}

/** A draft paid in Stars: the wallet is not read for it (its read would send the wallet's phrase). */
export function starsDraft(
  telegram: TelegramWay | undefined,
  request: DraftRequest,
): Promise<PurchaseIntent> {
  if (telegram === undefined) throw new Error("Premium is not paid through Telegram");
  return telegram.draft(request);
}

/** How a Premium gift to a recipient is paid under PREMIUM_VIA (see {@link PremiumWay}). */
function premiumWayFor(via: PremiumVia, recipientUserId: number | undefined): PremiumWay {
  if (via === "service") return { via: "service" };
  if (recipientUserId !== undefined) return { via: "telegram", recipientUserId };
  return via === "telegram" ? { via: "unnamed" } : { via: "service" };
}

/** What a search for the proof came to. */
export type ProofSearch =
  | { kind: "proved"; intent: PurchaseIntent; proof: StarProof; unconfirmedLeft: number }
  | { kind: "not_found" }
  /** Not a gift through Telegram, or no longer unknown: nothing to look for. */
  | { kind: "not_applicable" };

export class TelegramWay {
  readonly #parts: TelegramWayParts;
  /** The Star balance read before each gift's claim, by intent, until its outcome is known. */
  readonly #before = new Map<string, number>();

  readonly #via: PremiumVia;

  constructor(parts: TelegramWayParts, via: PremiumVia) {
    this.#parts = parts;
    this.#via = via;
  }

  /** How a Premium gift to this recipient is paid (PREMIUM_VIA). */
  way(recipientUserId: number | undefined): PremiumWay {
    return premiumWayFor(this.#via, recipientUserId);
  }

  /** Records a draft paid in Stars, with no wallet balance before it. */
  draft(request: DraftRequest): Promise<PurchaseIntent> {
    return this.#parts.ledger.createDraft(
      { ...request, balanceBefore: undefined },
      this.#parts.clock(),
    );
  }

  /** Those of `intents` (recovered in flight) whose gift the bot's books do not prove. */
  async unproved(intents: readonly PurchaseIntent[]): Promise<PurchaseIntent[]> {
    const left: PurchaseIntent[] = [];
    for (const intent of intents) if (!(await this.settleIfProved(intent))) left.push(intent);
    return left;
  }

  /** Telegram's price of the intent's gift. */
  static priceOf(intent: Pick<PurchaseIntent, "quantity">): number {
    return PREMIUM_STAR_PRICES[intent.quantity as PremiumDuration];
  }

  /**
   * Right before the claim, in the lane: whether the bot holds enough Stars. A refusal when
   * not (or when the balance cannot be read: nothing is sent blind).
   */
  async beforeClaim(intent: PurchaseIntent): Promise<ConfirmRefusal | undefined> {
    const read = await this.#parts.stars.balance();
    if (read.kind !== "ok") return { reason: "stars_unavailable" };
    const needed = TelegramWay.priceOf(intent);
    if (read.stars < needed) return { reason: "not_enough_stars", stars: read.stars, needed };
    this.#before.set(intent.id, read.stars);
    return undefined;
  }

  /** The one call, asking `mayLeave` as its last step. */
  send(intent: PurchaseIntent, mayLeave: (() => boolean) | undefined): Promise<GiftOutcome> {
    const recipientUserId = intent.recipientUserId ?? 0;
    const months = intent.quantity as PremiumDuration;
    return this.#parts.stars.giftPremium(
      { recipientUserId, months },
      mayLeave === undefined ? {} : { mayLeave },
    );
  }

  /** The bot's Star balance (a gift's summary, /balance). */
  balance() {
    return this.#parts.stars.balance();
  }

  /** Whether gifts are stopped (the bot is stopping). */
  get stopped(): boolean {
    return this.#parts.stars.giftsStopped();
  }

  /**
   * The gift's outcome, written: an unknown one looks for its proof at once; otherwise its
   * answer stands, and after a gift made the balance is read (the low-balance alert hears it).
   */
  afterOutcome(
    intent: PurchaseIntent,
    outcome: Exclude<PurchaseOutcome, { kind: "invalid" }>,
    recorded: RecordedOutcome,
  ): Promise<ConfirmResult> {
    if (outcome.kind === "ambiguous" && recorded.recorded)
      return this.afterUnknown(intent, outcome);
    this.done(intent.id);
    if (outcome.kind === "success") void this.balance();
    return Promise.resolve(confirmResultOf(outcome, recorded));
  }

  /**
   * A gift whose answer said nothing, written as unknown: Telegram's books are read at once,
   * still in the lane. A proof settles it as delivered, and its person reads it at their
   * Confirm (the admins are told by the settlement); without one it waits for an admin, who is
   * told as for any unknown outcome. Never sent again either way.
   */
  async afterUnknown(intent: PurchaseIntent, outcome: Ambiguous): Promise<ConfirmResult> {
    const { events, ledger, logger } = this.#parts;
    let search: ProofSearch = { kind: "not_found" };
    try {
      search = await this.prove(intent);
    } catch (err) {
      logger.warn({ err, intentId: intent.id }, "could not look for the gift's proof");
    }
    if (search.kind === "proved") {
      const settlement = { by: "telegram", proof: search.proof, atConfirm: true } as const;
      events.emit("settled", intent.id, search.intent, settlement);
      return { kind: "succeeded", intent: search.intent, txHash: undefined, proof: search.proof };
    }
    this.done(intent.id);
    const unknown = (await ledger.get(intent.id)) ?? intent;
    events.emit("unconfirmed", intent.id, unknown, outcome);
    return { kind: "unconfirmed", intent: unknown, ambiguity: outcome };
  }

  /**
   * A proof looked for outside a Confirm (a recovery at start, an admin's evidence): when
   * found, the settlement is told (its requester too). True when proved.
   */
  async settleIfProved(intent: PurchaseIntent): Promise<boolean> {
    const search = await this.prove(intent).catch((err: unknown) => {
      this.#parts.logger.warn({ err, intentId: intent.id }, "could not look for the gift's proof");
      return undefined;
    });
    if (search?.kind !== "proved") return false;
    const settlement = { by: "telegram", proof: search.proof, atConfirm: false } as const;
    this.#parts.events.emit("settled", intent.id, search.intent, settlement);
    return true;
  }

  /** The bot's Star balance now, for an admin's evidence; undefined when it cannot be read. */
  async starsNow(): Promise<number | undefined> {
    const read = await this.#parts.stars.balance();
    return read.kind === "ok" ? read.stars : undefined;
  }

  /** The outcome is known (or kept for an admin): the balance read before is not needed. */
  done(id: string): void {
    this.#before.delete(id);
  }

  /**
   * After an unknown answer (or a recovery, or an admin opening the evidence): the bot's Star
   * transactions, read now, and the ledger's other gifts to the same recipient. A proof
   * settles the intent as delivered; none keeps what was looked at, for the admin.
   */
  async prove(intent: PurchaseIntent): Promise<ProofSearch> {
    const { stars, ledger, clock, logger } = this.#parts;
    if (intent.paidVia !== "telegram" || intent.recipientUserId === undefined) {
      return { kind: "not_applicable" };
    }
    if (intent.status !== "unconfirmed" || intent.sentAt === undefined) {
      return { kind: "not_applicable" };
    }
    const sentAt = intent.sentAt;
    const [read, balance] = await Promise.all([stars.transactions(), stars.balance()]);
    // Kept by an earlier search when this process no longer holds it (a restart, a second look).
    const starsBefore = this.#before.get(intent.id) ?? keptStarsBefore(intent);
    const starsAfter = balance.kind === "ok" ? balance.stars : undefined;
    const now = clock();
    if (read.kind !== "ok") {
      await ledger.noteSearch(intent.id, {
        at: now,
        unavailable: read.detail,
        starsBefore,
        starsAfter,
      });
      return { kind: "not_found" };
    }
    const others = (await ledger.sentDuring(sentAt - CLOCK_MARGIN_MS, now, intent.id)).filter(
      (other) =>
        other.paidVia === "telegram" &&
        other.recipientUserId === intent.recipientUserId &&
        other.quantity === intent.quantity &&
        MAY_HAVE_BEEN_MADE.has(other.status),
    ).length;
    const query = {
      recipientUserId: intent.recipientUserId,
      months: intent.quantity as PremiumDuration,
      sentAt,
      otherGifts: others,
    };
    const transaction = proofOf(read.transactions, query);
    if (transaction === undefined) {
      const matches = matchingGifts(read.transactions, query).length;
      const search = {
        at: now,
        read: read.read,
        complete: read.complete,
        matches,
        otherGifts: others,
      };
      await ledger.noteSearch(intent.id, { ...search, starsBefore, starsAfter });
      logger.warn({ intentId: intent.id, ...search }, "no Star transaction proves the gift");
      return { kind: "not_found" };
    }
    const proof: StarProof = { transaction, starsBefore, starsAfter, read: read.read };
    const detail = `settled by the bot's Star transactions: ${transaction.id}`;
    const settled = await ledger.settleByProof(intent.id, proof, detail, now);
    if (settled === undefined) return { kind: "not_applicable" };
    this.done(intent.id);
    logger.info(
      { intentId: intent.id, transaction: transaction.id },
      "gift proved by Telegram's books",
    );
    return {
      kind: "proved",
      intent: settled.intent,
      proof,
      unconfirmedLeft: settled.unconfirmedLeft,
    };
  }
}
