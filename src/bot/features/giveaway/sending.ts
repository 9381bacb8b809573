/**
 * A giveaway being sent, as its admin sees it: one progress message edited as the batch goes
 * (sent so far, delivered, refused, unknown, the time left, and what it is doing or why it
 * stopped), with Pause and "Cancel the rest" while it runs and Resume once paused or stopped;
 * at the end a summary and every recipient's outcome as CSV (the export's columns). The runner
 * (src/purchases/giveaway-runner.ts) does the sending; this only shows it, so a restart that
 * goes on with a batch edits the same message again.
 */
import { type Api, InlineKeyboard, InputFile } from "grammy";
import type { BatchCounts, GiveawayBatch } from "../../../ledger/giveaways.js";
import { purchasesCsv } from "../../../purchases/export-csv.js";
import type { GiveawayProgress, GiveawayRunner } from "../../../purchases/giveaway-runner.js";
import type { Logger } from "../../../shared/logger.js";
import { encodeBatchAction } from "../../callback-data/giveaway-batch.js";
import type { Translate } from "../../context.js";
import { DEFAULT_LOCALE, type UserSettingsStore } from "../../i18n.js";
import { giftName } from "../../purchase-views.js";
import { timeLeftMs, timeLeftText } from "./progress-view.js";
import { type Later, realLater, telegramRetryAfterMs } from "./run-checks.js";
import { ProgressEditor, progressBar } from "./progress.js";
import { giveawaySpent, spentLine } from "./spent.js";
import type { I18n } from "@grammyjs/i18n";
import type { Context } from "grammy";

/** At most one edit of a progress message every 2 s (Telegram's limits for one chat). */
const EDIT_INTERVAL_MS = 2_000;

export interface GiveawaySendingOptions {
  runner: GiveawayRunner;
  api: Api;
  i18n: I18n<Context>;
  settings: UserSettingsStore;
  now: () => number;
  logger: Logger;
  later?: Later;
  editIntervalMs?: number;
}

/** Sent so far: everything that is no longer waiting or dropped. */
function sentCount(counts: BatchCounts): number {
  return counts.total - counts.waiting - counts.dropped;
}

/**
 * The progress message's text: sent so far of every recipient (those cancelled or expired
 * counted as not sent, as the summary counts them), the outcomes, what was spent (`spent`:
 * ./spent.ts, when anything was delivered), and what it is doing.
 */
export function sendingText(
  t: Translate,
  progress: GiveawayProgress,
  timing: { startedAt: number; startedWith: number; now: number },
  spent?: string,
): string {
  const { batch, counts } = progress;
  const done = sentCount(counts);
  const total = counts.total;
  const outcomes = {
    delivered: counts.delivered,
    refused: counts.refused,
    unknown: counts.unknown,
  };
  const lines = [
    t("giveaway-sending-title", { gift: giftName(t, batch) }),
    `${t("giveaway-sending-progress", { done, total, bar: progressBar(done, total) })}${timeLeft(t, batch, done, total - counts.dropped, timing)}`,
    counts.dropped === 0
      ? t("giveaway-sending-counts", outcomes)
      : t("giveaway-sending-counts-dropped", { ...outcomes, dropped: counts.dropped }),
    ...(spent === undefined ? [] : [spent]),
    stateText(t, batch),
  ];
  return lines.join("\n");
}

function timeLeft(
  t: Translate,
  batch: GiveawayBatch,
  done: number,
  total: number,
  timing: { startedAt: number; startedWith: number; now: number },
): string {
  if (batch.status !== "running" || done >= total) return "";
  const left = timeLeftMs({
    done: done - timing.startedWith,
    total: total - timing.startedWith,
    startedAt: timing.startedAt,
    now: timing.now,
  });
  return left === undefined ? "" : ` ${timeLeftText(t, left)}`;
}

function stateText(t: Translate, batch: GiveawayBatch): string {
  if (batch.status === "stopped") {
    return t(`giveaway-state-stopped-${batch.stopReason ?? "storage"}`);
  }
  return t(`giveaway-state-${batch.status}`);
}

/**
 * Pause and Cancel while running; Resume and Cancel once paused or stopped; none at the end, nor
 * once a restore stopped it for good.
 */
