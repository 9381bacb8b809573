/**
 * Counts the updates the bot is handling, whatever feeds it (the runner or the webhook server),
 * so a graceful stop can wait for a purchase that is being sent and recorded. The runner's own
 * `stop()` only ends its fetch loop: its concurrent sink does not wait for running middleware.
 */
import type { Bot, Context } from "grammy";

export interface UpdateTracker {
  /** Updates whose handling has not finished yet. */
  inFlight(): number;
  /** Resolves once no update is being handled (at once when none is). */
  drained(): Promise<void>;
}

/**
 * Wraps `bot.handleUpdate` (the one method both the runner and grammY's webhook callback call)
 * so every update is counted from start to end, errors included.
 */
export function trackUpdates<C extends Context>(bot: Bot<C>): UpdateTracker {
  let inFlight = 0;
  let waiters: Array<() => void> = [];
  const handleUpdate = bot.handleUpdate.bind(bot);
  bot.handleUpdate = async (...args: Parameters<Bot<C>["handleUpdate"]>) => {
    inFlight++;
    try {
      return await handleUpdate(...args);
    } finally {
      inFlight--;
      if (inFlight === 0) {
        const done = waiters;
        waiters = [];
        for (const resolve of done) resolve();
      }
    }
  };
  return {
    inFlight: () => inFlight,
    drained: () =>
      inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
  };
}
