/**
 * Group premium gifting: an administrator of an allowed group replies to a member's message
 * with /premium (or writes `/premium @username`), picks the duration with buttons, sees the
 * summary and confirms.
 *
 * Only the start is handled here; the summary and its Confirm/Cancel buttons are the same
 * intent-keyed handlers as in private chats (features/summary.ts), so the ledger alone decides
 * whether anything is bought, and the purchase gate checks the administrator again (fresh)
 * at confirmation. No conversation is used: a group is shared by several administrators, and
 * conversations are keyed by chat. Prompts are deleted when their step ends; group messages
 * never show the wallet's balance (the summary omits it outside private chats).
 */
import { Composer, type Filter, InlineKeyboard } from "grammy";
import type { Message } from "grammy/types";
import type { AccessList } from "../../../access/access-list.js";
import type { BalanceSnapshot } from "../../../ledger/types.js";
import type { RecipientCheck } from "../../../purchases/types.js";
import { checkGroupRequest, groupRefusalText } from "../../access/gate.js";
import type { GroupAdminChecker } from "../../access/group-admins.js";
import { encodeSummary, PREMIUM_DURATIONS } from "../../callback-data/index.js";
import type { BotContext, Translate } from "../../context.js";
import { tellQueued } from "../../format.js";
import { parseRecipient } from "../../flows/recipient.js";
import type { BotServices } from "../../services.js";
import { summaryText } from "../../views.js";
import { decodeGroup, encodeGroup, isGroupData } from "../admin/callback-data.js";
import { closeOpenSummaries } from "../flow-entry.js";
import type { GroupPrompt, GroupPromptStore } from "./prompts.js";

export interface GroupPremiumDeps {
  access: AccessList;
  groupAdmins: GroupAdminChecker;
  prompts: GroupPromptStore;
  /** A duration prompt left this long is dead; default 10 minutes. */
  promptTtlMs?: number;
}

type GroupRecipient =
  { kind: "username"; username: string } | { kind: "no_username"; name: string } | { kind: "none" };

type CallbackContext = Filter<BotContext, "callback_query:data">;

/** Who `/premium` in a group means: the typed @username, else the replied-to message's author. */
export function groupRecipientOf(message: Message, args: string, botId: number): GroupRecipient {
  const typed = args.trim();
  if (typed !== "") {
    const username = parseRecipient(typed);
    return username === undefined ? { kind: "none" } : { kind: "username", username };
  }
  const replied = message.reply_to_message;
  // In forum topics every message "replies" to the topic's creation: that is not a choice.
  if (replied === undefined || replied.forum_topic_created !== undefined) return { kind: "none" };
  const author = replied.from;
  if (author === undefined || author.id === botId) return { kind: "none" };
  if (replied.sender_chat !== undefined) {
    return { kind: "no_username", name: replied.sender_chat.title ?? author.first_name };
  }
  const username = author.username === undefined ? undefined : parseRecipient(author.username);
  return username === undefined
    ? { kind: "no_username", name: author.first_name }
    : { kind: "username", username };
}

function durationKeyboard(t: Translate): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const months of PREMIUM_DURATIONS) {
    keyboard.text(t("button-duration", { months }), encodeGroup({ type: "duration", months }));
  }
  return keyboard.row().text(t("button-cancel"), encodeGroup({ type: "cancel" }));
}

/** Confirm and Cancel only: groups stay short (the payment method is the configured one). */
function groupSummaryKeyboard(t: Translate, intentId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(t("button-confirm"), encodeSummary({ type: "confirm", intentId }))
    .text(t("button-cancel"), encodeSummary({ type: "cancel", intentId }));
}

function recipientProblem(
  t: Translate,
  username: string,
  check: RecipientCheck,
): string | undefined {
  switch (check.kind) {
    case "ok":
      return check.isPremium === true ? t("group-recipient-has-premium", { username }) : undefined;
    case "invalid_username":
      return t("group-usage");
    case "not_found":
      return t("group-recipient-not-found", { username });
    case "rate_limited":
      return t("group-recipient-busy", { seconds: Math.max(1, check.retryAfterSeconds) });
    case "refused":
    case "unavailable":
      return t("group-recipient-unavailable", { username });
  }
}

