/**
 * The breaker's pause when the database refused to write it. The breaker has opened: believing
 * purchases paused while the database says they are open would let the next confirmation out
 * against the service that just refused several in a row. So the pause is kept here, unrecorded, in memory
 * (the desk refuses every confirmation as paused by the breaker while it is), and written again
 * in the background with a growing pause until the database takes it. An admin's resume drops
 * it. A refusal that will never pass (read-only file) stops the retries but keeps the pause
 * for as long as the process runs; admins are told through the desk's storage failures.
 */
import { backoffDelay } from "../shared/backoff.js";
import type { Logger } from "../shared/logger.js";
import type { UnrecordedRetry } from "./unrecorded.js";

export class UnrecordedPause {
  readonly #retry: UnrecordedRetry;
  readonly #logger: Logger;
  readonly #isTransient: (error: unknown) => boolean;
  #write: (() => Promise<void>) | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: {
    retry: UnrecordedRetry;
    logger: Logger;
    isTransient: (error: unknown) => boolean;
  }) {
    this.#retry = options.retry;
    this.#logger = options.logger;
    this.#isTransient = options.isTransient;
  }

  /** Whether a pause waits to be written: purchases are closed meanwhile. */
  get active(): boolean {
    return this.#write !== undefined;
  }

  /**
   * Holds the pause from this moment and writes it at once; `onRefused` is told when that
   * first write fails, and it is then tried again in the background. Kept until written: the
   * store answers later, and no confirmation may get out meanwhile. Resolves
   * when the first write has landed or been refused (never rejects).
   */
  writeNow(write: () => Promise<void>, onRefused: (error: unknown) => void): Promise<void> {
    this.drop();
    this.#write = write;
    return this.#tryWrite(0, onRefused);
  }

  /** Forgets the unrecorded pause (written, an admin resumed, or the process stops). */
  drop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#write = undefined;
  }

  #schedule(attempt: number): void {
    this.#timer = setTimeout(
      () => void this.#tryWrite(attempt),
      backoffDelay(this.#retry, attempt),
    );
    // Never keeps the process alive by itself.
    this.#timer.unref();
  }

  async #tryWrite(attempt: number, onRefused?: (error: unknown) => void): Promise<void> {
    this.#timer = undefined;
    const write = this.#write;
    if (write === undefined) return;
    try {
      await write();
    } catch (err) {
      onRefused?.(err);
      if (this.#write !== write) return;
      if (!this.#isTransient(err)) {
        this.#logger.error(
          { err },
          "the breaker's pause cannot be written; kept unrecorded until restart",
        );
        return;
      }
      if (attempt > 0)
        this.#logger.warn({ err, attempt }, "the breaker's pause still cannot be written");
      this.#schedule(attempt + 1);
      return;
    }
    if (this.#write !== write) return;
    this.#write = undefined;
    if (attempt > 0) this.#logger.warn("the unrecorded breaker's pause is written");
  }
}
