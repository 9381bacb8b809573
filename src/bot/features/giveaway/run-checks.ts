/**
 * A giveaway's checks, run beside the chat (never inside an update's handler: the chat's next
 * update, the admin's Stop, must not wait minutes behind them). One progress message with a
 * Stop button, edited as the checks go (at most one edit per interval, see ProgressEditor);
 * then, when the checks end, the card with Confirm. Stopped (by the admin, a newer giveaway
 * or the bot stopping), the progress message says so and nothing is left to confirm.
 */
import { type Api, GrammyError, InlineKeyboard } from "grammy";
import { balanceIn, currencyOf } from "../../../costs/money.js";
import { encodeGiveaway } from "../../callback-data/giveaway.js";
import type { Translate } from "../../context.js";
import type { BotServices } from "../../services.js";
import type { Giveaway, GiveawayBoard } from "./board.js";
import { cardKeyboard, cardText, type GiveawayFigures } from "./card.js";
import { type CheckedRecipients, checkRecipients } from "./check.js";
import { ProgressEditor } from "./progress.js";
import type { GiveawayRunner } from "../../../purchases/giveaway-runner.js";
import { checkingText } from "./progress-view.js";

/** Edits of the progress message at most this often (stack facts: Telegram's edit limits). */
const PROGRESS_EDIT_INTERVAL_MS = 3_000;

/** Runs `run` after `ms`; returns a function that cancels it. */
export type Later = (run: () => void, ms: number) => () => void;

/** Real timers, for production. */
export const realLater: Later = (run, ms) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

export interface CheckRunDeps {
  /** The bot's API (outside any update): sends and edits the admin's messages. */
  api: Pick<Api, "sendMessage" | "editMessageText">;
  services: Pick<
    BotServices,
    "desk" | "records" | "i18n" | "logger" | "now" | "defaultPaymentMethod" | "admins"
  >;
  board: GiveawayBoard;
  /** The timers of the progress editor and of the waits between checks. */
  later: Later;
  /** Default {@link PROGRESS_EDIT_INTERVAL_MS}. */
  editIntervalMs?: number;
  /** A giveaway of the last 7 days with the same gift and recipients (the runner's). */
  earlierLike: GiveawayRunner["earlierLike"];
}

/** Checks a giveaway's recipients and shows the card; never rejects. */
export async function runGiveawayChecks(giveaway: Giveaway, deps: CheckRunDeps): Promise<void> {
  const t: Translate = (key, vars) => deps.services.i18n.t(giveaway.locale, key, vars);
  try {
    const checked = await checkWithProgress(giveaway, deps, t);
    if (checked === undefined) return;
    const figures = await readFigures(giveaway, checked, deps);
    deps.board.checked(giveaway, checked);
    const confirm = checked.canReceive.length === 0 ? "none" : figures.sameAs ? "second" : "first";
    await deps.api.sendMessage(
      giveaway.chatId,
      cardText(t, giveaway.locale, giveaway, checked, figures),
      { reply_markup: cardKeyboard(t, giveaway.id, confirm) },
    );
  } catch (error) {
    deps.board.close(giveaway);
    deps.services.logger.warn({ error }, "a giveaway's checks failed");
    await deps.api.sendMessage(giveaway.chatId, t("giveaway-checks-failed")).catch(() => undefined);
  }
}

/**
 * The checks, shown on one progress message; undefined when they were stopped (the message
 * then says so and the giveaway is closed).
 */
async function checkWithProgress(
  giveaway: Giveaway,
  deps: CheckRunDeps,
  t: Translate,
): Promise<CheckedRecipients | undefined> {
  const { services } = deps;
  const total = giveaway.list.recipients.length;
  const startedAt = services.now();
  const progressOf = (done: number) =>
    checkingText(t, { done, total, startedAt, now: services.now() });
  const stop = new InlineKeyboard().text(
    t("giveaway-button-stop"),
    encodeGiveaway({ type: "stop", giveawayId: giveaway.id }),
  );
  const message = await deps.api.sendMessage(giveaway.chatId, progressOf(0), {
    reply_markup: stop,
  });
  let keyboard: InlineKeyboard | undefined = stop;
  const editor = new ProgressEditor({
    minIntervalMs: deps.editIntervalMs ?? PROGRESS_EDIT_INTERVAL_MS,
    now: services.now,
    later: deps.later,
    retryAfterMs: telegramRetryAfterMs,
    edit: async (text) => {
      await deps.api.editMessageText(giveaway.chatId, message.message_id, text, {
        ...(keyboard === undefined ? {} : { reply_markup: keyboard }),
      });
    },
  });
  const signal = giveaway.stop.signal;
  let done = 0;
  const checked = await checkRecipients(services.desk, giveaway.list.recipients, {
    kind: giveaway.kind,
    adminId: giveaway.ownerId,
    onChecked: (count) => {
      done = count;
      editor.show(progressOf(count));
    },
    stopped: () => signal.aborted,
    wait: (ms) => abortableWait(deps.later, ms, signal),
  });
  // The last edit takes the Stop button away.
  keyboard = undefined;
  const stopped = signal.aborted;
  editor.show(stopped ? t("giveaway-checks-stopped", { done, total }) : progressOf(total));
  await editor.flush();
  if (!stopped) return checked;
  deps.board.close(giveaway);
  return undefined;
}

/** The wait Telegram asked for after refusing an edit (429 `retry_after`), if it did. */
export function telegramRetryAfterMs(error: unknown): number | undefined {
  const seconds = error instanceof GrammyError ? error.parameters.retry_after : undefined;
  return seconds === undefined ? undefined : seconds * 1000;
}

/** Waits `ms`, or less once `signal` is aborted. */
function abortableWait(later: Later, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    let cancel = (): void => undefined;
    const finish = () => {
      cancel();
      signal.removeEventListener("abort", finish);
      resolve();
    };
    cancel = later(finish, ms);
    signal.addEventListener("abort", finish, { once: true });
  });
}

/**
 * The estimate of one gift, the wallet's balance in its currency, today's limits, and the same
 * giveaway if it ran in the last 7 days.
 */
async function readFigures(
  giveaway: Giveaway,
  checked: CheckedRecipients,
  deps: Pick<CheckRunDeps, "services" | "earlierLike">,
): Promise<GiveawayFigures> {
  const { services } = deps;
  const paymentMethod = services.defaultPaymentMethod;
  const currency = currencyOf(paymentMethod);
  const read = await services.desk.readBalance();
  return {
    each: await services.records.estimate({
      kind: giveaway.kind,
      quantity: giveaway.quantity,
      paymentMethod,
    }),
    currency,
    balance: read.kind === "ok" ? balanceIn(read.balance, currency) : undefined,
    // Today's headroom for the whole list: the cap of one gift limits each gift, not the batch.
    headroom: await services.records.headroom(
      giveaway.ownerId,
      giveaway.kind,
      services.admins.has(giveaway.ownerId),
      "day",
    ),
    sameAs:
      checked.canReceive.length === 0
        ? undefined
        : await deps.earlierLike({
            kind: giveaway.kind,
            quantity: giveaway.quantity,
            recipients: checked.canReceive,
          }),
  };
}
