/**
 * The summary's buttons, handled OUTSIDE any conversation and keyed by the intent id in the
 * callback data: the ledger's claim decides whether a purchase request may be sent, so a
 * double click, a stale summary, a forged id or another person's click can never buy twice.
 *
 * Every press is answered (answerCallbackQuery). A press that can be refused from the intent's
 * own state is refused at once with the reason; purchases paused or on hold are said in the
 * summary itself (it stays, to be confirmed once they reopen). Otherwise the desk claims, the
 * summary turns into "sending" only once the claim has won (a refused claim never shows
 * "sending"), and it is edited into the outcome or the claim's reason.
 */
import { editQuietly } from "../edit-quietly.js";
import { Composer, type Filter, GrammyError } from "grammy";
import type { ClaimRefusal, PurchaseIntent } from "../../ledger/types.js";
import { isPassingRefusal } from "../../purchases/decisions.js";
import type { ConfirmRefusal, ConfirmResult } from "../../purchases/types.js";
import { BUY_DATA, decodeSummary, type SummaryAction } from "../callback-data/buy.js";
import type { BotContext } from "../context.js";
import { waitSeconds } from "../format.js";
import { summaryKeyboard } from "../keyboards/index.js";
import { closedText, purchasesState } from "../flows/headroom.js";
import { summaryView } from "../flows/show-summary.js";
import { notePauseMet } from "../pause-waiters.js";
import { decodedPress } from "../press.js";
import type { BotServices } from "../services.js";
import {
  audienceOf,
  cancelledText,
  outcomeText,
  refusalText,
  sentence,
  summaryText,
  summaryWithStatus,
  type SummaryView,
} from "../purchase-views.js";

type CallbackContext = Filter<BotContext, "callback_query:data">;

export function summaryFeature(services: BotServices): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(
    BUY_DATA,
    decodedPress(decodeSummary, (ctx, action) => onSummaryPress(ctx, action, services)),
  );
  return composer;
}

/** Confirm, Cancel or the payment switch: refused at once when the intent's state says so. */
async function onSummaryPress(
  ctx: CallbackContext,
  action: SummaryAction,
  services: BotServices,
): Promise<void> {
  const intent = await services.records.getIntent(action.intentId);
  const refusal = preCheck(intent, ctx.from.id, ctx.chat?.id, services);
  if (refusal !== undefined || intent === undefined) {
    await refuse(ctx, refusal ?? { reason: "not_found" }, intent, services);
    return;
  }
  switch (action.type) {
    case "confirm":
      return confirm(ctx, intent, services);
    case "cancel":
      return cancel(ctx, intent, services);
    case "method":
      return switchMethod(ctx, intent, action, services);
  }
}

/** What the intent's own state already says about a press, before anything is attempted. */
function preCheck(
  intent: PurchaseIntent | undefined,
  userId: number,
  chatId: number | undefined,
  services: BotServices,
): ClaimRefusal | undefined {
  if (intent === undefined) return { reason: "not_found" };
  // A summary answers only in the chat it was shown in: a forged press elsewhere is judged
  // by nobody's rules but its own chat's, so it is refused outright.
  if (intent.requester.userId !== userId || intent.requester.chatId !== chatId) {
    return { reason: "not_owner" };
  }
  return services.records.refusalOf(intent);
}

/** Answers a refused press; a summary that can never be confirmed loses its keyboard. */
async function refuse(
  ctx: CallbackContext,
  refusal: ClaimRefusal,
  intent: PurchaseIntent | undefined,
  services: BotServices,
): Promise<void> {
  const locale = await ctx.i18n.getLocale();
  await ctx.answerCallbackQuery({
    text: sentence(refusalText(ctx.t, locale, refusal, audienceOf(ctx.chat?.type))),
  });
  // An expired summary still shows its buttons (nothing edited it when it expired): say so
  // and take them away. A cancelled one was edited when it was cancelled.
  if (
    refusal.reason === "expired" &&
    intent !== undefined &&
    intent.requester.userId === ctx.from.id
  ) {
    await editSummary(
      ctx,
      summaryWithStatus(
        ctx.t,
        locale,
        intent,
        outcomeLine(ctx, locale, refusal),
        await summaryView(services, intent),
      ),
    );
  }
}

function outcomeLine(ctx: BotContext, locale: string, refusal: ConfirmRefusal): string {
  return ctx.t("outcome-refused", {
    reason: refusalText(ctx.t, locale, refusal, audienceOf(ctx.chat?.type)),
  });
}

