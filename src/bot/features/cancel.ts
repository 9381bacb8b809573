/**
 * /cancel outside a flow (inside one, the conversation handles it at any step): cancels any
 * summary the person still has open, so its Confirm button can no longer buy anything.
 * Private chats only: in a group, /cancel belongs to the group feature, which ends that
 * person's group flow and says nothing when there is none (groups stay quiet).
 */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import type { BotServices } from "../services.js";
import { closeOpenSummaries } from "./flow-entry.js";

export function cancelFeature(services: BotServices): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("cancel", async (ctx) => {
    const hadFlow = Object.keys(ctx.conversation.active()).length > 0;
    if (hadFlow) await ctx.conversation.exitAll();
    const cancelled = await closeOpenSummaries(ctx, services);
    await ctx.reply(ctx.t(hadFlow || cancelled > 0 ? "cancel-done" : "cancel-nothing"));
  });
  return composer;
}
