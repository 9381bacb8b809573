/**
 * The composition root: every part of the bot is built here from the validated Config, and
 * nowhere else. Rooms stay unaware of each other's construction (the bot gets a desk, the desk
 * a client and a ledger), and a test can build the whole thing from a Config just as `main` does.
 *
 * Lifecycle: `openApp` (./open.ts) opens the store and `buildApp` builds on it (no network), `start` opens the probes (in webhook mode the
 * webhook server, answering Telegram 503 until the end of the start), talks to Telegram,
 * recovers what an earlier run left and starts taking updates, and `stop` winds down in this
 * order:
 * 0. readiness goes false (an orchestrator stops sending work) and a start still connecting
 *    gives up;
 * 1. stop taking updates;
 * 2. stop purchases in the client: one still waiting for the service's quota (or behind a 429
 *    hold) is cancelled as never sent, and recorded so (the person is told "Not sent... nothing
 *    was spent"), as is any later one; waiting for its turn could outlast the grace period;
 * 3. wait for the updates being handled: a purchase already in flight is answered and recorded;
 * 4. wait for the admin messages those started (an unconfirmed purchase's evidence re-reads the
 *    balance and the recipient, and the low-balance check reads the balance: reads still work);
 * 5. try once more to write any outcome the database refused (one still refused stays `sending`,
 *    and the next start recovers it as unconfirmed), then close the client and the database.
 * 6. close the probe servers (they report the shutdown until then).
 *
 * Observability (src/run, src/metrics): /livez, /readyz, /healthz and /metrics on HEALTH_PORT
 * and METRICS_PORT (and on the webhook server); the metrics are fed from events and seams the
 * rooms already have (see src/metrics/instrument.ts).
 */
import { autoRetry } from "@grammyjs/auto-retry";
import { type RunnerHandle, run } from "@grammyjs/runner";
import type { ApiClientOptions, Bot } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import { AccessList } from "../access/access-list.js";
import {
  type BotContext,
  createBot,
  type GiftBot,
  type GiveawaySending,
  type PurchaseGate,
} from "../bot/index.js";
import type { AdminMessageRetry, AdminNotifier } from "../bot/admin-notifications/index.js";
import type { BotServices } from "../bot/services.js";
import type { Config } from "../config/index.js";
import { configSummary, serviceCredentials } from "../config/index.js";
import type { PurchaseAccounts } from "../ledger/accounts.js";
import type { PurchaseIntent, PurchaseLedger } from "../ledger/types.js";
import { createLogger, type Logger } from "../shared/logger.js";
import { BackupSchedule } from "../run/backups.js";
import { watchDatabaseFile } from "../run/database-file-watch.js";
import { REPLICA_URLS_NAMESPACE, ReplicaDirectory, updateForwarder } from "../run/replicas.js";
import { instrumentClient } from "../metrics/instrument.js";
import type { BotMetrics } from "../metrics/metrics.js";
import { createPurchaseDesk } from "../purchases/desk.js";
import { GiveawayRunner } from "../purchases/giveaway-runner.js";
import type { GiveawayBatches } from "../ledger/giveaways.js";
import { createPurchaseRecords, type PurchaseRecords } from "../purchases/records.js";
import { createTonEvidence } from "../purchases/on-chain.js";
import type { PurchaseDesk } from "../purchases/types.js";
import {
  type HealthReport,
  healthReport,
  monitorService,
  type ServiceMonitor,
} from "../run/health.js";
import { connectToTelegram } from "../run/connect.js";
import type { ProbeHandler } from "../run/probes.js";
import { startWebhookServer, type WebhookServer } from "../run/webhook-server.js";
import { createGiftServiceClient, CredentialHolder } from "../service/client.js";
import type { GiftServiceClientWithQuota, QuotaSnapshot, ReadOutcome } from "../service/types.js";
import { BreakerGuard } from "../purchases/breaker-guard.js";
import type { Storage } from "../storage/types.js";
import { trackUpdates, type UpdateTracker } from "./in-flight.js";
import { AppLease } from "./lease.js";
import { startAdminAppOf } from "./admin-app.js";
import type { AdminAppServer } from "../admin-app/server.js";
import { Observability } from "./observability.js";
import { ReadOutageWatch } from "./read-outage.js";
import { tellQueuedOutcomes, tellRequestersOutcomeUnknown, tellRestore } from "./recovered.js";

/** How often drafts past their expiry are marked expired. */
const EXPIRE_DRAFTS_EVERY_MS = 60_000;

/** How long a stop waits for costs still being looked up on chain (evidence only). */
const COSTS_WAIT_AT_STOP_MS = 5_000;

/** Outgoing Telegram calls: retry 429 and 5xx a few times, never wait longer than a minute. */
const TELEGRAM_RETRY = { maxRetryAttempts: 3, maxDelaySeconds: 60 } as const;

/**
 * What a test or the bench may replace in the app that `main` builds from the Config alone.
 * Everything else comes from the Config, so a test builds exactly the production bot.
 */
