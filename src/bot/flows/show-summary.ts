/**
 * The one way a summary comes into being, for the private conversation and the group flow
 * alike: cancel the person's other drafts in this chat, have the desk record the draft (it
 * reads the wallet's balance: the "balance before" an admin sees if the outcome is ever
 * uncertain), show it with its Confirm buttons and remember the message. Every draft the bot creates goes through
 * {@link showSummary}, so a change to how the desk records drafts is made here only.
 */
import type { Message } from "grammy/types";
import type { IntentKind, PurchaseIntent } from "../../ledger/types.js";
import type { Username } from "../../gifts/username.js";
import type { BotContext, FlowContext } from "../context.js";
import { tellQueued } from "../format.js";
import { summaryKeyboard } from "../keyboards/index.js";
import type { BotServices } from "../services.js";
import { type SummaryView, summaryText, summaryWithStatus } from "../purchase-views.js";
import { notePauseMet } from "../pause-waiters.js";
import { closedText, purchasesState } from "./headroom.js";

/** What a person chose: the gift and for whom. Who asks, and where, is the context's. */
export interface SummaryRequest {
  kind: IntentKind;
  recipient: Username;
  /** Stars amount, or premium duration in months. */
  quantity: number;
  /** Premium through Telegram from the bot's Stars, to the recipient named by this id. */
  paidVia?: "telegram";
  recipientUserId?: number;
}

/**
 * Runs work that has side effects (the desk, the kv store) with the outside context. A
 * conversation passes its `external`, so a replay does not repeat the work; elsewhere
 * {@link runHere} simply runs it.
 */
export type Outside = <T>(work: (outside: BotContext) => T | Promise<T>) => Promise<T>;

/** {@link Outside} for handlers that are not in a conversation: the work runs at once. */
export function runHere(ctx: BotContext): Outside {
  return async (work) => work(ctx);
}

export interface ShowSummaryOptions {
  outside: Outside;
  /** Told about each "you are queued" notice sent (a group tracks them to clean up later). */
  onNotice?: (sent: Message.TextMessage) => void;
}

/**
 * Records the draft and shows its summary in the context's chat. Returns the draft, or
 * `undefined` when the update has no chat or sender to ask on behalf of.
 */
export async function showSummary(
  ctx: FlowContext,
  services: BotServices,
  request: SummaryRequest,
  options: ShowSummaryOptions,
): Promise<PurchaseIntent | undefined> {
  const chat = ctx.chat;
  const from = ctx.from;
  if (chat === undefined || from === undefined) return undefined;
  const requester = { userId: from.id, chatId: chat.id, chatType: chat.type };
  const { intent, status } = await options.outside(async (outside) => {
    // A crash after this step but before a conversation's save would replay it and show a
    // second summary; cancelling the person's other drafts in this chat first means only the
    // newest summary can ever be confirmed.
    await cancelOtherDrafts(services, requester.userId, requester.chatId);
    // The desk reads the balance (the "balance before") and records the draft with it.
    const draft = await services.desk.createDraft(
      { ...request, paymentMethod: services.defaultPaymentMethod, requester },
      { onQueued: tellQueued(outside, options.onNotice) },
    );
    return { intent: draft, status: await purchasesState(services) };
  });
  const locale = await ctx.i18n.getLocale();
  // One SQLite read, no service request: the estimate never delays the summary.
  const view = await summaryView(services, intent);
  // Paused (or on hold) since the flow began: said in the summary, which stays confirmable
  // for when purchases reopen.
  const closed = closedText(ctx.t, status, "summary");
  if (closed !== undefined) await notePauseMet(ctx, services.pauseWaiters);
  const text =
    closed === undefined
      ? summaryText(ctx.t, locale, intent, view)
      : summaryWithStatus(ctx.t, locale, intent, closed, view);
  const message = await ctx.reply(text, {
    reply_markup: summaryKeyboard(ctx.t, intent),
  });
  await options.outside(() =>
    services.summaries.add(from.id, {
      intentId: intent.id,
      chatId: chat.id,
      messageId: message.message_id,
    }),
  );
  return intent;
}

async function cancelOtherDrafts(
  services: BotServices,
  userId: number,
  chatId: number,
): Promise<void> {
  for (const open of await services.records.openDrafts(userId, chatId)) {
    await services.desk.cancel(open.id, userId);
  }
}

/**
 * What a summary of `intent` shows its requester besides the gift: the cost estimate (one
 * SQLite read, no service request) and whether the wallet's balance is theirs to see.
 */
export async function summaryView(
  services: BotServices,
  intent: PurchaseIntent,
): Promise<SummaryView> {
  return {
    estimate: await services.records.estimate(intent),
    showBalance: services.balanceShownTo(intent.requester.userId),
    // Paid in the bot's Stars: its balance, read from Telegram (the wallet is not involved).
    ...(intent.paidVia === "telegram" ? { stars: await services.desk.readStarBalance() } : {}),
  };
}
