/**
 * Edits the message a button sits on, when only its look is at stake: a failure (the message
 * deleted, too old, "not modified") is logged and nothing else happens. Where the person must
 * learn something from the edit, the caller sends a new message instead (summary.ts showOutcome).
 */
import type { InlineKeyboard } from "grammy";
import type { BotContext } from "./context.js";

export async function editQuietly(
  ctx: BotContext,
  text: string,
  keyboard?: InlineKeyboard,
  failure = "could not edit a message",
): Promise<void> {
  try {
    await ctx.editMessageText(text, keyboard === undefined ? {} : { reply_markup: keyboard });
  } catch (error) {
    ctx.log.warn({ err: error }, failure);
  }
}
