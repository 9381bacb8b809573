/**
 * The one schema of the bot's settings. It reads flat environment strings and produces the
 * nested `Config`; each field checks itself (so one parse names every bad variable), and the
 * few rules that tie variables together run as refinements that need only those variables.
 *
 * Messages say why a value is wrong and never repeat a secret's value.
 */
import { dirname, join } from "node:path";
import { z } from "zod";
import { DEFAULT_LIMITS } from "../ledger/limits.js";
import { DEFAULT_BREAKER_REFUSALS } from "../purchases/breaker.js";
import { DEFAULT_READ_OUTAGE_ALERT_SECONDS } from "../purchases/read-health.js";
import type { SpendingLimits } from "../ledger/types.js";
import { hasCredentials } from "../shared/url-credentials.js";
import {
  type Config,
  DEFAULT_EXPLORER_URL,
  FAIR_SHARE_DEFAULTS,
  GIVEAWAY_DEFAULTS,
} from "./types.js";
import {
  deriveWalletAddress,
  effectiveWalletVersion,
  parseWalletAddress,
  userFacingAddress,
} from "./wallet.js";
import {
  required,
  singleLine,
  headerSafe,
  integer,
  boolean,
  isHttpUrl,
  isAppUrl,
  httpUrl,
  idList,
  hasStelSsid,
  decimal,
  mnemonic,
} from "./values.js";

/** Variables that may come from `NAME_FILE` instead of `NAME` (container secrets). */
export const SECRET_VARIABLES = [
  "BOT_TOKEN",
  "WALLET_MNEMONIC",
  "MARKETPLACE_COOKIE",
  "PROVIDER_API_KEY",
  "UPSTREAM_PROXY",
  "TON_API_KEY",
  "WEBHOOK_SECRET",
  "DATABASE_URL",
] as const;

