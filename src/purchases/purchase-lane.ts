/**
 * One purchase at a time, in arrival order. The ledger's claim already refuses a second
 * purchase while one is `sending` (across processes too); the lane makes this process's
 * confirmations wait their turn instead of being refused.
 */
export class PurchaseLane {
  #tail: Promise<unknown> = Promise.resolve();
  #pending = 0;

  /** Whether a purchase is running or waiting now. */
  get busy(): boolean {
    return this.#pending > 0;
  }

  /** Runs `task` after every task queued before it has settled. */
  run<T>(task: () => Promise<T>): Promise<T> {
    this.#pending++;
    const result = this.#tail.then(task).finally(() => {
      this.#pending--;
    });
    // A failed task must not stop the ones behind it.
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
