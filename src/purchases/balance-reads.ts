/**
 * The desk's own balance reads around purchases: the one read after a person's purchase (only
 * when it takes no one's turn), and a giveaway recipient's reads before and after, so each
 * gift's cost has its readings. They run beside the purchases; `idle()` waits for them.
 */
import { knownBalance } from "./decisions.js";
import type { CostMeter } from "./cost-meter.js";
import type { DeskEventHub } from "./desk-events.js";
import type { ServiceReads } from "./service-reads.js";
import type { ConfirmResult } from "./types.js";

/** How long a giveaway's next recipient waits for the last one's cost to be measured. */
const BATCH_COST_WAIT_MS = 5_000;

export interface PurchaseBalanceReadsParts {
  reads: ServiceReads;
  events: DeskEventHub;
  costs: CostMeter | undefined;
  /** Whether a request now would take no one's turn in the service's quota. */
  quotaIdle: () => boolean;
  /** Whether another confirmation is on its way (its request, not this one's, comes next). */
  othersOnTheirWay: () => boolean;
}

export class PurchaseBalanceReads {
  readonly #parts: PurchaseBalanceReadsParts;
  /** The reads under way, until they and their listeners are done. */
  readonly #background = new Set<Promise<unknown>>();

  constructor(parts: PurchaseBalanceReadsParts) {
    this.#parts = parts;
  }

  /** Resolves once every read started so far has been answered and its listeners told. */
  async idle(): Promise<void> {
    while (this.#background.size > 0) await Promise.all([...this.#background]);
  }

  /**
   * The one "balance after purchase" read, for the balance-read listeners, after a request went
   * out (the cached balance was forgotten when its outcome was recorded). It takes no one's
   * turn: made only when the quota is idle and no other confirmation is on its way (this one
   * is done). Otherwise no request: the
   * next balance read a summary or /balance makes anyway reaches the listeners instead. A
   * fresh read, so it is not an answer to a read started before this purchase's outcome. The
   * cost meter is told which delivered purchases it is for (`sent`: the confirmations whose
   * request went out), so their cost can wait for it.
   */
  afterPurchase(all: readonly ConfirmResult[]): void {
    // A gift paid in Stars changed nothing in the wallet: no read after it.
    const sent = all.filter(
      (result) => !("intent" in result) || result.intent.paidVia !== "telegram",
    );
    if (
      sent.length === 0 ||
      !this.#parts.events.has("balanceRead") ||
      this.#parts.othersOnTheirWay() ||
      !this.#parts.quotaIdle()
    ) {
      return;
    }
    const read: Promise<unknown> = this.#parts.reads
      .balance({ fresh: true })
      .finally(() => this.#background.delete(read));
    this.#background.add(read);
    const delivered = sent.flatMap((r) => (r.kind === "succeeded" ? [r.intent.id] : []));
    this.#parts.costs?.readingAfter(delivered, read);
  }

  /**
   * A giveaway's recipient has its balance read before, as the service's call order asks
   * (check, read the balance, record, buy), and so that its cost has a reading just before it.
   * Run before it asks for its quota slot, holding nothing (a read waiting for the quota inside
   * the lane, with a slot held, could wait for slots that only the lane frees): the reading
   * after the previous recipient serves (no purchase has gone out since: each one forgets the
   * cached balance); after a person's purchase went in between, the balance is read now. A
   * person's purchase that goes between this reading and the claim forgets it again: the
   * claim then keeps no reading before, and the cost says why it has none.
   */
  async beforeBatchItem(): Promise<void> {
    if (knownBalance(this.#parts.reads.balances.peek("wallet")) !== undefined) return;
    await this.#parts.reads.balance({ fresh: true, bulk: true });
  }

  /**
   * A giveaway's delivered recipient: the balance is read again at once (a person's purchase
   * is read after only when the quota is idle; a giveaway keeps the quota busy, so it would
   * never be), and the batch goes on once the cost is measured from it, at most
   * {@link BATCH_COST_WAIT_MS} later. The same reading is the next recipient's reading before.
   * One more request per recipient: the giveaway takes twice the quota, and each gift has its
   * cost (or the stated reason it has none: another purchase went out in between). Both reads
   * are the giveaway's (`bulk`): after everyone's requests, never in the window's last slots.
   */
  async afterBatchItem(id: string): Promise<void> {
    const read: Promise<unknown> = this.#parts.reads
      .balance({ fresh: true, bulk: true })
      .finally(() => this.#background.delete(read));
    this.#background.add(read);
    this.#parts.costs?.readingAfter([id], read);
    await read;
    await this.#parts.costs?.settled(id, BATCH_COST_WAIT_MS);
  }
}
