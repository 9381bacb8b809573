/**
 * The bot's configuration, as every other room sees it: nested, typed, validated once at
 * start. Nothing reads `process.env` after `loadConfig`, so a setting cannot be wrong later.
 *
 * The object holds secrets (token, mnemonic, cookie, keys): never log it whole. The logger
 * redacts a `config` field, and `configSummary` gives the facts that are safe to show.
 */
import type { PremiumVia } from "../gifts/catalogue.js";
import type { SpendingLimits } from "../ledger/types.js";
import type { PaymentMethod, WalletVersion } from "../service/types.js";

/** A wallet contract version we can derive an address for (what `auto` stands for: v5r1). */
export type ConcreteWalletVersion = Exclude<WalletVersion, "auto">;

type BotMode = "polling" | "webhook";

type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

interface TelegramConfig {
  /** Secret. */
  token: string;
  /** A local Bot API server (or the emulator); undefined means api.telegram.org. No trailing slash. */
  apiRoot: string | undefined;
}

interface ServiceConfig {
  /** The Gift Purchase Service, without a trailing slash. */
  baseUrl: string;
  /** Requests per minute the client allows itself (the service's limit is 30 per client IP). */
  quotaPerMinute: number;
  /** Longest time one request may take, in milliseconds. */
  timeoutMs: number;
  /** Secret: sent as `Api-Key` (a blockchain data provider's key, not service auth). */
  apiKey: string | undefined;
  /** Secret: sent as the `Proxy` header (the service's upstream proxy; may carry credentials). */
  proxy: string | undefined;
  /** Sent as `User-Agent` on wallet calls when set. */
  userAgent: string | undefined;
}

interface WalletConfig {
  /** Secret: the phrase with whitespace normalised to single spaces, lower case. */
  mnemonic: string;
  /** Secret: the whole marketplace `Cookie` header (contains `stel_ssid`). */
  cookie: string;
  /** As configured; this is what the client sends as `Wallet-Version`. */
  version: WalletVersion;
  /** The contract the address was derived for: `auto` means v5r1. */
  effectiveVersion: ConcreteWalletVersion;
  /** The paying wallet in user-facing form (non-bounceable, url-safe: `UQ...`), when known. */
  address: string | undefined;
  /**
   * derived: computed from a 24-word TON phrase (and WALLET_ADDRESS, if set, agrees);
   * configured: taken from WALLET_ADDRESS (12/18-word BIP39 phrases cannot be derived here);
   * unknown: a BIP39 phrase without WALLET_ADDRESS.
   */
  addressSource: "derived" | "configured" | "unknown";
  /**
   * WALLET_ADDRESS exactly as set, or undefined. Sent as `Wallet-Address` whenever set, also
   * when the address is derived: the operator asked for it, and for a 24-word phrase the
   * configuration has already refused an address that is not the derived one.
   */
  configuredAddress: string | undefined;
  /** Which family the phrase belongs to: a TON phrase (24 words) or a BIP39 one (12/18 words). */
  mnemonicScheme: "ton" | "bip39";
  /** What purchases pay with (the service's `payment_method`, docs/service-contract.md §3). */
  paymentMethod: PaymentMethod;
}

export interface AccessConfig {
  /** Telegram user ids of the operators; at least one. */
  adminIds: number[];
  /** Telegram user ids allowed to buy (admins can add more in the bot). */
  allowedUserIds: number[];
  /** Group chat ids (usually negative) whose administrators may gift premium. */
  allowedChatIds: number[];
  /** Anyone may buy, within the spending limits. */
  publicPurchases: boolean;
  /**
   * Who sees the operator's wallet balance on a summary (SHOW_BALANCE_TO): admins always;
   * `buyers`: every buyer too. Undefined: buyers while purchases are not public, admins only
   * once they are (see {@link balanceShownTo}).
   */
  showBalanceTo: "admins" | "buyers" | undefined;
  /**
   * Whom strangers are told to ask for access (ADMIN_CONTACT), e.g. `@shop_support` or a URL;
   * undefined: they are told to ask the bot's admins. Single line, at most 100 characters.
   */
  adminContact: string | undefined;
}

interface TonApiConfig {
  /** A toncenter-style JSON-RPC endpoint, for on-chain reconciliation evidence. */
  endpoint: string;
  /** Secret. */
  apiKey: string | undefined;
}

interface LedgerConfig {
  databasePath: string;
  /**
   * DATABASE_URL: PostgreSQL keeps everything instead of the SQLite file (several replicas).
   * A secret: it may hold the database's password.
   */
  databaseUrl: string | undefined;
  /** How long a summary waits for its confirmation before the draft expires. */
  draftTtlSeconds: number;
  limits: SpendingLimits;
  /** Set only when TON_API_ENDPOINT is. */
  tonApi: TonApiConfig | undefined;
}

export interface AlertsConfig {
  /** Admins are told when the wallet's TON balance falls below this (decimal string). */
  lowBalanceTon: string | undefined;
  lowBalanceUsdt: string | undefined;
  /** Admins are told when the bot's own Telegram Star balance falls below this (whole Stars). */
  lowBalanceStars?: number | undefined;
  /** Consecutive purchase refusals not about the input that pause purchases (the breaker). */
  breakerRefusals: number;
  /** How long reads must fail without a success before admins are told the service is down. */
  readOutageAlertSeconds: number;
}

/** Where a transaction link points unless TON_EXPLORER_URL says otherwise. */
export const DEFAULT_EXPLORER_URL = "https://tonviewer.com/transaction/";

