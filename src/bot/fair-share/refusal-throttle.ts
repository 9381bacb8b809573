/**
 * A per-group cooldown on the bot's refusal replies. Every /premium from a member who may not
 * use it deserves an answer, but ten members trying it at once must not get ten answers: the
 * group would be flooded by the bot (and Telegram limits a bot's messages per group). The
 * first refusal in a window is sent; the next ask in the window gets one short line saying the
 * answer is just above and when the next one comes (so nobody meets plain silence), and later
 * ones are silent. Each answer has its window: "see my message above" is said only of the same
 * answer (a member refused for not being an administrator is answered, even just after an
 * administrator was told something else; a member reading another language gets the answer in
 * theirs). Kept in memory: after a restart at most one extra refusal is sent.
 *
 * The same throttle keyed by a person gives strangers in private chats one answer per cooldown
 * (./stranger-cooldown.ts).
 */

/** At most one refusal reply per group in this window: 30 seconds. */
export const GROUP_REFUSAL_COOLDOWN_MS = 30_000;

/** Keys (groups or people) remembered at most; the oldest windows (long over by then) go first. */
const MAX_KEYS = 1_000;

/**
 * What to do with a refusal now: answer it, say once that it was answered moments ago
 * (`note`, with the seconds until the next answer), or stay silent.
 */
export type ThrottleDecision =
  { kind: "answer" } | { kind: "note"; seconds: number } | { kind: "silent" };

export class RefusalThrottle {
  readonly #cooldownMs: number;
  readonly #now: () => number;
  /**
   * When each key's last refusal reply was sent, and whether its window's note was, oldest
   * first (Map keeps insertion order).
   */
  readonly #lastSent = new Map<string, { at: number; noted: boolean }>();

  constructor(options: { cooldownMs?: number; now: () => number }) {
    this.#cooldownMs = options.cooldownMs ?? GROUP_REFUSAL_COOLDOWN_MS;
    this.#now = options.now;
  }

  /**
   * Whether refusal `answer` may be sent to this group (or person) now; when it may, its window
   * starts now (the caller sends it). Inside a window, the first ask after the answer gets a
   * note, the rest nothing.
   */
  take(chatId: number, answer = ""): ThrottleDecision {
    const now = this.#now();
    const key = `${String(chatId)}\n${answer}`;
    const last = this.#lastSent.get(key);
    if (last !== undefined && now - last.at < this.#cooldownMs) {
      if (last.noted) return { kind: "silent" };
      last.noted = true;
      return {
        kind: "note",
        seconds: Math.max(1, Math.ceil((last.at + this.#cooldownMs - now) / 1000)),
      };
    }
    this.#lastSent.delete(key);
    this.#lastSent.set(key, { at: now, noted: false });
    if (this.#lastSent.size > MAX_KEYS) {
      const oldest = this.#lastSent.keys().next();
      if (oldest.done !== true) this.#lastSent.delete(oldest.value);
    }
    return { kind: "answer" };
  }
}

/** The per-group use of {@link RefusalThrottle}. */
export { RefusalThrottle as GroupRefusalThrottle };
