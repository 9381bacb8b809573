/**
 * A per-group cooldown on the bot's refusal replies. Every /premium from a member who may not
 * use it deserves an answer, but ten members trying it at once must not get ten answers: the
 * group would be flooded by the bot (and Telegram limits a bot's messages per group). The
 * first refusal in a window is sent; later ones in the window are silent, since the group has
 * just read the answer. Kept in memory: after a restart at most one extra refusal is sent.
 *
 * The same throttle keyed by a person gives strangers in private chats one answer per cooldown
 * (bot/fair-share/stranger-cooldown.ts).
 */

/** At most one refusal reply per group in this window: 30 seconds. */
export const GROUP_REFUSAL_COOLDOWN_MS = 30_000;

/** Keys (groups or people) remembered at most; the oldest windows (long over by then) go first. */
const MAX_KEYS = 1_000;

export class RefusalThrottle {
  readonly #cooldownMs: number;
  readonly #now: () => number;
  /** When each key's last refusal reply was sent, oldest first (Map keeps insertion order). */
  readonly #lastSent = new Map<number, number>();

  constructor(options: { cooldownMs?: number; now: () => number }) {
    this.#cooldownMs = options.cooldownMs ?? GROUP_REFUSAL_COOLDOWN_MS;
    this.#now = options.now;
  }

  /**
   * Whether a refusal may be sent to this group (or person) now; when it may, the window starts
   * now (the caller sends it). False means one was sent less than the cooldown ago.
   */
  take(chatId: number): boolean {
    const now = this.#now();
    const last = this.#lastSent.get(chatId);
    if (last !== undefined && now - last < this.#cooldownMs) return false;
    this.#lastSent.delete(chatId);
    this.#lastSent.set(chatId, now);
    if (this.#lastSent.size > MAX_KEYS) {
      const oldest = this.#lastSent.keys().next();
      if (oldest.done !== true) this.#lastSent.delete(oldest.value);
    }
    return true;
  }
}

/** The per-group use of {@link RefusalThrottle}. */
export { RefusalThrottle as GroupRefusalThrottle };
