/**
 * One confirmation's way out: before its quota slot, a premium recipient's fresh `is_premium`
 * ({@link ClaimAndSend.beforeSlot}); then, holding its slot, in the purchase lane (one at a time
 * in this process): the checks of its turn, the claim, and only if the claim won, at once the
 * one request and its outcome, written (or kept unrecorded while the database refuses it). The slot comes
 * before the claim so that nothing claimed ever waits for the quota: a claimed purchase leaves
 * at once, and a stop while it waits finds nothing claimed. A refusal gives the slot back and
 * closes or reopens a queued promise so its person is never left waiting.
 */
import type { PurchaseIntent, PurchaseLedger } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";
import type { GiftServiceClient, PurchaseSlot } from "../service/types.js";
import type { CostMeter } from "./cost-meter.js";
import {
  confirmResultOf,
  freshPremiumCheck,
  isPassingRefusal,
  knownBalance,
  needsPremiumCheck,
  premiumVerdict,
  unrecorded,
} from "./decisions.js";
import type { DeskEventHub } from "./desk-events.js";
import type { UnrecordedPause } from "./unrecorded-pause.js";
import type { TimedOutcome, OutcomeRecorder } from "./outcome-recorder.js";
import type { RefusedWrites } from "./refused-writes.js";
import { sendPurchase } from "./send.js";
import type { ServiceReads } from "./service-reads.js";
import type { TelegramWay } from "./telegram-way.js";
import type { ConfirmRefusal, ConfirmResult } from "./types.js";

export type OnQueued = ((waitMs: number) => void) | undefined;

/** What the lane's claim-and-send is told besides the intent and its requester. */
export interface LaneOptions {
  onQueued?: OnQueued;
  isAdmin?: boolean;
  /** Told once the claim has won, before the request goes out (see ConfirmPressOptions). */
  onClaimed?: () => void;
  /** At start, resolving a queued confirmation of a process that died: nobody can press again. */
  atStart?: boolean;
  /** Asked before the claim of a queued confirmation (see ConfirmPressOptions.mayBuy). */
  mayBuy?: () => boolean | Promise<boolean>;
  /** The intent was recorded as queued: its person holds a promise the desk must keep. */
  queued?: boolean;
}

/** Purchases finished in this process that a claim's reading before is known to show, at most. */
const FINISHES_KEPT = 20;

/** What a confirmation meets while the breaker's pause is unrecorded. */
export const BREAKER_PAUSE: ConfirmRefusal = { reason: "paused", source: "breaker" };

/** What a confirmation still waiting for its quota slot meets when the bot stops. */
const STOPPING: ConfirmRefusal = { reason: "stopping" };

/** The parts of the desk a confirmation's way out uses. */
export interface ClaimAndSendParts {
  ledger: PurchaseLedger;
  client: GiftServiceClient;
  clock: () => number;
  logger: Logger;
  reads: ServiceReads;
  outcomes: OutcomeRecorder;
  writes: RefusedWrites;
  unrecordedPause: UnrecordedPause;
  costs: CostMeter | undefined;
  events: DeskEventHub;
  /** How old a recipient's `is_premium` may be at the claim. */
  recheckAfterMs: number;
  /** Asked by the client as the last step before a claimed purchase is written (the lease). */
  mayLeave: (() => boolean) | undefined;
  /** Premium gifted by the bot itself in Stars; undefined when PREMIUM_VIA is `service`. */
  telegram: TelegramWay | undefined;
}

export class ClaimAndSend {
  readonly #ledger: PurchaseLedger;
  readonly #client: GiftServiceClient;
  readonly #clock: () => number;
  readonly #logger: Logger;
  readonly #reads: ServiceReads;
  readonly #outcomes: OutcomeRecorder;
  readonly #writes: RefusedWrites;
  readonly #unrecordedPause: UnrecordedPause;
  readonly #costs: CostMeter | undefined;
  readonly #events: DeskEventHub;
  readonly #recheckAfterMs: number;
  /**
   * The purchases this process finished lately, newest last: a reading the cache holds at a
   * claim is known to show them, even one started in the millisecond the last of them ended.
   */
  readonly #finishedHere: string[] = [];
  readonly #mayLeave: (() => boolean) | undefined;
  readonly #telegram: TelegramWay | undefined;

