/**
 * The bot's context types. Outside conversations a context carries i18n, the conversations
 * controls and a per-update logger; inside a conversation only what the conversation's plugins
 * install (i18n), because conversations build their own context objects on every replay.
 */
import type { ConversationFlavor } from "@grammyjs/conversations";
import type { I18nFlavor } from "@grammyjs/i18n";
import type { Context } from "grammy";
import type { Logger } from "../shared/logger.js";

/** What the bot's own middleware adds to each update's context. */
interface BotContextExtras {
  /** A pino child logger bound to this update (update id, chat, user). Never log `ctx` itself. */
  log: Logger;
}

/** The context of the outside middleware tree. */
export type BotContext = ConversationFlavor<Context & I18nFlavor & BotContextExtras>;

/** The context inside a conversation (see `conversations({ plugins })` in createBot). */
export type FlowContext = Context & I18nFlavor;

/** A translate function, as both contexts carry it. */
export type Translate = I18nFlavor["t"];