export interface AppOverrides {
  /** Replaces the logger built from the config (tests capture lines with it). */
  logger?: Logger;
  /**
   * Called when the bot can no longer take updates (long polling ended with an error Telegram
   * will not recover from, e.g. a revoked token or another instance polling): `main` stops and
   * exits non-zero so a supervisor restarts it.
   */
  onFatal?: (error: unknown) => void;
  /**
   * Telegram reached in-process: grammY's fetch (the one interception point) and getMe's
   * answer. `autoRetry: false` leaves out the retries of 429, 5xx and network failures, so a
   * test's fake Telegram is asked exactly once per call (default true, as in production).
   */
  telegram?: { fetch?: ApiClientOptions["fetch"]; botInfo?: UserFromGetMe; autoRetry?: boolean };
  /** One clock for the ledger, the desk and the bot (tests move time by hand). */
  clock?: () => number;
  /** The client's shared quota, when its window is not a minute (the bench shortens it). */
  quota?: { limit: number; windowMs: number };
  /** Retries of a rate-limited read (default 2). */
  readRetries?: number;
  /** How long the desk reuses a recipient check and a balance read (the bench scales them). */
  cacheMs?: { recipient?: number; balance?: number };
  /**
   * The window of CHECKS_PER_USER_MINUTE when the service's quota window is not a minute
   * (the bench shortens both by the same factor).
   */
  checkWindowMs?: number;
  /** Replaces the access gate: who may start and confirm purchases (a test's own rule). */
  purchaseGate?: PurchaseGate;
  /** How admin messages Telegram did not take are sent again (tests shorten the pauses). */
  adminMessageRetry?: AdminMessageRetry;
  /** Opens the SQLite file at the configured path (tests reach its connection). */
  openStorage?: (path: string) => Promise<Storage>;
  /** A store already open (a test's own); the app closes it at its stop. */
  storage?: Storage;
}

/** The running bot's parts, for `main`, the health endpoint and tests. */
export interface App {
  readonly config: Config;
  readonly logger: Logger;
  /** What the process keeps (SQLite, or PostgreSQL with DATABASE_URL); closed by `stop`. */
  readonly storage: Storage;
  readonly ledger: PurchaseLedger;
  readonly desk: PurchaseDesk;
  /** The ledger, read-only (what the bot's history and admin lists read). */
  readonly records: PurchaseRecords;
  readonly access: AccessList;
  readonly bot: Bot<BotContext>;
  readonly services: BotServices;
  /** Admin messages that answer no update; `notifier.idle()` waits for those started. */
  readonly notifier: AdminNotifier;
  /** Giveaways being sent and shown (`runner.idle()`, then `idle()`, wait for them: tests). */
  readonly giveaways: GiveawaySending;
  readonly service: ServiceMonitor;
  readonly updates: UpdateTracker;
  /** The Telegram watch, readiness, the probe servers and (when on) the metrics. */
  readonly observability: Observability;
  /** The webhook server once started in webhook mode. */
  readonly webhookServer: WebhookServer | undefined;
  health(): Promise<HealthReport>;
  /**
   * Takes on reloaded settings (see RELOADABLE_VARIABLES): credentials from the next service
   * request on, configured buyers and groups, limits, low-balance alerts.
   */
  applySettings(config: Config): void;
  /** Deletes expired group prompts and short replies (start runs it every minute). */
  sweepGroups(): Promise<number>;
  /**
   * Sends the daily report to every admin who has not had the one due yet (REPORT_HOUR_UTC;
   * start runs it at once and every minute). Resolves to how many were sent.
   */
  sendDueReports(): Promise<number>;
  /** Tells the admins what a restore from a backup stopped, once (start runs it). */
  announceRestore(): Promise<void>;
  /** Connects to Telegram, recovers interrupted purchases, then takes updates. */
  start(): Promise<void>;
  /**
   * Stops taking updates and purchases not yet sent, waits for the updates in flight and the
   * admin messages they started, then closes the client and the database. Idempotent.
   */
  stop(): Promise<void>;
}

/**
 * Whether a request now would take no one's turn: nothing queued, no hold after a 429/503, and
 * at most half the window's slots used (what is left stays for people arriving meanwhile).
 * The desk reads the balance after a purchase only then, so that read adds no wait to anyone
 * and no request when the quota is in demand.
 */
export function quotaIsIdle(snapshot: QuotaSnapshot): boolean {
  const queued = Object.values(snapshot.queued).reduce((sum, n) => sum + n, 0);
  return queued === 0 && snapshot.heldForMs === 0 && snapshot.usedSlots * 2 < snapshot.limit;
}

/**
 * The service client, watched for the health report, with the config's quota and timeouts, and
 * whether its quota is idle now ({@link quotaIsIdle}), and its read-only snapshot (for the
 * admins' status); with metrics, its exchanges and the balances it reads are counted. `client`
 * is the same client with its quota's read-only view (for the metrics).
 */
