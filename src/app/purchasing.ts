/**
 * The purchasing parts of the composition root: the service client (with the config's quota and
 * timeouts, watched for health and counted for metrics), the desk over it and the ledger, the
 * records that read the ledger, and the giveaway runner that sends through the desk.
 */
import type { TelegramStars } from "../stars/types.js";
import type { Config } from "../config/index.js";
import type { PurchaseAccounts } from "../ledger/accounts.js";
import type { PurchaseLedger } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";
import { instrumentClient } from "../metrics/instrument.js";
import type { BotMetrics } from "../metrics/metrics.js";
import { createPurchaseDesk } from "../purchases/desk.js";
import { GiveawayRunner } from "../purchases/giveaway-runner.js";
import type { GiveawayBatches } from "../ledger/giveaways.js";
import { createPurchaseRecords } from "../purchases/records.js";
import { createTonEvidence } from "../purchases/on-chain.js";
import type { PurchaseDesk } from "../purchases/types.js";
import { monitorService, type ServiceMonitor } from "../run/health.js";
import { createGiftServiceClient, type CredentialHolder } from "../service/client.js";
import type { GiftServiceClientWithQuota, QuotaSnapshot, ReadOutcome } from "../service/types.js";
import type { Observability } from "./observability.js";
import type { ReadOutageWatch } from "./read-outage.js";
import type { AppOverrides } from "./types.js";

/**
 * Whether a request now would take no one's turn: nothing queued, no hold after a 429/503, and
 * at most half the window's slots used (what is left stays for people arriving meanwhile).
 * The desk reads the balance after a purchase only then, so that read adds no wait to anyone
 * and no request when the quota is in demand.
 */
export function quotaIsIdle(snapshot: QuotaSnapshot): boolean {
  const queued = Object.values(snapshot.queued).reduce((sum, n) => sum + n, 0);
  return queued === 0 && snapshot.retryWaitMs === 0 && snapshot.usedSlots * 2 < snapshot.limit;
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
    stars: TelegramStars | undefined;
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
    ...(parts.stars === undefined ? {} : { stars: parts.stars, premiumVia: config.premium.via }),
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

/** The service client, the desk over it and the ledger, and the records that read the ledger. */
export function buildPurchasing(
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
    /** The bot's own Stars, when Premium may be paid through Telegram (PREMIUM_VIA). */
    stars: TelegramStars | undefined;
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
    stars: parts.stars,
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
