/**
 * Whether the database file this process opened is still the one at its path. A file replaced
 * under a running bot (copied or moved over by hand, a restore done around the lock) leaves the
 * bot writing purchases into a file no other process, and no later start, reads: its lease
 * fences against the wrong file. The bot stops instead, with a line saying why and a non-zero
 * exit, so that a supervisor starts it again on the file that is there now.
 */
import type { Logger } from "../shared/logger.js";

/** How often the path is looked at: a stat, every few seconds. */
const CHECK_EVERY_MS = 3_000;

export interface DatabaseFileWatchOptions {
  /** How the opened file is no longer the one at its path, or undefined while it is. */
  changed: () => string | undefined;
  logger: Logger;
  /** Called once, when it changed. */
  onChanged: (reason: string) => void;
  everyMs?: number;
}

/** Starts looking; returns a function that stops. */
export function watchDatabaseFile(options: DatabaseFileWatchOptions): () => void {
  const timer = setInterval(() => {
    const reason = options.changed();
    if (reason === undefined) return;
    clearInterval(timer);
    options.logger.fatal(
      { reason },
      `the database file changed under this process (${reason}): stopping, so that a restart opens the file that is there now`,
    );
    options.onChanged(reason);
  }, options.everyMs ?? CHECK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