export function groupPremiumFeature(
  services: BotServices,
  deps: GroupPremiumDeps,
): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const promptTtlMs = deps.promptTtlMs ?? 10 * 60_000;
  const group = composer.chatType(["group", "supergroup"]);

  group.command("premium", async (ctx) => {
    const reply = (text: string, keyboard?: InlineKeyboard) =>
      ctx.reply(text, {
        reply_parameters: { message_id: ctx.msg.message_id, allow_sending_without_reply: true },
        ...(keyboard === undefined ? {} : { reply_markup: keyboard }),
      });
    const refusal = await checkGroupRequest(ctx, { kind: "premium", stage: "start" }, deps);
    if (refusal !== undefined) {
      await reply(groupRefusalText(ctx, refusal));
      return;
    }
    const target = groupRecipientOf(ctx.msg, ctx.match, ctx.me.id);
    if (target.kind === "none") {
      await reply(ctx.t("group-usage"));
      return;
    }
    if (target.kind === "no_username") {
      await reply(ctx.t("group-no-username", { name: target.name }));
      return;
    }
    const check = await services.desk.checkRecipient(target.username, {
      onQueued: tellQueued(ctx),
    });
    const username =
      check.kind === "ok" ? check.username.replace(/^@/, "") || target.username : target.username;
    const problem = recipientProblem(ctx.t, username, check);
    if (problem !== undefined) {
      await reply(problem);
      return;
    }
    // One flow per administrator per group: a new /premium ends the previous one.
    await endOpenFlow(ctx, ctx.chat.id, ctx.from.id);
    const prompt = await reply(ctx.t("group-ask-duration", { username }), durationKeyboard(ctx.t));
    deps.prompts.add({
      chatId: ctx.chat.id,
      messageId: prompt.message_id,
      starterId: ctx.from.id,
      recipient: username,
      createdAt: services.now(),
    });
  });

  // Stars are for private chats; in a group where gifting is on, say what works here.
  group.command("stars", async (ctx, next) => {
    if (!deps.access.isChatAllowed(ctx.chat.id)) return next();
    await ctx.reply(ctx.t("access-group-premium-only"), {
      reply_parameters: { message_id: ctx.msg.message_id, allow_sending_without_reply: true },
    });
  });

  composer.on("callback_query:data", async (ctx, next) => {
    if (!isGroupData(ctx.callbackQuery.data)) return next();
    const action = decodeGroup(ctx.callbackQuery.data);
    const chat = ctx.chat;
    const messageId = ctx.callbackQuery.message?.message_id;
    if (
      action === undefined ||
      chat === undefined ||
      messageId === undefined ||
      (chat.type !== "group" && chat.type !== "supergroup")
    ) {
      await ctx.answerCallbackQuery({ text: ctx.t("callback-invalid") });
      return;
    }
    const prompt = deps.prompts.get(chat.id, messageId);
    if (prompt === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("flow-button-inactive") });
      await deleteQuietly(ctx, chat.id, messageId);
      return;
    }
    if (prompt.starterId !== ctx.from.id) {
      await ctx.answerCallbackQuery({ text: ctx.t("group-not-yours") });
      return;
    }
    if (services.now() - prompt.createdAt > promptTtlMs) {
      await ctx.answerCallbackQuery({ text: ctx.t("group-flow-expired") });
      await closePrompt(ctx, prompt);
      return;
    }
    if (action.type === "cancel") {
      await ctx.answerCallbackQuery({ text: ctx.t("cancel-done") });
      await closePrompt(ctx, prompt);
      return;
    }
    await pickDuration(ctx, prompt, action.months);
  });

  async function pickDuration(ctx: CallbackContext, prompt: GroupPrompt, months: number) {
    const refusal = await checkGroupRequest(ctx, { kind: "premium", stage: "start" }, deps);
    if (refusal !== undefined) {
      await ctx.answerCallbackQuery({ text: groupRefusalText(ctx, refusal) });
      await closePrompt(ctx, prompt);
      return;
    }
    await ctx.answerCallbackQuery();
    await closePrompt(ctx, prompt);
    // Recorded for the admins' reconciliation evidence; never shown in the group.
    const balance = await services.desk.readBalance({ onQueued: tellQueued(ctx) });
    const balanceBefore: BalanceSnapshot | undefined =
      balance.kind === "ok" ? { ton: balance.balance.ton, usdt: balance.balance.usdt } : undefined;
    const chat = ctx.chat;
    if (chat === undefined || (chat.type !== "group" && chat.type !== "supergroup")) return;
    const intent = services.desk.createDraft({
      kind: "premium",
      recipient: prompt.recipient,
      quantity: months,
      paymentMethod: services.defaultPaymentMethod,
      requester: { userId: ctx.from.id, chatId: chat.id, chatType: chat.type },
      balanceBefore,
    });
    const locale = await ctx.i18n.getLocale();
    const message = await ctx.reply(summaryText(ctx.t, locale, intent), {
      reply_markup: groupSummaryKeyboard(ctx.t, intent.id),
    });
    services.summaries.add(ctx.from.id, {
      intentId: intent.id,
      chatId: chat.id,
      messageId: message.message_id,
    });
  }

  async function endOpenFlow(ctx: BotContext, chatId: number, userId: number) {
    const open = deps.prompts.openOf(chatId, userId);
    if (open !== undefined) await closePrompt(ctx, open);
    await closeOpenSummaries(ctx, services);
  }

  async function closePrompt(ctx: BotContext, prompt: GroupPrompt) {
    deps.prompts.remove(prompt);
    await deleteQuietly(ctx, prompt.chatId, prompt.messageId);
  }

  return composer;
}

/** Deletes one of the bot's own prompts; a message already gone needs nothing more. */
async function deleteQuietly(ctx: BotContext, chatId: number, messageId: number): Promise<void> {
  try {
    await ctx.api.deleteMessage(chatId, messageId);
  } catch (error) {
    ctx.log.debug({ err: error }, "could not delete a group prompt");
  }
}