const fields = {
  // Telegram
  BOT_TOKEN: required("the bot's token from @BotFather (digits:characters)").regex(
    /^\d+:[A-Za-z0-9_-]+$/,
    "does not look like a bot token (digits, a colon, then letters, digits, _ or -)",
  ),
  TELEGRAM_API_ROOT: httpUrl().optional(),

  // The Gift Purchase Service
  GIFT_API_BASE_URL: httpUrl(required("the Gift Purchase Service's base URL")),
  SERVICE_QUOTA_PER_MINUTE: integer(1, 1000).default(30),
  SERVICE_TIMEOUT_MS: integer(1000, 600_000).default(30_000),

  // The paying wallet and the marketplace session
  WALLET_MNEMONIC: mnemonic,
  MARKETPLACE_COOKIE: headerSafe(
    singleLine(required("the whole marketplace Cookie header, containing stel_ssid=...")),
  ).refine(hasStelSsid, "must be the whole Cookie header and contain a stel_ssid=... cookie"),
  WALLET_VERSION: z
    .enum(["auto", "v5r1", "v4r2", "v3r2"], { error: () => "must be auto, v5r1, v4r2 or v3r2" })
    .default("auto"),
  WALLET_ADDRESS: z
    .string()
    .refine((value) => parseWalletAddress(value) !== undefined, "is not a TON address")
    .optional(),
  PROVIDER_API_KEY: headerSafe(singleLine(z.string())).optional(),
  UPSTREAM_PROXY: headerSafe(singleLine(z.string())).optional(),
  UPSTREAM_USER_AGENT: headerSafe(singleLine(z.string())).optional(),
  PAYMENT_METHOD: z
    .enum(["usdt_ton", "ton"], { error: () => "must be usdt_ton or ton" })
    .default("usdt_ton"),
  // How Premium is paid: the service (the wallet), or the bot's own Stars (docs/telegram-premium.md).
  PREMIUM_VIA: z
    .enum(["service", "telegram", "telegram-first"], {
      error: () => "must be service, telegram or telegram-first",
    })
    .default("service"),

  // People
  ADMIN_IDS: idList(
    "user",
    required("comma-separated Telegram user ids of the bot's admins"),
  ).refine((ids) => ids.length > 0, "must list at least one Telegram user id"),
  ALLOWED_USER_IDS: idList("user").default([]),
  ALLOWED_CHAT_IDS: idList("chat").default([]),
  PUBLIC_PURCHASES: boolean.default(false),
  // Unset: buyers while purchases are not public, admins only once they are (docs/operations.md).
  SHOW_BALANCE_TO: z
    .enum(["admins", "buyers"], { error: () => "must be admins or buyers" })
    .optional(),
  // Shown to strangers in a chat message, so it is short and on one line.
  ADMIN_CONTACT: singleLine(z.string().max(100, "must be at most 100 characters")).optional(),

  // The ledger and its spending limits
  DATABASE_PATH: z.string().default("./data/giftbot.sqlite"),
  // Set: PostgreSQL keeps everything (several replicas); unset: the SQLite file above.
  DATABASE_URL: singleLine(z.string())
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DRAFT_TTL_SECONDS: integer(30, 86_400).default(600),
  // One source for the defaults: the ledger's own (src/ledger/limits.ts).
  LIMIT_STARS_PER_PURCHASE: integer(50, 1_000_000).default(DEFAULT_LIMITS.starsPerPurchase),
  LIMIT_STARS_PER_USER_DAY: integer(0, 1_000_000_000).default(DEFAULT_LIMITS.starsPerUserDay),
  LIMIT_STARS_PER_DAY: integer(0, 1_000_000_000).default(DEFAULT_LIMITS.starsPerBotDay),
  LIMIT_PREMIUM_PER_USER_DAY: integer(0, 1_000_000).default(DEFAULT_LIMITS.premiumPerUserDay),
  LIMIT_PREMIUM_PER_DAY: integer(0, 1_000_000).default(DEFAULT_LIMITS.premiumPerBotDay),
  LIMITS_EXEMPT_ADMINS: boolean.default(DEFAULT_LIMITS.adminsExempt),
  TON_API_ENDPOINT: httpUrl().optional(),
  TON_API_KEY: singleLine(z.string()).optional(),

  // Fair share of the service's quota and of the bot's attention (docs/operations.md "Fair share")
  CHECKS_PER_USER_MINUTE: integer(1, 1_000).default(FAIR_SHARE_DEFAULTS.checksPerUserMinute),
  CHECKS_EXEMPT_ADMINS: boolean.default(FAIR_SHARE_DEFAULTS.checksExemptAdmins),
  UPDATES_PER_USER: integer(1, 10_000).default(FAIR_SHARE_DEFAULTS.updatesPerUser),
  UPDATES_WINDOW_SECONDS: integer(1, 3_600).default(FAIR_SHARE_DEFAULTS.updatesWindowSeconds),
  STRANGER_COOLDOWN_SECONDS: integer(0, 86_400).default(
    FAIR_SHARE_DEFAULTS.strangerCooldownSeconds,
  ),

  // Giveaways (/giveaway): recipients in one giveaway at most
  GIVEAWAY_MAX: integer(1, 1_000).default(GIVEAWAY_DEFAULTS.maxRecipients),

  // Alerts
  LOW_BALANCE_TON: decimal.optional(),
  LOW_BALANCE_USDT: decimal.optional(),
  LOW_BALANCE_STARS: integer(0, 100_000_000).optional(),
  // The purchase circuit breaker and the read-outage alert (src/purchases/breaker.ts, read-health.ts).
  BREAKER_REFUSALS: integer(1, 100).default(DEFAULT_BREAKER_REFUSALS),
  READ_OUTAGE_ALERT_SECONDS: integer(10, 86_400).default(DEFAULT_READ_OUTAGE_ALERT_SECONDS),

  // Costs and reports
  REPORT_HOUR_UTC: integer(0, 23).optional(),
  TON_EXPLORER_URL: z
    .string()
    .refine((value) => value === "none" || isHttpUrl(value), "must be an http(s):// URL or none")
    .default(DEFAULT_EXPLORER_URL),

  // Running
  BOT_MODE: z
    .enum(["polling", "webhook"], { error: () => "must be polling or webhook" })
    .default("polling"),
  HOST: z.string().default("127.0.0.1"),
  PORT: integer(0, 65_535).default(8080),
  HEALTH_PORT: integer(0, 65_535).optional(),
  METRICS_PORT: integer(0, 65_535).optional(),
  WEBHOOK_URL: httpUrl().optional(),
  // Where the other replicas reach this one's webhook server (several replicas, one URL).
  // The other replicas post Telegram's updates to it with the webhook secret: they send no
  // `user:password@` (fetch refuses such a URL) and a URL is logged, so none is taken here.
  REPLICA_URL: httpUrl(
    z
      .string()
      .refine(
        (value) => !hasCredentials(value),
        "must not carry a user name or password (user:password@): the other replicas post to it without them; keep the replicas' port on a private network instead",
      ),
  ).optional(),
  WEBHOOK_SECRET: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{1,256}$/,
      "must be 1-256 characters of A-Z, a-z, 0-9, _ and - (Telegram's rule)",
    )
    .optional(),
  // The admins' Mini App (src/admin-app): where it listens on HOST, the public address Telegram
  // opens (https; plain http only on this machine, for the demo), and how old a session may be.
  ADMIN_APP_PORT: integer(0, 65_535).optional(),
  ADMIN_APP_URL: httpUrl(
    z
      .string()
      .refine(
        isAppUrl,
        "must be an https:// URL (Telegram opens Mini Apps over https only; http:// only on 127.0.0.1 or localhost)",
      ),
  ).optional(),
  ADMIN_APP_MAX_AGE_SECONDS: integer(60, 604_800).default(3600),
  SHUTDOWN_GRACE_SECONDS: integer(1, 3600).default(40),
  LEASE_SECONDS: integer(2, 600).default(30),
  SECRET_POLL_SECONDS: integer(0, 3600).default(2),
  BACKUP_INTERVAL_HOURS: integer(0, 8760).default(24),
  BACKUP_DIR: singleLine(z.string()).optional(),
  BACKUP_KEEP: integer(1, 1000).default(14),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      error: () => "must be fatal, error, warn, info, debug, trace or silent",
    })
    .default("info"),
  LOG_PRETTY: boolean.default(false),
};

