/**
 * How many recipient checks one person may cause per minute. The service allows 30 requests a
 * minute for the whole bot (docs/service-contract.md §6) and every check that reaches it costs
 * one, so without a per-person allowance one person typing usernames as fast as they can spends
 * the whole window and everyone else waits for the next one. The client's scheduler makes the
 * queue fair; this makes the spending fair.
 *
 * A sliding window per person: the times of their last `perMinute` charged checks. A person
 * over the allowance is told exactly when the oldest charge leaves the window, which a fixed
 * counter (the update rate limiter's kind) cannot say. Only checks that would send a request
 * are charged (a cached or shared answer costs the service nothing; see the desk).
 */

/** One minute: the allowance's window, the service's quota window. */
export const CHECK_WINDOW_MS = 60_000;

/** People remembered at most; the least recently charged are forgotten first. */
const MAX_PEOPLE = 10_000;

export interface CheckAllowanceOptions {
  /** Checks one person may cause per minute (CHECKS_PER_USER_MINUTE). */
  perMinute: number;
  clock: () => number;
  /** The window, default a minute (the bench shortens it with the service's window). */
  windowMs?: number;
}

/** A charge refused: the person may check again in `retryAfterMs`. */
export interface AllowanceRefusal {
  retryAfterMs: number;
}

/** A person over their allowance, for the admins' status (ids only). */
export interface ThrottledPerson {
  userId: number;
  /** When they may check again (ms since the epoch, on the allowance's clock). */
  until: number;
}

export class CheckAllowance {
  readonly #perMinute: number;
  readonly #clock: () => number;
  readonly #windowMs: number;
  /** Each person's charge times, oldest first; the Map is kept least recently charged first. */
  readonly #charges = new Map<number, number[]>();
  /** Who was refused, and until when: shown to admins while it lasts. */
  readonly #refused = new Map<number, number>();

  constructor(options: CheckAllowanceOptions) {
    if (!Number.isInteger(options.perMinute) || options.perMinute < 1) {
      throw new RangeError("perMinute must be a whole number of at least 1");
    }
    this.#perMinute = options.perMinute;
    this.#clock = options.clock;
    this.#windowMs = options.windowMs ?? CHECK_WINDOW_MS;
  }

  get perMinute(): number {
    return this.#perMinute;
  }

  /**
   * Charges one check to `userId` if their allowance has room, and returns undefined; otherwise
   * charges nothing and says when the next check will be allowed.
   */
  charge(userId: number): AllowanceRefusal | undefined {
    const now = this.#clock();
    const recent = (this.#charges.get(userId) ?? []).filter((at) => now - at < this.#windowMs);
    if (recent.length >= this.#perMinute) {
      const oldest = recent[0] ?? now;
      const retryAfterMs = Math.max(1, oldest + this.#windowMs - now);
      this.#charges.set(userId, recent);
      this.#refused.set(userId, now + retryAfterMs);
      return { retryAfterMs };
    }
    recent.push(now);
    this.#charges.delete(userId);
    this.#charges.set(userId, recent);
    this.#refused.delete(userId);
    this.#trim();
    return undefined;
  }

  /** People refused a check whose wait is not over yet, soonest free first. */
  throttled(): ThrottledPerson[] {
    const now = this.#clock();
    const people: ThrottledPerson[] = [];
    for (const [userId, until] of this.#refused) {
      if (until > now) people.push({ userId, until });
      else this.#refused.delete(userId);
    }
    return people.sort((a, b) => a.until - b.until);
  }

  #trim(): void {
    while (this.#charges.size > MAX_PEOPLE) {
      const oldest = this.#charges.keys().next();
      if (oldest.done === true) return;
      this.#charges.delete(oldest.value);
    }
    while (this.#refused.size > MAX_PEOPLE) {
      const oldest = this.#refused.keys().next();
      if (oldest.done === true) return;
      this.#refused.delete(oldest.value);
    }
  }
}
