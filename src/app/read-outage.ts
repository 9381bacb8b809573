/**
 * The read-outage alert in the running app: every read's outcome goes to a {@link ReadHealth},
 * and what it announces (an outage once it lasted READ_OUTAGE_ALERT_SECONDS, then its end) goes
 * to the log and the admins. A timer asks now and then, so an outage is announced even when
 * nobody reads any more.
 */
import type { AdminNotifier } from "../bot/admin-notifications/index.js";
import type { Logger } from "../shared/logger.js";
import { ReadHealth, type ReadHealthEvent } from "../purchases/read-health.js";
import type { ReadOutcome } from "../service/types.js";

/** How often an outage is checked for when no read comes to notice it. */
const CHECK_EVERY_MS = 10_000;

export class ReadOutageWatch {
  readonly #health: ReadHealth;
  readonly #clock: () => number;
  readonly #logger: Logger;
  #notifier: Pick<AdminNotifier, "readHealth"> | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: { alertAfterMs: number; clock: () => number; logger: Logger }) {
    this.#health = new ReadHealth({ alertAfterMs: options.alertAfterMs });
    this.#clock = options.clock;
    this.#logger = options.logger;
  }

  /** The admins to tell (the notifier is built after the service client that feeds this). */
  tell(notifier: Pick<AdminNotifier, "readHealth">): void {
    this.#notifier = notifier;
  }

  /** One read's outcome, as the service monitor sees it. */
  record(outcome: ReadOutcome<unknown>): void {
    this.#announce(this.#health.record(outcome, this.#clock()));
  }

  /** Starts the periodic check (unref'd: it never keeps the process alive). */
  start(): void {
    this.#timer ??= setInterval(
      () => this.#announce(this.#health.check(this.#clock())),
      CHECK_EVERY_MS,
    );
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #announce(event: ReadHealthEvent | undefined): void {
    if (event === undefined) return;
    this.#logger.warn(
      { readHealth: event.kind, failures: event.failures },
      "service reads changed health",
    );
    this.#notifier?.readHealth(event, this.#clock());
  }
}