function createService(
  config: Config,
  overrides: AppOverrides,
  parts: {
    logger: Logger;
    credentials: CredentialHolder;
    onRead: (outcome: ReadOutcome<unknown>) => void;
    metrics: BotMetrics | undefined;
  },
): {
  monitor: ServiceMonitor;
  quotaIdle: () => boolean;
  quotaSnapshot: () => QuotaSnapshot;
  client: GiftServiceClientWithQuota;
} {
  const { logger, metrics } = parts;
  const timeoutMs = config.service.timeoutMs;
  const client = createGiftServiceClient({
    baseUrl: config.service.baseUrl,
    // Read per request: credentials rotated by a reload apply to the next request.
    credentials: parts.credentials,
    quota: overrides.quota ?? { limit: config.service.quotaPerMinute, windowMs: 60_000 },
    ...(overrides.readRetries !== undefined ? { readRetries: overrides.readRetries } : {}),
    // SERVICE_TIMEOUT_MS bounds the whole request; its phases cannot take longer either.
    timeouts: {
      connectMs: Math.min(10_000, timeoutMs),
      headersMs: timeoutMs,
      bodyMs: timeoutMs,
      totalMs: timeoutMs,
    },
    logger,
    ...(metrics ? { onExchange: (e) => metrics.serviceExchange(e.operation, e.status, e.ms) } : {}),
  });
  const counted = metrics ? instrumentClient(client, metrics) : client;
  return {
    monitor: monitorService(counted, Date.now, parts.onRead),
    quotaIdle: () => quotaIsIdle(client.quotaSnapshot()),
    client: counted,
    quotaSnapshot: () => client.quotaSnapshot(5),
  };
}

/** The desk on the ledger and the client, with on-chain evidence when TON_API_ENDPOINT is set. */
function createDesk(
  config: Config,
  overrides: AppOverrides,
  parts: {
    ledger: PurchaseLedger;
    service: ServiceMonitor;
    quotaIdle: () => boolean;
    quotaSnapshot: () => QuotaSnapshot;
    logger: Logger;
    /** TON_API_KEY as the running settings have it now (reloadable). */
    tonApiKey: () => string | undefined;
    accounts: PurchaseAccounts;
    mayLeave: () => boolean;
  },
): PurchaseDesk {
  const tonApi = config.ledger.tonApi;
  const { cacheMs } = overrides;
  return createPurchaseDesk({
    ledger: parts.ledger,
    client: parts.service.client,
    accounts: parts.accounts,
    quotaIdle: parts.quotaIdle,
    logger: parts.logger,
    quotaSnapshot: parts.quotaSnapshot,
    mayLeave: parts.mayLeave,
    checksPerUserMinute: config.fairShare.checksPerUserMinute,
    checksExemptAdmins: config.fairShare.checksExemptAdmins,
    ...(overrides.checkWindowMs !== undefined ? { checkWindowMs: overrides.checkWindowMs } : {}),
    ...(overrides.clock !== undefined ? { clock: overrides.clock } : {}),
    ...(cacheMs?.recipient !== undefined ? { recipientCacheMs: cacheMs.recipient } : {}),
    ...(cacheMs?.balance !== undefined ? { balanceCacheMs: cacheMs.balance } : {}),
    ...(tonApi && config.wallet.address
      ? {
          onChain: createTonEvidence({
            endpoint: tonApi.endpoint,
            walletAddress: config.wallet.address,
            apiKey: parts.tonApiKey,
          }),
        }
      : {}),
  });
}

/**
 * Outgoing Telegram calls of the outer API: watched (reachability, errors; see
 * Observability.watchBot), then (unless a test turns them off) retries of 429 and 5xx.
 */
function configureTelegramCalls(
  bot: Bot<BotContext>,
  observability: Observability,
  retry: boolean,
): void {
  // On the outer API only: every context's API inherits it; inside conversations a retry
  // would sleep again on every replay (stack facts).
  // The runner is silenced (it would print the raw error, whose inner fetch error holds the
  // URL with the bot token): failed connection calls are logged by the Telegram watch instead
  // (their cause only, at most once a minute). Installed first, so it sits inside auto-retry
  // and sees every attempt.
  observability.watchBot(bot);
  if (retry) bot.api.config.use(autoRetry(TELEGRAM_RETRY));
}

/**
 * The breaker on the purchase path: pauses purchases after refusals, one admin message each;
 * each opening is kept in the books for the daily report.
 */
function guardPurchases(parts: {
  desk: PurchaseDesk;
  records: PurchaseRecords;
  ledger: PurchaseLedger;
  accounts: PurchaseAccounts;
  notifier: AdminNotifier;
  logger: Logger;
  threshold: number;
}): void {
  const breaker = new BreakerGuard({
    desk: parts.desk,
    records: parts.records,
    threshold: parts.threshold,
    clock: () => parts.ledger.now(),
    logger: parts.logger,
  });
  breaker.listen();
  breaker.onOpened((opening) => {
    parts.notifier.breakerOpened(opening);
    void (async () => parts.accounts.recordBreakerOpening(opening.at, opening.cause))().catch(
      (err: unknown) => parts.logger.warn({ err }, "could not record the breaker's opening"),
    );
  });
}

