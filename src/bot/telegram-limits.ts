/**
 * The last guard before Telegram: a text over 4,096 characters (a caption over 1,024) is
 * refused whole, so its reader learns nothing at all. Every text is built to fit (the service's
 * words are quoted cut, lists are capped), and this transformer cuts whatever still does not,
 * so a person is told something rather than nothing. Texts are plain (no parse mode), so a cut
 * cannot break markup.
 */
import type { Transformer } from "grammy";
import { clipText } from "../service/quote.js";

/** Telegram's limits, in UTF-16 units as Telegram counts them. */
const TELEGRAM_MAX_TEXT = 4096;
const TELEGRAM_MAX_CAPTION = 1024;

/** Cuts `text` and `caption` of any outgoing call to Telegram's limits. */
export const fitToTelegram: Transformer = (prev, method, payload, signal) => {
  const fields = payload as { text?: unknown; caption?: unknown };
  if (
    (typeof fields.text === "string" && fields.text.length > TELEGRAM_MAX_TEXT) ||
    (typeof fields.caption === "string" && fields.caption.length > TELEGRAM_MAX_CAPTION)
  ) {
    const fitted: Record<string, unknown> = { ...payload };
    if (typeof fields.text === "string") fitted.text = clipText(fields.text, TELEGRAM_MAX_TEXT);
    if (typeof fields.caption === "string") {
      fitted.caption = clipText(fields.caption, TELEGRAM_MAX_CAPTION);
    }
    return prev(method, fitted as typeof payload, signal);
  }
  return prev(method, payload, signal);
};
