/**
 * The purchase breaker on the desk's purchase path: it listens to every purchase that went
 * out (the desk's `onPurchaseSent` event), feeds the outcome to the breaker, and when the
 * breaker opens, pauses purchases in the ledger with the reasons (so the next claim is refused,
 * and a restart stays paused) and tells its listeners (the admin notifier).
 *
 * The ledger's pause is the one truth of whether purchases are open: an admin's /resume (or
 * the Resume button) lifts it, and the guard sees that at the next outcome and closes the
 * breaker, which keeps the last cause on probation (see {@link PurchaseBreaker}).
 */
import type { Logger } from "../logger.js";
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
  readonly #breaker: PurchaseBreaker;
  readonly #listeners = new Set<BreakerOpenedListener>();

  constructor(options: BreakerGuardOptions) {
    this.#options = options;
    const reason = options.records.pauseReason();
    this.#breaker = new PurchaseBreaker({
      threshold: options.threshold,
      openedBefore: reason?.source === "breaker" ? asOpening(reason.detail) : undefined,
    });
  }

  /** Starts listening to the desk; returns a function that stops. */
  listen(): () => void {
    return this.#options.desk.onPurchaseSent((result) => this.#onSent(result));
  }

  /** Called once per opening (not per refusal). */
  onOpened(listener: BreakerOpenedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #onSent(result: SentResult): void {
    this.#syncWithPause();
    const input: BreakerInput =
      result.kind === "rejected"
        ? result.rejection
        : { kind: result.kind === "succeeded" ? "success" : "ambiguous" };
    const { clock, desk, logger } = this.#options;
    const event = this.#breaker.record(input, result.intent.id, clock());
    if (event.kind !== "opened") return;
    // Synchronously, before the next purchase in the lane can claim.
    desk.pauseByBreaker(event.opening);
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

  /** An admin lifted the pause since: the breaker closes (its cause stays on probation). */
  #syncWithPause(): void {
    if (this.#breaker.isOpen && this.#options.records.pauseReason()?.source !== "breaker") {
      this.#breaker.close();
    }
  }
}
