/**
 * The people who met a pause: someone told that purchases are paused (or on hold) is told
 * once when they reopen, instead of having to come back and try. Private chats only (a group
 * is not messaged out of the blue). Kept in memory and bounded: after a restart, or beyond the
 * bound, the oldest are simply not told; nothing else depends on it.
 */

/** People remembered at most; the oldest go first. */
const MAX_WAITERS = 1_000;

/** One person to tell: who, their private chat and the language they read the pause in. */
export interface PauseWaiter {
  userId: number;
  chatId: number;
  locale: string;
}

export class PauseWaiters {
  readonly #max: number;
  /** By user id, oldest first (Map keeps insertion order). */
  readonly #waiters = new Map<number, PauseWaiter>();
  #telling: Promise<void> = Promise.resolve();

  constructor(max: number = MAX_WAITERS) {
    this.#max = max;
  }

  /** `waiter.userId` met a pause in their private chat, reading `waiter.locale`. */
  note(waiter: PauseWaiter): void {
    const userId = waiter.userId;
    this.#waiters.delete(userId);
    this.#waiters.set(userId, waiter);
    if (this.#waiters.size > this.#max) {
      const oldest = this.#waiters.keys().next();
      if (oldest.done !== true) this.#waiters.delete(oldest.value);
    }
  }

  /**
   * Tells everyone noted so far, once (they are forgotten as they are handed out), one after
   * the other in the background; a failure to reach one (blocked the bot, Telegram failing)
   * is `onError`'s and does not stop the others. Returns at once.
   */
  tellAll(
    send: (waiter: PauseWaiter) => Promise<unknown>,
    onError: (error: unknown) => void,
  ): void {
    const all = [...this.#waiters.values()];
    this.#waiters.clear();
    this.#telling = this.#telling.then(async () => {
      for (const waiter of all) {
        try {
          await send(waiter);
        } catch (error) {
          onError(error);
        }
      }
    });
  }

  /** Resolves once everyone handed out so far has been told (for tests and shutdown). */
  idle(): Promise<void> {
    return this.#telling;
  }
}

/** What {@link notePauseMet} reads of an update. */
interface PauseContext {
  chat?: { id: number; type: string } | undefined;
  from?: { id: number } | undefined;
  i18n: { getLocale(): Promise<string> };
}

/** Notes the person of a private-chat update as having met a pause (in their language). */
export async function notePauseMet(ctx: PauseContext, waiters: PauseWaiters): Promise<void> {
  if (ctx.chat?.type !== "private" || ctx.from === undefined) return;
  waiters.note({
    userId: ctx.from.id,
    chatId: ctx.chat.id,
    locale: await ctx.i18n.getLocale(),
  });
}