/** Confirm: refused while purchases are closed, else claimed by the desk and its outcome shown. */
async function confirm(
  ctx: CallbackContext,
  intent: PurchaseIntent,
  services: BotServices,
): Promise<void> {
  const locale = await ctx.i18n.getLocale();
  if (await refusedWhileClosed(ctx, intent, services, locale)) return;
  const gate = await services.canBuy(ctx, { kind: intent.kind, stage: "confirm" });
  if (!gate.allowed) {
    await ctx.answerCallbackQuery({ text: gate.text ?? ctx.t("purchase-not-allowed") });
    return;
  }
  // Its outcome may reach them later outside any update of theirs (an unknown outcome settled,
  // a restart's recovery): in their app's language, when they never chose one. A nicety: a
  // database that refuses the write (locked, full) must not stop the Confirm.
  await services.settings
    .noteTelegramLanguage(ctx.from.id, ctx.from.language_code)
    .catch((error: unknown) => ctx.log.warn({ err: error }, "could not note a language"));
  const progress = new PressProgress(ctx, locale, intent, await summaryView(services, intent));
  const result = await claimAndSend(ctx, intent, services, progress);
  if (!progress.answered) {
    await ctx.answerCallbackQuery(
      result.kind === "refused"
        ? { text: sentence(refusalText(ctx.t, locale, result.refusal, audienceOf(ctx.chat?.type))) }
        : {},
    );
  }
  if (result.kind === "refused") await showRefusal(ctx, intent, result.refusal, services, locale);
  else await showFinalOutcome(ctx, intent, result, services, locale);
}

/**
 * Purchases paused or on hold: the press is refused at once, the summary says why and keeps
 * its buttons (for when purchases reopen), and the person is told when they do. True when so.
 */
async function refusedWhileClosed(
  ctx: CallbackContext,
  intent: PurchaseIntent,
  services: BotServices,
  locale: string,
): Promise<boolean> {
  const status = await purchasesState(services);
  const closed = closedText(ctx.t, status, "summary");
  if (closed === undefined) return false;
  await notePauseMet(ctx, services.pauseWaiters);
  const early: ConfirmRefusal = status.paused
    ? { reason: "paused", source: status.pausedBy ?? "admin" }
    : { reason: "frozen", unconfirmed: status.unconfirmed };
  await ctx.answerCallbackQuery({
    text: sentence(refusalText(ctx.t, locale, early, audienceOf(ctx.chat?.type))),
  });
  // Kept in the chat, not only in the toast: the summary says why and keeps its buttons.
  await editSummary(
    ctx,
    summaryWithStatus(ctx.t, locale, intent, closed, await summaryView(services, intent)),
    summaryKeyboard(ctx.t, intent),
  );
  return true;
}

/**
 * What the summary shows while its Confirm is under way. The press is answered at the first
 * thing the desk reports: "sending" once the claim has won (never before: a refused claim must
 * not say it), or a wait in the queue. The desk's callbacks are synchronous; the answer and the
 * edits are chained so the final outcome's edit always comes after them ({@link settled}).
 */
class PressProgress {
  answered = false;
  #shown: Promise<void> = Promise.resolve();

  readonly #ctx: CallbackContext;
  readonly #render: (status: string) => string;

  constructor(ctx: CallbackContext, locale: string, intent: PurchaseIntent, view: SummaryView) {
    this.#ctx = ctx;
    this.#render = (status) => summaryWithStatus(ctx.t, locale, intent, status, view);
  }

  show(status: string, options: { typing?: boolean; toast?: string } = {}): void {
    const ctx = this.#ctx;
    const text = this.#render(status);
    const answer = !this.answered;
    this.answered = true;
    this.#shown = this.#shown
      .then(() => (answer ? ctx.answerCallbackQuery({ text: options.toast }) : undefined))
      .then(() => (options.typing === true ? ctx.replyWithChatAction("typing") : undefined))
      .then(() => editSummary(ctx, text))
      .catch((error: unknown) => ctx.log.debug({ error }, "could not show the summary's status"));
  }

  /** Resolves once every status shown so far is on the summary (or failed). */
  settled(): Promise<void> {
    return this.#shown;
  }
}