/** Takes reloaded settings on: credentials for the next request, allow lists, limits, alerts. */
function applyReloaded(
  next: Config,
  parts: {
    credentials: CredentialHolder;
    access: AccessList;
    desk: PurchaseDesk;
    notifier: AdminNotifier;
  },
): void {
  parts.credentials.replace(serviceCredentials(next));
  parts.access.updateConfigured({
    allowedUserIds: next.access.allowedUserIds,
    allowedChatIds: next.access.allowedChatIds,
    publicPurchases: next.access.publicPurchases,
  });
  parts.desk.setLimits(next.ledger.limits);
  parts.notifier.setAlerts(next.alerts);
}

/** The bot on the app's parts, with the config's settings for its features. */
function createGiftBot(
  config: Config,
  overrides: AppOverrides,
  parts: {
    desk: PurchaseDesk;
    records: PurchaseRecords;
    storage: Storage;
    access: AccessList;
    logger: Logger;
    backups: BackupSchedule | undefined;
    giveawayRunner: GiveawayRunner;
  },
): GiftBot {
  return createBot({
    token: config.telegram.token,
    apiRoot: config.telegram.apiRoot,
    botInfo: overrides.telegram?.botInfo,
    fetch: overrides.telegram?.fetch,
    desk: parts.desk,
    records: parts.records,
    stores: parts.storage.keyValues,
    access: parts.access,
    logger: parts.logger,
    defaultPaymentMethod: config.wallet.paymentMethod,
    wallet: { address: config.wallet.address, version: config.wallet.effectiveVersion },
    contact: config.access.adminContact,
    showBalanceTo: config.access.showBalanceTo,
    alerts: config.alerts,
    explorerUrl: config.reports.explorerUrl,
    reportHourUtc: config.reports.reportHourUtc,
    canBuy: overrides.purchaseGate,
    now: overrides.clock,
    adminMessageRetry: overrides.adminMessageRetry,
    fairShare: config.fairShare,
    backups: parts.backups,
    giveaway: { maxRecipients: config.giveaway.maxRecipients },
    giveawayRunner: parts.giveawayRunner,
    // The page is served at /admin/ (ADMIN_APP_URL is kept without its trailing slash).
    adminAppUrl: config.adminApp?.url === undefined ? undefined : `${config.adminApp.url}/`,
  });
}

/** What reads the store first: opened once, closed last. */
function openStores(config: Config, overrides: AppOverrides, storage: Storage) {
  const logger =
    overrides.logger ?? createLogger({ level: config.log.level, pretty: config.log.pretty });
  const ledger = storage.openLedger({
    limits: config.ledger.limits,
    draftTtlMs: config.ledger.draftTtlSeconds * 1000,
    ...(overrides.clock !== undefined ? { clock: overrides.clock } : {}),
  });
  return { logger, storage, ledger, accounts: storage.openAccounts() };
}

/** The service client, the desk over it and the ledger, and the records that read the ledger. */
function buildPurchasing(
  config: Config,
  overrides: AppOverrides,
  parts: {
    logger: Logger;
    credentials: CredentialHolder;
    ledger: PurchaseLedger;
    accounts: PurchaseAccounts;
    giveaways: GiveawayBatches;
    readOutages: ReadOutageWatch;
    observability: Observability;
    tonApiKey: () => string | undefined;
    /** Asked as the last step before a purchase leaves (the sender lease). */
    mayLeave: () => boolean;
  },
) {
  const { logger, ledger, accounts, observability } = parts;
  const { monitor, quotaIdle, client, quotaSnapshot } = createService(config, overrides, {
    logger,
    credentials: parts.credentials,
    onRead: (outcome) => parts.readOutages.record(outcome),
    metrics: observability.metrics,
  });
  const desk = createDesk(config, overrides, {
    ...{ ledger, accounts, service: monitor, quotaIdle, quotaSnapshot, logger },
    tonApiKey: parts.tonApiKey,
    mayLeave: parts.mayLeave,
  });
  observability.watchDesk(desk);
  const unrecorded = () => desk.unrecordedCount();
  const records = createPurchaseRecords(ledger, overrides.clock, unrecorded, accounts);
  const giveawayRunner = new GiveawayRunner({
    batches: parts.giveaways,
    desk,
    clock: overrides.clock ?? Date.now,
    logger,
  });
  return { service: monitor, client, desk, records, giveawayRunner };
}

/**
 * Builds every part from the configuration on the store `openApp` opened; nothing talks to the
 * network yet. `overrides` replace what a test or the bench must control ({@link AppOverrides}).
 */
