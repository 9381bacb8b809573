/**
 * The desk's events object (see {@link DeskEvents}): one list of listeners per event. A
 * listener that throws (or whose promise rejects) is logged and never disturbs the purchase
 * or the other listeners.
 */
import type { Logger } from "../shared/logger.js";
import { Listeners } from "./listeners.js";
import type { DeskEventMap, DeskEventName, DeskEvents, DeskListener } from "./types.js";

/** The desk's side: listening and telling. */
export class DeskEventHub implements DeskEvents {
  readonly #listeners: { [K in DeskEventName]: Listeners<DeskEventMap[K]> };

  constructor(logger: Logger) {
    const of = <K extends DeskEventName>(event: K) =>
      new Listeners<DeskEventMap[K]>(logger, `${event} listener failed`);
    this.#listeners = {
      unconfirmed: of("unconfirmed"),
      sent: of("sent"),
      confirmed: of("confirmed"),
      outcomeUnrecorded: of("outcomeUnrecorded"),
      storageFailure: of("storageFailure"),
      settled: of("settled"),
      lateContradiction: of("lateContradiction"),
      balanceRead: of("balanceRead"),
      starBalanceRead: of("starBalanceRead"),
    };
  }

  on<K extends DeskEventName>(event: K, listener: DeskListener<K>): () => void {
    return this.#listeners[event].add(listener);
  }

  /** Tells every listener; `intentId`, when there is one, goes into a failure's log line. */
  emit<K extends DeskEventName>(event: K, intentId: string | undefined, ...args: DeskEventMap[K]) {
    this.#listeners[event].emit(intentId, ...args);
  }

  /** Tells every listener and waits for those that return a promise. */
  emitAndWait<K extends DeskEventName>(
    event: K,
    intentId: string | undefined,
    ...args: DeskEventMap[K]
  ): Promise<void> {
    return this.#listeners[event].emitAndWait(intentId, ...args);
  }

  /** Whether anyone listens (work nobody listens to need not be done). */
  has(event: DeskEventName): boolean {
    return this.#listeners[event].size > 0;
  }
}
