/**
 * One progress message edited as a long job goes (a giveaway's checks, then its sending):
 * Telegram limits how often a message may be edited, so edits are at most one per
 * `minIntervalMs`, and what comes in between is folded into the next edit. The latest text is
 * always the one shown in the end ({@link flush}). Time and timers are injected: tests move a
 * clock instead of sleeping.
 */

export interface ProgressEditorOptions {
  /** At least this long between two edits (2 s: within Telegram's limits for one chat). */
  minIntervalMs: number;
  now: () => number;
  /** Runs `run` after `ms`; returns a function that cancels it. */
  later: (run: () => void, ms: number) => () => void;
  /** Edits the message; a failure is the caller's to log (the next edit tries again). */
  edit: (text: string) => Promise<void>;
}

export class ProgressEditor {
  readonly #options: ProgressEditorOptions;
  /** The text asked for last, not yet shown. */
  #wanted: string | undefined;
  #shown: string | undefined;
  #lastEditAt = Number.NEGATIVE_INFINITY;
  #cancelTimer: (() => void) | undefined;
  #editing: Promise<void> = Promise.resolve();

  constructor(options: ProgressEditorOptions) {
    this.#options = options;
  }

  /** Asks for `text` to be shown: now if the last edit is old enough, else at the next turn. */
  show(text: string): void {
    this.#wanted = text;
    if (this.#cancelTimer !== undefined) return;
    const wait = this.#lastEditAt + this.#options.minIntervalMs - this.#options.now();
    if (wait <= 0) {
      this.#editNow();
      return;
    }
    this.#cancelTimer = this.#options.later(() => {
      this.#cancelTimer = undefined;
      this.#editNow();
    }, wait);
  }

  /** Resolves when the edits started so far are done (or failed). */
  settled(): Promise<void> {
    return this.#editing;
  }

  /** Shows the latest text at once (the job is over) and waits for the edits under way. */
  async flush(): Promise<void> {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    this.#editNow();
    await this.#editing;
  }

  #editNow(): void {
    const text = this.#wanted;
    this.#wanted = undefined;
    if (text === undefined || text === this.#shown) return;
    this.#shown = text;
    this.#lastEditAt = this.#options.now();
    this.#editing = this.#editing.then(() => this.#options.edit(text)).catch(() => undefined);
  }
}

/** `▓▓▓░░░░░░░`: `done` of `total` in `width` cells, never full before the end. */
export function progressBar(done: number, total: number, width = 10): string {
  const share = total <= 0 ? 1 : Math.min(1, Math.max(0, done / total));
  const filled = done >= total ? width : Math.min(width - 1, Math.floor(share * width));
  return "▓".repeat(filled) + "░".repeat(width - filled);
}
