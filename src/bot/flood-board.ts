/**
 * Who the update flood guard (fair-share/flood-guard.ts) cut short recently: a service of the
 * bot's kit, noted by the guard and read by the admins' /balance.
 */
import type { ThrottledPerson } from "../purchases/check-allowance.js";

/** Who was cut short recently, for the admins' status (ids only, never a metric label). */
export class FloodBoard {
  readonly #until = new Map<number, number>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  note(userId: number, until: number): void {
    this.#until.delete(userId);
    this.#until.set(userId, until);
    // Bounded: the oldest notes (long over) go first.
    if (this.#until.size > 1_000) {
      const oldest = this.#until.keys().next();
      if (oldest.done !== true) this.#until.delete(oldest.value);
    }
  }

  /** People whose updates are being dropped now, soonest free first. */
  throttled(): ThrottledPerson[] {
    const now = this.#now();
    const people: ThrottledPerson[] = [];
    for (const [userId, until] of this.#until) {
      if (until > now) people.push({ userId, until });
      else this.#until.delete(userId);
    }
    return people.sort((a, b) => a.until - b.until);
  }
}
