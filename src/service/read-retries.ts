/**
 * The read path (docs/service-contract.md §7): send, classify, and after a 429/503 send again
 * at most `readRetries` times. The retry needs no sleep of its own: the 429/503 already held
 * the shared quota for the wait the service asked, so the next send waits exactly that long.
 */
import type { Logger } from "../logger.js";
import type { Answer } from "./answer.js";
import { classifyReadAnswer } from "./classify-read.js";
import type { ServiceRequest } from "./requests.js";
import type { QuotaSender } from "./sender.js";
import type { CallOptions, ReadOutcome } from "./types.js";

export interface ReadSettings {
  readRetries: number;
  maxRetryWaitSeconds: number;
  maxBodyBytes: number;
}

/** A read with up to `readRetries` retries after 429/503, waiting what the service asked. */
export async function readWithRetries<T>(
  sender: QuotaSender,
  request: ServiceRequest,
  options: CallOptions,
  interpret: (answer: Answer) => ReadOutcome<T>,
  settings: ReadSettings & { logger: Logger },
): Promise<ReadOutcome<T>> {
  // The caller hears "you are queued" once, not once per retry.
  const notice = { told: false };
  for (let attempt = 0; ; attempt++) {
    const result = await sender.send(request, options, notice);
    const decision = classifyReadAnswer(result, { ...settings, attempt }, interpret);
    if (decision.action === "return") return decision.outcome;
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
