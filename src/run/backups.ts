/**
 * Backups while the bot runs: one every BACKUP_INTERVAL_HOURS into BACKUP_DIR, the newest
 * BACKUP_KEEP kept (src/storage/sqlite/backup.ts), and one on an admin's /backup. A backup that fails
 * (the folder not writable, the disk full) is tried again sooner, and the admins are told once
 * per run of failures, not at every try; purchases never wait for a backup.
 */
import type { Logger } from "../shared/logger.js";
import type { BackupResult } from "../storage/types.js";

interface BackupSettings {
  /** Hours between backups; 0: no scheduled backups (/backup still works). */
  intervalHours: number;
  dir: string;
  keep: number;
}

export interface BackupScheduleOptions {
  settings: BackupSettings;
  /** Takes one backup into `dir` (the store's online backup). */
  take: (dir: string, options: { keep: number; now: number }) => Promise<BackupResult>;
  logger: Logger;
  /** Told at the first failure after a success (or the first ever): the admins hear once. */
  onFailing: (error: unknown) => void;
  clock?: () => number;
}

/** A failed backup is tried again after this long, or the interval if shorter. */
const RETRY_AFTER_MS = 15 * 60_000;

export class BackupSchedule {
  readonly #options: BackupScheduleOptions;
  readonly #clock: () => number;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #failing = false;
  #running: Promise<BackupResult> | undefined;
  #lastGoodAt: number | undefined;

  constructor(options: BackupScheduleOptions) {
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
  }

  /** Where backups go. */
  get dir(): string {
    return this.#options.settings.dir;
  }

  /** When the last good backup was taken by this process (for the metric). */
  get lastGoodAt(): number | undefined {
    return this.#lastGoodAt;
  }

  /** Starts the schedule (nothing when the interval is 0); the first backup an interval from now. */
  start(): void {
    if (this.#options.settings.intervalHours > 0) this.#schedule(this.#intervalMs());
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Takes a backup now (an admin's /backup); one at a time, a second caller shares it. */
  takeNow(): Promise<BackupResult> {
    this.#running ??= this.#take().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** Resolves once a backup under way has ended (the app's stop waits for it). */
  async idle(): Promise<void> {
    await this.#running?.catch(() => undefined);
  }

  async #take(): Promise<BackupResult> {
    const { settings, take, logger } = this.#options;
    try {
      const result = await take(settings.dir, { keep: settings.keep, now: this.#clock() });
      this.#lastGoodAt = result.at;
      if (this.#failing) logger.info({ path: result.path }, "backups work again");
      this.#failing = false;
      logger.info({ path: result.path, bytes: result.bytes }, "database backed up");
      return result;
    } catch (error) {
      logger.error({ err: error, dir: settings.dir }, "the database backup failed");
      if (!this.#failing) {
        this.#failing = true;
        try {
          this.#options.onFailing(error);
        } catch (listenerError) {
          logger.error({ err: listenerError }, "could not tell the admins of a failed backup");
        }
      }
      throw error;
    }
  }

  #intervalMs(): number {
    return this.#options.settings.intervalHours * 3_600_000;
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.takeNow().then(
        () => this.#schedule(this.#intervalMs()),
        () => this.#schedule(Math.min(RETRY_AFTER_MS, this.#intervalMs())),
      );
    }, delayMs);
    this.#timer.unref();
  }
}
