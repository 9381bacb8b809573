/**
 * Update floods: one person's raw update rate, limited with grammY's ratelimiter plugin
 * (`@grammyjs/ratelimiter`). It runs before anything that costs work (ordering, the database,
 * conversations), so a storm of messages or presses is dropped as it arrives. The plugin calls
 * `onLimitExceeded` once per window: the person gets one "slow down", then silence until the
 * window ends. In groups even that one answer is left out (a group is not flooded by the bot).
 */
import { limit } from "@grammyjs/ratelimiter";
import type { Context, MiddlewareFn } from "grammy";
import type { Logger } from "../../shared/logger.js";
import type { FloodBoard } from "../flood-board.js";

export interface FloodGuardOptions {
  /** Updates one person may send per window (UPDATES_PER_USER). */
  perWindow: number;
  /** The window (UPDATES_WINDOW_SECONDS), in milliseconds. */
  windowMs: number;
  board: FloodBoard;
  /** The person's "slow down" text, in their language; `seconds`: at most this long. */
  slowDownText: (ctx: Context, seconds: number) => Promise<string>;
  now: () => number;
  logger: Logger;
}

/** The middleware; install it first, before ordering and conversations. */
export function floodGuard<C extends Context>(options: FloodGuardOptions): MiddlewareFn<C> {
  const seconds = Math.max(1, Math.ceil(options.windowMs / 1000));
  return limit<C, never>({
    timeFrame: options.windowMs,
    limit: options.perWindow,
    keyGenerator: (ctx) => ctx.from?.id.toString(),
    // The plugin returns what this returns, so the one "slow down" is sent before the update
    // counts as handled (a failure to send it is only logged). Its type says void; its code
    // (rateLimiter.js) returns the call's result, which is what the middleware awaits.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    onLimitExceeded: async (ctx) => {
      const userId = ctx.from?.id;
      if (userId === undefined) return;
      // The plugin's window restarts on its own timer; "at most one window" is what is known.
      options.board.note(userId, options.now() + options.windowMs);
      try {
        await tellSlowDown(ctx, await options.slowDownText(ctx, seconds));
      } catch (err) {
        options.logger.debug({ err }, "could not tell a person to slow down");
      }
    },
  });
}

async function tellSlowDown(ctx: Context, text: string): Promise<void> {
  if (ctx.callbackQuery !== undefined) {
    await ctx.answerCallbackQuery({ text });
    return;
  }
  if (ctx.chat?.type === "private" && ctx.message !== undefined) await ctx.reply(text);
}
