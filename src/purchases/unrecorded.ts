/**
 * Outcomes the ledger could not record after their request went out. The desk first retries
 * the write briefly (src/shared/write-retry.ts); when the database still refuses, the outcome is
 * kept here, unrecorded, in memory, and written again in the background with a growing pause (bounded by
 * `maxDelayMs`) for as long as the process runs, until the database takes it. Meanwhile the
 * desk lets no purchase out and counts each unrecorded outcome as unconfirmed, so people are told
 * purchases are on hold, not "busy". If the process stops first, the intent is still `sending`
 * in the database and the next start recovers it as unconfirmed: nothing is lost either way.
 */
import { backoffDelay } from "../shared/backoff.js";
import type { RecordedOutcome } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";

export interface UnrecordedRetry {
  /** The pause before the first background write; it doubles up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

/** 1 s doubling to 30 s: the database is written again within 30 s of accepting writes. */
export const UNRECORDED_RETRY: Readonly<UnrecordedRetry> = {
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
};

interface Unrecorded {
  write: () => Promise<RecordedOutcome>;
  onRecorded: (recorded: RecordedOutcome) => void;
  attempt: number;
  timer: NodeJS.Timeout | undefined;
}

export class UnrecordedOutcomes {
  readonly #waiting = new Map<string, Unrecorded>();
  readonly #retry: UnrecordedRetry;
  readonly #logger: Logger;
  readonly #isTransient: (error: unknown) => boolean;
  readonly #onGiveUp: (error: unknown) => void;
  #closed = false;

  constructor(options: {
    retry?: UnrecordedRetry | undefined;
    logger: Logger;
    /** The ledger's `isTransientWriteError`. */
    isTransient: (error: unknown) => boolean;
    /** Told when a write is refused for good and no longer retried (the admins must know). */
    onGiveUp?: (error: unknown) => void;
  }) {
    this.#onGiveUp = options.onGiveUp ?? (() => undefined);
    this.#retry = options.retry ?? UNRECORDED_RETRY;
    this.#logger = options.logger;
    this.#isTransient = options.isTransient;
  }

  /** How many outcomes wait to be written. */
  get size(): number {
    return this.#waiting.size;
  }

  /**
   * Holds an outcome whose write failed: `write` is tried again in the background until it
   * succeeds (or a ledger refusal says it never will); `onRecorded` runs once it is written.
   */
  keep(
    intentId: string,
    write: () => Promise<RecordedOutcome>,
    onRecorded: Unrecorded["onRecorded"],
  ): void {
    const entry: Unrecorded = { write, onRecorded, attempt: 0, timer: undefined };
    this.#waiting.set(intentId, entry);
    this.#schedule(intentId, entry);
  }

  /** Tries every unrecorded write once now and stops the background retries (shutdown). */
  async close(): Promise<void> {
    this.#closed = true;
    const tries = [...this.#waiting].map(([id, entry]) => {
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      return this.#tryWrite(id, entry);
    });
    await Promise.all(tries);
  }

  #schedule(intentId: string, entry: Unrecorded): void {
    if (this.#closed) return;
    const delay = backoffDelay(this.#retry, entry.attempt + 1);
    entry.attempt++;
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      void this.#tryWrite(intentId, entry).then((settled) => {
        if (!settled) this.#schedule(intentId, entry);
      });
    }, delay);
    // An unrecorded outcome never keeps the process alive by itself: the next start recovers it.
    entry.timer.unref();
  }

  /** One write; true when it is settled (written, or refused for good). */
  async #tryWrite(intentId: string, entry: Unrecorded): Promise<boolean> {
    let recorded: RecordedOutcome;
    try {
      recorded = await entry.write();
    } catch (err) {
      if (!this.#isTransient(err)) {
        // A ledger refusal or a closed database will never take it: the intent stays
        // `sending`, and the next start recovers it as unconfirmed.
        this.#waiting.delete(intentId);
        this.#logger.error(
          { err, intentId },
          "an unrecorded outcome cannot be recorded; left to the next start",
        );
        this.#onGiveUp(err);
        return true;
      }
      this.#logger.warn(
        { err, intentId, attempt: entry.attempt },
        "the outcome still cannot be recorded; retrying",
      );
      return false;
    }
    this.#waiting.delete(intentId);
    this.#logger.warn(
      { intentId, status: recorded.intent.status },
      "an unrecorded outcome is recorded",
    );
    try {
      entry.onRecorded(recorded);
    } catch (err) {
      this.#logger.error({ err, intentId }, "after recording an unrecorded outcome");
    }
    return true;
  }
}
