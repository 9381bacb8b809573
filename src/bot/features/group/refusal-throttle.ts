/**
 * A per-group cooldown on the bot's refusal replies. Every /premium from a member who may not
 * use it deserves an answer, but ten members trying it at once must not get ten answers: the
 * group would be flooded by the bot (and Telegram limits a bot's messages per group). The
 * first refusal in a window is sent; later ones in the window are silent, since the group has
 * just read the answer. Kept in memory: after a restart at most one extra refusal is sent.
 */

/** At most one refusal reply per group in this window: 30 seconds. */
export const GROUP_REFUSAL_COOLDOWN_MS = 30_000;

/** Groups remembered at most; the oldest windows (long over by then) are dropped first. */
const MAX_GROUPS = 1_000;

export class GroupRefusalThrottle {
  readonly #cooldownMs: number;
  readonly #now: () => number;
  /** When each group's last refusal reply was sent, oldest first (Map keeps insertion order). */
  readonly #lastSent = new Map<number, number>();

  constructor(options: { cooldownMs?: number; now: () => number }) {
    this.#cooldownMs = options.cooldownMs ?? GROUP_REFUSAL_COOLDOWN_MS;
    this.#now = options.now;
  }

  /**
   * Whether a refusal may be sent in this group now; when it may, the window starts now (the
   * caller sends it). False means the group got a refusal less than the cooldown ago.
   */
  take(chatId: number): boolean {
    const now = this.#now();
    const last = this.#lastSent.get(chatId);
    if (last !== undefined && now - last < this.#cooldownMs) return false;
    this.#lastSent.delete(chatId);
    this.#lastSent.set(chatId, now);
    if (this.#lastSent.size > MAX_GROUPS) {
      const oldest = this.#lastSent.keys().next();
      if (oldest.done !== true) this.#lastSent.delete(oldest.value);
    }
    return true;
  }
}
