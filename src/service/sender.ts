/**
 * Sending one request in its turn (docs/service-contract.md §6, §8): wait for the shared quota,
 * send once under the timeouts, release the slot when the answer (or failure) is in, and make
 * every later request wait after a 429/503 as long as the service asked (the retry wait). It throws only a
 * cancellation (the caller's signal, close, shutdown), never for the service or the network.
 */
import type { Agent } from "undici";
import type { Logger } from "../shared/logger.js";
import {
  type Answer,
  isRetryWaitStatus,
  type NoAnswer,
  toAnswer,
  waitHintSeconds,
} from "./answer.js";
import { GiftServiceCallCancelledError } from "./errors.js";
import type { ExchangeRecord } from "./options.js";
import type { QuotaGrant, QuotaScheduler } from "./quota.js";
import type { ServiceRequest } from "./requests.js";
import type { SecretScrubber } from "./secrets.js";
import {
  type Exchange,
  ExchangeAbortedError,
  type ExchangeLimits,
  ExchangeWithheldError,
  exchange,
} from "./transport.js";
import type { PurchaseCallOptions, RecipientCheckOptions } from "./types.js";

export interface SenderDeps {
  baseUrl: string;
  agent: Agent;
  limits: ExchangeLimits;
  scheduler: QuotaScheduler;
  /** Read per answer: the scrubber for every secret held so far (credentials can rotate). */
  scrubber: () => SecretScrubber;
  logger: Logger;
  onExchange?: (exchange: ExchangeRecord) => void;
}

/**
 * The caller's options: whether a queued check replaces the owner's older ones, and for a
 * purchase, what is asked just before it is written (`mayLeave`).
 */
export type SendOptions = RecipientCheckOptions & Pick<PurchaseCallOptions, "mayLeave">;

/** Whether the caller was already told it waits; shared by a read's retries so it is told once. */
export interface QueueNotice {
  told: boolean;
}

export class QuotaSender {
  constructor(private readonly deps: SenderDeps) {}

  /**
   * Waits for the quota (unless `reserved`, a slot granted ahead: then it goes at once), sends
   * once, and starts the retry wait after a 429/503. Throws only a cancellation
   * (`GiftServiceCallCancelledError`: the caller's signal, a stop, or `mayLeave` saying no at
   * the last moment) or, for a queued check replaced by a newer one of its owner,
   * `QueueSupersededError`: in every case before anything was sent.
   */
  async send(
    request: ServiceRequest,
    options: SendOptions,
    notice: QueueNotice = { told: false },
    reserved?: QuotaGrant,
  ): Promise<Answer | NoAnswer> {
    const slot = reserved ?? (await this.#acquire(request, options, notice));
    const started = performance.now();
    let result: Exchange;
    try {
      result = await this.exchangeOnce(request, options);
    } finally {
      // The answer (or failure) bounds when the service can have counted this request.
      slot.release();
    }
    const ms = Math.round(performance.now() - started);
    const status = result.kind === "failure" ? result.cause : result.status;
    this.#tellExchange({ operation: request.operation, status, ms });
    if (result.kind === "failure") {
      this.deps.logger.warn(
        { operation: request.operation, cause: result.cause, code: result.code, ms },
        "no answer from the gift service",
      );
      return result;
    }
    const answer = toAnswer(result, this.deps.scrubber());
    this.retryWaitIfAsked(request, answer, ms);
    return answer;
  }

  /** The request's turn in the quota; the caller is told once if it has to wait. */
  #acquire(
    request: ServiceRequest,
    options: SendOptions,
    notice: QueueNotice,
  ): Promise<QuotaGrant> {
    return this.deps.scheduler.reserve(request.priority, {
      signal: options.signal,
      owner: options.owner,
      replace: options.replace,
      onQueued: (waitMs) => {
        if (notice.told) return;
        notice.told = true;
        this.deps.logger.debug(
          { operation: request.operation, waitMs },
          "waiting for the shared quota",
        );
        options.onQueued?.(waitMs);
      },
    });
  }

  /**
   * Tells the exchange hook (metrics), never letting it fail the request: a throw here would
   * turn a purchase the service answered into an ambiguous one, and skip a 429's retry wait.
   */
  #tellExchange(record: ExchangeRecord): void {
    try {
      this.deps.onExchange?.(record);
    } catch (err) {
      this.deps.logger.warn({ err, operation: record.operation }, "the exchange hook failed");
    }
  }

  private async exchangeOnce(request: ServiceRequest, options: SendOptions): Promise<Exchange> {
    const { baseUrl, agent, limits, logger } = this.deps;
    const query = request.query ? `?${new URLSearchParams(request.query).toString()}` : "";
    logger.trace(
      { operation: request.operation, method: request.method, path: request.path },
      "request",
    );
    try {
      return await exchange(
        agent,
        {
          method: request.method,
          url: `${baseUrl}${request.path}${query}`,
          // Read now, after the wait for the quota: credentials rotated meanwhile go with it.
          headers: { Accept: "application/json", ...request.headers() },
          body: request.form ? new URLSearchParams(request.form).toString() : undefined,
          // The caller never aborts an in-flight purchase: its answer is the only evidence of
          // what happened to the money (docs/service-contract.md §9). Only the deadline ends
          // it, as ambiguous.
          signal: request.priority !== "purchase" ? options.signal : undefined,
          // Only purchases are fenced: a read spends nothing, whoever sends it.
          ...(request.priority === "purchase" && options.mayLeave
            ? { mayLeave: options.mayLeave }
            : {}),
        },
        limits,
      );
    } catch (error) {
      if (error instanceof ExchangeAbortedError) {
        throw new GiftServiceCallCancelledError("aborted", true);
      }
      if (error instanceof ExchangeWithheldError) {
        logger.warn({ operation: request.operation }, "purchase withheld before it was sent");
        throw new GiftServiceCallCancelledError("withheld", false);
      }
      throw error;
    }
  }

  /** After a 429/503, every request of the client waits what the service asked (capped). */
  private retryWaitIfAsked(request: ServiceRequest, answer: Answer, ms: number): void {
    const { logger, scheduler } = this.deps;
    if (!isRetryWaitStatus(answer.status)) {
      logger.debug({ operation: request.operation, status: answer.status, ms }, "response");
      return;
    }
    const seconds = waitHintSeconds(answer);
    // The scheduler caps the retry wait (maxRetryWaitMs): the hint itself is untrusted input.
    const pauseMs = scheduler.startRetryWait(seconds * 1000);
    logger.warn(
      {
        operation: request.operation,
        status: answer.status,
        retryAfterSeconds: seconds,
        pauseMs,
        ms,
      },
      "the gift service asks to wait",
    );
  }
}
