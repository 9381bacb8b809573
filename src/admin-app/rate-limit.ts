/**
 * Writes per admin per minute: a stolen session, or a page stuck in a loop, cannot pause and
 * resume purchases hundreds of times. A fixed window per admin is enough for a handful of
 * admins; the map never holds more than the admins who wrote in the current window.
 */
export class WriteLimit {
  readonly #max: number;
  readonly #windowMs: number;
  readonly #clock: () => number;
  #windowStart = 0;
  readonly #counts = new Map<number, number>();

  constructor(options: { max: number; windowMs: number; clock: () => number }) {
    this.#max = options.max;
    this.#windowMs = options.windowMs;
    this.#clock = options.clock;
  }

  /** Counts one write of `adminId`; false when it is over the limit (nothing is done). */
  take(adminId: number): boolean {
    const now = this.#clock();
    if (now - this.#windowStart >= this.#windowMs) {
      this.#windowStart = now;
      this.#counts.clear();
    }
    const used = this.#counts.get(adminId) ?? 0;
    if (used >= this.#max) return false;
    this.#counts.set(adminId, used + 1);
    return true;
  }
}
