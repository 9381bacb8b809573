/**
 * Listeners of one desk event. A listener that throws (or whose promise rejects) is logged and
 * never disturbs the purchase or the other listeners.
 */
import type { Logger } from "../shared/logger.js";

export class Listeners<A extends unknown[]> {
  readonly #listeners = new Set<(...args: A) => unknown>();
  readonly #logger: Logger;
  readonly #failure: string;

  /** `failure`: what the log line says failed, e.g. "unconfirmed listener failed". */
  constructor(logger: Logger, failure: string) {
    this.#logger = logger;
    this.#failure = failure;
  }

  /** Adds a listener; returns a function that removes it. */
  add(listener: (...args: A) => unknown): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** How many listen now (work nobody listens to need not be done). */
  get size(): number {
    return this.#listeners.size;
  }

  /**
   * Calls every listener and waits for those that return a promise: for listeners whose work
   * must be done before the caller goes on (the breaker, before the next claim).
   */
  async emitAndWait(intentId: string | undefined, ...args: A): Promise<void> {
    await Promise.all(
      [...this.#listeners].map(async (listener) => {
        try {
          await listener(...args);
        } catch (err) {
          this.#logger.error({ err, intentId }, this.#failure);
        }
      }),
    );
  }

  /** Calls every listener; `intentId`, when there is one, goes into the log line of a failure. */
  emit(intentId: string | undefined, ...args: A): void {
    for (const listener of this.#listeners) {
      try {
        const result = listener(...args);
        if (result instanceof Promise) {
          result.catch((err: unknown) => this.#logger.error({ err, intentId }, this.#failure));
        }
      } catch (err) {
        this.#logger.error({ err, intentId }, this.#failure);
      }
    }
  }
}
