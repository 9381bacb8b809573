/**
 * The money path's writes when the database refuses them (a lock held elsewhere, a full disk, a
 * read-only file): each is tried again after asynchronous pauses, so the event loop never waits
 * on SQLite (src/storage/sqlite/open.ts); every refusal that outlasts its retries is told to the
 * storage-failure listeners (the admins). And what becomes of a confirmation whose claim could
 * not be written: a queued one is a promise a restart would keep by sending it, so it is closed
 * as not sent before its person hears so, never left behind with a "try again".
 */
import { backoffDelay } from "../shared/backoff.js";
import type { PurchaseIntent, PurchaseLedger } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";
import { retryWrite, type WriteRetryPolicy } from "../shared/write-retry.js";
import type { ConfirmRefusal, ConfirmResult, StorageFailure } from "./types.js";

/**
 * A claim, queue or close write the database refuses is tried again for about 3 s (6 tries,
 * 100 ms doubling to 1.6 s); the pauses are asynchronous, so the bot answers meanwhile.
 */
export const STORAGE_WRITE_RETRY: Readonly<Omit<WriteRetryPolicy, "sleep" | "onRetry">> = {
  attempts: 6,
  firstDelayMs: 100,
  maxDelayMs: 1_600,
};

/** The longest pause between tries to close a queued promise the database keeps refusing. */
const CLOSE_RETRY_MAX_DELAY_MS = 5_000;

export class RefusedWrites {
  readonly #ledger: PurchaseLedger;
  readonly #retry: WriteRetryPolicy;
  readonly #logger: Logger;
  readonly #clock: () => number;
  readonly #onFailure: (failure: StorageFailure) => void;

  constructor(options: {
    ledger: PurchaseLedger;
    retry?: Partial<WriteRetryPolicy> | undefined;
    logger: Logger;
    clock: () => number;
    /** Told of every refusal that outlasted its retries. */
    onFailure: (failure: StorageFailure) => void;
  }) {
    this.#ledger = options.ledger;
    this.#retry = { ...STORAGE_WRITE_RETRY, ...options.retry };
    this.#logger = options.logger;
    this.#clock = options.clock;
    this.#onFailure = options.onFailure;
  }

  /**
   * A write of the money path, tried again with asynchronous pauses while the database's
   * refusal may pass by itself (see {@link STORAGE_WRITE_RETRY}). Throws the last error when it
   * still fails, after telling the storage-failure listeners (a refusal that passed is only
   * logged: nobody needs waking for a lock that lasted a second).
   */
  async write<T>(operation: StorageFailure["operation"], write: () => Promise<T>): Promise<T> {
    return retryWrite(
      write,
      {
        ...this.#retry,
        onRetry: (err, attempt) =>
          this.#logger.warn({ err, operation, attempt }, "the database refused a write; retrying"),
      },
      this.#ledger.isTransientWriteError,
    ).catch((err: unknown) => {
      this.#logger.error({ err, operation }, "the database refused a write");
      this.report(operation, err);
      throw err;
    });
  }

  report(operation: StorageFailure["operation"], err: unknown): void {
    const code = (err as { code?: unknown } | undefined)?.code;
    this.#onFailure({
      operation,
      code: typeof code === "string" ? code : "unknown",
      transient: this.#ledger.isTransientWriteError(err),
    });
  }

  /**
   * The database refused a write before the request could go (the claim, or closing or
   * reopening a queued confirmation), past its retries: nothing was sent. A draft stays a
   * draft, to be pressed again. A queued confirmation is a promise that a restart would keep
   * by sending it, so it is closed as not sent before its person hears so ({@link
   * #closeAfterRefusedWrite}): never "try again" while a queued row of theirs remains.
   */
  async afterRefusedClaim(id: string, err: unknown, queued: boolean): Promise<ConfirmResult> {
    const refusal: ConfirmRefusal = { reason: "storage" };
    let current: PurchaseIntent | undefined;
    try {
      current = await this.#ledger.get(id);
    } catch (readErr) {
      this.#logger.error({ err: readErr, intentId: id }, "could not read an intent back");
    }
    this.#logger.error({ err, intentId: id, status: current?.status }, "a confirmation failed");
    if (current?.status === "queued" || (current === undefined && queued)) {
      return this.#closeAfterRefusedWrite(id, current);
    }
    return { kind: "refused", refusal };
  }

  /**
   * Closes a queued confirmation as not sent after the database refused its claim: tried again
   * with growing pauses (up to {@link CLOSE_RETRY_MAX_DELAY_MS}) until the close is written, or
   * until the confirmation's own expiry has passed, after which no claim (in this process or
   * after a restart) can send it any more. Its person waits as "queued" meanwhile.
   */
  async #closeAfterRefusedWrite(
    id: string,
    known: PurchaseIntent | undefined,
  ): Promise<ConfirmResult> {
    const refusal: ConfirmRefusal = { reason: "storage" };
    const sleep = this.#retry.sleep ?? defaultSleep;
    for (let attempt = 1; ; attempt++) {
      let intent = known;
      try {
        intent = (await this.#ledger.get(id)) ?? known;
        if (intent === undefined) return { kind: "refused", refusal: { reason: "not_found" } };
        // Claimed or closed by another process meanwhile: its outcome reaches its person there.
        if (intent.status !== "queued") {
          return { kind: "refused", refusal: { reason: "already_processing" } };
        }
        const closed = await this.#ledger.closeQueued(id, "storage", this.#clock());
        if (closed !== undefined) return { kind: "closed", intent: closed, refusal };
      } catch (err) {
        this.report("close", err);
        if (intent !== undefined && this.#clock() >= intent.expiresAt) {
          this.#logger.error(
            { err, intentId: id },
            "a queued confirmation could not be closed; it has expired, so nothing can send it",
          );
          return { kind: "closed", intent, refusal };
        }
      }
      const delayMs = backoffDelay(
        { firstDelayMs: this.#retry.firstDelayMs, maxDelayMs: CLOSE_RETRY_MAX_DELAY_MS },
        attempt,
      );
      await sleep(delayMs);
    }
  }
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