export function buildApp(config: Config, overrides: AppOverrides, storage: Storage): App {
  const { logger, ledger, accounts } = openStores(config, overrides, storage);
  const clock = overrides.clock ?? Date.now;
  const credentials = new CredentialHolder(serviceCredentials(config));
  let running = config;
  // Admins hear of a read outage once it lasted READ_OUTAGE_ALERT_SECONDS, and of its end.
  const readOutages = new ReadOutageWatch({
    alertAfterMs: config.alerts.readOutageAlertSeconds * 1000,
    clock,
    logger,
  });
  // Set once the bot exists: a failing backup is told to its admins.
  let tellBackupFailing = (_error: unknown): void => undefined;
  const backups = scheduleBackups(config, storage, logger, (error) => tellBackupFailing(error));
  const observability = new Observability(config.run, logger, {
    deskStatus: async () => ((await storage.isUp()) ? records.status() : undefined),
    quota: () => client.quotaSnapshot(0),
    lastBackupAt: () => backups?.lastGoodAt,
    backupIntervalSeconds: () => (backups === undefined ? 0 : config.backups.intervalHours * 3600),
  });
  // One sender at a time (the sender lease): every purchase asks it as its last step.
  const lease = new AppLease(config, {
    ...{ storage, ledger, logger },
    onStandby: () => observability.readiness.set("standby"),
    onLost: (reason) => overrides.onFatal?.(new Error(reason)),
  });
  const { service, client, desk, records, giveawayRunner } = buildPurchasing(config, overrides, {
    ...{ logger, credentials, ledger, accounts, readOutages, observability },
    giveaways: storage.giveaways,
    tonApiKey: () => running.ledger.tonApi?.apiKey,
    mayLeave: lease.mayLeave,
  });
  const access = new AccessList(storage.access, config.access);
  const giftBot = createGiftBot(config, overrides, {
    desk,
    records,
    storage,
    access,
    logger,
    backups,
    giveawayRunner,
  });
  tellBackupFailing = (error) => giftBot.notifier.backupFailing(config.backups.dir, error);
  const { bot, services, notifier } = giftBot;
  readOutages.tell(notifier);
  const threshold = config.alerts.breakerRefusals;
  guardPurchases({ desk, records, ledger, accounts, notifier, logger, threshold });
  const applySettings = (next: Config): void => {
    running = next;
    applyReloaded(next, { credentials, access, desk, notifier });
  };
  const updates = prepareBot(bot, observability, overrides, logger);
  const health = (): Promise<HealthReport> => healthReport(() => storage.isUp(), service);
  const probes = {
    ownPorts: observability.probes(health),
    webhook: observability.probes(health, { onWebhookPort: true }),
  };
  const replicas = new ReplicaDirectory(
    storage.senderLease,
    storage.keyValues(REPLICA_URLS_NAMESPACE),
  );
  const run = runControls(
    {
      ...{ config, overrides, logger, ledger, lease, replicas, backups, desk, access, giftBot },
      ...{ health, probes, fileChanged: storage.fileChanged, stores: storage.keyValues },
    },
    { service, updates, storage, observability, readOutages },
  );
  return {
    ...{ config, logger, storage, ledger, desk, records, access, bot, services, notifier },
    ...{ service, updates, observability, health, applySettings },
    get webhookServer() {
      return run.webhookServer();
    },
    giveaways: giftBot.giveawaySending,
    sweepGroups: () => giftBot.sweepGroups(),
    sendDueReports: () => giftBot.reporter.sendDue(),
    announceRestore: () => tellRestore(storage.keyValues, giftBot, logger),
    start: run.start,
    stop: run.stop,
  };
}

/** The bot's last error handler, its Telegram calls watched and retried, its updates counted. */
function prepareBot(
  bot: GiftBot["bot"],
  observability: Observability,
  overrides: AppOverrides,
  logger: Logger,
): UpdateTracker {
  // The features run inside the bot's error boundary; this catches what is left (the outermost
  // middleware). grammY's default would rethrow and end long polling for everyone.
  bot.catch((error) => {
    logger.error({ err: error.error, updateId: error.ctx.update.update_id }, "update failed");
  });
  configureTelegramCalls(bot, observability, overrides.telegram?.autoRetry ?? true);
  return trackUpdates(bot);
}

/**
 * `start` and `stop`, each run once however often called: a stop during a start waits for it
 * and undoes what it began.
 */
function runControls(
  common: Omit<RunParts, "startAdminApp">,
  closing: {
    service: ServiceMonitor;
    updates: UpdateTracker;
    storage: Storage;
    observability: Observability;
    readOutages: ReadOutageWatch;
  },
) {
  const parts: RunParts = {
    ...common,
    startAdminApp: () => startAdminAppOf({ ...common, storage: closing.storage }),
  };
  const { logger, desk, giftBot, lease, backups } = parts;
  const { observability, readOutages } = closing;
  // Aborted by stop(): ends the retries of a start that is still connecting, or on standby.
  const connecting = new AbortController();
  const begun: Started = { runner: undefined, webhookServer: undefined, expiry: undefined };
  let stopping: Promise<void> | undefined;
  let starting: Promise<void> | undefined;
  const start = (): Promise<void> =>
    (starting ??= begin(parts, begun, {
      observability,
      connecting,
      readOutages,
      stopped: () => stopping !== undefined,
    }));
  const stop = (): Promise<void> =>
    (stopping ??= windDown(
      {
        ...closing,
        logger,
        notifier: giftBot.notifier,
        desk,
        connecting,
        reporter: giftBot.reporter,
        background: giftBot.services.background,
        giveaways: giftBot,
        giveawayRunner: giftBot.giveawaySending.runner,
        lease,
        replicas: parts.replicas,
        backups,
        starting,
      },
      () => begun,
    ));
  return { start, stop, webhookServer: () => begun.webhookServer };
}

