/**
 * Group premium gifting: an administrator of an allowed group replies to a member's message
 * with /premium (or writes `/premium @username`), picks the duration with buttons, sees the
 * summary and confirms.
 *
 * Only the start is handled here; the summary and its Confirm/Cancel buttons are the same
 * intent-keyed handlers as in private chats (features/summary.ts), so the ledger alone decides
 * whether anything is bought, and the access check checks the administrator again (fresh)
 * at confirmation. No conversation is used: a group is shared by several administrators, and
 * conversations are keyed by chat. Prompts are deleted when their step ends; group messages
 * never show the wallet's balance (the summary omits it outside private chats).
 *
 * The bot cleans up after itself in a group: its short replies (refusals, usage hints, wait
 * notices) are remembered and deleted when the same person's next /premium or /cancel comes,
 * a cancelled summary is deleted rather than edited, and prompts and replies older than the
 * prompt expiry are deleted at the group's next /premium or /cancel, or by
 * {@link sweepGroupMessages} (run on an interval by the app through AdminFeatures).
 *
 * Refusals to people without a flow of their own in the group (a member's /premium, /premium
 * in a group that is not allowed, /stars) are rate-limited per group by
 * {@link GroupRefusalThrottle}: a crowd trying /premium at once gets one answer, not a storm.
 */
import {
  type Api,
  type CallbackQueryContext,
  type ChatTypeContext,
  type CommandContext,
  Composer,
} from "grammy";
import type { Message, User } from "grammy/types";
import type { AccessList } from "../../../access/access-list.js";
import type { PremiumDuration } from "../../../gifts/catalogue.js";
import { parseUsername, type Username } from "../../../gifts/username.js";
import { checkGroupRequest, groupRefusalText } from "../../access/check.js";
import type { GroupAdminChecker } from "../../access/group-admins.js";
import type { BotContext } from "../../context.js";
import { tellQueued } from "../../format.js";
import { flowNotice, purchasesState, startProblem, withNotice } from "../../flows/headroom.js";
import { recipientProblem } from "../../flows/recipient.js";
import { runHere, showSummary } from "../../flows/show-summary.js";
import { durationKeyboard } from "../../keyboards/index.js";
import { decodedPress } from "../../press.js";
import type { BotServices } from "../../services.js";
import {
  decodeGroup,
  encodeGroup,
  GROUP_DATA,
  type GroupAction,
} from "../../callback-data/group.js";
import { closeOpenSummaries } from "../flow-entry.js";
import type { GroupPrompt, GroupPromptStore } from "./prompts.js";
import { GroupRefusalThrottle } from "../../fair-share/refusal-throttle.js";

/** How long a duration prompt (and a short reply) lives in a group: 10 minutes. */
export const GROUP_PROMPT_TTL_MS = 10 * 60_000;

export interface GroupPremiumDeps {
  access: AccessList;
  groupAdmins: GroupAdminChecker;
  prompts: GroupPromptStore;
  /** A duration prompt left this long is dead; default 10 minutes. */
  promptTtlMs?: number;
  /**
   * At most one refusal reply per group in this window (default
   * {@link GROUP_REFUSAL_COOLDOWN_MS}, 30 s); later refusals in it are silent.
   */
  refusalCooldownMs?: number;
}

/**
 * Whom /premium names. `userId` is the member's Telegram id when the update itself says it (the
 * replied-to message's author, a text mention): Premium through Telegram needs it (issue #39).
 */
type GroupRecipient =
  | { kind: "username"; username: Username; userId?: number }
  | { kind: "no_username"; name: string }
  | { kind: "none" };

/** A person the update names with their account: their @username, and their id. */
function personRecipient(user: User): GroupRecipient {
  const username = user.username === undefined ? undefined : parseUsername(user.username);
  return username === undefined
    ? { kind: "no_username", name: user.first_name }
    : { kind: "username", username, userId: user.id };
}

