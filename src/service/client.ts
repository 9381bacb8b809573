/**
 * The Gift Purchase Service client (spec: gift-purchase-service-api.md). It turns every call
 * into a typed outcome (never an exception for what the service or network does), sends each
 * purchase exactly once, retries only reads and only as the service asks, keeps the whole
 * process inside the service's shared quota, and never lets a secret out in a log line,
 * outcome or error.
 */
import type { Agent } from "undici";
import type { Logger } from "../logger.js";
import { silentLogger } from "../logger.js";
import { extractBalance } from "./balance.js";
import { GiftServiceCallCancelledError, GiftServiceConfigError } from "./errors.js";
import { type Priority, QUOTA_DEFAULTS, QuotaScheduler } from "./quota.js";
import {
  failureBodySchema,
  objectBodySchema,
  purchaseSuccessSchema,
  userInfoSchema,
} from "./schemas.js";
import { normaliseMnemonic, SecretScrubber, secretValues } from "./secrets.js";
import { MAX_TIMER_MS } from "./timers.js";
import {
  createAgent,
  type Exchange,
  ExchangeAbortedError,
  type ExchangeLimits,
  exchange,
} from "./transport.js";
import type {
  Ambiguous,
  CallOptions,
  FailureBody,
  GiftServiceClient,
  PremiumPurchase,
  PurchaseOutcome,
  RawBody,
  ReadOutcome,
  Rejected,
  StarsPurchase,
  Unavailable,
  UserInfo,
  WalletBalance,
  WalletVersion,
} from "./types.js";
import { checkAmount, checkDuration, checkPaymentMethod, checkUsername } from "./validation.js";

/**
 * The client's error classes, exported here so the desk imports everything from one module.
 * `GiftServiceCallCancelledError.sent === false` means nothing was sent (always so for a
 * purchase); see errors.ts.
 */
export { GiftServiceCallCancelledError, GiftServiceConfigError } from "./errors.js";

/** The service's credentials (spec 4.3, 5). Optional headers are omitted when unset. */
export interface GiftServiceCredentials {
  mnemonic: string;
  cookie: string;
  walletVersion?: WalletVersion;
  walletAddress?: string;
  proxy?: string;
  apiKey?: string;
  userAgent?: string;
}

export interface GiftServiceClientOptions {
  baseUrl: string;
  credentials: GiftServiceCredentials;
  /** The shared quota; default 30 per 60_000 ms. `marginMs`: see QuotaSettings. */
  quota?: { limit: number; windowMs: number; marginMs?: number };
  /**
   * Defaults: connect 10 s, headers 60 s (a purchase waits for a transfer), body 30 s between
   * chunks. `totalMs` bounds the whole exchange (send to last body byte); default the sum of
   * the three (100 s), at most 2^31-1 ms. When it passes, a purchase is ambiguous (timeout)
   * and a read unavailable (timeout).
   */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number; totalMs?: number };
  /**
   * Largest response body read, in bytes; default 1 MiB. A larger body is not read: a purchase
   * is ambiguous (malformed), a read unavailable (malformed).
   */
  maxBodyBytes?: number;
  /** Retries of a rate-limited read; default 2, at most 2 (spec 8). */
  readRetries?: number;
  /**
   * Longest time one 429/503 holds every request of the client, whatever wait the service
   * asks (default 15 minutes). A Retry-After far ahead must not freeze purchases for hours.
   */
  maxPauseMs?: number;
  logger?: Logger;
}

/** Defaults of the client, exported so the bot's docs and tests can refer to them. */
export const CLIENT_DEFAULTS = {
  quota: { limit: 30, windowMs: 60_000 },
  timeouts: { connectMs: 10_000, headersMs: 60_000, bodyMs: 30_000 },
  readRetries: 2,
  /** Longest wait hint a read retry honours (spec 8); a longer one gives up at once. */
  maxRetryWaitSeconds: 60,
  /** Wait assumed when a 429/503 carries no hint at all. */
  defaultWaitSeconds: 2,
  maxPauseMs: QUOTA_DEFAULTS.maxPauseMs,
  maxBodyBytes: 1024 * 1024,
} as const;

