/**
 * The handler side of callback data: a press routed by its prefix (`callbackQuery(PREFIX)`)
 * is decoded once, and data with the prefix that the decoder refuses (forged, or from an
 * older version of the bot) gets the same localized "invalid" answer everywhere.
 */
import type { CallbackQueryContext } from "grammy";
import type { BotContext } from "./context.js";

/** A press handler that receives the decoded action instead of the raw data. */
export function decodedPress<C extends BotContext, A>(
  decode: (data: string) => A | undefined,
  handler: (ctx: CallbackQueryContext<C>, action: A) => unknown,
): (ctx: CallbackQueryContext<C>) => Promise<void> {
  return async (ctx) => {
    const action = decode(ctx.callbackQuery.data);
    if (action === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("callback-invalid") });
      return;
    }
    await handler(ctx, action);
  };
}