/** What stopping the app works with: the parts to close in order. */
interface StopParts {
  logger: Logger;
  service: ServiceMonitor;
  updates: UpdateTracker;
  notifier: AdminNotifier;
  storage: Storage;
  observability: Observability;
  readOutages: ReadOutageWatch;
  desk: PurchaseDesk;
  /** The daily report: one being sent is finished before the database closes. */
  reporter: { idle(): Promise<void> };
  /** What update handlers left running (receipts' cost edits, giveaways' checks). */
  background: { idle(): Promise<void> };
  /** Giveaways' checks under way: stopped, not waited for (they may take minutes). */
  giveaways: { stopGiveaways(): void };
  /** Giveaways being sent: no further recipient starts once stopping. */
  giveawayRunner: GiveawayRunner;
  /** Released as soon as no purchase can be sent any more. */
  lease: AppLease;
  /** This process's address is taken away before the lease is released. */
  replicas: ReplicaDirectory;
  /** Stopped, and a backup under way finished, before the database closes. */
  backups: BackupSchedule | undefined;
  /** Aborted here: ends the retries of a start that is still connecting. */
  connecting: AbortController;
  /**
   * A start under way: waited for before anything closes, so its recovery and queued
   * confirmations never write to a closed database, and what it began is stopped.
   */
  starting: Promise<void> | undefined;
}

/** What `start` began: the intake and the minute timer. */
interface Started {
  runner: RunnerHandle | undefined;
  webhookServer: WebhookServer | undefined;
  expiry: NodeJS.Timeout | undefined;
  /** The admins' Mini App (ADMIN_APP_PORT): closed first at a stop. */
  adminApp?: AdminAppServer | undefined;
  /** Stops watching the database file (src/run/database-file-watch.ts). */
  stopFileWatch?: () => void;
}

/** Stops in the order the module's comment gives (steps 0 to 6). */
async function windDown(parts: StopParts, begun: () => Started): Promise<void> {
  const { logger, service, updates } = parts;
  // Not ready from the first moment: an orchestrator stops sending work before anything closes.
  parts.observability.readiness.set("stopping");
  parts.connecting.abort();
  // A confirmation still waiting for its slot of the service's quota (or behind a 429 hold)
  // is given up unclaimed, and so is any later one: waiting for its turn could outlast the
  // grace period. Nothing claimed ever waits for the quota (its slot comes first), so a
  // purchase claimed is sent and answered, and reads keep working. This comes before
  // waiting for a start under way (it may be sending a queued confirmation) and for the
  // intake (the webhook server's close waits for its updates, one may be that purchase).
  // A giveaway starts no further recipient; the one waiting for its slot stays a draft, for
  // the next start to send, and the one being sent is waited for.
  const giveawaysStopped = parts.giveawayRunner.stop();
  service.client.stopPurchases();
  await giveawaysStopped;
  await parts.starting?.catch(() => undefined);
  const started = begun();
  // No admin's decision comes in while the bot winds down.
  await started.adminApp?.close();
  const { runner, webhookServer } = started;
  if (started.expiry !== undefined) clearInterval(started.expiry);
  started.stopFileWatch?.();
  parts.readOutages.stop();
  // Stop taking updates first, so nothing new starts while we wait.
  const intake: Promise<unknown>[] = [];
  if (runner?.isRunning()) intake.push(runner.stop());
  if (webhookServer !== undefined) intake.push(webhookServer.close());
  const busy = updates.inFlight();
  if (busy > 0) logger.info({ updates: busy }, "waiting for updates in flight");
  await Promise.all(intake);
  // The updates in flight finish: a purchase sent is answered and recorded, one cancelled
  // above is recorded as not sent and its person told so.
  await updates.drained();
  // Nothing more will be sent from here: the next process (a rolling deploy's new one, on
  // standby) takes over now rather than at the lease's expiry.
  await parts.replicas
    .withdraw(parts.lease.owner)
    .catch((error: unknown) =>
      logger.warn({ err: error }, "could not withdraw this replica's URL"),
    );
  await parts.lease.release();
  // Admin messages started by the last updates (an unconfirmed purchase's evidence, the
  // low-balance check) still go out; they read through the client, so it is still open.
  await parts.notifier.idle();
  await parts.reporter.idle();
  // Receipts still waiting for their cost (3 s at most) get it before the client closes; a
  // giveaway's checks stop at their next name (nothing was bought: the admin runs it again).
  parts.giveaways.stopGiveaways();
  await parts.background.idle();
  parts.backups?.stop();
  await parts.backups?.idle();
  // The desk's read after the last purchase is finished and recorded, and a cost asked of the
  // chain for a few seconds at most: it is evidence, and a slow chain API must not use up the
  // grace period a purchase in flight may need.
  if (!(await parts.desk.settled({ costsWithinMs: COSTS_WAIT_AT_STOP_MS }))) {
    logger.warn("stopping without the costs still being measured on chain");
  }
  parts.notifier.close();
  // An outcome the database refused is tried once more; if it still cannot be written,
  // the intent stays `sending` and the next start recovers it as unconfirmed.
  await parts.desk.close();
  await service.client.close();
  await parts.storage.close();
  // Last: the probes report the shutdown (not ready; not live once the database closed).
  await parts.observability.closeServers();
  logger.info("stopped: database closed");
}