const PATHS = {
  userInfo: "/get-user-info/",
  walletBalance: "/wallet-balance/",
  buyStars: "/buy-stars/",
  buyPremium: "/buy-premium/",
} as const;

/** Ambiguous/unavailable bodies that are not JSON are kept, cut to this many characters. */
const MAX_RAW_TEXT = 500;
/** Header values cannot hold control characters; undici would throw at send time. */
function headerSafe(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

type Operation = "get_user_info" | "wallet_balance" | "buy_stars" | "buy_premium";

interface Call {
  operation: Operation;
  priority: Priority;
  method: "GET" | "POST";
  path: string;
  query?: Record<string, string>;
  headers: Record<string, string>;
  form?: Record<string, string>;
}

/** A response whose body was read as JSON when it could be. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
  isJson: boolean;
}

function validateOptions(options: GiftServiceClientOptions): void {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new GiftServiceConfigError("baseUrl is not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new GiftServiceConfigError("baseUrl must be http or https");
  }
  const { credentials } = options;
  if (!credentials.mnemonic?.trim()) throw new GiftServiceConfigError("mnemonic is empty");
  if (!credentials.cookie?.trim()) throw new GiftServiceConfigError("cookie is empty");
  for (const [name, value] of Object.entries(credentials)) {
    if (name === "mnemonic" || value === undefined) continue;
    if (typeof value !== "string" || !headerSafe(value)) {
      throw new GiftServiceConfigError(`credential ${name} cannot be sent as a header`);
    }
  }
  const retries = options.readRetries ?? CLIENT_DEFAULTS.readRetries;
  if (!Number.isInteger(retries) || retries < 0 || retries > 2) {
    throw new GiftServiceConfigError("readRetries must be 0, 1 or 2");
  }
  const maxPauseMs = options.maxPauseMs ?? CLIENT_DEFAULTS.maxPauseMs;
  if (!Number.isFinite(maxPauseMs) || maxPauseMs < 0) {
    throw new GiftServiceConfigError(
      "maxPauseMs must be a finite number of milliseconds, 0 or more",
    );
  }
  const { totalMs, ...phases } = options.timeouts ?? {};
  for (const [name, value] of Object.entries({ ...phases, totalMs })) {
    if (value !== undefined && !(Number.isFinite(value) && value > 0 && value <= MAX_TIMER_MS)) {
      throw new GiftServiceConfigError(`timeouts.${name} must be from 1 to 2^31-1 ms`);
    }
  }
  const maxBodyBytes = options.maxBodyBytes ?? CLIENT_DEFAULTS.maxBodyBytes;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new GiftServiceConfigError("maxBodyBytes must be a positive integer");
  }
  const quota = options.quota ?? CLIENT_DEFAULTS.quota;
  if (!Number.isInteger(quota.limit) || quota.limit < 1 || !(quota.windowMs > 0)) {
    throw new GiftServiceConfigError("quota needs a positive integer limit and window");
  }
}

/** Seconds to wait from `Retry-After` (seconds or HTTP date), `retry_after` or `flood_wait`. */
function waitHintSeconds(answer: Answer): number {
  const hints: number[] = [];
  const header = answer.headers["retry-after"];
  if (header !== undefined) {
    const seconds = Number(header);
    if (header.trim() !== "" && Number.isFinite(seconds) && seconds >= 0) hints.push(seconds);
    else {
      const date = Date.parse(header);
      if (!Number.isNaN(date)) hints.push(Math.max(0, (date - Date.now()) / 1000));
    }
  }
  if (typeof answer.json === "object" && answer.json !== null) {
    for (const key of ["retry_after", "flood_wait"]) {
      const value = Number((answer.json as Record<string, unknown>)[key]);
      if (Number.isFinite(value) && value >= 0) hints.push(value);
    }
  }
  // The largest hint is the one every party agrees is safe.
  return hints.length > 0 ? Math.ceil(Math.max(...hints)) : CLIENT_DEFAULTS.defaultWaitSeconds;
}

function detailOf(body: FailureBody): string | undefined {
  if (body.error) return body.reason ? `${body.error}: ${body.reason}` : body.error;
  if (body.reason) return body.reason;
  if (typeof body.info === "string") return body.info;
  if (body.info !== undefined) return JSON.stringify(body.info).slice(0, MAX_RAW_TEXT);
  return undefined;
}

/** Builds the client. Throws GiftServiceConfigError (without secret values) on bad options. */
export function createGiftServiceClient(options: GiftServiceClientOptions): GiftServiceClient {
  validateOptions(options);
  const { credentials } = options;
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const readRetries = options.readRetries ?? CLIENT_DEFAULTS.readRetries;
  const maxPauseMs = options.maxPauseMs ?? CLIENT_DEFAULTS.maxPauseMs;
  // A retry must really wait what the service asked, and the hold is capped at maxPauseMs, so
  // a read only retries after a hint both limits allow.
  const maxRetryWaitSeconds = Math.min(CLIENT_DEFAULTS.maxRetryWaitSeconds, maxPauseMs / 1000);
  const scrubber = new SecretScrubber(secretValues(credentials), credentials.mnemonic);
  const logger = (options.logger ?? silentLogger).child({ component: "gift-service" });
  const scheduler = new QuotaScheduler({
    ...(options.quota ?? CLIENT_DEFAULTS.quota),
    maxPauseMs,
  });
  const timeouts = { ...CLIENT_DEFAULTS.timeouts, ...options.timeouts };
  const agent: Agent = createAgent(timeouts);
  const limits: ExchangeLimits = {
    totalMs: Math.min(
      MAX_TIMER_MS,
      timeouts.totalMs ?? timeouts.connectMs + timeouts.headersMs + timeouts.bodyMs,
    ),
    maxBodyBytes: options.maxBodyBytes ?? CLIENT_DEFAULTS.maxBodyBytes,
  };
  const mnemonic = normaliseMnemonic(credentials.mnemonic);
  let closing: Promise<void> | undefined;

  const walletHeaders = (): Record<string, string> => {
    const headers: Record<string, string> = { Mnemonic: mnemonic };
    if (credentials.apiKey) headers["Api-Key"] = credentials.apiKey;
    return headers;
  };

  const purchaseHeaders = (): Record<string, string> => {
    const headers: Record<string, string> = {
      "Content-Type": "application/x-www-form-urlencoded",
      Mnemonic: mnemonic,
      Cookie: credentials.cookie,
    };
    if (credentials.walletVersion) headers["Wallet-Version"] = credentials.walletVersion;
    if (credentials.walletAddress) headers["Wallet-Address"] = credentials.walletAddress;
    if (credentials.proxy) headers.Proxy = credentials.proxy;
    if (credentials.apiKey) headers["Api-Key"] = credentials.apiKey;
    if (credentials.userAgent) headers["User-Agent"] = credentials.userAgent;
    return headers;
  };

  /**
   * Waits for the quota, sends once, and holds everyone after a 429/503. Throws only a
   * cancellation (caller's signal or close), never for the service or the network.
   */
  const send = async (
    call: Call,
    callOptions: CallOptions,
    queued: { told: boolean },
  ): Promise<Answer | Extract<Exchange, { kind: "failure" }>> => {
    const release = await scheduler.acquire(call.priority, {
      signal: callOptions.signal,
      onQueued: (waitMs) => {
        if (queued.told) return;
        queued.told = true;
        logger.debug({ operation: call.operation, waitMs }, "waiting for the shared quota");
        callOptions.onQueued?.(waitMs);
      },
    });
    const query = call.query ? `?${new URLSearchParams(call.query)}` : "";
    const started = performance.now();
    logger.trace({ operation: call.operation, method: call.method, path: call.path }, "request");
    let result: Exchange;
    try {
      result = await exchange(
        agent,
        {
          method: call.method,
          url: `${baseUrl}${call.path}${query}`,
          headers: { Accept: "application/json", ...call.headers },
          body: call.form ? new URLSearchParams(call.form).toString() : undefined,
          // The caller never aborts an in-flight purchase: its answer is the only evidence of
          // what happened to the money. Only the deadline ends it, as ambiguous.
          signal: call.priority !== "purchase" ? callOptions.signal : undefined,
        },
        limits,
      );
    } catch (error) {
      if (error instanceof ExchangeAbortedError) {
        throw new GiftServiceCallCancelledError("aborted", true);
      }
      throw error;
    } finally {
      // The answer (or failure) bounds when the service can have counted this request.
      release();
    }
    const ms = Math.round(performance.now() - started);
    if (result.kind === "failure") {
      logger.warn(
        { operation: call.operation, cause: result.cause, code: result.code, ms },
        "no answer from the gift service",
      );
      return result;
    }
    let json: unknown;
    let isJson = false;
    try {
      json = scrubber.deep(JSON.parse(result.text) as unknown);
      isJson = true;
    } catch {
      json = undefined;
    }
    const answer: Answer = {
      status: result.status,
      headers: result.headers,
      text: scrubber.text(result.text),
      json,
      isJson,
    };
    if (answer.status === 429 || answer.status === 503) {
      const seconds = waitHintSeconds(answer);
      // The scheduler caps the hold (maxPauseMs): the hint itself is untrusted input.
      const pauseMs = scheduler.pause(seconds * 1000);
      logger.warn(
        {
          operation: call.operation,
          status: answer.status,
          retryAfterSeconds: seconds,
          pauseMs,
          ms,
        },
        "the gift service asks to wait",
      );
    } else {
      logger.debug({ operation: call.operation, status: answer.status, ms }, "response");
    }
    return answer;
  };

  const rawText = (answer: Answer): string => answer.text.slice(0, MAX_RAW_TEXT);
  const tooLargeDetail = `the response body is larger than ${limits.maxBodyBytes} bytes`;

  const rejectedFrom = (answer: Answer): Rejected | undefined => {
    const parsed = failureBodySchema.safeParse(answer.json);
    if (!parsed.success) return undefined;
    const body = answer.json as FailureBody;
    return { kind: "rejected", status: answer.status, body, detail: detailOf(body) };
  };

  /** A read with up to `readRetries` retries after 429/503, waiting what the service asked. */
  const read = async <T>(
    call: Call,
    callOptions: CallOptions,
    interpret: (answer: Answer) => ReadOutcome<T>,
  ): Promise<ReadOutcome<T>> => {
    const queued = { told: false };
    for (let attempt = 0; ; attempt++) {
      const answer = await send(call, callOptions, queued);
      if (!("status" in answer)) {
        if (answer.cause === "too_large") {
          return { kind: "unavailable", cause: "malformed", detail: tooLargeDetail };
        }
        const detail =
          answer.cause === "timeout" ? "the gift service did not answer in time" : answer.code;
        return { kind: "unavailable", cause: answer.cause, detail };
      }
      if (answer.status === 429 || answer.status === 503) {
        const seconds = waitHintSeconds(answer);
        if (seconds > maxRetryWaitSeconds) {
          const giveUp: Unavailable = {
            kind: "unavailable",
            cause: "wait_too_long",
            status: answer.status,
            retryAfterSeconds: seconds,
            detail: `the gift service asks to wait ${seconds} s, longer than ${maxRetryWaitSeconds} s`,
          };
          return giveUp;
        }
        if (attempt < readRetries) {
          logger.info(
            { operation: call.operation, attempt: attempt + 1, retryAfterSeconds: seconds },
            "retrying a rate-limited read",
          );
          continue;
        }
        const body = failureBodySchema.safeParse(answer.json).success
          ? (answer.json as FailureBody)
          : undefined;
        return { kind: "rate_limited", status: answer.status, retryAfterSeconds: seconds, body };
      }
      if (!answer.isJson || !objectBodySchema.safeParse(answer.json).success) {
        return {
          kind: "unavailable",
          cause: "malformed",
          status: answer.status,
          detail: `the body is not a JSON object: ${rawText(answer).slice(0, 100)}`,
        };
      }
      if (answer.status === 200) return interpret(answer);
      if (answer.status === 400) {
        const rejected = rejectedFrom(answer);
        if (rejected) return rejected;
        return {
          kind: "unavailable",
          cause: "malformed",
          status: 400,
          detail: "a 400 without a failure body",
        };
      }
      return {
        kind: "unavailable",
        cause: "unexpected_status",
        status: answer.status,
        detail: `unexpected HTTP status ${answer.status}`,
      };
    }
  };

  /** A purchase: one request, never retried; anything uncertain is ambiguous. */
  const purchase = async (call: Call, callOptions: CallOptions): Promise<PurchaseOutcome> => {
    const answer = await send(call, callOptions, { told: false });
    const outcome = classifyPurchase(answer);
    const level = outcome.kind === "ambiguous" ? "error" : "info";
    logger[level](
      {
        operation: call.operation,
        outcome: outcome.kind,
        ...(outcome.kind === "ambiguous" ? { cause: outcome.cause, status: outcome.status } : {}),
        ...(outcome.kind === "rejected" ? { status: outcome.status, detail: outcome.detail } : {}),
      },
      outcome.kind === "ambiguous"
        ? "purchase outcome unknown: reconcile before any new purchase"
        : "purchase answered",
    );
    return outcome;
  };

  const classifyPurchase = (
    answer: Answer | Extract<Exchange, { kind: "failure" }>,
  ): PurchaseOutcome => {
    if (!("status" in answer)) {
      if (answer.cause === "too_large") {
        return {
          kind: "ambiguous",
          cause: "malformed",
          detail: `${tooLargeDetail}: the purchase may or may not have happened`,
        };
      }
      return {
        kind: "ambiguous",
        cause: answer.cause,
        detail:
          answer.cause === "timeout"
            ? "no answer in time: the purchase may or may not have happened"
            : `the connection failed (${answer.code}): the purchase may or may not have happened`,
      };
    }
    const body: unknown = answer.isJson ? answer.json : rawText(answer);
    const txHashOf = (value: unknown): string | undefined => {
      if (typeof value !== "object" || value === null) return undefined;
      const hash = (value as Record<string, unknown>).tx_hash;
      return typeof hash === "string" ? hash : undefined;
    };
    const ambiguous = (
      cause: Ambiguous["cause"],
      detail: string,
      extra: Partial<Ambiguous> = {},
    ): Ambiguous => ({
      kind: "ambiguous",
      cause,
      status: answer.status,
      body,
      txHash: txHashOf(body),
      detail,
      ...extra,
    });
    if (answer.status === 429 || answer.status === 503) {
      return ambiguous(
        "rate_limited",
        `HTTP ${answer.status}: the purchase may not have happened`,
        {
          retryAfterSeconds: waitHintSeconds(answer),
        },
      );
    }
    if (!answer.isJson || !objectBodySchema.safeParse(answer.json).success) {
      return ambiguous("malformed", `HTTP ${answer.status} with a body that is not a JSON object`);
    }
    const json = answer.json as RawBody;
    if (json.unconfirmed === true) {
      return ambiguous("unconfirmed", "the service could not confirm the purchase");
    }
    if (answer.status === 200) {
      const success = purchaseSuccessSchema.safeParse(json);
      if (!success.success) {
        return ambiguous("malformed", "HTTP 200 without ok: true");
      }
      const data = success.data.data;
      const txHash = success.data.tx_hash ?? txHashOf(data);
      return { kind: "success", value: { txHash, data }, body: json };
    }
    if (answer.status === 400) {
      // Spec 2.4: `tx_hash` is there "when a transfer progressed", so money may have moved even
      // though the service calls it a failure. Only a 400 without one is a definite rejection.
      const txHash = txHashOf(json);
      if (txHash !== undefined && txHash.trim() !== "") {
        return ambiguous(
          "unconfirmed",
          "HTTP 400 carrying a transaction hash: a transfer may have happened",
        );
      }
      const rejected = rejectedFrom(answer);
      if (rejected) return rejected;
      return ambiguous("malformed", "HTTP 400 without a failure body");
    }
    return ambiguous("unexpected_status", `unexpected HTTP status ${answer.status}`);
  };

  const interpretUserInfo = (answer: Answer): ReadOutcome<UserInfo> => {
    const parsed = userInfoSchema.safeParse(answer.json);
    if (!parsed.success) {
      return {
        kind: "unavailable",
        cause: "malformed",
        status: 200,
        detail: "not a user-info body",
      };
    }
    return {
      kind: "success",
      value: {
        found: parsed.data.ok,
        username: parsed.data.username,
        isPremium: parsed.data.is_premium,
      },
      body: answer.json as RawBody,
    };
  };

  const interpretBalance = (answer: Answer): ReadOutcome<WalletBalance> => {
    const json = answer.json as RawBody;
    if (json.ok === false) {
      const rejected = rejectedFrom(answer);
      if (rejected) return rejected;
    }
    return { kind: "success", value: extractBalance(json), body: json };
  };

  return {
    async getUserInfo(username, callOptions = {}) {
      const invalid = checkUsername(username);
      if (invalid) return invalid;
      return read(
        {
          operation: "get_user_info",
          priority: "read",
          method: "GET",
          path: PATHS.userInfo,
          query: { username },
          headers: {},
        },
        callOptions,
        interpretUserInfo,
      );
    },

    async getWalletBalance(callOptions = {}) {
      return read(
        {
          operation: "wallet_balance",
          priority: "shared_read",
          method: "GET",
          path: PATHS.walletBalance,
          headers: walletHeaders(),
        },
        callOptions,
        interpretBalance,
      );
    },

    async buyStars(input: StarsPurchase, callOptions = {}) {
      const invalid =
        checkUsername(input.username) ??
        checkAmount(input.amount) ??
        checkPaymentMethod(input.paymentMethod);
      if (invalid) return invalid;
      const form: Record<string, string> = {
        username: input.username,
        amount: String(input.amount),
      };
      if (input.paymentMethod) form.payment_method = input.paymentMethod;
      return purchase(
        {
          operation: "buy_stars",
          priority: "purchase",
          method: "POST",
          path: PATHS.buyStars,
          headers: purchaseHeaders(),
          form,
        },
        callOptions,
      );
    },

    async buyPremium(input: PremiumPurchase, callOptions = {}) {
      const invalid =
        checkUsername(input.username) ??
        checkDuration(input.duration) ??
        checkPaymentMethod(input.paymentMethod);
      if (invalid) return invalid;
      const form: Record<string, string> = {
        username: input.username,
        duration: String(input.duration),
      };
      if (input.paymentMethod) form.payment_method = input.paymentMethod;
      return purchase(
        {
          operation: "buy_premium",
          priority: "purchase",
          method: "POST",
          path: PATHS.buyPremium,
          headers: purchaseHeaders(),
          form,
        },
        callOptions,
      );
    },

    estimateWait(priority) {
      return scheduler.estimateWait(priority);
    },

    stopPurchases() {
      scheduler.stopPurchases();
    },

    close() {
      // Idempotent: closing twice (a shutdown path and a test hook) must not throw.
      closing ??= (async () => {
        scheduler.close();
        await agent.close();
      })();
      return closing;
    },
  };
}
