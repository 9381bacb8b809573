/**
 * The last stop for button presses nobody handled: a flow button whose flow has ended, or data
 * that is not ours at all (forged, or from an older version of the bot). Each gets a short
 * answer, so the person's client never spins.
 *
 * Also the last stop for text in a private chat that nothing took: no flow is open (or it
 * timed out), or an unknown command. The person is told how to start instead of silence.
 * Text inside an open flow never gets here (the conversation consumes it), nor does anything
 * another feature handles, since this runs after all of them. Groups get nothing: the bot
 * answers there only to what is addressed to it.
 */
import { type CallbackQueryContext, Composer } from "grammy";
import { FLOW_DATA, isFlowData } from "../callback-data/flow.js";
import type { BotContext } from "../context.js";

export function fallbackFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(FLOW_DATA, answerEndedFlow);
  composer.on("callback_query", async (ctx) => {
    await ctx.answerCallbackQuery({ text: ctx.t("callback-invalid") });
  });
  composer.chatType("private").on("message:text", async (ctx) => {
    await ctx.reply(ctx.t("fallback-not-understood"));
  });
  return composer;
}

/** A press on the prompt of a flow that has ended (or forged flow data). */
async function answerEndedFlow(ctx: CallbackQueryContext<BotContext>): Promise<void> {
  await ctx.answerCallbackQuery({ text: ctx.t("flow-button-inactive") });
  // Strip the keyboard only when it is an ended flow's prompt: forged flow data pressed "on" a
  // summary must not take that summary's buttons away.
  const rows = ctx.callbackQuery.message?.reply_markup?.inline_keyboard ?? [];
  const onlyFlowButtons =
    rows.length > 0 &&
    rows.every((row) => row.every((b) => "callback_data" in b && isFlowData(b.callback_data)));
  if (!onlyFlowButtons) return;
  try {
    await ctx.editMessageReplyMarkup();
  } catch {
    // Already without a keyboard, or too old to edit: the answer above is what matters.
  }
}
