/**
 * The composition root: every part of the bot is built here from the validated Config, and
 * nowhere else. Rooms stay unaware of each other's construction (the bot gets a desk, the desk
 * a client and a ledger), and a test can build the whole thing from a Config just as `main` does.
 * `openApp` (./open.ts) opens the store and `buildApp` builds on it, once, with no network; the
 * service client and the desk are built in ./purchasing.ts. Starting and stopping what is built
 * is the lifecycle's (./lifecycle.ts).
 *
 * Observability (src/run, src/metrics): /livez, /readyz, /healthz and /metrics on HEALTH_PORT
 * and METRICS_PORT (and on the webhook server); the metrics are fed from events and seams the
 * rooms already have (see src/metrics/instrument.ts).
 */
import { autoRetry } from "@grammyjs/auto-retry";
import type { Bot } from "grammy";
import { AccessList } from "../access/access-list.js";
import { type BotContext, createBot, type GiftBot } from "../bot/index.js";
import type { AdminNotifier } from "../bot/admin-notifications/index.js";
import type { Config } from "../config/index.js";
import { serviceCredentials } from "../config/index.js";
import type { PurchaseAccounts } from "../ledger/accounts.js";
import type { PurchaseLedger } from "../ledger/types.js";
import { createLogger, type Logger } from "../shared/logger.js";
import { BackupSchedule } from "../run/backups.js";
import { REPLICA_URLS_NAMESPACE, ReplicaDirectory } from "../run/replicas.js";
import type { GiveawayRunner } from "../purchases/giveaway-runner.js";
import type { PurchaseRecords } from "../purchases/records.js";
import type { PurchaseDesk } from "../purchases/types.js";
import { type HealthReport, healthReport } from "../run/health.js";
import { CredentialHolder } from "../service/client.js";
import { BreakerGuard } from "../purchases/breaker-guard.js";
import type { Storage } from "../storage/types.js";
import { trackUpdates, type UpdateTracker } from "./in-flight.js";
import { AppLease } from "./lease.js";
import { Observability } from "./observability.js";
import { ReadOutageWatch } from "./read-outage.js";
import { tellRestore } from "./recovered.js";
import type { App, AppOverrides } from "./types.js";
import { buildPurchasing } from "./purchasing.js";
import { runControls } from "./lifecycle.js";
import { retryingExceptSpending, starsFor } from "./stars.js";

/** Outgoing Telegram calls: retry 429 and 5xx a few times, never wait longer than a minute. */
const TELEGRAM_RETRY = { maxRetryAttempts: 3, maxDelaySeconds: 60 } as const;

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
  if (retry) bot.api.config.use(retryingExceptSpending(autoRetry(TELEGRAM_RETRY)));
}

/**
 * The breaker on the purchase path: pauses purchases after refusals, one admin message each;
 * each opening is kept in the accounts for the daily report.
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
    canBuy: overrides.accessCheck,
    now: overrides.clock,
    adminMessageRetry: overrides.adminMessageRetry,
    fairShare: config.fairShare,
    backups: parts.backups,
    giveaway: { maxRecipients: config.giveaway.maxRecipients },
    giveawayRunner: parts.giveawayRunner,
    // The page is served at /admin/ (ADMIN_APP_URL is kept without its trailing slash).
    adminAppUrl: config.adminApp?.url === undefined ? undefined : `${config.adminApp.url}/`,
    starTopUps: config.premium.via === "service" ? undefined : parts.storage.starTopUps,
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
  const stars = starsFor(config, logger, { giftTimeoutMs: overrides.giftTimeoutMs, clock });
  const { service, client, desk, records, giveawayRunner } = buildPurchasing(config, overrides, {
    ...{ logger, credentials, ledger, accounts, readOutages, observability, stars },
    giveaways: storage.giveaways,
    tonApiKey: () => running.ledger.tonApi?.apiKey,
    mayLeave: lease.mayLeave,
  });
  const access = new AccessList(storage.access, config.access);
  const giftBot = createGiftBot(config, overrides, {
    ...{ desk, records, storage, access, logger, backups, giveawayRunner },
  });
  tellBackupFailing = (error) => giftBot.notifier.backupFailing(config.backups.dir, error);
  const { bot, services, notifier } = giftBot;
  stars?.attach(bot.api);
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
    { service, updates, storage, observability, readOutages, stars },
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
