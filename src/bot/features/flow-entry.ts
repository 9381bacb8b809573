/**
 * Starting a flow, shared by the commands and the start menu: the access check first (nothing
 * is asked upstream for a person who may not buy), then whether anything can be bought at all
 * (purchases paused by an admin, a limit used up: said now, in the chat, not at Confirm), then
 * any summary the person still has open is cancelled, so an old summary can never be
 * confirmed once a new flow has begun.
 */
import type { IntentKind } from "../../ledger/types.js";
import type { BotContext } from "../context.js";
import type { BotServices } from "../services.js";
import { purchasesState, startProblem } from "../flows/headroom.js";
import { notePauseMet } from "../pause-waiters.js";
import { cancelledText } from "../purchase-views.js";

/** Conversation ids, one per kind of gift. */
export const FLOW_ID: Record<IntentKind, string> = { stars: "stars", premium: "premium" };

export async function startFlow(
  ctx: BotContext,
  kind: IntentKind,
  services: BotServices,
): Promise<void> {
  const decision = await services.canBuy(ctx, { kind, stage: "start" });
  if (!decision.allowed) {
    await ctx.reply(decision.text ?? ctx.t("purchase-not-allowed"));
    return;
  }
  const userId = ctx.from?.id;
  if (userId !== undefined) {
    const locale = await ctx.i18n.getLocale();
    const problem = await startProblem(
      ctx.t,
      locale,
      services,
      { userId, audience: "private" },
      kind,
    );
    if (problem !== undefined) {
      // Paused (not a limit): they are told when purchases reopen.
      if ((await purchasesState(services)).paused) await notePauseMet(ctx, services.pauseWaiters);
      await ctx.reply(problem);
      return;
    }
  }
  await closeOpenSummaries(ctx, services);
  if (Object.keys(ctx.conversation.active()).length > 0) await ctx.conversation.exitAll();
  await ctx.conversation.enter(FLOW_ID[kind]);
}

/**
 * Cancels the person's open drafts in this chat in the ledger and edits their summaries so no
 * Confirm button stays; in a group the summary is deleted instead (groups stay tidy). Returns
 * how many drafts were cancelled.
 */
export async function closeOpenSummaries(ctx: BotContext, services: BotServices): Promise<number> {
  const chatId = ctx.chat?.id;
  const userId = ctx.from?.id;
  if (chatId === undefined || userId === undefined) return 0;
  let cancelled = 0;
  for (const summary of await services.summaries.list(chatId, userId)) {
    const intent = await services.records.getIntent(summary.intentId);
    const wasDraft = await services.desk.cancel(summary.intentId, userId);
    await services.summaries.remove(chatId, userId, summary.intentId);
    if (!wasDraft) continue;
    cancelled++;
    try {
      if (intent !== undefined && intent.requester.chatType !== "private") {
        await ctx.api.deleteMessage(summary.chatId, summary.messageId);
        continue;
      }
      await ctx.api.editMessageText(
        summary.chatId,
        summary.messageId,
        cancelledText(ctx.t, intent),
      );
    } catch (error) {
      ctx.log.debug({ error }, "could not edit an old summary");
    }
  }
  return cancelled;
}
