/**
 * The client's options, their defaults and their checks (docs/service-contract.md §6 to
 * §8, §10). A bad option fails at start-up with `GiftServiceConfigError`, whose message never holds
 * a secret value; everything later runs on the resolved `ClientSettings`.
 */
import type { Logger } from "../shared/logger.js";
import {
  checkCredentials,
  CredentialHolder,
  type CredentialSource,
  type GiftServiceCredentials,
} from "./credential-source.js";

export type { GiftServiceCredentials } from "./credential-source.js";
import { GiftServiceConfigError } from "./errors.js";
import { QUOTA_DEFAULTS } from "./quota.js";
import { MAX_TIMER_MS } from "./timers.js";
import type { ExchangeLimits, TransportTimeouts } from "./transport.js";

export interface GiftServiceClientOptions {
  baseUrl: string;
  /**
   * Fixed credentials, or a source read as each request is sent (a `CredentialHolder`), so rotated
   * credentials apply to the next request while one already sent keeps its headers.
   */
  credentials: GiftServiceCredentials | CredentialSource;
  /**
   * The shared quota; default 30 per 60_000 ms. `marginMs` and `keptForPeople` (the slots a
   * giveaway's requests leave to people): see QuotaSettings.
   */
  quota?: { limit: number; windowMs: number; marginMs?: number; keptForPeople?: number };
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
  /** Retries of a rate-limited read; default 2, at most 2 (docs/service-contract.md §7). */
  readRetries?: number;
  /**
   * Longest retry wait one 429/503 puts on every request of the client, whatever wait the service
   * asks (default 15 minutes). A Retry-After far ahead must not freeze purchases for hours.
   */
  maxRetryWaitMs?: number;
  logger?: Logger;
  /** Told of every exchange with the service once it ends (metrics): no URL, header or body. */
  onExchange?: (exchange: ExchangeRecord) => void;
}

/** One request to the service as metrics see it: which operation, its status or failure, its time. */
export interface ExchangeRecord {
  operation: "get_user_info" | "wallet_balance" | "buy_stars" | "buy_premium";
  /** The HTTP status, or the failure's cause when no answer came (timeout, transport...). */
  status: number | string;
  ms: number;
}

/** Defaults of the client, exported so the bot's docs and tests can refer to them. */
export const CLIENT_DEFAULTS = {
  quota: { limit: 30, windowMs: 60_000 },
  timeouts: { connectMs: 10_000, headersMs: 60_000, bodyMs: 30_000 },
  readRetries: 2,
  /**
   * Longest wait hint a read retry honours (docs/service-contract.md §7); a longer one gives up at
   * once.
   */
  maxRetryWaitSeconds: 60,
  /** Wait assumed when a 429/503 carries no hint at all. */
  defaultWaitSeconds: 2,
  maxRetryWaitMs: QUOTA_DEFAULTS.maxRetryWaitMs,
  maxBodyBytes: 1024 * 1024,
} as const;

/** The options with every default filled in, as the parts of the client use them. */
export interface ClientSettings {
  /** Without a trailing slash: every path starts with one. */
  baseUrl: string;
  /** Read once per request; its scrubber covers every secret it ever held. */
  credentials: CredentialSource;
  quota: {
    limit: number;
    windowMs: number;
    marginMs?: number;
    keptForPeople?: number;
    maxRetryWaitMs: number;
  };
  timeouts: TransportTimeouts;
  limits: ExchangeLimits;
  readRetries: number;
  /**
   * Longest wait hint a read retry honours: a retry must really wait what the service asked,
   * and the retry wait is capped at maxRetryWaitMs, so a read only retries after a hint both allow.
   */
  maxRetryWaitSeconds: number;
}

/** Checks the options and fills in the defaults. Throws GiftServiceConfigError on bad ones. */
export function resolveSettings(options: GiftServiceClientOptions): ClientSettings {
  validateOptions(options);
  const maxRetryWaitMs = options.maxRetryWaitMs ?? CLIENT_DEFAULTS.maxRetryWaitMs;
  const timeouts = { ...CLIENT_DEFAULTS.timeouts, ...options.timeouts };
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    credentials: credentialSource(options.credentials),
    quota: { ...(options.quota ?? CLIENT_DEFAULTS.quota), maxRetryWaitMs },
    timeouts,
    limits: {
      totalMs: Math.min(
        MAX_TIMER_MS,
        timeouts.totalMs ?? timeouts.connectMs + timeouts.headersMs + timeouts.bodyMs,
      ),
      maxBodyBytes: options.maxBodyBytes ?? CLIENT_DEFAULTS.maxBodyBytes,
    },
    readRetries: options.readRetries ?? CLIENT_DEFAULTS.readRetries,
    maxRetryWaitSeconds: Math.min(CLIENT_DEFAULTS.maxRetryWaitSeconds, maxRetryWaitMs / 1000),
  };
}

function validateOptions(options: GiftServiceClientOptions): void {
  validateBaseUrl(options.baseUrl);
  checkCredentials(credentialSource(options.credentials).current());
  const retries = options.readRetries ?? CLIENT_DEFAULTS.readRetries;
  if (!Number.isInteger(retries) || retries < 0 || retries > 2) {
    throw new GiftServiceConfigError("readRetries must be 0, 1 or 2");
  }
  const maxRetryWaitMs = options.maxRetryWaitMs ?? CLIENT_DEFAULTS.maxRetryWaitMs;
  if (!Number.isFinite(maxRetryWaitMs) || maxRetryWaitMs < 0) {
    throw new GiftServiceConfigError(
      "maxRetryWaitMs must be a finite number of milliseconds, 0 or more",
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

function validateBaseUrl(baseUrl: string): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new GiftServiceConfigError("baseUrl is not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new GiftServiceConfigError("baseUrl must be http or https");
  }
}

/** The per-request source of credentials: the one given, or a holder around fixed ones. */
function credentialSource(
  credentials: GiftServiceCredentials | CredentialSource,
): CredentialSource {
  return "current" in credentials && typeof credentials.current === "function"
    ? credentials
    : new CredentialHolder(credentials as GiftServiceCredentials);
}
