/**
 * The stars and premium conversations: recipient, then amount or duration, then a summary
 * that records a draft intent (flows/show-summary.ts, shared with the group flow). The
 * conversation ENDS at the summary: Confirm, Cancel and the payment switch are plain callback
 * handlers keyed by the intent id (features/summary.ts), because a purchase inside a
 * conversation's replay is not protected (stack facts); the ledger alone decides whether a
 * request may be sent.
 *
 * Conversations v2 replays this function from the top on every update, so everything with a
 * side effect (the desk, the kv store) is inside `conversation.external`.
 */
import type { Conversation } from "@grammyjs/conversations";
import type { IntentKind } from "../../ledger/types.js";
import { decodeFlow, encodeFlow, type FlowAction, isFlowData } from "../callback-data/flow.js";
import { decodeMenu } from "../callback-data/menu.js";
import type { BotContext, FlowContext } from "../context.js";
import { amountKeyboard, cancelKeyboard, durationKeyboard } from "../keyboards/index.js";
import type { BotServices } from "../services.js";
import { MIN_STARS } from "../../gifts/catalogue.js";
import { parseUsername, type Username } from "../../gifts/username.js";
import { tellQueued } from "../format.js";
import {
  flowNotice,
  limitReachedText,
  personHeadroom,
  purchasesState,
  starsCeiling,
  withNotice,
} from "./headroom.js";
import { recipientProblem } from "./recipient.js";
import { parseWholeNumber } from "./whole-number.js";
import { showSummary } from "./show-summary.js";

export type GiftConversation = Conversation<BotContext, FlowContext>;

/** Commands that answer without leaving the flow: the flow keeps waiting at its step. */
export const PASS_THROUGH_COMMANDS = new Set(["help", "language", "history"]);

/** The message currently asking the person something, whose keyboard is removed on moving on. */
export interface Prompt {
  chatId: number;
  messageId: number;
}

type FlowEvent =
  | { type: "text"; ctx: FlowContext; text: string }
  | { type: "button"; ctx: FlowContext; action: FlowAction };

/** The conversation builder for one kind of gift. */
export function createGiftFlow(kind: IntentKind, services: BotServices) {
  return async (conversation: GiftConversation, ctx: FlowContext): Promise<void> => {
    if (ctx.chat === undefined || ctx.from === undefined) return;
    const recipient = await askRecipient(conversation, ctx, kind, services);
    const choice =
      kind === "stars"
        ? await askAmount(conversation, recipient.ctx, recipient.username, services)
        : await askDuration(conversation, recipient.ctx, recipient.username);

    const paid =
      recipient.recipientUserId === undefined
        ? {}
        : { paidVia: "telegram" as const, recipientUserId: recipient.recipientUserId };
    await showSummary(
      choice.ctx,
      services,
      { kind, recipient: recipient.username, quantity: choice.quantity, ...paid },
      { outside: (work) => conversation.external(work) },
    );
  };
}

export async function sendPrompt(
  ctx: FlowContext,
  text: string,
  keyboard: ReturnType<typeof cancelKeyboard>,
): Promise<Prompt> {
  const message = await ctx.reply(text, { reply_markup: keyboard });
  return { chatId: message.chat.id, messageId: message.message_id };
}

/** Removes a prompt's keyboard once the flow has moved on; a failure here is cosmetic. */
export async function clearKeyboard(ctx: FlowContext, prompt: Prompt): Promise<void> {
  try {
    await ctx.api.editMessageReplyMarkup(prompt.chatId, prompt.messageId);
  } catch {
    // The message may be gone or already without a keyboard: nothing the person needs to know.
  }
}

/** The first word of a message when it is a command addressed to this bot, without the `/`. */
export function commandOf(ctx: FlowContext): string | undefined {
  const message = ctx.message;
  const entity = message?.entities?.[0];
  if (message?.text === undefined || entity?.type !== "bot_command" || entity.offset !== 0) {
    return undefined;
  }
  const [name = "", target] = message.text.slice(1, entity.length).split("@");
  if (target !== undefined && target.toLowerCase() !== ctx.me.username.toLowerCase()) return "";
  return name.toLowerCase();
}

/**
 * Waits for the next thing the person does at a step, handling what every step handles the
 * same way: /cancel and the Cancel button leave the flow; other commands and the start menu
 * leave it and are handled outside; summary and language buttons go to their own handlers;
 * buttons of older prompts are answered as inactive.
 */
