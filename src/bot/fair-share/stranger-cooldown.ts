/**
 * Strangers in private chats: people who may not buy (not an admin, not a buyer, and purchases
 * are not public). The first update of a stranger in a cooldown is handled as anyone's (a
 * greeting, or the access refusal with their id and whom to ask); their next message in that
 * cooldown gets one short line (the answer is above, and when they are answered again), and
 * everything else they send in it is dropped, so however fast they send, they get at most two
 * messages per cooldown. The access check refuses them before any flow starts, so no stranger
 * ever causes a request to the Gift Purchase Service. Groups have their own per-group refusal
 * cooldown (./refusal-throttle.ts, used by features/group/premium.ts); this is the same throttle
 * keyed by person.
 */
import type { MiddlewareFn } from "grammy";
import type { BotContext } from "../context.js";
import { RefusalThrottle } from "./refusal-throttle.js";

export interface StrangerCooldownOptions {
  /** Whether this person may buy in a private chat (the access list). */
  mayBuy: (userId: number) => Promise<boolean>;
  /** STRANGER_COOLDOWN_SECONDS in milliseconds; 0 answers every time. */
  cooldownMs: number;
  now: () => number;
}

/** The middleware; install it before conversations and the features. */
export function strangerCooldown(options: StrangerCooldownOptions): MiddlewareFn<BotContext> {
  const throttle = new RefusalThrottle({ cooldownMs: options.cooldownMs, now: options.now });
  return async (ctx, next) => {
    const userId = ctx.from?.id;
    if (ctx.chat?.type !== "private" || userId === undefined || (await options.mayBuy(userId))) {
      await next();
      return;
    }
    const decision = throttle.take(userId);
    if (decision.kind === "answer") {
      await next();
      return;
    }
    // Within the cooldown. A press is acknowledged (no text), so the client's spinner stops.
    if (ctx.callbackQuery !== undefined) await ctx.answerCallbackQuery();
    // The first ask after the answer gets one short line, not silence; the rest nothing.
    else if (decision.kind === "note") {
      await ctx.reply(ctx.t("stranger-answered-recently", { seconds: decision.seconds }));
    }
  };
}