export function sendingKeyboard(t: Translate, batch: GiveawayBatch): InlineKeyboard | undefined {
  const batchId = batch.id;
  const cancel = encodeBatchAction({ type: "cancel", batchId });
  if (batch.stopReason === "restored") return undefined;
  switch (batch.status) {
    case "running":
      return new InlineKeyboard()
        .text(t("giveaway-button-pause"), encodeBatchAction({ type: "pause", batchId }))
        .text(t("giveaway-button-cancel-rest"), cancel);
    case "paused":
    case "stopped":
      return new InlineKeyboard()
        .text(t("giveaway-button-resume"), encodeBatchAction({ type: "resume", batchId }))
        .text(t("giveaway-button-cancel-rest"), cancel);
    default:
      return undefined;
  }
}

/** One shown batch: its message, its editor and the pace it started at. */
interface Shown {
  editor: ProgressEditor;
  latest: GiveawayProgress;
  startedAt: number;
  startedWith: number;
  /** The admin's words, read once for the batch (not a settings read per recipient). */
  words: Promise<Words>;
}

/** An admin's language and its translation. */
interface Words {
  t: Translate;
  locale: string;
}

export class GiveawaySending {
  /** What sends the batches (the buttons pause, resume and cancel through it). */
  readonly runner: GiveawayRunner;
  readonly #options: GiveawaySendingOptions;
  readonly #shown = new Map<string, Shown>();
  readonly #endings = new Set<Promise<void>>();

