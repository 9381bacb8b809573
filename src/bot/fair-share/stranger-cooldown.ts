/**
 * Strangers in private chats: people who may not buy (not an admin, not a buyer, and purchases
 * are not public). Whatever they send, they get the one answer that helps them, the access
 * refusal with their id and whom to ask, at most once per cooldown; everything else they send
 * in that cooldown is dropped without an answer. Nothing they send reaches a feature, so no
 * stranger ever causes a request to the Gift Purchase Service. Groups have their own
 * per-group refusal cooldown (features/group/refusal-throttle.ts).
 *
 * The cooldown is the same keyed throttle the groups use, keyed by the person here.
 */
import type { MiddlewareFn } from "grammy";
import type { BotContext } from "../context.js";
import { RefusalThrottle } from "../features/group/refusal-throttle.js";

export interface StrangerCooldownOptions {
  /** Whether this person may buy in a private chat (the access list). */
  mayBuy: (userId: number) => boolean;
  /** The refusal text, in the person's language. */
  refusalText: (ctx: BotContext, userId: number) => string;
  /** STRANGER_COOLDOWN_SECONDS in milliseconds; 0 answers every time. */
  cooldownMs: number;
  now: () => number;
}

/** The middleware; install it after i18n and before conversations and the features. */
export function strangerCooldown(options: StrangerCooldownOptions): MiddlewareFn<BotContext> {
  const throttle = new RefusalThrottle({ cooldownMs: options.cooldownMs, now: options.now });
  return async (ctx, next) => {
    const userId = ctx.from?.id;
    if (ctx.chat?.type !== "private" || userId === undefined || options.mayBuy(userId)) {
      await next();
      return;
    }
    if (!throttle.take(userId)) {
      // Within the cooldown: no answer. A press is still acknowledged (no text, nothing the
      // person reads), so their client stops its spinner.
      if (ctx.callbackQuery !== undefined) await ctx.answerCallbackQuery();
      return;
    }
    const text = options.refusalText(ctx, userId);
    if (ctx.callbackQuery !== undefined) await ctx.answerCallbackQuery({ text });
    else if (ctx.message !== undefined) await ctx.reply(text);
  };
}