/**
 * Starts: the probes, Telegram, what an earlier run left (see prepareToRun), then the intake.
 * Records what it began in `begun` as it goes, for the stop to undo; a stop that comes
 * meanwhile ends it at the next step, before anything is recovered, sent or taken.
 */
async function begin(
  parts: RunParts,
  begun: Started,
  run: {
    observability: Observability;
    connecting: AbortController;
    readOutages: ReadOutageWatch;
    stopped: () => boolean;
  },
): Promise<void> {
  const { config, logger, probes, giftBot } = parts;
  logger.info(configSummary(config), "giftbot starting");
  // From the start, connected or not: a file replaced under the process stops it.
  const changed = parts.fileChanged;
  if (changed !== undefined) {
    begun.stopFileWatch = watchDatabaseFile({
      changed,
      logger,
      onChanged: (reason) => parts.overrides.onFatal?.(new Error(reason)),
    });
  }
  // Probes answer from the start: live at once, ready only once updates are taken. In webhook
  // mode that includes PORT's: the webhook server listens now and takes updates at the end.
  await run.observability.startServers(probes.ownPorts);
  // Before the lease: a replica on standby answers the admins' reads too.
  begun.adminApp = await parts.startAdminApp();
  const webhook = config.run.mode === "webhook" ? config.run.webhook : undefined;
  if (webhook !== undefined) begun.webhookServer = await listenForWebhook(parts, webhook);
  try {
    await connectToTelegram(giftBot.bot, run.connecting.signal);
  } catch (error) {
    // Connecting ended by a stop is the stop, not a failed start: it ends with its own code.
    if (run.stopped()) return;
    throw error;
  }
  if (run.stopped()) return;
  // One sender at a time: on standby until the lease is ours (another process may be finishing
  // its purchase in flight); from here on every claim checks it in the database, and every
  // purchase, as its last step, that it is certainly still ours.
  if (!(await parts.lease.hold(run.connecting.signal))) return;
  if (run.stopped()) return;
  run.observability.readiness.set("starting");
  // A holder that did not let the lease go may still send what it left `sending` until its
  // own lease has certainly run out: recovering it as interrupted before then could make it
  // unknown while it still goes out.
  await parts.lease.untilPredecessorSilent(run.connecting.signal);
  if (run.stopped()) return;
  begun.expiry = await prepareToRun(parts, run.stopped);
  if (run.stopped()) return;
  run.readOutages.start();
  // The other replicas hand their updates here from now on (webhook mode with REPLICA_URL).
  const replicaUrl = config.run.webhook?.replicaUrl;
  if (replicaUrl !== undefined) await parts.replicas.publish(parts.lease.owner, replicaUrl);
  begun.runner = await takeUpdates(parts, begun.webhookServer);
  run.observability.readiness.set("taking_updates");
  // The lease holder backs the database up (a standby would only copy the same file twice).
  parts.backups?.start();
}

/** What starting the app works with. */
interface RunParts {
  config: Config;
  /** How the database file opened is no longer the one at its path (SQLite), if it is not. */
  fileChanged: Storage["fileChanged"];
  /** The key-value store (a restore's notice for the admins). */
  stores: Storage["keyValues"];
  overrides: AppOverrides;
  logger: Logger;
  ledger: PurchaseLedger;
  lease: AppLease;
  /** Where the lease holder is reached: a replica on standby hands updates to it. */
  replicas: ReplicaDirectory;
  backups: BackupSchedule | undefined;
  desk: PurchaseDesk;
  access: AccessList;
  giftBot: GiftBot;
  health: () => Promise<HealthReport>;
  /** The probe paths on HEALTH_PORT and METRICS_PORT, and on the webhook server. */
  probes: { ownPorts: ProbeHandler; webhook: ProbeHandler };
  /** Starts the admins' Mini App when ADMIN_APP_PORT is set. */
  startAdminApp: () => Promise<AdminAppServer | undefined>;
}

/**
 * Everything before the first update: admins told about what an earlier run left, interrupted
 * purchases recovered (their requesters told), confirmations an earlier run queued resolved
 * (their people told), expired drafts marked (and every minute after, with the group
 * clean-up), command menus registered. Returns the minute timer.
 */
