/**
 * The read path (docs/service-contract.md §7): send, classify, and after a 429/503 send again
 * at most `readRetries` times. The retry needs no sleep of its own: the 429/503 already held
 * the shared quota for the wait the service asked, so the next send waits exactly that long.
 */
import type { Logger } from "../shared/logger.js";
import type { Answer } from "./answer.js";
import { classifyReadAnswer } from "./classify-read.js";
import type { ServiceRequest } from "./requests.js";
import { QueueSupersededError } from "./quota.js";
import type { QuotaSender, SendOptions } from "./sender.js";
import type { ReadOutcome } from "./types.js";

/** Extra checks of one read. */
export interface ReadHooks {
  /** Asked before each retry: true when the caller's newer request made this one pointless. */
  isSuperseded?: () => boolean;
}

export interface ReadSettings {
  readRetries: number;
  maxRetryWaitSeconds: number;
  maxBodyBytes: number;
}

/** A read with up to `readRetries` retries after 429/503, waiting what the service asked. */
export async function readWithRetries<T>(
  sender: QuotaSender,
  request: ServiceRequest,
  options: SendOptions,
  interpret: (answer: Answer) => ReadOutcome<T>,
  settings: ReadSettings & { logger: Logger },
  hooks: ReadHooks = {},
): Promise<ReadOutcome<T>> {
  // The caller hears "you are queued" once, not once per retry.
  const notice = { told: false };
  for (let attempt = 0; ; attempt++) {
    // A retry keeps its place: only the caller's first request replaces the owner's older ones.
    const result = await sender.send(
      request,
      attempt === 0 ? options : { ...options, replace: false },
      notice,
    );
    const decision = classifyReadAnswer(result, { ...settings, attempt }, interpret);
    if (decision.action === "return") return decision.outcome;
    // Never sent again once the owner's newer check has replaced it.
    if (hooks.isSuperseded?.()) throw new QueueSupersededError();
    settings.logger.info(
      {
        operation: request.operation,
        attempt: attempt + 1,
        retryAfterSeconds: decision.retryAfterSeconds,
      },
      "retrying a rate-limited read",
    );
  }
}