  constructor(parts: ClaimAndSendParts) {
    this.#ledger = parts.ledger;
    this.#client = parts.client;
    this.#clock = parts.clock;
    this.#logger = parts.logger;
    this.#reads = parts.reads;
    this.#outcomes = parts.outcomes;
    this.#writes = parts.writes;
    this.#unrecordedPause = parts.unrecordedPause;
    this.#costs = parts.costs;
    this.#events = parts.events;
    this.#recheckAfterMs = parts.recheckAfterMs;
    this.#mayLeave = parts.mayLeave;
    this.#telegram = parts.telegram;
  }

  /** Purchases on hold: unconfirmed intents, and outcomes not yet recorded, count alike. */
  async onHold(): Promise<ConfirmRefusal> {
    return {
      reason: "frozen",
      unconfirmed: (await this.#ledger.unconfirmedCount()) + this.#outcomes.unrecordedCount,
    };
  }

  /**
   * Before the confirmation takes its quota slot: a premium recipient's `is_premium` must be
   * known and fresh. Its read takes a turn of the quota itself, so it is made before the slot,
   * never while one is held (a slot held while waiting for another could hold up the quota
   * for everyone). What the confirmation came to when nothing may be bought, else the intent.
   */
  async beforeSlot(
    id: string,
    userId: number,
    options: LaneOptions,
  ): Promise<ConfirmResult | PurchaseIntent> {
    try {
      const before = await this.#ledger.get(id);
      if (before === undefined) return { kind: "refused", refusal: { reason: "not_found" } };
      if (!needsPremiumCheck(before, userId, this.#clock())) return before;
      const blocked = await this.#premiumBlock(
        before,
        userId,
        options.onQueued,
        options.atStart === true,
      );
      return blocked ?? before;
    } catch (err) {
      return this.#writes.afterRefusedClaim(id, err, options.queued === true);
    }
  }

  /**
   * No slot could be had: purchases were stopped (the bot is stopping) while the confirmation
   * waited for the quota. Nothing was claimed: a draft stays a draft, a queued one goes back
   * to an open draft (at the start after a crash, it is closed).
   */
  async withoutSlot(id: string, options: LaneOptions): Promise<ConfirmResult> {
    try {
      const intent = await this.#ledger.get(id);
      if (intent === undefined) return { kind: "refused", refusal: { reason: "not_found" } };
      return await this.#refuse(intent, STOPPING, options.atStart === true);
    } catch (err) {
      return this.#writes.afterRefusedClaim(id, err, options.queued === true);
    }
  }

  /**
   * In the lane, holding the confirmation's quota slot: the checks of its turn, the claim, and
   * only if the claim won, its one request at once and the outcome. The slot is given back
   * whenever the request does not go.
   */
  async run(
    id: string,
    userId: number,
    options: LaneOptions,
    slot: PurchaseSlot,
  ): Promise<ConfirmResult> {
    let claimed: PurchaseIntent | ConfirmResult;
    try {
      claimed = await this.#claimStep(id, userId, options, slot);
    } catch (err) {
      slot.giveBack();
      return this.#writes.afterRefusedClaim(id, err, options.queued === true);
    }
    if (!("status" in claimed)) {
      slot.giveBack();
      return claimed;
    }
    return this.#send(claimed, slot, options);
  }

  /**
   * Everything between the slot and the request: the checks of a queued confirmation's turn,
   * the end of any 429/503 hold that began after the slot was granted, and the claim itself.
   * The claimed intent, or what the confirmation came to instead. Throws when the database
   * refused a write past its retries.
   */
  async #claimStep(
    id: string,
    userId: number,
    options: LaneOptions,
    slot: PurchaseSlot,
  ): Promise<PurchaseIntent | ConfirmResult> {
    const close = options.atStart === true;
    const before = await this.#ledger.get(id);
    if (before === undefined) return { kind: "refused", refusal: { reason: "not_found" } };
    if (this.#outcomes.unrecordedCount > 0) return this.#refuse(before, await this.onHold(), close);
    if (this.#unrecordedPause.active) return this.#refuse(before, BREAKER_PAUSE, close);
    if (before.status === "queued" && options.mayBuy !== undefined && !(await options.mayBuy())) {
      // Access may have been taken away while it waited: closed, never reopened.
      return this.#refuse(before, { reason: "no_access" }, true);
    }
    // Waited out before the claim, so the request never waits once claimed.
    if (!(await slot.ready())) {
      return this.#refuse((await this.#ledger.get(id)) ?? before, STOPPING, close);
    }
    // Paid in the bot's Stars, read now: not enough is said before anything is sent.
    const short =
      before.paidVia === "telegram" ? await beforeStarsClaim(this.#telegram, before) : undefined;
    if (short !== undefined) return this.#refuse(before, short, close);
    const claim = await this.#writes.write("claim", () =>
      this.#ledger.claim(id, userId, this.#clock(), { isAdmin: options.isAdmin === true }),
    );
    if (claim.ok) return claim.intent;
    // Refused: the Star balance read before it is not needed (it was kept only for a gift sent).
    this.#telegram?.done(id);
    const { ok: _ok, ...refusal } = claim;
    const now = await this.#ledger.get(id);
    return now?.status === "queued"
      ? this.#refuse(now, refusal, close)
      : { kind: "refused", refusal };
  }

  /**
   * Sends a claimed intent's one request, in its slot (at once), and records the outcome. The
   * claim has committed: only now may the request go, and only if this process still certainly
   * holds the sender lease (`mayLeave`, asked by the client as the request's last step);
   * withheld, it is recorded as not sent.
   */
  async #send(
    claimed: PurchaseIntent,
    slot: PurchaseSlot,
    options: LaneOptions,
  ): Promise<ConfirmResult> {
    const id = claimed.id;
    const claim = { intent: claimed };
    const telegram = claimed.paidVia === "telegram" ? this.#telegram : undefined;
    // The wallet's reading before: not for a gift paid in Stars, which the wallet never pays.
    const inBefore = telegram ? [] : await this.#refreshBalanceBefore(claim.intent);
    try {
      options.onClaimed?.();
    } catch (err) {
      this.#logger.warn({ err, intentId: id }, "onClaimed listener failed");
    }
    const outcome = telegram
      ? await telegram.send(claim.intent, this.#mayLeave)
      : await sendPurchase(this.#client, claim.intent, {
          slot,
          ...(this.#mayLeave ? { mayLeave: this.#mayLeave } : {}),
        });
    if (outcome.kind === "not_sent" || outcome.kind === "invalid") {
      telegram?.done(id);
      return this.#outcomes.recordNotSent(claim.intent, outcome);
    }
    const answer: TimedOutcome = { outcome, answeredAt: this.#clock() };
    const recorded = await this.#outcomes.record(claim.intent, outcome.kind, answer, () =>
      this.#ledger.recordOutcome(id, outcome, this.#clock()),
    );
    if (recorded === undefined) return unrecorded(claim.intent);
    const { intent } = recorded;
    this.#finishedHere.push(id);
    if (this.#finishedHere.length > FINISHES_KEPT) this.#finishedHere.shift();
    if (intent.kind === "premium" && outcome.kind === "success") {
      this.#reads.recipients.forget(intent.recipient.toLowerCase());
    }
    if (telegram) return telegram.afterOutcome(intent, outcome, recorded);
    this.#reads.balances.forget("wallet");
    // Its reading after comes from the desk's read once out of the lane, or a later one.
    if (outcome.kind === "success" && recorded.recorded) this.#costs?.delivered(intent, inBefore);
    if (outcome.kind === "ambiguous" && recorded.recorded) {
      this.#events.emit("unconfirmed", intent.id, intent, outcome);
    }
    // An answer that came after a recovery made the intent unconfirmed (another process took
    // over meanwhile): a definite one settled it, or contradicts an admin's settlement.
    if (outcome.kind === "success" || outcome.kind === "rejected") {
      if (recorded.late === "settled") {
        this.#events.emit("settled", id, intent, { by: "service", answer: outcome });
      } else if (recorded.late === "contradicts") {
        this.#events.emit("lateContradiction", id, intent, outcome);
      }
    }
    return confirmResultOf(outcome, recorded);
  }

  /**
   * Reads `is_premium` again unless a fresh, plain answer is cached (concurrent confirmations
   * share the read). The result when nothing may be bought, else undefined.
   */
  async #premiumBlock(
    before: PurchaseIntent,
    userId: number,
    onQueued: OnQueued,
    close: boolean,
  ): Promise<ConfirmResult | undefined> {
    const cached = this.#reads.recipients.peek(before.recipient.toLowerCase());
    const check =
      freshPremiumCheck(cached, this.#clock(), this.#recheckAfterMs) ??
      (await this.#reads.recipient(before.recipient, { fresh: true, onQueued }));
    const verdict = premiumVerdict(check);
    if (verdict === undefined) return undefined;
    if (verdict === "has_premium") return this.#recipientHasPremium(before, userId);
    return this.#refuse((await this.#ledger.get(before.id)) ?? before, verdict, close);
  }

  /** The recipient got premium since: nothing is bought, the draft or queued promise closed. */
  async #recipientHasPremium(intent: PurchaseIntent, userId: number): Promise<ConfirmResult> {
    const closed =
      intent.status === "queued"
        ? (await this.#ledger.closeQueued(intent.id, "recipient_has_premium", this.#clock())) !==
          undefined
        : await this.#ledger.cancel(intent.id, userId, this.#clock());
    if (!closed) return { kind: "refused", refusal: { reason: "already_processing" } };
    return { kind: "recipient_has_premium", intent: (await this.#ledger.get(intent.id)) ?? intent };
  }

  /**
   * A confirmation that will not be sent. A draft stays a draft. A queued one goes back to an
   * open draft when the refusal passes by itself (paused, on hold, a limit, the recipient not
   * checkable just now) and the person is there to press again; otherwise, and always at the
   * start after a crash (`close`), it is closed unsent with an answer to give.
   */
  async #refuse(
    intent: PurchaseIntent,
    refusal: ConfirmRefusal,
    close: boolean,
  ): Promise<ConfirmResult> {
    if (intent.status !== "queued") return { kind: "refused", refusal };
    const now = this.#clock();
    if (
      !close &&
      isPassingRefusal(refusal) &&
      (await this.#writes.write("close", () => this.#ledger.reopenQueued(intent.id, now)))
    ) {
      return { kind: "refused", refusal };
    }
    const closed = await this.#writes.write("close", () =>
      this.#ledger.closeQueued(intent.id, refusal.reason, now),
    );
    return closed === undefined
      ? { kind: "refused", refusal: { reason: "already_processing" } }
      : { kind: "closed", intent: closed, refusal };
  }

  /**
   * Just before a claimed intent's request goes out, replaces its "balance before" (read for
   * the draft, up to the draft's lifetime ago) with a newer read the desk already holds, so a
   * purchase sent in between is not mistaken for this one's spending. Evidence only: a failure
   * to write it is logged and the purchase goes on, since the claim has already committed.
   */
  async #refreshBalanceBefore(intent: PurchaseIntent): Promise<readonly string[]> {
    const known = knownBalance(this.#reads.balances.peek("wallet"));
    if (known === undefined) return [];
    try {
      await this.#ledger.recordBalanceBefore(intent.id, known.balance, known.at, this.#clock());
    } catch (err) {
      this.#logger.warn(
        { err, intentId: intent.id },
        "could not record the balance before a purchase",
      );
      return [];
    }
    // A cached reading started after every purchase this process had finished: each one
    // forgets the cached balance and keeps a read then in flight from being cached.
    return [...this.#finishedHere];
  }
}

/** A gift in Stars right before its claim: refused when the bot's balance cannot pay for it. */
function beforeStarsClaim(
  telegram: TelegramWay | undefined,
  intent: PurchaseIntent,
): Promise<ConfirmRefusal | undefined> {
  return telegram === undefined
    ? Promise.resolve({ reason: "stars_unavailable" })
    : telegram.beforeClaim(intent);
}
