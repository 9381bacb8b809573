/**
 * One progress message edited as a long job goes (a giveaway's checks, then its sending):
 * Telegram limits how often a message may be edited, so edits are at most one per
 * `minIntervalMs`, one at a time, and what comes in between is folded into the next edit: a
 * slow edit (auto-retry waiting on Telegram) is never followed by a backlog of stale states,
 * only by the latest one. A refused edit counts as not shown (the same text is tried again at
 * the next show or flush) and its `retry_after` postpones the next edit. The latest text is the one shown in
 * the end ({@link flush}). Time and timers are injected: tests move a clock instead of sleeping.
 */

export interface ProgressEditorOptions {
  /** At least this long between two edits (2 s: within Telegram's limits for one chat). */
  minIntervalMs: number;
  now: () => number;
  /** Runs `run` after `ms`; returns a function that cancels it. */
  later: (run: () => void, ms: number) => () => void;
  /** Edits the message; a failure is the caller's to log (the next edit tries again). */
  edit: (text: string) => Promise<void>;
  /** How long Telegram asked to wait after a refused edit (its `retry_after`), if it did. */
  retryAfterMs?: (error: unknown) => number | undefined;
}

export class ProgressEditor {
  readonly #options: ProgressEditorOptions;
  /** The text asked for last. */
  #latest: string | undefined;
  /** The text the message is known to show (undefined after a failed edit: not known). */
  #shown: string | undefined;
  /** No edit starts before this time. */
  #notBefore = Number.NEGATIVE_INFINITY;
  #cancelTimer: (() => void) | undefined;
  /** The edit under way, if any. */
  #editing: Promise<void> | undefined;

  constructor(options: ProgressEditorOptions) {
    this.#options = options;
  }

  /** Asks for `text` to be shown: now if the last edit is old enough, else at the next turn. */
  show(text: string): void {
    this.#latest = text;
    this.#schedule();
  }

  /** Resolves when the edit under way, if any, is done (or failed). */
  async settled(): Promise<void> {
    while (this.#editing !== undefined) await this.#editing;
  }

  /**
   * Shows the latest text at once (the job is over), after the edit under way, and waits for
   * it. One try: a failure here is left as it is.
   */
  async flush(): Promise<void> {
    this.#stopTimer();
    await this.settled();
    // The edit that just ended may have set a timer for the latest text: it goes now instead.
    this.#stopTimer();
    if (this.#latest !== undefined && this.#latest !== this.#shown) this.#start(this.#latest);
    await this.settled();
  }

  #stopTimer(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
  }

  /** Starts the edit of the latest text now, or sets a timer for when it may start. */
  #schedule(): void {
    if (this.#editing !== undefined || this.#cancelTimer !== undefined) return;
    const text = this.#latest;
    if (text === undefined || text === this.#shown) return;
    const wait = this.#notBefore - this.#options.now();
    if (wait <= 0) {
      this.#start(text);
      return;
    }
    this.#cancelTimer = this.#options.later(() => {
      this.#cancelTimer = undefined;
      this.#schedule();
    }, wait);
  }

  #start(text: string): void {
    const startedAt = this.#options.now();
    this.#notBefore = startedAt + this.#options.minIntervalMs;
    const editing = this.#options.edit(text).then(
      () => {
        this.#shown = text;
        return true;
      },
      (error: unknown) => {
        this.#shown = undefined;
        const retryAfter = this.#options.retryAfterMs?.(error);
        if (retryAfter !== undefined) {
          this.#notBefore = Math.max(this.#notBefore, this.#options.now() + retryAfter);
        }
        return false;
      },
    );
    this.#editing = editing.then(() => undefined);
    void editing.then((succeeded) => {
      this.#editing = undefined;
      // After a failure, the next show() or flush() tries again: a message that cannot be
      // edited any more (deleted) is not retried on a timer forever.
      if (succeeded) this.#schedule();
    });
  }
}

/** `▓▓▓░░░░░░░`: `done` of `total` in `width` cells, never full before the end. */
export function progressBar(done: number, total: number, width = 10): string {
  const share = total <= 0 ? 1 : Math.min(1, Math.max(0, done / total));
  const filled = done >= total ? width : Math.min(width - 1, Math.floor(share * width));
  return "▓".repeat(filled) + "░".repeat(width - filled);
}
