/**
 * The purchase breaker on the desk's purchase path: it listens to every purchase that went
 * out (the desk's `sent` event), feeds the outcome to the breaker, and when the
 * breaker opens, pauses purchases in the ledger with the reasons (so the next claim is refused,
 * and a restart stays paused) and tells its listeners (the admin notifier).
 *
 * The ledger's pause is the one truth of whether purchases are open: an admin's /resume (or
 * the Resume button) lifts it, and the guard sees that at the next outcome and closes the
 * breaker, which keeps the last cause on probation (see {@link PurchaseBreaker}).
 */
import type { Logger } from "../shared/logger.js";
import { asOpening, type BreakerInput, type BreakerOpening, PurchaseBreaker } from "./breaker.js";
import type { PurchaseRecords } from "./records.js";
import type { PurchaseDesk, SentResult } from "./types.js";

export type BreakerOpenedListener = (opening: BreakerOpening) => void;

export interface BreakerGuardOptions {
  desk: PurchaseDesk;
  /** Where the pause's reason is read: the ledger decides whether purchases are open. */
  records: Pick<PurchaseRecords, "pauseReason">;
  /** Consecutive non-input refusals that open it (BREAKER_REFUSALS). */
  threshold: number;
  clock: () => number;
  logger: Logger;
}

export class BreakerGuard {
  readonly #options: BreakerGuardOptions;
  /** Built at the first purchase, from the pause kept in the ledger (a restart's probation). */
  #breaker: PurchaseBreaker | undefined;
  readonly #listeners = new Set<BreakerOpenedListener>();

  constructor(options: BreakerGuardOptions) {
    this.#options = options;
  }

  /** Starts listening to the desk; returns a function that stops. */
  listen(): () => void {
    return this.#options.desk.events.on("sent", (result) => this.#onSent(result));
  }

  /** Called once per opening (not per refusal). */
  onOpened(listener: BreakerOpenedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Awaited by the desk inside the purchase lane: the next confirmation's claim waits until the
   * breaker has judged this outcome (and paused purchases if it opened).
   */
  async #onSent(result: SentResult): Promise<void> {
    const breaker = await this.#syncWithPause();
    const input: BreakerInput =
      result.kind === "rejected"
        ? result.rejection
        : { kind: result.kind === "succeeded" ? "success" : "ambiguous" };
    const { clock, desk, logger } = this.#options;
    const event = breaker.record(input, result.intent.id, clock());
    if (event.kind !== "opened") return;
    // Before the next purchase in the lane can claim: the desk holds the pause from this call.
    // Awaited, so that the confirmation that opened it returns with the pause in the ledger
    // (what a person or admin reads next says paused), on PostgreSQL as on SQLite.
    await desk.pauseByBreaker(event.opening);
    logger.warn(
      {
        cause: event.opening.cause,
        intents: event.opening.refusals.map((refusal) => refusal.intentId),
      },
      "purchases paused by the breaker after refusals from the service",
    );
    for (const listener of this.#listeners) {
      try {
        listener(event.opening);
      } catch (error) {
        logger.error({ err: error }, "breaker listener failed");
      }
    }
  }

  /**
   * The breaker as the ledger's pause says: built from it at the first purchase, and closed
   * (its cause staying on probation) when an admin has lifted the pause since.
   */
  async #syncWithPause(): Promise<PurchaseBreaker> {
    const reason = await this.#options.records.pauseReason();
    const byBreaker = reason?.source === "breaker";
    this.#breaker ??= new PurchaseBreaker({
      threshold: this.#options.threshold,
      openedBefore: byBreaker ? asOpening(reason.detail) : undefined,
    });
    if (this.#breaker.isOpen && !byBreaker) this.#breaker.close();
    return this.#breaker;
  }
}