async function waitEvent(conversation: GiftConversation, prompt: Prompt): Promise<FlowEvent> {
  for (;;) {
    const ctx = await conversation.wait();
    const text = ctx.message?.text;
    if (text !== undefined) {
      const command = commandOf(ctx);
      if (command === undefined) return { type: "text", ctx, text };
      if (command === "cancel") return leave(conversation, ctx, prompt);
      if (PASS_THROUGH_COMMANDS.has(command)) await conversation.skip({ next: true });
      await clearKeyboard(ctx, prompt);
      return conversation.halt({ next: true });
    }
    const data = ctx.callbackQuery?.data;
    if (data !== undefined) {
      if (isFlowData(data)) {
        const action = decodeFlow(data);
        if (action === undefined) {
          await ctx.answerCallbackQuery({ text: ctx.t("callback-invalid") });
          continue;
        }
        if (action.type === "cancel") return leave(conversation, ctx, prompt);
        if (ctx.callbackQuery?.message?.message_id !== prompt.messageId) {
          await ctx.answerCallbackQuery({ text: ctx.t("flow-button-inactive") });
          continue;
        }
        return { type: "button", ctx, action };
      }
      if (decodeMenu(data) !== undefined) {
        await clearKeyboard(ctx, prompt);
        return conversation.halt({ next: true });
      }
      // Summary, language and unknown buttons: their own handlers answer them.
      await conversation.skip({ next: true });
    }
    if (ctx.message !== undefined) {
      await ctx.reply(ctx.t("flow-expect-text"));
      continue;
    }
    await conversation.skip({ next: true });
  }
}

async function leave(
  conversation: GiftConversation,
  ctx: FlowContext,
  prompt: Prompt,
): Promise<never> {
  if (ctx.callbackQuery !== undefined) await ctx.answerCallbackQuery();
  await clearKeyboard(ctx, prompt);
  await ctx.reply(ctx.t("cancel-done"));
  return conversation.halt();
}

/**
 * What follows the command in `/premium @name` (or `/stars t.me/name`), trimmed; undefined when
 * the flow was entered otherwise (the start menu) or nothing follows.
 */
function commandArgument(ctx: FlowContext): string | undefined {
  const message = ctx.message;
  const entity = message?.entities?.[0];
  if (message?.text === undefined || entity?.type !== "bot_command" || entity.offset !== 0) {
    return undefined;
  }
  const rest = message.text.slice(entity.length).trim();
  return rest === "" ? undefined : rest;
}

async function askRecipient(
  conversation: GiftConversation,
  ctx: FlowContext,
  kind: IntentKind,
  services: BotServices,
): Promise<{ username: Username; ctx: FlowContext; recipientUserId?: number }> {
  // Purchases waiting for the admins (the breaker's pause, an unknown outcome) are said first.
  const state = await conversation.external(() => purchasesState(services));
  const notice = flowNotice(ctx.t, state);
  // `/premium @name` names the recipient at once, as in a group: it is checked before any
  // question. Otherwise (or when that name will not do) the person is asked for one.
  let next: { ctx: FlowContext; text: string } | undefined;
  const given = commandArgument(ctx);
  let prompt: Prompt | undefined;
  if (given === undefined) {
    prompt = await sendPrompt(
      ctx,
      withNotice(
        notice,
        ctx.t(kind === "stars" ? "flow-ask-recipient-stars" : "flow-ask-recipient-premium"),
      ),
      cancelKeyboard(ctx.t),
    );
  } else {
    if (notice !== undefined) await ctx.reply(notice);
    next = { ctx, text: given };
  }
  // Checks are charged to the person and queued as theirs (fair share).
  const userId = ctx.from?.id;
  for (;;) {
    if (next === undefined) {
      // A prompt exists whenever nothing is pending: it was sent above, or with the problem.
      const event = await waitEvent(conversation, prompt as Prompt);
      if (event.type === "button") {
        await event.ctx.answerCallbackQuery({ text: event.ctx.t("flow-expect-text") });
        continue;
      }
      next = { ctx: event.ctx, text: event.text };
    }
    const c = next.ctx;
    const username = parseUsername(next.text);
    next = undefined;
    let problem: string | undefined;
    // Premium through Telegram, when PREMIUM_VIA says so and the bot knows whose name it is.
    const way =
      username === undefined || kind !== "premium"
        ? undefined
        : await conversation.external(async () =>
            services.desk.premiumWay(await services.people.idOf(username)),
          );
    if (username === undefined) {
      problem = c.t("flow-recipient-invalid");
    } else if (way?.via === "telegram") {
      if (prompt !== undefined) await clearKeyboard(c, prompt);
      return { username, ctx: c, recipientUserId: way.recipientUserId };
    } else if (way?.via === "unnamed") {
      problem = c.t("premium-unnamed", { username });
    } else {
      // The outside context: a wait notice sent from here is not part of the replayed log.
      const check = await conversation.external((outside) =>
        services.desk.checkRecipient(username, {
          onQueued: tellQueued(outside),
          ...(userId !== undefined ? { userId, isAdmin: services.admins.has(userId) } : {}),
        }),
      );
      problem = recipientProblem(c.t, "private", kind, username, check);
      if (problem === undefined) {
        if (prompt !== undefined) await clearKeyboard(c, prompt);
        // The name as the service spells it.
        return { username: check.kind === "ok" ? check.username : username, ctx: c };
      }
    }
    if (prompt === undefined) {
      // The name given with the command will not do: the problem asks again, with Cancel.
      prompt = await sendPrompt(c, problem, cancelKeyboard(c.t));
    } else {
      await c.reply(problem);
    }
  }
}