/** The desk's confirm, with the summary kept up to date while it waits and sends. */
async function claimAndSend(
  ctx: CallbackContext,
  intent: PurchaseIntent,
  services: BotServices,
  progress: PressProgress,
): Promise<ConfirmResult> {
  const userId = ctx.from.id;
  const result = await services.desk.confirm(intent.id, userId, {
    onQueued: (waitMs) =>
      progress.show(ctx.t("summary-queued", { seconds: waitSeconds(waitMs) }), { typing: true }),
    onClaimed: () => progress.show(ctx.t("summary-sending"), { toast: ctx.t("summary-sending") }),
    isAdmin: services.admins.has(userId),
    // Asked again when a queued confirmation's turn comes: access may have gone meanwhile.
    mayBuy: async () =>
      (await services.canBuy(ctx, { kind: intent.kind, stage: "confirm" })).allowed,
  });
  await progress.settled();
  ctx.log.info(
    {
      intentId: intent.id,
      outcome: result.kind,
      ...(result.kind === "refused" ? result.refusal : {}),
      ...(result.kind === "not_sent" ? { notSent: result.reason } : {}),
    },
    "confirmation finished",
  );
  return result;
}

/** A confirmation the desk refused: said on the summary, which stays confirmable if it passes. */
async function showRefusal(
  ctx: CallbackContext,
  intent: PurchaseIntent,
  refusal: ConfirmRefusal,
  services: BotServices,
  locale: string,
): Promise<void> {
  const reason = refusal.reason;
  if (reason === "paused" || reason === "frozen") await notePauseMet(ctx, services.pauseWaiters);
  // Another press of the same summary won the claim: its handler shows the outcome.
  if (reason === "already_processing" || reason === "already_done") return;
  const line = outcomeLine(ctx, locale, refusal);
  // The desk's own list: a refusal that passes by itself keeps the summary confirmable.
  const retryable = isPassingRefusal(refusal);
  const fresh = (await services.records.getIntent(intent.id)) ?? intent;
  // Through the same edit-or-send as an outcome: the press may already have been answered
  // without a text (queued), so this is the only place the person reads why.
  await showOutcome(
    ctx,
    summaryWithStatus(ctx.t, locale, fresh, line, await summaryView(services, fresh)),
    retryable && fresh.status === "draft" ? summaryKeyboard(ctx.t, fresh) : undefined,
  );
  if (!retryable) await services.summaries.remove(intent.requester.chatId, ctx.from.id, intent.id);
}

/**
 * A final outcome (succeeded, rejected, unconfirmed, not sent, already premium): the summary
 * is done and its buttons go. The receipt goes at once; its cost, where it may be shown
 * (SHOW_BALANCE_TO), is added by an edit when measured, without holding the chat's next
 * updates (sequentialize) while the measurement waits for its balance read: meanwhile the
 * receipt says it is being measured, so it does not look final before it is.
 */
async function showFinalOutcome(
  ctx: CallbackContext,
  intent: PurchaseIntent,
  result: Exclude<ConfirmResult, { kind: "refused" }>,
  services: BotServices,
  locale: string,
): Promise<void> {
  await services.summaries.remove(intent.requester.chatId, ctx.from.id, intent.id);
  const measuring =
    result.kind === "succeeded" &&
    services.costsShownIn(intent.requester) &&
    services.desk.costMeasuring(intent.id);
  const costs = measuring
    ? "measuring"
    : services.costsShownIn(intent.requester)
      ? "shown"
      : "hidden";
  const receipt = await showOutcome(
    ctx,
    outcomeText(ctx.t, locale, result, services.explorerUrl, costs),
  );
  if (measuring && receipt !== undefined) addCostLater(ctx, receipt, locale, result, services);
}

/** Where an outcome was shown: the summary itself, or the message sent in its place. */
interface ShownAt {
  chatId: number;
  messageId: number;
}

/**
 * Puts a confirmation's outcome on its summary or, when that message cannot be edited any more
 * (deleted, too old, Telegram failing after its own retries), sends it as a new message to the
 * chat: a person always learns the outcome of their Confirm. True when it is on the summary.
 */