/**
 * Who `/premium` in a group means: a text mention (a name linked to the account), else the typed
 * @username, else the replied-to message's author.
 */
function groupRecipientOf(message: Message, args: string, botId: number): GroupRecipient {
  const mention = message.entities?.find((entity) => entity.type === "text_mention");
  if (mention?.type === "text_mention" && !mention.user.is_bot)
    return personRecipient(mention.user);
  const typed = args.trim();
  if (typed !== "") {
    const username = parseUsername(typed);
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
  return personRecipient(author);
}

/** What every group handler works with. */
interface GroupEnv {
  services: BotServices;
  access: AccessList;
  groupAdmins: GroupAdminChecker;
  prompts: GroupPromptStore;
  promptTtlMs: number;
  refusals: GroupRefusalThrottle;
}

/** A command in a group, or anything else that answers one message of one person there. */
type GroupCommand = CommandContext<ChatTypeContext<BotContext, "group" | "supergroup">>;
type GroupPress = CallbackQueryContext<BotContext>;

/** Routes the group commands and the duration prompts' buttons to their handlers. */
export function groupPremiumFeature(
  services: BotServices,
  deps: GroupPremiumDeps,
): Composer<BotContext> {
  const env: GroupEnv = {
    services,
    access: deps.access,
    groupAdmins: deps.groupAdmins,
    prompts: deps.prompts,
    promptTtlMs: deps.promptTtlMs ?? GROUP_PROMPT_TTL_MS,
    refusals: new GroupRefusalThrottle({
      now: services.now,
      ...(deps.refusalCooldownMs !== undefined ? { cooldownMs: deps.refusalCooldownMs } : {}),
    }),
  };
  const composer = new Composer<BotContext>();
  const group = composer.chatType(["group", "supergroup"]);
  group.command("premium", (ctx) => startGroupPremium(ctx, env));
  group.command("cancel", (ctx) => cancelGroupFlow(ctx, env));
  group.command("stars", (ctx) => refuseGroupStars(ctx, env));
  group.command("help", (ctx) => groupHelp(ctx, env));
  composer.callbackQuery(
    GROUP_DATA,
    decodedPress(decodeGroup, (ctx, action) => onGroupPress(ctx, env, action)),
  );
  return composer;
}

/**
 * /premium in a group: who may, then whether anything can be bought now (purchases paused by
 * an admin, or this administrator's or the bot's Premium limit used up: said at once, as in a
 * private chat, not at Confirm), for whom (the typed @username or the replied-to member), and
 * whether the service can gift them; then the duration prompt, which says first when
 * purchases wait for the admins (the breaker's pause, an unknown outcome).
 */
async function startGroupPremium(ctx: GroupCommand, env: GroupEnv): Promise<void> {
  const refusal = await checkGroupRequest(ctx, { kind: "premium", stage: "start" }, env);
  if (refusal !== undefined) {
    await refuse(ctx, env, groupRefusalText(ctx, refusal));
    return;
  }
  await tidy(ctx, env, ctx.chat.id, ctx.from.id);
  const locale = await ctx.i18n.getLocale();
  const who = { userId: ctx.from.id, audience: "group" } as const;
  const closed = await startProblem(ctx.t, locale, env.services, who, "premium");
  if (closed !== undefined) {
    await shortReply(ctx, env, closed);
    return;
  }
  const target = groupRecipientOf(ctx.msg, ctx.match, ctx.me.id);
  if (target.kind === "none") {
    await shortReply(ctx, env, ctx.t("group-usage"));
    return;
  }
  if (target.kind === "no_username") {
    await shortReply(ctx, env, ctx.t("group-no-username", { name: target.name }));
    return;
  }
  const chosen = await groupPremiumWay(ctx, env, target);
  if (typeof chosen === "string") {
    await shortReply(ctx, env, chosen);
    return;
  }
  const { username, recipientUserId } = chosen;
  // One flow per administrator per group: a new /premium ends the previous one.
  await endOpenFlow(ctx, env, ctx.chat.id, ctx.from.id);
  // Purchases waiting for the admins (the breaker's pause, an unknown outcome) are said first.
  const notice = flowNotice(ctx.t, await purchasesState(env.services));
  const ask = withNotice(notice, ctx.t("group-ask-duration", { username }));
  const prompt = await ctx.reply(ask, {
    reply_parameters: { message_id: ctx.msg.message_id, allow_sending_without_reply: true },
    reply_markup: durationKeyboard(ctx.t, encodeGroup),
  });
  await env.prompts.add({
    chatId: ctx.chat.id,
    messageId: prompt.message_id,
    starterId: ctx.from.id,
    recipient: username,
    ...(recipientUserId === undefined ? {} : { recipientUserId }),
    createdAt: env.services.now(),
  });
}

/**
 * How the named member gets Premium (PREMIUM_VIA): through Telegram when the bot knows their id
 * (from the update, or from the people it has seen: a username is never guessed), with no
 * service check (nothing of the wallet's leaves); else through the service, whose recipient
 * check comes first. A string is the reply that ends the request.
 */
async function groupPremiumWay(
  ctx: GroupCommand,
  env: GroupEnv,
  target: { username: Username; userId?: number },
): Promise<{ username: Username; recipientUserId?: number } | string> {
  const { services } = env;
  const known = target.userId ?? (await services.people.idOf(target.username));
  const way = services.desk.premiumWay(known);
  if (way.via === "telegram") {
    return { username: target.username, recipientUserId: way.recipientUserId };
  }
  if (way.via === "unnamed") return ctx.t("premium-unnamed", { username: target.username });
  const check = await services.desk.checkRecipient(target.username, {
    onQueued: tellQueued(ctx, trackReply(env, ctx.chat.id, ctx.from.id)),
    userId: ctx.from.id,
    isAdmin: services.admins.has(ctx.from.id),
  });
  const problem = recipientProblem(ctx.t, "group", "premium", target.username, check);
  if (problem !== undefined) return problem;
  return { username: check.kind === "ok" ? check.username : target.username };
}

/**
 * /cancel in a group ends this person's own group flow (prompt, open summaries, the bot's
 * short replies to them). Nothing to end means nothing is said: groups stay quiet.
 */
async function cancelGroupFlow(ctx: GroupCommand, env: GroupEnv): Promise<void> {
  await endOpenFlow(ctx, env, ctx.chat.id, ctx.from.id);
  await tidy(ctx, env, ctx.chat.id, ctx.from.id);
}

/**
 * Stars are for private chats: say what works here, to anyone (admin or not), within the
 * group's refusal cooldown like every other refusal.
 */
async function refuseGroupStars(ctx: GroupCommand, env: GroupEnv): Promise<void> {
  const allowed = await env.access.isChatAllowed(ctx.chat.id);
  await refuse(ctx, env, ctx.t(allowed ? "access-group-premium-only" : "access-group-not-allowed"));
}

/**
 * /help in a group: what works in this group (Premium by its administrators, or nothing until
 * a bot admin allows it) and that the rest is in a private chat. Answered to anyone, within
 * the group's refusal cooldown, so a crowd asking gets one answer.
 */
async function groupHelp(ctx: GroupCommand, env: GroupEnv): Promise<void> {
  const allowed = await env.access.isChatAllowed(ctx.chat.id);
  // The group's answer, not the asker's: a flow the asker starts next leaves it in place (it
  // goes with the sweep of expired messages).
  await refuse(
    ctx,
    env,
    ctx.t(allowed ? "group-help" : "group-help-off", { bot: ctx.me.username }),
    GROUP_OWNED,
  );
}

/**
 * A duration prompt's button. The prompt's state decides: only its starter's press counts,
 * and only while it is alive; the data carries nothing else.
 */
async function onGroupPress(ctx: GroupPress, env: GroupEnv, action: GroupAction): Promise<void> {
  const chat = ctx.chat;
  const messageId = ctx.callbackQuery.message?.message_id;
  if (
    chat === undefined ||
    messageId === undefined ||
    (chat.type !== "group" && chat.type !== "supergroup")
  ) {
    await ctx.answerCallbackQuery({ text: ctx.t("callback-invalid") });
    return;
  }
  const prompt = await env.prompts.get(chat.id, messageId);
  if (prompt === undefined) {
    await ctx.answerCallbackQuery({ text: ctx.t("flow-button-inactive") });
    await deleteQuietly(ctx, chat.id, messageId);
    return;
  }
  if (prompt.starterId !== ctx.from.id) {
    await ctx.answerCallbackQuery({ text: ctx.t("group-not-yours") });
    return;
  }
  if (env.services.now() - prompt.createdAt > env.promptTtlMs) {
    await ctx.answerCallbackQuery({ text: ctx.t("group-flow-expired") });
    await closePrompt(ctx, env, prompt);
    return;
  }
  if (action.type === "cancel") {
    await ctx.answerCallbackQuery({ text: ctx.t("cancel-done") });
    await closePrompt(ctx, env, prompt);
    return;
  }
  await pickDuration(ctx, env, prompt, action.months);
}

/** The starter chose a duration: ask the access check again (fresh), then show the summary. */
async function pickDuration(
  ctx: GroupPress,
  env: GroupEnv,
  prompt: GroupPrompt,
  months: PremiumDuration,
): Promise<void> {
  const refusal = await checkGroupRequest(ctx, { kind: "premium", stage: "start" }, env);
  if (refusal !== undefined) {
    await ctx.answerCallbackQuery({ text: groupRefusalText(ctx, refusal) });
    await closePrompt(ctx, env, prompt);
    return;
  }
  await ctx.answerCallbackQuery();
  await closePrompt(ctx, env, prompt);
  await showSummary(
    ctx,
    env.services,
    {
      kind: "premium",
      recipient: prompt.recipient,
      quantity: months,
      ...(prompt.recipientUserId === undefined
        ? {}
        : { paidVia: "telegram" as const, recipientUserId: prompt.recipientUserId }),
    },
    { outside: runHere(ctx), onNotice: trackReply(env, prompt.chatId, ctx.from.id) },
  );
}

/**
 * The owner of a reply that belongs to the group, not to whoever asked (the /help answer): no
 * Telegram user has id 0, so no person's tidy-up deletes it; the sweep still does, in time.
 */
const GROUP_OWNED = 0;

/**
 * Replies to the command; the reply is remembered so it is cleaned up later: with the asker's
 * next flow, or (owned by the group) only when it expires.
 */
async function shortReply(
  ctx: GroupCommand,
  env: GroupEnv,
  text: string,
  ownerId: number = ctx.from.id,
): Promise<void> {
  const sent = await ctx.reply(text, {
    reply_parameters: { message_id: ctx.msg.message_id, allow_sending_without_reply: true },
  });
  await env.prompts.trackReply({
    chatId: ctx.chat.id,
    messageId: sent.message_id,
    ownerId,
    createdAt: env.services.now(),
  });
}

/**
 * Refuses a group command. Someone with a flow of their own here (an open prompt or summary)
 * is always answered; anyone else only if the group has not had this same answer within the
 * cooldown, so a crowd gets one answer. A silent refusal leaves the person's earlier reply (the answer
 * they would get again) where it is.
 */
async function refuse(
  ctx: GroupCommand,
  env: GroupEnv,
  text: string,
  ownerId: number = ctx.from.id,
): Promise<void> {
  const chatId = ctx.chat.id;
  const userId = ctx.from.id;
  const ownFlow =
    (await env.prompts.openOf(chatId, userId)) !== undefined ||
    (await env.services.summaries.list(chatId, userId)).length > 0;
  const decision = ownFlow ? ({ kind: "answer" } as const) : env.refusals.take(chatId, text);
  if (decision.kind === "note") {
    // Not silence: one short line says the answer is just above, and when the next comes.
    await shortReply(ctx, env, ctx.t("group-answered-recently", { seconds: decision.seconds }));
    return;
  }
  if (decision.kind === "silent") {
    ctx.log.debug({ chatId }, "group refusal not sent: the group was answered moments ago");
    return;
  }
  await tidy(ctx, env, chatId, userId);
  await shortReply(ctx, env, text, ownerId);
}

/** Remembers a short reply (or a "you are queued" notice), to delete it later. */
function trackReply(env: GroupEnv, chatId: number, ownerId: number) {
  return (sent: { message_id: number }): void => {
    const reply = { chatId, messageId: sent.message_id, ownerId, createdAt: env.services.now() };
    // Not remembered: the sweep cannot delete it, and it stays in the group. Nothing else fails.
    env.prompts.trackReply(reply).catch(() => undefined);
  };
}

/** Deletes what expired in this group, and this person's earlier short replies. */
async function tidy(ctx: BotContext, env: GroupEnv, chatId: number, userId: number) {
  await sweepGroupMessages(ctx.api, env.prompts, {
    before: env.services.now() - env.promptTtlMs,
    chatId,
    logger: ctx.log,
  });
  for (const old of await env.prompts.repliesOf(chatId, userId)) {
    await env.prompts.untrack(chatId, old.messageId);
    await deleteQuietly(ctx, chatId, old.messageId);
  }
}

async function endOpenFlow(ctx: BotContext, env: GroupEnv, chatId: number, userId: number) {
  const open = await env.prompts.openOf(chatId, userId);
  if (open !== undefined) await closePrompt(ctx, env, open);
  await closeOpenSummaries(ctx, env.services);
}

async function closePrompt(ctx: BotContext, env: GroupEnv, prompt: GroupPrompt) {
  await env.prompts.remove(prompt);
  await deleteQuietly(ctx, prompt.chatId, prompt.messageId);
}

/** Deletes one of the bot's own prompts; a message already gone needs nothing more. */
async function deleteQuietly(ctx: BotContext, chatId: number, messageId: number): Promise<void> {
  await deleteWith(ctx.api, chatId, messageId, ctx.log);
}

async function deleteWith(
  api: Api,
  chatId: number,
  messageId: number,
  logger: Pick<BotContext["log"], "debug">,
): Promise<void> {
  try {
    await api.deleteMessage(chatId, messageId);
  } catch (error) {
    logger.debug({ error }, "could not delete a group message");
  }
}

export interface GroupSweepOptions {
  /** Messages sent at or before this time are deleted. */
  before: number;
  /** One group only; default every group with tracked messages. */
  chatId?: number;
  logger: Pick<BotContext["log"], "debug">;
}

/**
 * Deletes the bot's group prompts and short replies sent at or before `before`, and forgets
 * them (an expired prompt's buttons then answer as inactive). Telegram lets a bot delete its
 * own group messages for 48 hours only, so this must run well within that: at each /premium
 * or /cancel in the group, and on the app's interval. Returns how many were cleaned up.
 */
export async function sweepGroupMessages(
  api: Api,
  prompts: GroupPromptStore,
  options: GroupSweepOptions,
): Promise<number> {
  const expired = await prompts.sentBefore(options.before, options.chatId);
  for (const message of expired) {
    const prompt =
      message.kind === "prompt" ? await prompts.get(message.chatId, message.messageId) : undefined;
    if (prompt !== undefined) await prompts.remove(prompt);
    else await prompts.untrack(message.chatId, message.messageId);
    await deleteWith(api, message.chatId, message.messageId, options.logger);
  }
  return expired.length;
}
