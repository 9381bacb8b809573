/**
 * The /giveaway conversation (admins, private chat): what every recipient gets (stars with an
 * amount, or Premium with a duration), then the recipients, as a message or a .txt/.csv file.
 * The conversation ENDS once the list is read: the checks run beside the chat
 * (./run-checks.ts), so the admin's Stop is never held behind them, and the
 * card's buttons are plain callback handlers (./feature.ts).
 *
 * Replayed from the top on every update (Conversations v2): the download and the start of the
 * checks are inside `conversation.external`.
 */
import type { Conversation } from "@grammyjs/conversations";
import type { Document } from "grammy/types";
import { type GiftKind, MAX_STARS, MIN_STARS } from "../../../gifts/catalogue.js";
import { decodeFlow, encodeFlow, type FlowAction, isFlowData } from "../../callback-data/flow.js";
import { decodeGiveaway, GIVEAWAY_DATA } from "../../callback-data/giveaway.js";
import { decodeMenu } from "../../callback-data/menu.js";
import type { BotContext, FlowContext } from "../../context.js";
import type { GiveawaySending } from "./sending.js";
import type { GiveawayBoard } from "./board.js";
import {
  type DownloadOptions,
  downloadListFile,
  type ListFile,
  MAX_LIST_FILE_BYTES,
} from "./download.js";
import { type RecipientList, recipientsFromFile, recipientsFromText } from "./recipients.js";
import { type Later, runGiveawayChecks } from "./run-checks.js";
import { formatBytes } from "../../format.js";
import { amountKeyboard, cancelKeyboard, durationKeyboard } from "../../keyboards/index.js";
import { giveawayKindKeyboard } from "../../keyboards/giveaway.js";
import type { BotServices } from "../../services.js";
import {
  clearKeyboard,
  commandOf,
  PASS_THROUGH_COMMANDS,
  type Prompt,
  sendPrompt,
} from "../../flows/gift-flow.js";
import { parseWholeNumber } from "../../flows/whole-number.js";

type GiveawayConversation = Conversation<BotContext, FlowContext>;

/** What the giveaway's conversation and its checks need besides the bot's services. */
export interface GiveawayDeps {
  board: GiveawayBoard;
  /** GIVEAWAY_MAX. */
  maxRecipients: number;
  /** How a list file is downloaded (grammY's API root and fetch). */
  download: DownloadOptions;
  /** The timers of the progress message and of the waits between checks. */
  later: Later;
  /** The progress message's edit interval (default run-checks' own). */
  editIntervalMs?: number | undefined;
  /** Sends confirmed giveaways and shows their progress. */
  sending: GiveawaySending;
}

/** What the admin is told about a list file that could not be read. */
const FILE_PROBLEM_TEXTS: Record<Exclude<ListFile["kind"], "ok">, string> = {
  not_a_list: "giveaway-file-not-a-list",
  too_large: "giveaway-file-too-large",
  failed: "giveaway-file-failed",
};

type GiveawayEvent =
  | { type: "text"; ctx: FlowContext; text: string }
  | { type: "document"; ctx: FlowContext; document: Document }
  | { type: "kind"; ctx: FlowContext; kind: GiftKind }
  | { type: "flow"; ctx: FlowContext; action: FlowAction }
  | { type: "other"; ctx: FlowContext };

/** The conversation builder. */
export function createGiveawayFlow(services: BotServices, deps: GiveawayDeps) {
  return async (conversation: GiveawayConversation, ctx: FlowContext): Promise<void> => {
    const chat = ctx.chat;
    const from = ctx.from;
    if (chat === undefined || from === undefined) return;
    const kind = await askKind(conversation, ctx);
    const choice =
      kind.kind === "stars"
        ? await askAmount(conversation, kind.ctx, services)
        : await askDuration(conversation, kind.ctx);
    const list = await askRecipients(conversation, choice.ctx, deps);
    const locale = await ctx.i18n.getLocale();
    await conversation.external((outside) => {
      const giveaway = deps.board.open({
        ownerId: from.id,
        chatId: chat.id,
        locale,
        kind: kind.kind,
        quantity: choice.quantity,
        list,
        startedAt: services.now(),
      });
      services.background.track(
        runGiveawayChecks(giveaway, {
          api: outside.api,
          services,
          board: deps.board,
          later: deps.later,
          earlierLike: (same) => deps.sending.runner.earlierLike(same),
          ...(deps.editIntervalMs !== undefined ? { editIntervalMs: deps.editIntervalMs } : {}),
        }),
      );
    });
  };
}

