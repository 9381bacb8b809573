/**
 * Work an update's handler starts and does not wait for, so that the chat's next update is not
 * held behind it (a receipt's cost, added by an edit once measured). The app's stop waits for it
 * before closing the client and the database; tests wait for it to read the final messages.
 */
export class BackgroundWork {
  readonly #pending = new Set<Promise<unknown>>();

  /** Keeps `work` until it settles; its failure is the caller's to log (it is swallowed here). */
  track(work: Promise<unknown>): void {
    const settled: Promise<unknown> = work
      .catch(() => undefined)
      .finally(() => this.#pending.delete(settled));
    this.#pending.add(settled);
  }

  /** Resolves once everything tracked so far (and anything it started) has settled. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}