async function askAmount(
  conversation: GiftConversation,
  ctx: FlowContext,
  username: string,
  services: BotServices,
): Promise<{ quantity: number; ctx: FlowContext }> {
  // The real maximum for this person now: the per-purchase limit, or what is left today.
  const userId = ctx.from?.id ?? 0;
  const room = await conversation.external(() => personHeadroom(services, userId, "stars"));
  const max = starsCeiling(room);
  if (max < MIN_STARS) {
    // Used up since the flow began (the recipient check may have waited in the queue): no
    // amount could be accepted, so say which limit and when it resets, and end the flow.
    const locale = await ctx.i18n.getLocale();
    const text = await conversation.external(() =>
      limitReachedText(ctx.t, locale, services, { userId, audience: "private" }, room),
    );
    await ctx.reply(text);
    return conversation.halt();
  }
  let prompt = await sendPrompt(
    ctx,
    ctx.t(room.daily ? "flow-ask-amount-today" : "flow-ask-amount", { username, max }),
    amountKeyboard(ctx.t, max),
  );
  for (;;) {
    const event = await waitEvent(conversation, prompt);
    const c = event.ctx;
    if (event.type === "button") {
      const action = event.action;
      if (action.type === "amount" && action.amount <= max) {
        await c.answerCallbackQuery();
        await clearKeyboard(c, prompt);
        return { quantity: action.amount, ctx: c };
      }
      if (action.type === "amount-other") {
        await c.answerCallbackQuery();
        await clearKeyboard(c, prompt);
        prompt = await sendPrompt(
          c,
          c.t("flow-ask-amount-custom", { min: MIN_STARS, max }),
          cancelKeyboard(c.t),
        );
        continue;
      }
      await c.answerCallbackQuery({ text: c.t("flow-button-inactive") });
      continue;
    }
    const amount = parseWholeNumber(event.text);
    if (amount === undefined || amount < MIN_STARS || amount > max) {
      await c.reply(c.t("flow-amount-invalid", { min: MIN_STARS, max }));
      continue;
    }
    await clearKeyboard(c, prompt);
    return { quantity: amount, ctx: c };
  }
}

async function askDuration(
  conversation: GiftConversation,
  ctx: FlowContext,
  username: string,
): Promise<{ quantity: number; ctx: FlowContext }> {
  const prompt = await sendPrompt(
    ctx,
    ctx.t("flow-ask-duration", { username }),
    durationKeyboard(ctx.t, encodeFlow),
  );
  for (;;) {
    const event = await waitEvent(conversation, prompt);
    const c = event.ctx;
    if (event.type === "button" && event.action.type === "duration") {
      await c.answerCallbackQuery();
      await clearKeyboard(c, prompt);
      return { quantity: event.action.months, ctx: c };
    }
    if (event.type === "button") {
      await c.answerCallbackQuery({ text: c.t("flow-button-inactive") });
      continue;
    }
    await c.reply(c.t("flow-expect-button"));
  }
}