/**
 * The next thing the admin does at a step. /cancel and the Cancel button leave; other commands
 * and the start menu leave and are handled outside; the buttons of a giveaway's own later
 * messages (an older giveaway's card) and of summaries go to their handlers.
 */
async function waitEvent(
  conversation: GiveawayConversation,
  prompt: Prompt,
): Promise<GiveawayEvent> {
  for (;;) {
    const ctx = await conversation.wait();
    const message = ctx.message;
    if (message?.text !== undefined) {
      const command = commandOf(ctx);
      if (command === undefined) return { type: "text", ctx, text: message.text };
      if (command === "cancel") return leave(conversation, ctx, prompt);
      if (PASS_THROUGH_COMMANDS.has(command)) await conversation.skip({ next: true });
      await clearKeyboard(ctx, prompt);
      return conversation.halt({ next: true });
    }
    if (message?.document !== undefined)
      return { type: "document", ctx, document: message.document };
    if (message !== undefined) return { type: "other", ctx };
    const data = ctx.callbackQuery?.data;
    if (data === undefined) await conversation.skip({ next: true });
    const event = await pressEvent(conversation, ctx, prompt, data ?? "");
    if (event !== undefined) return event;
  }
}

/** A press at a step: its event, or undefined once it has been answered here. */
async function pressEvent(
  conversation: GiveawayConversation,
  ctx: FlowContext,
  prompt: Prompt,
  data: string,
): Promise<GiveawayEvent | undefined> {
  const onPrompt = ctx.callbackQuery?.message?.message_id === prompt.messageId;
  if (isFlowData(data)) {
    const action = decodeFlow(data);
    if (action?.type === "cancel") return leave(conversation, ctx, prompt);
    if (action === undefined || !onPrompt) {
      await ctx.answerCallbackQuery({
        text: ctx.t(action === undefined ? "callback-invalid" : "flow-button-inactive"),
      });
      return undefined;
    }
    return { type: "flow", ctx, action };
  }
  const giveaway = GIVEAWAY_DATA.test(data) ? decodeGiveaway(data) : undefined;
  if (giveaway?.type === "kind" && onPrompt) return { type: "kind", ctx, kind: giveaway.kind };
  if (decodeMenu(data) !== undefined) {
    await clearKeyboard(ctx, prompt);
    return conversation.halt({ next: true });
  }
  // An older giveaway's buttons, summaries, languages, forged data: their own handlers answer.
  return conversation.skip({ next: true });
}

async function leave(
  conversation: GiveawayConversation,
  ctx: FlowContext,
  prompt: Prompt,
): Promise<never> {
  if (ctx.callbackQuery !== undefined) await ctx.answerCallbackQuery();
  await clearKeyboard(ctx, prompt);
  await ctx.reply(ctx.t("cancel-done"));
  return conversation.halt();
}

async function askKind(
  conversation: GiveawayConversation,
  ctx: FlowContext,
): Promise<{ kind: GiftKind; ctx: FlowContext }> {
  const prompt = await sendPrompt(ctx, ctx.t("giveaway-ask-kind"), giveawayKindKeyboard(ctx.t));
  for (;;) {
    const event = await waitEvent(conversation, prompt);
    const c = event.ctx;
    if (event.type === "kind") {
      await c.answerCallbackQuery();
      await clearKeyboard(c, prompt);
      return { kind: event.kind, ctx: c };
    }
    if (event.type === "flow") await c.answerCallbackQuery({ text: c.t("flow-button-inactive") });
    else await c.reply(c.t("flow-expect-button"));
  }
}

async function askAmount(
  conversation: GiveawayConversation,
  ctx: FlowContext,
  services: BotServices,
): Promise<{ quantity: number; ctx: FlowContext }> {
  // Each recipient's gift is one purchase: the per-purchase limit bounds it.
  const max = await conversation.external(() =>
    Math.min(MAX_STARS, services.records.limits().starsPerPurchase),
  );
  let prompt = await sendPrompt(
    ctx,
    ctx.t("giveaway-ask-amount", { max }),
    amountKeyboard(ctx.t, max),
  );
  for (;;) {
    const event = await waitEvent(conversation, prompt);
    const c = event.ctx;
    if (event.type === "flow" && event.action.type === "amount" && event.action.amount <= max) {
      await c.answerCallbackQuery();
      await clearKeyboard(c, prompt);
      return { quantity: event.action.amount, ctx: c };
    }
    if (event.type === "flow" && event.action.type === "amount-other") {
      await c.answerCallbackQuery();
      await clearKeyboard(c, prompt);
      prompt = await sendPrompt(
        c,
        c.t("flow-ask-amount-custom", { min: MIN_STARS, max }),
        cancelKeyboard(c.t),
      );
      continue;
    }
    if (event.type === "text") {
      const amount = parseWholeNumber(event.text);
      if (amount !== undefined && amount >= MIN_STARS && amount <= max) {
        await clearKeyboard(c, prompt);
        return { quantity: amount, ctx: c };
      }
      await c.reply(c.t("flow-amount-invalid", { min: MIN_STARS, max }));
      continue;
    }
    if (c.callbackQuery !== undefined) {
      await c.answerCallbackQuery({ text: c.t("flow-button-inactive") });
    } else {
      await c.reply(c.t("flow-expect-button"));
    }
  }
}