  constructor(options: GiveawaySendingOptions) {
    this.#options = options;
    this.runner = options.runner;
    options.runner.progress.add((progress) => this.#show(progress));
    options.runner.finished.add((progress) => this.#track(this.#end(progress)));
  }

  /** The admin's translation (their /language, else English), outside any update. */
  async translate(adminId: number): Promise<Translate> {
    return (await this.#words(adminId)).t;
  }

  async #words(adminId: number): Promise<Words> {
    const { i18n, settings } = this.#options;
    const locale = (await settings.preferredLanguage(adminId)) ?? DEFAULT_LOCALE;
    return { t: (key, variables) => i18n.t(locale, key, variables), locale };
  }

  /** Shows a batch just started (or met again at a restart) on message `messageId`. */
  async begin(progress: GiveawayProgress, messageId: number): Promise<void> {
    const batch = { ...progress.batch, messageId };
    this.#shownFor({ ...progress, batch });
    await this.#options.runner.attachMessage(batch.id, messageId);
  }

  /**
   * At start (the lease holder, once interrupted purchases are recovered): each batch an
   * earlier process left running is shown again (on its message, or a new one if it had none)
   * and sent on. Resolves to how many.
   */
  async resumeRunning(): Promise<number> {
    const running = await this.runner.runningBatches();
    for (const batch of running) {
      const state = await this.runner.state(batch.id);
      if (state === undefined) continue;
      const messageId = batch.messageId ?? (await this.#postProgress(state));
      await this.begin(state, messageId);
      // Its message may show an older state (the last edit before the stop): shown anew.
      this.#show({ ...state, batch: { ...state.batch, messageId } });
      this.runner.send(batch.id);
    }
    return running.length;
  }

  /**
   * Shows each batch's state now on its progress message (at start, the batches a restore
   * stopped for good: their messages lose their buttons and say why).
   */
  async showBatches(batchIds: readonly string[]): Promise<void> {
    for (const batchId of batchIds) {
      const state = await this.runner.state(batchId);
      if (state !== undefined) this.#show(state);
    }
  }

  async #postProgress(progress: GiveawayProgress): Promise<number> {
    const t = await this.translate(progress.batch.adminId);
    const now = this.#options.now();
    const keyboard = sendingKeyboard(t, progress.batch);
    const message = await this.#options.api.sendMessage(
      progress.batch.chatId,
      sendingText(t, progress, { startedAt: now, startedWith: 0, now }),
      keyboard === undefined ? {} : { reply_markup: keyboard },
    );
    return message.message_id;
  }

  /** Resolves once the summaries of batches that ended have been sent (tests, the stop). */
  async idle(): Promise<void> {
    while (this.#endings.size > 0) await Promise.all([...this.#endings]);
    await Promise.all([...this.#shown.values()].map((shown) => shown.editor.settled()));
  }

  #track(work: Promise<void>): void {
    const tracked = work
      .catch((error: unknown) =>
        this.#options.logger.warn({ err: error }, "could not show a giveaway's end"),
      )
      .finally(() => this.#endings.delete(tracked));
    this.#endings.add(tracked);
  }

  #show(progress: GiveawayProgress): void {
    const shown = this.#shownFor(progress);
    if (shown === undefined) return;
    shown.latest = progress;
    // A batch that paused or stopped says so at once (its buttons change): it is rare, and
    // the admin is waiting for it.
    const settled = progress.batch.status !== "running";
    this.#track(this.#render(shown).then(() => (settled ? shown.editor.flush() : undefined)));
  }

  async #render(shown: Shown): Promise<void> {
    const words = await shown.words;
    const { t } = words;
    const spent = await this.#spent(shown.latest.batch, words);
    shown.editor.show(
      sendingText(
        t,
        shown.latest,
        { startedAt: shown.startedAt, startedWith: shown.startedWith, now: this.#options.now() },
        spent,
      ),
    );
  }

  /** What the batch has spent so far, as its admin reads it (one read of its intents). */
  async #spent(batch: GiveawayBatch, words: Words): Promise<string | undefined> {
    const intents = await this.#options.runner.intents(batch.id);
    return spentLine(words.t, words.locale, giveawaySpent(intents));
  }

  /** The batch's shown state, made on first sight when its message is known. */
  #shownFor(progress: GiveawayProgress): Shown | undefined {
    const existing = this.#shown.get(progress.batch.id);
    if (existing !== undefined) return existing;
    const { batch } = progress;
    if (batch.messageId === undefined) return undefined;
    const messageId = batch.messageId;
    const words = this.#words(batch.adminId);
    // Awaited by each render and edit, which log a failure; not an unhandled rejection meanwhile.
    words.catch(() => undefined);
    const shown: Shown = {
      latest: progress,
      startedAt: this.#options.now(),
      startedWith: sentCount(progress.counts),
      words,
      editor: new ProgressEditor({
        minIntervalMs: this.#options.editIntervalMs ?? EDIT_INTERVAL_MS,
        now: this.#options.now,
        later: this.#options.later ?? realLater,
        edit: (text) => this.#edit(shown, messageId, text),
        retryAfterMs: telegramRetryAfterMs,
      }),
    };
    this.#shown.set(batch.id, shown);
    return shown;
  }

  /** Edits the message; its buttons follow the latest state (running, paused, ended). */
  async #edit(shown: Shown, messageId: number, text: string): Promise<void> {
    const batch = shown.latest.batch;
    const keyboard = sendingKeyboard((await shown.words).t, batch);
    await this.#options.api.editMessageText(batch.chatId, messageId, text, {
      reply_markup: keyboard ?? { inline_keyboard: [] },
    });
  }

  /** The last state on the progress message, then the summary and the CSV. */
  async #end(progress: GiveawayProgress): Promise<void> {
    const shown = this.#shownFor(progress);
    if (shown !== undefined) {
      shown.latest = progress;
      await this.#render(shown);
      await shown.editor.flush();
      this.#shown.delete(progress.batch.id);
    }
    const { batch, counts } = progress;
    const { t, locale } = await this.#words(batch.adminId);
    const api = this.#options.api;
    const intents = await this.#options.runner.intents(batch.id);
    const spent = spentLine(t, locale, giveawaySpent(intents));
    const summary = t("giveaway-summary", {
      delivered: counts.delivered,
      refused: counts.refused,
      unknown: counts.unknown,
      dropped: counts.dropped,
      total: counts.total,
    });
    await api.sendMessage(batch.chatId, spent === undefined ? summary : `${summary}\n${spent}`);
    await api.sendDocument(
      batch.chatId,
      new InputFile(purchasesCsv(intents), `giveaway-${batch.id}.csv`),
      {
        caption: t("giveaway-summary-caption"),
      },
    );
  }
}
