/**
 * Graceful shutdown on SIGINT/SIGTERM: stop taking updates, let a purchase in flight finish and
 * record its outcome (within a bound), close the database, exit 0. A second signal (a second or
 * more after the first, see REPEAT_WINDOW_MS) exits at once; whatever was claimed and not
 * finished stays `sending` and becomes unconfirmed at the next start, so nothing is lost and
 * nothing is sent twice.
 */
import type { Logger } from "../shared/logger.js";

export interface ShutdownOptions {
  /** Stops everything in order; resolves when done. */
  stop: () => Promise<void>;
  graceMs: number;
  logger: Logger;
  exit?: (code: number) => void;
  signals?: readonly NodeJS.Signals[];
  /** The clock that tells a repeated signal from a second one (tests move it). */
  now?: () => number;
}

/**
 * A signal that comes again within this time is the same request to stop, not a second one:
 * a terminal's Ctrl-C reaches every process of the job, and `npm start` forwards its own copy
 * to the bot as well (3 to 7 ms apart here). A person who means "now" asks again later.
 */
const REPEAT_WINDOW_MS = 1_000;

/** How long an exit waits for the log lines still being written. */
const LOG_FLUSH_WAIT_MS = 2_000;

/**
 * Exits once the logger's destination says every line is written. The bot's own stdout logger
 * writes synchronously (src/shared/logger.ts); a buffered destination (the pretty printer's worker, a
 * test's stream) gets the chance to finish, so the last lines of a stop are not lost.
 */
export function exitAfterLogs(logger: Logger, code: number, exit: (code: number) => void): void {
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    exit(code);
  };
  // A destination that never answers must not hold the exit. Not unref'd: with nothing else
  // left on the event loop the process would end on its own, with code 0.
  const timer = setTimeout(finish, LOG_FLUSH_WAIT_MS);
  logger.flush(() => finish());
}

/**
 * Runs `stop` and answers the exit code it deserves: 0 once it has stopped, 1 when it failed or
 * was still running after `graceMs` (whatever is unfinished is recovered by the next start). A
 * stop that waits on a database cut off by the network would otherwise never end.
 */
export async function stopWithinGrace(
  options: Pick<ShutdownOptions, "stop" | "graceMs" | "logger">,
): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), options.graceMs);
  });
  try {
    const result = await Promise.race([options.stop().then(() => "stopped" as const), deadline]);
    if (result === "timeout") {
      options.logger.error("shutdown grace period ran out; exiting with work unfinished");
      return 1;
    }
    return 0;
  } catch (error) {
    options.logger.error({ err: error }, "shutdown failed");
    return 1;
  } finally {
    clearTimeout(timer);
  }
}

/** Installs the handlers; returns a function that removes them (for tests). */
export function handleShutdownSignals(options: ShutdownOptions): () => void {
  const exitNow = options.exit ?? ((code: number) => process.exit(code));
  const exit = (code: number) => exitAfterLogs(options.logger, code, exitNow);
  const signals = options.signals ?? ["SIGINT", "SIGTERM"];
  const now = options.now ?? Date.now;
  let stoppingSince: number | undefined;

  const onSignal = (signal: NodeJS.Signals) => {
    if (stoppingSince !== undefined) {
      if (now() - stoppingSince < REPEAT_WINDOW_MS) {
        options.logger.debug({ signal }, "the same stop asked again: already stopping");
        return;
      }
      options.logger.warn({ signal }, "second signal: exiting now");
      exitNow(130);
      return;
    }
    stoppingSince = now();
    options.logger.info({ signal, graceMs: options.graceMs }, "shutting down");
    void stopWithinGrace(options).then((code) => {
      if (code === 0) options.logger.info("stopped cleanly");
      exit(code);
    });
  };

  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
