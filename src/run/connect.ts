/**
 * The first call to Telegram (getMe) at start, retried while Telegram cannot be reached: a bot
 * started before the network is up, or during an outage, connects when it can instead of
 * exiting. Each failure reaches the Telegram watch, which says so in the log (at most once a
 * minute). A token Telegram rejects (401/404) cannot get better by waiting: that ends the start.
 */
import { type Backoff, backoffDelay } from "../shared/backoff.js";
import type { Bot, Context } from "grammy";
import { isTokenRejected, telegramCause } from "./telegram-watch.js";

/** The token was refused: the process should end with one clear line, not a stack trace. */
export class TelegramTokenRejectedError extends Error {
  constructor(readonly reason: "unauthorized" | "not_found") {
    super(
      reason === "unauthorized"
        ? "Telegram rejected the bot token (401 Unauthorized): check BOT_TOKEN"
        : "Telegram answered 404 Not Found for the bot token: check BOT_TOKEN and TELEGRAM_API_ROOT",
    );
    this.name = "TelegramTokenRejectedError";
  }
}

/** Backoff between attempts: 1 s, doubling, at most 30 s. */
const CONNECT_BACKOFF: Backoff = { firstDelayMs: 1000, maxDelayMs: 30_000 };

/**
 * Resolves once getMe succeeds (the bot is then initialised); rejects with
 * TelegramTokenRejectedError on 401/404, or with the last error once `signal` aborts (shutdown
 * while connecting). getMe is called directly, not through `bot.init()`: grammY's init retries
 * network failures itself with a wait that doubles up to 20 minutes, so after a long outage
 * the bot would reconnect that late; here each attempt fails fast and this backoff (30 s at
 * most) decides when the next one goes.
 */
export async function connectToTelegram<C extends Context>(
  bot: Bot<C>,
  signal: AbortSignal,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      bot.botInfo = await bot.api.getMe(signal as Parameters<Bot<C>["api"]["getMe"]>[0]);
      return;
    } catch (error) {
      if (isTokenRejected(error)) {
        throw new TelegramTokenRejectedError(
          telegramCause(error) as TelegramTokenRejectedError["reason"],
        );
      }
      if (signal.aborted) throw error;
      const stopped = await pause(backoffDelay(CONNECT_BACKOFF, attempt + 1), signal);
      if (stopped) throw error;
    }
  }
}

/** Waits `ms`, or less when stopped; whether it was stopped. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), ms);
    const onAbort = () => done(true);
    function done(stopped: boolean) {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(stopped);
    }
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
