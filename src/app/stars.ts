/**
 * The bot's own Telegram Stars in the app (issue #39): the client that gifts Premium through
 * Telegram on the bot's Api, built when PREMIUM_VIA lets Premium be paid in Stars, and the
 * retries of outgoing calls kept off the methods that spend Stars (one call per Confirm).
 */
import type { Transformer } from "grammy";
import type { Config } from "../config/index.js";
import type { Logger } from "../shared/logger.js";
import { NEVER_RETRIED, TelegramStarsClient } from "../stars/telegram-stars.js";

/** The Stars client when Premium may be paid through Telegram; attach it once the bot exists. */
export function starsFor(
  config: Config,
  logger: Logger,
  options: { giftTimeoutMs?: number | undefined; clock?: (() => number) | undefined },
): TelegramStarsClient | undefined {
  if (config.premium.via === "service") return undefined;
  return new TelegramStarsClient({
    logger,
    ...(options.giftTimeoutMs === undefined ? {} : { giftTimeoutMs: options.giftTimeoutMs }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
}

/**
 * `retrying` for every call but those that spend or give back Stars, which go once: a gift
 * retried after a 5xx or a lost connection could be made twice.
 */
export function retryingExceptSpending(retrying: Transformer): Transformer {
  return (prev, method, payload, signal) =>
    NEVER_RETRIED.has(method)
      ? prev(method, payload, signal)
      : retrying(prev, method, payload, signal);
}