export interface ReportsConfig {
  /** REPORT_HOUR_UTC: the hour (0-23) the daily report goes to the admins; unset: none. */
  reportHourUtc: number | undefined;
  /**
   * TON_EXPLORER_URL: a transaction link is this followed by the hash; undefined (`none`, as
   * the demo sets it) shows the bare hash, since sandbox purchases are on no real chain.
   */
  explorerUrl: string | undefined;
}

interface WebhookConfig {
  /** The public URL Telegram posts updates to. */
  url: string;
  /** Secret: Telegram's `X-Telegram-Bot-Api-Secret-Token`. */
  secret: string;
  /**
   * REPLICA_URL: where the other replicas reach this one's webhook server. While another
   * replica holds the sender lease, this one hands each update to it there (src/run/replicas.ts);
   * unset, a replica on standby answers Telegram 503 and Telegram sends the update again later.
   */
  replicaUrl: string | undefined;
}

export interface RunConfig {
  mode: BotMode;
  /** Where the webhook/health server listens. */
  host: string;
  port: number;
  /**
   * HEALTH_PORT: a server on `host` for /livez, /readyz, /healthz (and /metrics). Unset: none in
   * polling mode; in webhook mode the webhook server always answers those paths, and a
   * HEALTH_PORT equal to PORT means that server.
   */
  healthPort: number | undefined;
  /** METRICS_PORT: /metrics on its own server on `host`; metrics are off without it or a health server. */
  metricsPort: number | undefined;
  /** Present exactly when `mode` is webhook. */
  webhook: WebhookConfig | undefined;
  /** How long a shutdown waits for a purchase in flight before exiting anyway. */
  shutdownGraceSeconds: number;
  /**
   * How long the sender lease lasts without renewal (LEASE_SECONDS): after a crash, a process
   * on standby takes over within this time.
   */
  leaseSeconds: number;
  /**
   * How often each `NAME_FILE` secret file's status is read for a change (SECRET_POLL_SECONDS;
   * 0: never): what sees a compose secret overwritten in place on the host.
   */
  secretPollSeconds: number;
}

interface LogConfig {
  level: LogLevel;
  pretty: boolean;
}

/**
 * Fair share: what one person may cost the service and the bot (docs/operations.md "Fair share"). The
 * service allows 30 requests a minute for the whole bot, so one person's recipient checks are
 * limited per minute; a storm of updates is cut short; strangers get one answer per cooldown.
 */
export interface FairShareConfig {
  /** CHECKS_PER_USER_MINUTE: recipient checks one person may cause per minute. */
  checksPerUserMinute: number;
  /** CHECKS_EXEMPT_ADMINS: admins' checks are not limited per person. */
  checksExemptAdmins: boolean;
  /** UPDATES_PER_USER: updates one person may send per window before the rest are dropped. */
  updatesPerUser: number;
  /** UPDATES_WINDOW_SECONDS: that window. */
  updatesWindowSeconds: number;
  /** STRANGER_COOLDOWN_SECONDS: at most one answer per this long to a person without access; 0: every time. */
  strangerCooldownSeconds: number;
}

/** The fair-share defaults (docs/operations.md "Fair share"). */
export const FAIR_SHARE_DEFAULTS: Readonly<FairShareConfig> = {
  checksPerUserMinute: 5,
  checksExemptAdmins: true,
  updatesPerUser: 30,
  updatesWindowSeconds: 10,
  strangerCooldownSeconds: 30,
};

/** Giveaways: one admin's gift to many recipients (/giveaway). */
export interface GiveawayConfig {
  /** GIVEAWAY_MAX: recipients one giveaway may have at most. */
  maxRecipients: number;
}

/** The giveaway defaults. */
export const GIVEAWAY_DEFAULTS: Readonly<GiveawayConfig> = { maxRecipients: 200 };

export interface Config {
  telegram: TelegramConfig;
  service: ServiceConfig;
  wallet: WalletConfig;
  premium: PremiumConfig;
  access: AccessConfig;
  ledger: LedgerConfig;
  alerts: AlertsConfig;
  fairShare: FairShareConfig;
  giveaway: GiveawayConfig;
  reports: ReportsConfig;
  run: RunConfig;
  /** The admins' Mini App; undefined without ADMIN_APP_PORT (no app). */
  adminApp: AdminAppConfig | undefined;
  backups: BackupsConfig;
  log: LogConfig;
}

/** PREMIUM_VIA (src/gifts/catalogue.ts). */

interface PremiumConfig {
  via: PremiumVia;
}

/** The admins' Mini App (src/admin-app). */
interface AdminAppConfig {
  /** ADMIN_APP_PORT: where it listens on HOST. */
  port: number;
  /**
   * ADMIN_APP_URL: the public address Telegram opens (the menu button, /dashboard); undefined:
   * served, but not offered in Telegram.
   */
  url: string | undefined;
  /** ADMIN_APP_MAX_AGE_SECONDS: init data older than this is refused. */
  maxAgeSeconds: number;
}

/** Online backups of the database (see src/run/backups.ts). */
export interface BackupsConfig {
  /** BACKUP_INTERVAL_HOURS; 0: no scheduled backups. */
  intervalHours: number;
  /** BACKUP_DIR; default a `backups` folder beside the database. */
  dir: string;
  /** BACKUP_KEEP: how many backups are kept. */
  keep: number;
}

/**
 * Whether a person sees the wallet's balance on their summary: admins always; everyone else
 * as SHOW_BALANCE_TO says, or, when it is unset, only while purchases are not public (the
 * buyers are then people the operator chose; a public bot would show its funds to anyone).
 */
export function balanceShownTo(
  access: Pick<AccessConfig, "showBalanceTo" | "publicPurchases">,
  isAdmin: boolean,
): boolean {
  if (isAdmin) return true;
  return (access.showBalanceTo ?? (access.publicPurchases ? "admins" : "buyers")) === "buyers";
}