async function prepareToRun(
  parts: RunParts,
  stopped: () => boolean,
): Promise<NodeJS.Timeout | undefined> {
  const { desk, giftBot, logger } = parts;
  // Admins are told about every purchase that ends unconfirmed (the notifier listens to the
  // desk from the start, so also those recovered now), and about any an earlier run left
  // untold.
  await giftBot.notifier.announcePending();
  // What a restore from a backup stopped, told once (src/ledger/restore.ts).
  await tellRestore(parts.stores, giftBot, logger);
  const recovered = await desk.recoverInterrupted();
  if (recovered.length > 0) {
    logger.warn(
      { intents: recovered.map((intent: PurchaseIntent) => intent.id) },
      "purchases interrupted by the last stop are now unconfirmed",
    );
    await tellRequestersOutcomeUnknown(giftBot.bot.api, giftBot.services, recovered, logger);
  }
  // Stopped meanwhile: the queued confirmations stay queued, for the next start to keep.
  if (stopped()) return undefined;
  await resolveQueuedConfirmations(parts);
  // Giveaways an earlier process was sending go on, after the recovery above: a recipient
  // whose request was out at the stop is an unknown outcome by now, and stops its batch.
  const resumed = await giftBot.giveawaySending.resumeRunning();
  if (resumed > 0) logger.info({ batches: resumed }, "giveaways going on where they stopped");
  await desk.expireDrafts();
  // A report whose hour passed while the bot was down goes out now.
  void giftBot.reporter.sendDue();
  const expiry = setInterval(() => {
    desk.expireDrafts().catch((error: unknown) => {
      logger.error({ err: error }, "could not expire drafts");
    });
    // Expired group prompts and short replies (never rejects).
    void giftBot.sweepGroups();
    // The daily report, once its hour has come (never rejects).
    void giftBot.reporter.sendDue();
  }, EXPIRE_DRAFTS_EVERY_MS);
  expiry.unref();
  // A menu that fails to register is cosmetic: the bot works without it.
  await giftBot
    .registerCommandMenus()
    .catch((error: unknown) => logger.warn({ err: error }, "could not register the command menu"));
  return expiry;
}

/**
 * Confirmations an earlier process promised to send in their turn (recorded as queued when it
 * stopped): each is sent now if every rule still holds (the claim decides; the person must
 * still be allowed to buy there), or closed unsent, and its person told; before any update.
 */
async function resolveQueuedConfirmations(parts: RunParts): Promise<void> {
  const { desk, access, giftBot, logger } = parts;
  const queued = await desk.resolveQueued({
    mayBuy: async (intent) =>
      intent.requester.chatType === "private"
        ? await access.mayBuy(intent.requester.userId)
        : await access.isChatAllowed(intent.requester.chatId),
    isAdmin: (userId) => access.isAdmin(userId),
  });
  if (queued.length === 0) return;
  await tellQueuedOutcomes(giftBot.bot.api, giftBot.services, queued, logger);
  logger.info(
    { intents: queued.map((q) => ({ id: q.intent.id, outcome: q.result.kind })) },
    "queued confirmations resolved",
  );
}

/**
 * Webhook mode's server, listening on PORT before Telegram is reached: it answers the probes
 * from now on and Telegram's POSTs with 503 until `takeUpdates` (see webhook-server.ts).
 */
async function listenForWebhook(
  parts: RunParts,
  webhook: { url: string; secret: string },
): Promise<WebhookServer> {
  const { config, logger, health, probes } = parts;
  const server = await startWebhookServer({
    bot: parts.giftBot.bot,
    host: config.run.host,
    port: config.run.port,
    path: new URL(webhook.url).pathname,
    secretToken: webhook.secret,
    health,
    probes: probes.webhook,
    takingUpdates: false,
    // On standby, updates go to the lease holder (src/run/replicas.ts); 503 when it has none.
    untilTaking: updateForwarder({
      directory: parts.replicas,
      self: parts.lease.owner,
      path: new URL(webhook.url).pathname,
      secretToken: webhook.secret,
      logger,
    }),
    logger,
  });
  logger.info({ listening: server.url }, "webhook server listening; updates wait until started");
  return server;
}

/**
 * Starts taking updates: the webhook server (already listening) in webhook mode, else long
 * polling, whose runner it returns.
 */
async function takeUpdates(
  parts: RunParts,
  webhookServer: WebhookServer | undefined,
): Promise<RunnerHandle | undefined> {
  const { config, logger } = parts;
  const bot = parts.giftBot.bot;
  const webhook = config.run.webhook;
  if (webhookServer !== undefined && webhook !== undefined) {
    // Taking before registering: Telegram may post the moment the webhook is set.
    webhookServer.takeUpdates();
    await bot.api.setWebhook(webhook.url, { secret_token: webhook.secret });
    logger.info({ listening: webhookServer.url }, "taking updates by webhook");
    return undefined;
  }
  // A webhook left by an earlier run would make every getUpdates fail with 409.
  await bot.api.deleteWebhook();
  const runner = run(bot, { runner: { silent: true } });
  runner.task()?.catch((error: unknown) => {
    logger.fatal({ err: error }, "long polling stopped with an error");
    parts.overrides.onFatal?.(error);
  });
  logger.info("taking updates by long polling");
  return runner;
}

/** The backups of a store that takes them (SQLite), on the configured schedule. */
function scheduleBackups(
  config: Config,
  storage: Storage,
  logger: Logger,
  onFailing: (error: unknown) => void,
): BackupSchedule | undefined {
  const take = storage.backup;
  if (take === undefined) return undefined;
  return new BackupSchedule({ settings: config.backups, take, logger, onFailing });
}
