/**
 * Never silent when Telegram cannot be reached. A grammY API transformer watches the calls that
 * connect the bot to Telegram (getMe at start, retried until it works; getUpdates while
 * polling): the first failure is logged at warn with its reason (dns, refused, timeout,
 * unauthorized...) and the error, then at most once a minute while it lasts, and once when
 * Telegram answers again. Readiness reads `state()`.
 *
 * The error goes through the logger's `err` serializer, which scrubs the token from the
 * request's URL.
 */
import { GrammyError, HttpError, type Transformer } from "grammy";
import type { Logger } from "../shared/logger.js";

/** The calls whose failure means the bot is cut off from Telegram. */
const CONNECTION_METHODS = new Set(["getMe", "getUpdates"]);

/** How often a lasting failure is repeated in the log. */
export const REPEAT_EVERY_MS = 60_000;

export type TelegramCause =
  | "dns"
  | "refused"
  | "timeout"
  | "reset"
  | "unreachable"
  | "unauthorized"
  | "not_found"
  | "server_error"
  | "network";

export interface TelegramState {
  reachable: boolean | undefined;
  /** The last failure's cause while unreachable. */
  cause: TelegramCause | undefined;
}

export interface TelegramWatch {
  /** Install with `bot.api.config.use(...)`, inside any retrying transformer. */
  transformer: Transformer;
  /** Feeds an outcome by hand (a call made outside the transformer, or a test). */
  observe(method: string, error?: unknown): void;
  state(): TelegramState;
}

/** Why a call to Telegram failed, as an operator would fix it. */
export function telegramCause(error: unknown): TelegramCause | undefined {
  if (error instanceof GrammyError) return causeOfErrorCode(error.error_code);
  const inner = error instanceof HttpError ? error.error : error;
  const code = errorCode(inner);
  switch (code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "dns";
    case "ECONNREFUSED":
      return "refused";
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return "timeout";
    case "ECONNRESET":
    case "EPIPE":
      return "reset";
    case "ENETUNREACH":
    case "EHOSTUNREACH":
      return "unreachable";
  }
  if (inner instanceof Error && /timed? ?out|timeout/i.test(inner.message)) return "timeout";
  return "network";
}

/** An answer from Telegram with `ok: false`: only these codes mean the bot cannot use it. */
function causeOfErrorCode(code: number): TelegramCause | undefined {
  if (code === 401) return "unauthorized";
  if (code === 404) return "not_found";
  if (code >= 500) return "server_error";
  return undefined; // Telegram answered: it is reachable (a 409 or 400 is another matter).
}

/** node-fetch and Node put the system error code on the error or its cause. */
function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown; errno?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether a failure means the token itself is wrong (revoked, mistyped): retrying cannot help. */
export function isTokenRejected(error: unknown): boolean {
  const cause = telegramCause(error);
  return cause === "unauthorized" || cause === "not_found";
}

export function watchTelegram(options: {
  logger: Logger;
  now?: () => number;
  /** Told when reachability changes (readiness, metrics). */
  onChange?: (state: TelegramState) => void;
}): TelegramWatch {
  const now = options.now ?? Date.now;
  let state: TelegramState = { reachable: undefined, cause: undefined };
  let failingSince = 0;
  let failures = 0;
  let lastLoggedAt = 0;

  const fail = (method: string, cause: TelegramCause, error: unknown): void => {
    const at = now();
    const first = state.reachable !== false;
    if (first) {
      failingSince = at;
      failures = 0;
    }
    failures++;
    const changed = first || state.cause !== cause;
    state = { reachable: false, cause };
    const fields = { method, reason: cause, explanation: describeCause(cause), err: error };
    if (first) {
      lastLoggedAt = at;
      options.logger.warn(fields, `${method} failed; retrying`);
    } else if (at - lastLoggedAt >= REPEAT_EVERY_MS) {
      lastLoggedAt = at;
      options.logger.warn(
        { ...fields, failures, sinceMs: at - failingSince },
        `${method} still failing; retrying`,
      );
    }
    if (changed) options.onChange?.(state);
  };

  const succeed = (method: string): void => {
    if (state.reachable === false) {
      options.logger.info(
        { method, failures, afterMs: now() - failingSince },
        "Telegram reachable again",
      );
    }
    const changed = state.reachable !== true;
    state = { reachable: true, cause: undefined };
    if (changed) options.onChange?.(state);
  };

  const observe = (method: string, error?: unknown): void => {
    if (!CONNECTION_METHODS.has(method)) return;
    const cause = error === undefined ? undefined : telegramCause(error);
    if (cause === undefined) succeed(method);
    else fail(method, cause, error);
  };

  const transformer: Transformer = async (prev, method, payload, signal) => {
    try {
      // Telegram's refusals come back as `ok: false` answers here; grammY throws them later.
      const result = await prev(method, payload, signal);
      if (result.ok) observe(method);
      else if (CONNECTION_METHODS.has(method)) {
        const cause = causeOfErrorCode(result.error_code);
        if (cause === undefined) succeed(method);
        else
          fail(method, cause, { error_code: result.error_code, description: result.description });
      }
      return result;
    } catch (error) {
      // A poll cancelled by our own shutdown is not a failure to reach Telegram.
      if (!signal?.aborted) observe(method, error);
      throw error;
    }
  };

  return { transformer, observe, state: () => state };
}

/** The operator's reading of a cause. */
function describeCause(cause: TelegramCause): string {
  switch (cause) {
    case "dns":
      return "the API host name does not resolve (DNS)";
    case "refused":
      return "connection refused";
    case "timeout":
      return "timed out";
    case "reset":
      return "connection reset";
    case "unreachable":
      return "no route to the API";
    case "unauthorized":
      return "401 Unauthorized: the bot token was rejected";
    case "not_found":
      return "404 Not Found: the bot token is wrong or the API root is not a Bot API server";
    case "server_error":
      return "Telegram answered with a server error (5xx)";
    case "network":
      return "network error";
  }
}
