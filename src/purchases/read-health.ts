/**
 * Whether the service's reads (recipient checks, balance reads) have been failing for long
 * enough that an admin must hear of it. Every person sees "the service is unavailable" on their
 * own; an operator sees nothing unless told, so: one alert when reads have failed without a
 * single success for `alertAfterMs`, and one more when they recover. A blip shorter than that
 * says nothing.
 *
 * Pure: it is fed outcomes and the time, and answers with what to announce. The caller polls
 * {@link ReadHealth.check} now and then, so an outage is announced even when nobody reads.
 */
import type { ReadOutcome } from "../service/types.js";

/** Default READ_OUTAGE_ALERT_SECONDS. */
export const DEFAULT_READ_OUTAGE_ALERT_SECONDS = 120;

/** How a read outcome counts for the service being reachable. */
export type ReadVerdict = "answered" | "unreachable" | "neutral";

/**
 * The service answered (any answer: a refusal too), could not be reached (timeout, transport
 * error, malformed or unexpected answer, 503 RATE_LIMIT_UNAVAILABLE), or said nothing about it
 * (429 FLOOD_WAIT is the service alive and asking us to wait; a read the client refused never
 * left).
 */
export function readVerdict(outcome: ReadOutcome<unknown>): ReadVerdict {
  switch (outcome.kind) {
    case "success":
    case "rejected":
      return "answered";
    case "rate_limited":
      return outcome.status === 503 ? "unreachable" : "neutral";
    case "unavailable":
      if (outcome.cause === "wait_too_long") {
        return outcome.status === 503 ? "unreachable" : "neutral";
      }
      return "unreachable";
    case "invalid":
      return "neutral";
  }
}

export type ReadHealthEvent =
  | { kind: "outage"; since: number; failures: number }
  | { kind: "recovered"; since: number; downForMs: number; failures: number };

export class ReadHealth {
  readonly #alertAfterMs: number;
  /** When the current run of failures began; undefined while reads succeed. */
  #failingSince: number | undefined;
  #failures = 0;
  #announced = false;

  constructor(options: { alertAfterMs?: number } = {}) {
    const alertAfterMs = options.alertAfterMs ?? DEFAULT_READ_OUTAGE_ALERT_SECONDS * 1000;
    if (!Number.isFinite(alertAfterMs) || alertAfterMs < 0) {
      throw new RangeError("alertAfterMs must be a finite number of milliseconds, 0 or more");
    }
    this.#alertAfterMs = alertAfterMs;
  }

  /** Whether an outage has been announced and not yet recovered. */
  get inOutage(): boolean {
    return this.#announced;
  }

  /** Feeds one read's outcome; returns what to announce, if anything. */
  record(outcome: ReadOutcome<unknown>, now: number): ReadHealthEvent | undefined {
    const verdict = readVerdict(outcome);
    if (verdict === "neutral") return this.check(now);
    if (verdict === "unreachable") {
      this.#failingSince ??= now;
      this.#failures++;
      return this.check(now);
    }
    const since = this.#failingSince;
    const failures = this.#failures;
    const wasAnnounced = this.#announced;
    this.#failingSince = undefined;
    this.#failures = 0;
    this.#announced = false;
    if (!wasAnnounced || since === undefined) return undefined;
    return { kind: "recovered", since, downForMs: now - since, failures };
  }

  /** Announces the outage once its failures have lasted `alertAfterMs`; call it now and then. */
  check(now: number): ReadHealthEvent | undefined {
    const since = this.#failingSince;
    if (since === undefined || this.#announced || now - since < this.#alertAfterMs) {
      return undefined;
    }
    this.#announced = true;
    return { kind: "outage", since, failures: this.#failures };
  }
}