async function askDuration(
  conversation: GiveawayConversation,
  ctx: FlowContext,
): Promise<{ quantity: number; ctx: FlowContext }> {
  const prompt = await sendPrompt(
    ctx,
    ctx.t("giveaway-ask-duration"),
    durationKeyboard(ctx.t, encodeFlow),
  );
  for (;;) {
    const event = await waitEvent(conversation, prompt);
    const c = event.ctx;
    if (event.type === "flow" && event.action.type === "duration") {
      await c.answerCallbackQuery();
      await clearKeyboard(c, prompt);
      return { quantity: event.action.months, ctx: c };
    }
    if (c.callbackQuery !== undefined) {
      await c.answerCallbackQuery({ text: c.t("flow-button-inactive") });
    } else {
      await c.reply(c.t("flow-expect-button"));
    }
  }
}

async function askRecipients(
  conversation: GiveawayConversation,
  ctx: FlowContext,
  deps: GiveawayDeps,
): Promise<RecipientList> {
  const max = deps.maxRecipients;
  const locale = await ctx.i18n.getLocale();
  const size = formatBytes(locale, MAX_LIST_FILE_BYTES);
  const prompt = await sendPrompt(
    ctx,
    ctx.t("giveaway-ask-recipients", { max, size }),
    cancelKeyboard(ctx.t),
  );
  for (;;) {
    const event = await waitEvent(conversation, prompt);
    const c = event.ctx;
    let list: RecipientList | undefined;
    if (event.type === "text") list = recipientsFromText(event.text, max);
    else if (event.type === "document") {
      const read = await conversation.external((outside) =>
        readListFile(outside, event.document, deps, max),
      );
      if ("kind" in read) {
        await c.reply(c.t(FILE_PROBLEM_TEXTS[read.kind], { size }));
        continue;
      }
      list = read;
    } else {
      if (c.callbackQuery !== undefined) {
        await c.answerCallbackQuery({ text: c.t("flow-button-inactive") });
      } else {
        await c.reply(c.t("giveaway-expect-list", { size }));
      }
      continue;
    }
    const problem = listProblem(c, list, max);
    if (problem !== undefined) {
      await c.reply(problem);
      continue;
    }
    await clearKeyboard(c, prompt);
    await c.reply(listReadText(c, list));
    return list;
  }
}

/** A list file's recipients, or why it could not be read. */
async function readListFile(
  outside: BotContext,
  document: Document,
  deps: GiveawayDeps,
  max: number,
): Promise<RecipientList | { kind: Exclude<ListFile["kind"], "ok"> }> {
  const file = await downloadListFile(
    { getFile: (id) => outside.api.getFile(id), token: outside.api.token },
    document,
    deps.download,
  );
  if (file.kind !== "ok") return { kind: file.kind };
  return recipientsFromFile(file.fileName, file.text, max);
}

/** Why this list cannot be a giveaway's (too long, or nobody on it); undefined when it can. */
function listProblem(ctx: FlowContext, list: RecipientList, max: number): string | undefined {
  if (list.overLimit > 0) {
    return ctx.t("giveaway-too-many", { count: list.recipients.length + list.overLimit, max });
  }
  if (list.recipients.length === 0) return ctx.t("giveaway-no-recipients");
  return undefined;
}

/** "30 recipients read (3 written twice, merged); not usernames, left out: ...". */
function listReadText(ctx: FlowContext, list: RecipientList): string {
  const lines = [
    ctx.t("giveaway-list-read", { count: list.recipients.length, duplicates: list.duplicates }),
  ];
  if (list.invalidCount > 0) {
    const shown = list.invalid.map((entry) => `"${entry}"`).join(", ");
    const more = list.invalidCount - list.invalid.length;
    lines.push(
      ctx.t("giveaway-list-invalid", { count: list.invalidCount, names: shown }) +
        (more > 0 ? ` ${ctx.t("giveaway-card-more", { count: more })}` : ""),
    );
  }
  return lines.join("\n");
}
