/**
 * The stars and premium flows: the conversations themselves, and the commands and start-menu
 * buttons that enter them.
 */
import { createConversation } from "@grammyjs/conversations";
import { Composer } from "grammy";
import type { IntentKind } from "../../ledger/types.js";
import { decodeMenu, MENU_DATA } from "../callback-data/menu.js";
import type { BotContext, FlowContext } from "../context.js";
import { createGiftFlow } from "../flows/gift-flow.js";
import { decodedPress } from "../press.js";
import type { BotServices } from "../services.js";
import { FLOW_ID, startFlow } from "./flow-entry.js";

/** Flow inactivity limit: a person coming back after this starts afresh. */
const FLOW_MAX_WAIT_MS = 30 * 60_000;

/** The conversations; must be installed after `conversations()` and before the commands. */
export function giftConversations(services: BotServices): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  for (const kind of ["stars", "premium"] as const satisfies IntentKind[]) {
    composer.use(
      createConversation<BotContext, FlowContext>(createGiftFlow(kind, services), {
        id: FLOW_ID[kind],
        maxMillisecondsToWait: FLOW_MAX_WAIT_MS,
      }),
    );
  }
  return composer;
}

/** /stars, /premium and the start menu's buttons (private chats; groups are another feature). */
export function giftFeature(services: BotServices): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const privateChat = composer.chatType("private");
  privateChat.command("stars", (ctx) => startFlow(ctx, "stars", services));
  privateChat.command("premium", (ctx) => startFlow(ctx, "premium", services));
  privateChat.callbackQuery(
    MENU_DATA,
    decodedPress(decodeMenu, async (ctx, kind) => {
      await ctx.answerCallbackQuery();
      await startFlow(ctx, kind, services);
    }),
  );
  return composer;
}