/** Every variable the schema reads, in the order problems are reported. */
export const VARIABLES = Object.keys(fields) as (keyof typeof fields)[];

/**
 * A cross-variable rule runs even when other variables are bad (so one start lists every
 * problem), but only when the variables it reads parsed cleanly.
 */
function whenClean(...names: string[]): z.core.$ZodSuperRefineParams {
  return {
    when: (payload) => !payload.issues.some((issue) => names.includes(String(issue.path?.[0]))),
  };
}

/** Each variable's own schema (its default, its range), before the checks across variables. */
export const configFields = fields;

/** The whole schema: flat environment strings in, `Config` out. Parse it with `parseAsync`. */
export const configSchema = z
  .object(fields)
  .superRefine(
    (env, ctx) => {
      if (env.BOT_MODE === "webhook" && env.WEBHOOK_URL === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["WEBHOOK_URL"],
          message: "is required when BOT_MODE=webhook: the public https URL Telegram posts to",
        });
      }
    },
    whenClean("BOT_MODE", "WEBHOOK_URL"),
  )
  .superRefine(
    (env, ctx) => {
      // A purchase in flight at a stop is waited for: the grace must cover its longest answer.
      if (env.SERVICE_TIMEOUT_MS > env.SHUTDOWN_GRACE_SECONDS * 1000) {
        ctx.addIssue({
          code: "custom",
          path: ["SHUTDOWN_GRACE_SECONDS"],
          message:
            `must be at least SERVICE_TIMEOUT_MS (${env.SERVICE_TIMEOUT_MS} ms): a stop waits for ` +
            "the purchase in flight, and one cut short would end with an unknown outcome",
        });
      }
    },
    whenClean("SERVICE_TIMEOUT_MS", "SHUTDOWN_GRACE_SECONDS"),
  )
  .superRefine(
    (env, ctx) => {
      if (env.BOT_MODE === "webhook" && env.WEBHOOK_SECRET === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["WEBHOOK_SECRET"],
          message: "is required when BOT_MODE=webhook: 1-256 characters of A-Z, a-z, 0-9, _ and -",
        });
      }
    },
    whenClean("BOT_MODE", "WEBHOOK_SECRET"),
  )
  .superRefine(
    (env, ctx) => {
      // Replicas hand Telegram's posts to each other: without webhooks there is nothing to hand.
      if (env.REPLICA_URL !== undefined && env.BOT_MODE !== "webhook") {
        ctx.addIssue({
          code: "custom",
          path: ["REPLICA_URL"],
          message:
            "is only for BOT_MODE=webhook (in polling mode only the lease holder polls; unset it)",
        });
      }
    },
    whenClean("BOT_MODE", "REPLICA_URL"),
  )
  .superRefine(
    (env, ctx) => {
      if (env.ADMIN_APP_URL !== undefined && env.ADMIN_APP_PORT === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["ADMIN_APP_URL"],
          message:
            "needs ADMIN_APP_PORT: the port on HOST where the bot serves the admin app, behind that URL",
        });
      }
    },
    whenClean("ADMIN_APP_URL", "ADMIN_APP_PORT"),
  )
  .superRefine(
    (env, ctx) => {
      if (env.WALLET_ADDRESS === undefined || env.WALLET_MNEMONIC.scheme !== "ton") return;
      const version = effectiveWalletVersion(env.WALLET_VERSION);
      const derived = deriveWalletAddress(env.WALLET_MNEMONIC.publicKey, version);
      const configured = parseWalletAddress(env.WALLET_ADDRESS);
      if (configured && !configured.equals(derived)) {
        ctx.addIssue({
          code: "custom",
          path: ["WALLET_ADDRESS"],
          message:
            `is not the ${version} wallet of WALLET_MNEMONIC (that is ${userFacingAddress(derived)}); ` +
            "purchases would pay from another wallet than the one shown (fix WALLET_VERSION or remove WALLET_ADDRESS)",
        });
      }
    },
    whenClean("WALLET_MNEMONIC", "WALLET_VERSION", "WALLET_ADDRESS"),
  )
  .transform((env): Config => ({
    telegram: { token: env.BOT_TOKEN, apiRoot: env.TELEGRAM_API_ROOT },
    service: {
      baseUrl: env.GIFT_API_BASE_URL,
      quotaPerMinute: env.SERVICE_QUOTA_PER_MINUTE,
      timeoutMs: env.SERVICE_TIMEOUT_MS,
      apiKey: env.PROVIDER_API_KEY,
      proxy: env.UPSTREAM_PROXY,
      userAgent: env.UPSTREAM_USER_AGENT,
    },
    wallet: walletOf(env),
    premium: { via: env.PREMIUM_VIA },
    access: {
      adminIds: env.ADMIN_IDS,
      allowedUserIds: env.ALLOWED_USER_IDS,
      allowedChatIds: env.ALLOWED_CHAT_IDS,
      publicPurchases: env.PUBLIC_PURCHASES,
      showBalanceTo: env.SHOW_BALANCE_TO,
      adminContact: env.ADMIN_CONTACT,
    },
    ledger: ledgerOf(env),
    alerts: {
      lowBalanceTon: env.LOW_BALANCE_TON,
      lowBalanceUsdt: env.LOW_BALANCE_USDT,
      lowBalanceStars: env.LOW_BALANCE_STARS,
      breakerRefusals: env.BREAKER_REFUSALS,
      readOutageAlertSeconds: env.READ_OUTAGE_ALERT_SECONDS,
    },
    fairShare: {
      checksPerUserMinute: env.CHECKS_PER_USER_MINUTE,
      checksExemptAdmins: env.CHECKS_EXEMPT_ADMINS,
      updatesPerUser: env.UPDATES_PER_USER,
      updatesWindowSeconds: env.UPDATES_WINDOW_SECONDS,
      strangerCooldownSeconds: env.STRANGER_COOLDOWN_SECONDS,
    },
    giveaway: { maxRecipients: env.GIVEAWAY_MAX },
    reports: {
      reportHourUtc: env.REPORT_HOUR_UTC,
      explorerUrl: env.TON_EXPLORER_URL === "none" ? undefined : env.TON_EXPLORER_URL,
    },
    run: runOf(env),
    adminApp:
      env.ADMIN_APP_PORT === undefined
        ? undefined
        : {
            port: env.ADMIN_APP_PORT,
            url: env.ADMIN_APP_URL,
            maxAgeSeconds: env.ADMIN_APP_MAX_AGE_SECONDS,
          },
    backups: {
      intervalHours: env.BACKUP_INTERVAL_HOURS,
      dir: env.BACKUP_DIR ?? join(dirname(env.DATABASE_PATH), "backups"),
      keep: env.BACKUP_KEEP,
    },
    log: { level: env.LOG_LEVEL, pretty: env.LOG_PRETTY },
  }));

