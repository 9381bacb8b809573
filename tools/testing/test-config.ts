/**
 * A whole `Config` for tests and the bench, built in code rather than loaded from variables:
 * what `loadConfig` would produce for fake credentials, the defaults, and the few settings a
 * test names. The app is then built from it by the one composition root (`openApp`), exactly
 * as `main` builds the production bot.
 */
import { dirname, join } from "node:path";
import {
  type AccessConfig,
  type AlertsConfig,
  type Config,
  FAIR_SHARE_DEFAULTS,
  type FairShareConfig,
  GIVEAWAY_DEFAULTS,
  type GiveawayConfig,
  type ReportsConfig,
} from "../../src/config/index.js";
import { type BackupsConfig, DEFAULT_EXPLORER_URL } from "../../src/config/types.js";
import { DEFAULT_DRAFT_TTL_MS, DEFAULT_LIMITS } from "../../src/ledger/limits.js";
import type { SpendingLimits } from "../../src/ledger/types.js";
import type { PaymentMethod } from "../../src/service/types.js";

/** Fake credentials in the shapes the service expects; never real ones. */
export const TEST_CREDENTIALS = {
  mnemonic: Array.from({ length: 24 }, () => "abandon").join(" "),
  cookie: "stel_ssid=test-session-cookie",
};

export interface TestConfigOptions {
  /** The SQLite file. */
  databasePath: string;
  /** The Gift Purchase Service (the sandbox's URL). */
  serviceUrl: string;
  token?: string;
  cookie?: string;
  limits?: Partial<SpendingLimits>;
  draftTtlMs?: number;
  defaultPaymentMethod?: PaymentMethod;
  /** ADMIN_IDS, ALLOWED_USER_IDS, ALLOWED_CHAT_IDS, PUBLIC_PURCHASES, ADMIN_CONTACT. */
  access?: Partial<AccessConfig>;
  alerts?: Partial<AlertsConfig>;
  /** CHECKS_PER_USER_MINUTE and the other fair-share settings; default: {@link LIFTED_FAIR_SHARE}. */
  fairShare?: Partial<FairShareConfig>;
  /** GIVEAWAY_MAX (default 200). */
  giveaway?: Partial<GiveawayConfig>;
  /** REPORT_HOUR_UTC and TON_EXPLORER_URL (default: no report, the default explorer). */
  reports?: Partial<ReportsConfig>;
  /** Where and how often backups go (default: beside the database, none scheduled). */
  backups?: Partial<BackupsConfig>;
  /** The paying wallet shown to admins (WALLET_ADDRESS and its version). */
  wallet?: { address?: string | undefined; version?: "v5r1" | "v4r2" | "v3r2" };
  /** The admins' Mini App (ADMIN_APP_PORT, ADMIN_APP_URL); default: none. */
  adminApp?: Config["adminApp"];
  /** PREMIUM_VIA (default `service`). */
  premiumVia?: Config["premium"]["via"];
}

/**
 * The fair-share limits lifted: a test's clock does not move a minute on by itself (so one
 * person's sixth check in a test would be refused), and a fast machine sends a test's updates
 * faster than any person. Tests of the fair share itself pass FAIR_SHARE_DEFAULTS or their own.
 */
const LIFTED_FAIR_SHARE: FairShareConfig = {
  ...FAIR_SHARE_DEFAULTS,
  checksPerUserMinute: 1_000,
  updatesPerUser: 10_000,
  strangerCooldownSeconds: 0,
};

/**
 * Defaults: no admins, purchases open to everyone (PUBLIC_PURCHASES), the default limits and
 * draft lifetime, USDT payments, no balance alerts, long polling.
 */
export function testConfig(options: TestConfigOptions): Config {
  const wallet = options.wallet ?? {};
  return {
    telegram: { token: options.token ?? "123456:TEST-TOKEN-never-real", apiRoot: undefined },
    service: {
      baseUrl: options.serviceUrl,
      quotaPerMinute: 30,
      timeoutMs: 30_000,
      apiKey: undefined,
      proxy: undefined,
      userAgent: undefined,
    },
    wallet: {
      mnemonic: TEST_CREDENTIALS.mnemonic,
      cookie: options.cookie ?? TEST_CREDENTIALS.cookie,
      version: "auto",
      effectiveVersion: wallet.version ?? "v5r1",
      address: wallet.address,
      addressSource: wallet.address === undefined ? "unknown" : "configured",
      configuredAddress: undefined,
      mnemonicScheme: "ton",
      paymentMethod: options.defaultPaymentMethod ?? "usdt_ton",
    },
    premium: { via: options.premiumVia ?? "service" },
    access: {
      adminIds: [],
      allowedUserIds: [],
      allowedChatIds: [],
      publicPurchases: true,
      showBalanceTo: undefined,
      adminContact: undefined,
      ...options.access,
    },
    ledger: {
      databasePath: options.databasePath,
      databaseUrl: undefined,
      draftTtlSeconds: (options.draftTtlMs ?? DEFAULT_DRAFT_TTL_MS) / 1000,
      limits: { ...DEFAULT_LIMITS, ...options.limits },
      tonApi: undefined,
    },
    alerts: {
      lowBalanceTon: undefined,
      lowBalanceUsdt: undefined,
      breakerRefusals: 3,
      readOutageAlertSeconds: 120,
      ...options.alerts,
    },
    fairShare: { ...LIFTED_FAIR_SHARE, ...options.fairShare },
    giveaway: { ...GIVEAWAY_DEFAULTS, ...options.giveaway },
    reports: { reportHourUtc: undefined, explorerUrl: DEFAULT_EXPLORER_URL, ...options.reports },
    run: {
      mode: "polling",
      host: "127.0.0.1",
      port: 0,
      // No probe servers, so no metrics: prom-client stays unloaded in the harness.
      healthPort: undefined,
      metricsPort: undefined,
      webhook: undefined,
      shutdownGraceSeconds: 40,
      leaseSeconds: 30,
      secretPollSeconds: 0,
    },
    adminApp: options.adminApp,
    backups: {
      intervalHours: 0,
      dir: join(dirname(options.databasePath), "backups"),
      keep: 14,
      ...options.backups,
    },
    log: { level: "silent", pretty: false },
  };
}
