/**
 * Structured logging with pino. Secrets are server-held and must never reach a log line, so
 * every path that can carry one is redacted here, once, for the whole bot.
 */
import { type DestinationStream, type Logger, pino } from "pino";

export type { Logger } from "pino";

/**
 * Paths pino censors wherever they appear. `err.ctx` is there because grammY's BotError carries
 * the context, whose `api` holds the bot token (stack facts: "Logging").
 */
const REDACTED_PATHS = [
  "mnemonic",
  "cookie",
  "proxy",
  "apiKey",
  "token",
  "botToken",
  "secret",
  "databaseUrl",
  "connectionString",
  "headers.mnemonic",
  "headers.cookie",
  "headers.proxy",
  "headers['api-key']",
  "headers.Mnemonic",
  "headers.Cookie",
  "headers.Proxy",
  "headers['Api-Key']",
  "*.mnemonic",
  "*.cookie",
  "*.proxy",
  "*.apiKey",
  "*.token",
  "*.botToken",
  "*.secret",
  "*.databaseUrl",
  "*.connectionString",
  "err.ctx",
  "error.ctx",
  "ctx.api",
  "config",
];

/** A Telegram bot token as it appears in API URLs (`/bot123:AA.../method`). */
const BOT_TOKEN_IN_TEXT = /\d{5,}:[A-Za-z0-9_-]{20,}/g;

/** A PostgreSQL URL's password (`postgres://user:password@host`). */
const DATABASE_PASSWORD_IN_TEXT = /(postgres(?:ql)?:\/\/[^:/@\s]*:)[^@\s]*@/gi;

/**
 * Removes anything shaped like a bot token, and a database URL's password, from a text (an
 * error message, a stack).
 */
export function scrubTokens(text: string): string {
  return text
    .replace(BOT_TOKEN_IN_TEXT, "[redacted]")
    .replace(DATABASE_PASSWORD_IN_TEXT, "$1[redacted]@");
}

/**
 * Errors are logged as name, message, stack and code only. pino's standard serializer copies
 * every enumerable property, and grammY's HttpError keeps the underlying fetch error, whose
 * message holds the request URL with the bot token; a BotError holds the whole context.
 */
function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  // grammY's HttpError wraps the network error in `error`: keep its reason, scrubbed.
  const inner = (error as { error?: unknown }).error;
  return {
    type: error.name,
    message: scrubTokens(error.message),
    ...(inner instanceof Error ? { cause: scrubTokens(inner.message) } : {}),
    ...(error.stack ? { stack: scrubTokens(error.stack) } : {}),
    ...(typeof code === "string" || typeof code === "number" ? { code } : {}),
  };
}

export interface LoggerOptions {
  level?: string;
  /** Human-friendly output for development; JSON lines otherwise. */
  pretty?: boolean;
  /** Where to write; tests pass a stream to capture every line. */
  destination?: DestinationStream;
}

/** The bot's root logger; features take `logger.child({ ... })` of it. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const base = {
    level: options.level ?? "info",
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    serializers: { err: serializeError, error: serializeError },
  };
  if (options.destination) return pino(base, options.destination);
  if (options.pretty) {
    return pino({ ...base, transport: { target: "pino-pretty", options: { colorize: true } } });
  }
  // Synchronous: pino's default stdout writes asynchronously (a thread-pool write in flight),
  // and the synchronous flush at exit then wrote the last line ("stopped cleanly") before an
  // earlier one still in flight. An operator must see how a stop ended, in order; a few lines
  // per purchase cost nothing to write synchronously.
  return pino(base, pino.destination({ dest: 1, sync: true }));
}

/** A logger that writes nothing, for code paths and tests that do not care. */
export const silentLogger: Logger = pino({ level: "silent" });
