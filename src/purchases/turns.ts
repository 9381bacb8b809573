/**
 * How each confirmation (a person's, a giveaway recipient's, a queued one at the start) takes
 * its turn in this process: first its slot of the service's quota, then its turn in the
 * purchase lane, where it is claimed and, at once, sent (./claim-and-send.ts).
 *
 * The slot comes first so that nothing claimed ever waits for the quota (#35): a stop while a
 * confirmation waits finds it unclaimed, and a request follows its claim at once. The order
 * also keeps people first during a giveaway (#37): a giveaway's recipient waits for its slot
 * outside the lane, behind every other request of the client and never in the quota's last
 * slots, so a person's Confirm that comes meanwhile takes the next free slot and the next
 * turn. Nothing waits for a slot while holding the lane, and the lane's holder never waits for
 * a slot (a premium recipient's `is_premium` is read before the slot): one cannot hold up the
 * other.
 */
import type { PurchaseLedger, QueueResult } from "../ledger/types.js";
import { GiftServiceCallCancelledError } from "../service/errors.js";
import type { GiftServiceClient, PurchaseSlot, ReserveOptions } from "../service/types.js";
import type { ClaimAndSend, LaneOptions } from "./claim-and-send.js";
import { PurchaseLane } from "./purchase-lane.js";
import type { RefusedWrites } from "./refused-writes.js";
import type { ConfirmPressOptions, ConfirmResult } from "./types.js";

export interface PurchaseTurnsParts {
  client: GiftServiceClient;
  ledger: PurchaseLedger;
  path: ClaimAndSend;
  writes: RefusedWrites;
  clock: () => number;
  /** Told of each result inside the lane, before the next turn (the desk's "sent" listeners). */
  told: (result: ConfirmResult) => Promise<ConfirmResult>;
  /** Whether gifts through Telegram are stopped (the bot is stopping): their slot says no. */
  giftsStopped: () => boolean;
}

export class PurchaseTurns {
  readonly #client: GiftServiceClient;
  readonly #ledger: PurchaseLedger;
  readonly #path: ClaimAndSend;
  readonly #writes: RefusedWrites;
  readonly #clock: () => number;
  readonly #told: (result: ConfirmResult) => Promise<ConfirmResult>;
  readonly #giftsStopped: () => boolean;
  // The ledger lets one purchase be in flight at a time; in this process, confirmations wait
  // their turn here instead of being refused as "busy".
  readonly #lane = new PurchaseLane();
  /** Confirmations holding their slot, waiting for the lane or in it. */
  #holding = 0;
  /**
   * People's confirmations on their way out (pressed, not yet sent or refused): a second press
   * is not queued again, and a giveaway's next recipient waits for them.
   */
  readonly #pressed = new Set<string>();
  /** Giveaway recipients waiting for the people on their way to be done. */
  #behindPeople: (() => void)[] = [];

  constructor(parts: PurchaseTurnsParts) {
    this.#client = parts.client;
    this.#ledger = parts.ledger;
    this.#path = parts.path;
    this.#writes = parts.writes;
    this.#clock = parts.clock;
    this.#told = parts.told;
    this.#giftsStopped = parts.giftsStopped;
  }

  /**
   * A gift through Telegram's stand-in for a quota slot: free at once, and ready unless the
   * bot is stopping (then nothing is claimed, as for a purchase still waiting for its slot).
   */
  #telegramSlot(): PurchaseSlot {
    return { ready: () => Promise.resolve(!this.#giftsStopped()), giveBack: () => undefined };
  }

  /**
   * Whether a confirmation is on its way: a person's pressed and not yet done, or any holding
   * its slot or its turn (the desk's balance read after a purchase waits for them).
   */
  get othersOnTheirWay(): boolean {
    return this.#holding > 0 || this.#pressed.size > 0;
  }

  /**
   * A person's Confirm. One that must wait (another confirmation holds its slot or its turn,
   * or the quota has no slot free for a purchase; a giveaway's recipient waiting for one is not
   * in the way) is written down as queued before the person is told: a crash while it waits
   * cannot lose the promise (the next start resolves it). The claim still decides later. A
   * refused write changed nothing: the summary stays a draft, to be pressed again.
   */
  async confirm(id: string, userId: number, options: ConfirmPressOptions): Promise<ConfirmResult> {
    // A second press of a summary already waiting or being sent in this process.
    if (this.#pressed.has(id))
      return { kind: "refused", refusal: { reason: "already_processing" } };
    this.#pressed.add(id);
    try {
      return await this.#confirmPressed(id, userId, options);
    } finally {
      this.#pressed.delete(id);
      if (this.#pressed.size === 0) for (const go of this.#behindPeople.splice(0)) go();
    }
  }

  /**
   * A giveaway's recipient: only once no person's confirmation is on its way does it ask for
   * its slot (as `bulk`: after every other request, never from the window's last slots), so
   * a person who pressed Confirm waits for no more than the one recipient already taking its
   * turn. It waits holding nothing: a slot held while waiting for people could be the one
   * they wait for. `beforeSlot` (the balance read before it) runs then, holding nothing either.
   */
  async takeBehindPeople(
    id: string,
    userId: number,
    options: LaneOptions,
    beforeSlot: () => Promise<void>,
  ): Promise<ConfirmResult> {
    while (this.#pressed.size > 0) {
      await new Promise<void>((resolve) => this.#behindPeople.push(resolve));
    }
    await beforeSlot();
    return this.take(id, userId, options, { bulk: true });
  }

  async #confirmPressed(
    id: string,
    userId: number,
    options: ConfirmPressOptions,
  ): Promise<ConfirmResult> {
    const viaTelegram = (await this.#ledger.get(id))?.paidVia === "telegram";
    const quotaWait = viaTelegram ? 0 : this.#client.estimateWait("purchase");
    const queued = this.#holding > 0 || quotaWait > 0;
    if (queued) {
      let written: QueueResult;
      try {
        written = await this.#writes.write("queue", () =>
          this.#ledger.queue(id, userId, this.#clock()),
        );
      } catch {
        return { kind: "refused", refusal: { reason: "storage" } };
      }
      if (!written.ok) {
        const { ok: _ok, ...refusal } = written;
        return { kind: "refused", refusal };
      }
      options.onQueued?.(Math.max(1_000, quotaWait));
    }
    const send: LaneOptions = { ...options, queued };
    // Told once: the estimate above already counts the quota's wait.
    return this.take(id, userId, send, queued ? {} : { onQueued: options.onQueued });
  }

  /**
   * The confirmation's way out: `is_premium` if needed, its slot (`reserve`: how it queues for
   * one), its turn, the claim and the request. A stop while it waits for the slot ends it
   * unclaimed.
   */
  async take(
    id: string,
    userId: number,
    options: LaneOptions,
    reserve: ReserveOptions,
  ): Promise<ConfirmResult> {
    const before = await this.#path.beforeSlot(id, userId, options);
    if (!("status" in before)) return before;
    let slot: PurchaseSlot;
    try {
      // A gift the bot pays in Stars takes no turn of the service's quota: it is not sent there.
      slot =
        before.paidVia === "telegram"
          ? this.#telegramSlot()
          : await this.#client.reservePurchase(reserve);
    } catch (err) {
      if (err instanceof GiftServiceCallCancelledError) return this.#path.withoutSlot(id, options);
      throw err;
    }
    this.#holding++;
    try {
      return await this.#lane.run(async () =>
        this.#told(await this.#path.run(id, userId, options, slot)),
      );
    } finally {
      this.#holding--;
    }
  }
}
