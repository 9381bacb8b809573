/**
 * Writing what came of a request: the outcome right after the answer, tried again briefly when
 * the database refuses (src/shared/write-retry.ts), and kept in memory, unrecorded, and written in the
 * background when it still refuses (./unrecorded.ts), the admins told at once meanwhile. A
 * request that never left is recorded "not sent" the same way.
 */
import type { PurchaseIntent, PurchaseLedger, RecordedOutcome } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";
import type { Ambiguous, PurchaseOutcome } from "../service/types.js";
import { OUTCOME_WRITE_RETRY, retryWrite, type WriteRetryPolicy } from "../shared/write-retry.js";
import { lateAfterRecovery } from "./decisions.js";
import type { ConfirmResult } from "./types.js";
import { type UnrecordedRetry, UnrecordedOutcomes } from "./unrecorded.js";

/** The service's answer to a request that went out, and when it came. */
export interface TimedOutcome {
  outcome: PurchaseOutcome;
  answeredAt: number;
}

export interface OutcomeRecorderOptions {
  ledger: PurchaseLedger;
  logger: Logger;
  clock: () => number;
  /** How a refused write is retried at once (default OUTCOME_WRITE_RETRY; tests). */
  retry?: Partial<WriteRetryPolicy> | undefined;
  /** How an outcome still refused after that is written in the background (tests). */
  unrecordedRetry?: UnrecordedRetry | undefined;
  /** An unrecorded outcome written at last as unconfirmed: the admins settle it. */
  onUnconfirmed: (intent: PurchaseIntent, ambiguity: Ambiguous) => void;
  /** A write refused for good, or a "not sent" refused past its retries: the admins are told. */
  onRefused: (error: unknown) => void;
  /** An answer whose outcome could not be written yet: the admins must be told at once. */
  onUnrecorded: (intent: PurchaseIntent, answer: PurchaseOutcome) => void;
}

export class OutcomeRecorder {
  readonly #ledger: PurchaseLedger;
  readonly #logger: Logger;
  readonly #clock: () => number;
  readonly #retry: WriteRetryPolicy;
  readonly #unrecorded: UnrecordedOutcomes;
  readonly #onUnconfirmed: OutcomeRecorderOptions["onUnconfirmed"];
  readonly #onRefused: OutcomeRecorderOptions["onRefused"];
  readonly #onUnrecorded: OutcomeRecorderOptions["onUnrecorded"];

  constructor(options: OutcomeRecorderOptions) {
    this.#ledger = options.ledger;
    this.#logger = options.logger;
    this.#clock = options.clock;
    this.#retry = { ...OUTCOME_WRITE_RETRY, ...options.retry };
    this.#onUnconfirmed = options.onUnconfirmed;
    this.#onRefused = options.onRefused;
    this.#onUnrecorded = options.onUnrecorded;
    this.#unrecorded = new UnrecordedOutcomes({
      retry: options.unrecordedRetry,
      logger: options.logger,
      isTransient: options.ledger.isTransientWriteError,
      onGiveUp: (err) => options.onRefused(err),
    });
  }

  /** Unrecorded outcomes, waiting in memory to be written: purchases are on hold meanwhile. */
  get unrecordedCount(): number {
    return this.#unrecorded.size;
  }

  /** Tries every unrecorded write once more and stops the background retries (shutdown). */
  close(): Promise<void> {
    return this.#unrecorded.close();
  }

  /**
   * The request never left: cancelled while queued, or refused by the client's own checks.
   * Nothing was spent, so the cached balance still holds.
   */
  async recordNotSent(
    claimed: PurchaseIntent,
    outcome: Extract<PurchaseOutcome, { kind: "invalid" }> | { kind: "not_sent"; detail: string },
  ): Promise<ConfirmResult> {
    const reason = outcome.kind === "not_sent" ? "cancelled" : "invalid";
    const detail =
      outcome.kind === "not_sent"
        ? outcome.detail
        : `not sent: refused by the client before sending (invalid ${outcome.field})`;
    const recorded = await this.record(claimed, reason, undefined, () =>
      this.#ledger.recordNotSent(claimed.id, detail, this.#clock()),
    );
    // Nothing left, whatever the database says: the person hears "not sent", and the admins
    // hear of the write that is unrecorded (purchases wait until it lands; a restart would make the
    // intent unknown, to be settled as not delivered).
    if (recorded === undefined) return { kind: "not_sent", intent: claimed, reason };
    return recorded.recorded
      ? { kind: "not_sent", intent: recorded.intent, reason }
      : lateAfterRecovery(recorded.intent);
  }

  /**
   * Writes an outcome, trying again briefly when the database refuses (see
   * src/shared/write-retry.ts), and logs it (ids, kinds and statuses only: never the request,
   * its headers or the service's body). Undefined when the write still failed: the outcome is
   * then unrecorded and written in the background ({@link keepUnrecorded}).
   */
  async record(
    claimed: PurchaseIntent,
    outcomeKind: string,
    answer: TimedOutcome | undefined,
    write: () => Promise<RecordedOutcome>,
  ): Promise<RecordedOutcome | undefined> {
    const id = claimed.id;
    let recorded: RecordedOutcome;
    try {
      recorded = await retryWrite(
        write,
        {
          ...this.#retry,
          onRetry: (err, attempt) =>
            this.#logger.warn(
              { err, intentId: id, attempt },
              "could not record an outcome; retrying",
            ),
        },
        this.#ledger.isTransientWriteError,
      );
    } catch (err) {
      this.#logger.error(
        { err, intentId: id, outcome: outcomeKind },
        "could not record a purchase outcome",
      );
      // An answer that went unrecorded has its own alert (the desk's `outcomeUnrecorded` event); a request that
      // never left has none, so its refused write is reported here.
      if (answer === undefined) this.#onRefused(err);
      this.#keepUnrecorded(claimed, write, answer);
      return undefined;
    }
    const intent = recorded.intent;
    this.#logger[intent.status === "unconfirmed" ? "warn" : "info"](
      { intentId: id, kind: intent.kind, status: intent.status, outcome: outcomeKind },
      "purchase outcome recorded",
    );
    return recorded;
  }

  /**
   * Holds an outcome the database refused (see ./unrecorded.ts). A request that went out is
   * written as unconfirmed once the database takes it, the admins told at once meanwhile; a
   * "not sent" write is simply tried again, since nothing needs settling.
   */
  #keepUnrecorded(
    claimed: PurchaseIntent,
    write: () => Promise<RecordedOutcome>,
    answer: TimedOutcome | undefined,
  ): void {
    if (answer === undefined) {
      this.#unrecorded.keep(claimed.id, write, () => undefined);
      return;
    }
    this.#unrecorded.keep(
      claimed.id,
      () =>
        this.#ledger.recordUnwrittenOutcome(
          claimed.id,
          answer.outcome,
          answer.answeredAt,
          this.#clock(),
        ),
      (recorded) => {
        if (recorded.recorded && recorded.intent.status === "unconfirmed") {
          this.#onUnconfirmed(recorded.intent, {
            kind: "ambiguous",
            cause: "transport",
            detail: "the outcome could not be recorded at once",
          });
        }
      },
    );
    this.#onUnrecorded(claimed, answer.outcome);
  }
}