/** The variables as the schema's fields parsed them, before they become a {@link Config}. */
type Env = z.output<z.ZodObject<typeof fields>>;

/** The paying wallet: the mnemonic's words, the version, and the address purchases pay from. */
function walletOf(env: Env): Config["wallet"] {
  const effectiveVersion = effectiveWalletVersion(env.WALLET_VERSION);
  const phrase = env.WALLET_MNEMONIC;
  const configured =
    env.WALLET_ADDRESS === undefined ? undefined : parseWalletAddress(env.WALLET_ADDRESS);
  const address =
    phrase.scheme === "ton"
      ? userFacingAddress(deriveWalletAddress(phrase.publicKey, effectiveVersion))
      : configured && userFacingAddress(configured);
  return {
    mnemonic: phrase.words.join(" "),
    cookie: env.MARKETPLACE_COOKIE,
    version: env.WALLET_VERSION,
    effectiveVersion,
    address,
    addressSource:
      phrase.scheme === "ton" ? "derived" : address === undefined ? "unknown" : "configured",
    configuredAddress: env.WALLET_ADDRESS,
    mnemonicScheme: phrase.scheme,
    paymentMethod: env.PAYMENT_METHOD,
  };
}

/** Where purchases are kept, the spending limits the claim checks, and the chain's API. */
function ledgerOf(env: Env): Config["ledger"] {
  const limits: SpendingLimits = {
    starsPerPurchase: env.LIMIT_STARS_PER_PURCHASE,
    starsPerUserDay: env.LIMIT_STARS_PER_USER_DAY,
    starsPerBotDay: env.LIMIT_STARS_PER_DAY,
    premiumPerUserDay: env.LIMIT_PREMIUM_PER_USER_DAY,
    premiumPerBotDay: env.LIMIT_PREMIUM_PER_DAY,
    adminsExempt: env.LIMITS_EXEMPT_ADMINS,
  };
  return {
    databasePath: env.DATABASE_PATH,
    databaseUrl: env.DATABASE_URL,
    draftTtlSeconds: env.DRAFT_TTL_SECONDS,
    limits,
    tonApi:
      env.TON_API_ENDPOINT === undefined
        ? undefined
        : { endpoint: env.TON_API_ENDPOINT, apiKey: env.TON_API_KEY },
  };
}

/** How the process runs: polling or webhook, its ports, and its stop and lease timings. */
function runOf(env: Env): Config["run"] {
  return {
    mode: env.BOT_MODE,
    host: env.HOST,
    port: env.PORT,
    healthPort: env.HEALTH_PORT,
    metricsPort: env.METRICS_PORT,
    webhook:
      env.BOT_MODE === "webhook" && env.WEBHOOK_URL && env.WEBHOOK_SECRET
        ? { url: env.WEBHOOK_URL, secret: env.WEBHOOK_SECRET, replicaUrl: env.REPLICA_URL }
        : undefined,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    leaseSeconds: env.LEASE_SECONDS,
    secretPollSeconds: env.SECRET_POLL_SECONDS,
  };
}