async function showOutcome(
  ctx: BotContext,
  text: string,
  keyboard?: ReturnType<typeof summaryKeyboard>,
): Promise<ShownAt | undefined> {
  const markup = keyboard === undefined ? {} : { reply_markup: keyboard };
  const summary = ctx.callbackQuery?.message;
  const onSummary = summary && { chatId: summary.chat.id, messageId: summary.message_id };
  try {
    await ctx.editMessageText(text, markup);
    return onSummary;
  } catch (error) {
    // Already showing exactly this outcome (another press's handler wrote it): nothing to add.
    if (error instanceof GrammyError && /message is not modified/i.test(error.description)) {
      return onSummary;
    }
    ctx.log.warn({ error }, "could not edit the summary into its outcome; sending it anew");
  }
  try {
    const sent = await ctx.reply(text, markup);
    return { chatId: sent.chat.id, messageId: sent.message_id };
  } catch (error) {
    ctx.log.error({ error }, "could not tell the person the outcome of their confirmation");
    return undefined;
  }
}

/** How long the receipt waits for the cost measured right after the purchase. */
const COST_WAIT_MS = 3_000;

/**
 * Edits a delivered receipt that says its cost is being measured: the cost, when the
 * measurement under way (one balance read the quota had room for, or the chain) ends within
 * {@link COST_WAIT_MS} with a figure; otherwise the receipt without the line. A failure is
 * logged, nothing more. Not awaited by the press's handler (the app's stop and the tests wait
 * for it through `services.background`).
 */
function addCostLater(
  ctx: BotContext,
  receipt: ShownAt,
  locale: string,
  result: Extract<ConfirmResult, { kind: "succeeded" }>,
  services: BotServices,
): void {
  const adding = services.desk
    .measuredCost(result.intent.id, COST_WAIT_MS)
    .then(async (cost) => {
      const withCost = { ...result, intent: { ...result.intent, cost } };
      const text = outcomeText(ctx.t, locale, withCost, services.explorerUrl, "shown");
      await ctx.api.editMessageText(receipt.chatId, receipt.messageId, text);
    })
    .catch((error: unknown) => {
      services.logger.warn({ err: error }, "could not add the measured cost to the receipt");
    });
  services.background.track(adding);
}

async function cancel(
  ctx: CallbackContext,
  intent: PurchaseIntent,
  services: BotServices,
): Promise<void> {
  const cancelled = await services.desk.cancel(intent.id, ctx.from.id);
  if (!cancelled) {
    const fresh = await services.records.getIntent(intent.id);
    const refusal = fresh
      ? (services.records.refusalOf(fresh) ?? { reason: "not_found" })
      : ({ reason: "not_found" } as const);
    await refuse(ctx, refusal, fresh, services);
    return;
  }
  await services.summaries.remove(intent.requester.chatId, ctx.from.id, intent.id);
  if (intent.requester.chatType !== "private") {
    // A group keeps no trace of a gift that was not made: the summary goes away, so the
    // toast is where its starter reads that it was cancelled.
    await ctx.answerCallbackQuery({ text: ctx.t("outcome-cancelled") });
    try {
      await ctx.deleteMessage();
      return;
    } catch (error) {
      ctx.log.debug({ error }, "could not delete a group summary");
    }
  } else {
    // The summary itself says it (said once, not in a toast as well).
    await ctx.answerCallbackQuery();
  }
  await editSummary(ctx, cancelledText(ctx.t, intent));
}

async function switchMethod(
  ctx: CallbackContext,
  intent: PurchaseIntent,
  action: Extract<SummaryAction, { type: "method" }>,
  services: BotServices,
): Promise<void> {
  if (intent.paymentMethod === action.method) {
    await ctx.answerCallbackQuery({ text: ctx.t("summary-method-changed") });
    return;
  }
  const changed = await services.desk.changePaymentMethod(intent.id, ctx.from.id, action.method);
  if (changed === undefined) {
    const fresh = await services.records.getIntent(intent.id);
    await refuse(
      ctx,
      (fresh && services.records.refusalOf(fresh)) ?? {
        reason: "not_found",
      },
      fresh,
      services,
    );
    return;
  }
  const locale = await ctx.i18n.getLocale();
  await ctx.answerCallbackQuery({ text: ctx.t("summary-method-changed") });
  await editSummary(
    ctx,
    summaryText(ctx.t, locale, changed, await summaryView(services, changed)),
    summaryKeyboard(ctx.t, changed),
  );
}

/** A summary's look only (its status line, its buttons): a failure is logged, nothing more. */
function editSummary(
  ctx: BotContext,
  text: string,
  keyboard?: ReturnType<typeof summaryKeyboard>,
): Promise<void> {
  return editQuietly(ctx, text, keyboard, "could not edit the summary message");
}
