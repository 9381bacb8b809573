/**
 * Prometheus metrics through prom-client: what an operator graphs and alerts on. Loaded only when
 * metrics are on (METRICS_PORT or a health server), since prom-client costs start-up time.
 *
 * Labels are bounded, fixed vocabularies (kinds, outcomes, operations, Telegram methods and
 * codes): never a username, a user or chat id, an intent id or anything secret.
 *
 * The rooms are not sprinkled with metric calls: the composition root wires `BotMetrics`' hooks
 * to what the rooms already expose (the desk's confirm results, the service client's
 * `onExchange`, grammY's API transformer and middleware), and the gauges read state when
 * Prometheus scrapes (the desk's status, the client's quota).
 */
import { createRequire } from "node:module";
import type * as PromClient from "prom-client";
import type { QuotaSnapshot } from "../service/quota.js";

/** What the gauges read at scrape time. */
export interface MetricSources {
  /**
   * Purchases closed: paused (by an admin's /pause, or by the purchase breaker), or on hold
   * (unconfirmed intents waiting for an admin).
   */
  deskStatus?: () => Promise<
    { paused: boolean; pausedBy?: "admin" | "breaker" | undefined; unconfirmed: number } | undefined
  >;
  quota?: () => QuotaSnapshot | undefined;
  /** When the last good backup was taken (ms since the epoch), if one was this run. */
  lastBackupAt?: () => number | undefined;
  /** Seconds between scheduled backups (0: none scheduled), for the backup-age alert. */
  backupIntervalSeconds?: () => number;
}

export interface BotMetrics {
  /** The exposition text, for GET /metrics. */
  expose(): Promise<{ contentType: string; body: string }>;
  /** A press of Confirm came to `outcome` (the desk's result kind) for a gift of `kind`. */
  purchase(kind: string, outcome: string): void;
  /** One request to the service: its operation, its status (or failure cause), its time. */
  serviceExchange(operation: string, status: number | string, ms: number): void;
  /** One update handled, with its type and whether it ended in an error. */
  update(type: string, seconds: number, failed: boolean): void;
  /** A Telegram API call failed: its method and the error code (or `network`). */
  telegramError(method: string, code: string): void;
  /** The wallet's balance as last read (decimal strings as the service sends them). */
  walletBalance(currency: "ton" | "usdt", amount: string | undefined): void;
  /** Telegram reachable (1) or not (0). */
  telegramReachable(reachable: boolean): void;
}

const PREFIX = "giftbot_";

/** Seconds; the service answers in tens of milliseconds to tens of seconds (a purchase waits for a transfer). */
const SERVICE_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60];
/** Seconds; an update is a few milliseconds, or as long as a purchase when it confirms one. */
const UPDATE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Statuses as a bounded label: the code for an answer, the cause for no answer. */
function statusLabel(status: number | string): string {
  return typeof status === "number" ? String(status) : status;
}

/**
 * Builds the registry. prom-client is required here, on the first call, not when this module
 * loads: the composition root builds synchronously, and a bot without metrics never loads it.
 */
export function createMetrics(sources: MetricSources = {}): BotMetrics {
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = createRequire(
    import.meta.url,
  )("prom-client") as typeof PromClient;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  const registers = [registry];
  const gauges = { Gauge, Counter, registers, sources };
  backupGauges(gauges);
  purchaseGauges(gauges);
  quotaGauges(gauges);

  const purchases = new Counter({
    name: `${PREFIX}purchases_total`,
    help: "Confirm presses by gift kind and outcome (succeeded, rejected, unconfirmed, not_sent, refused, recipient_has_premium).",
    labelNames: ["kind", "outcome"] as const,
    registers,
  });
  const serviceRequests = new Counter({
    name: `${PREFIX}service_requests_total`,
    help: "Requests to the Gift Purchase Service by operation and status (an HTTP code, or timeout/transport/... when no answer came).",
    labelNames: ["operation", "status"] as const,
    registers,
  });
  const serviceSeconds = new Histogram({
    name: `${PREFIX}service_request_duration_seconds`,
    help: "Time of one request to the service (sent to answered), by operation; quota waits not included.",
    labelNames: ["operation"] as const,
    buckets: SERVICE_BUCKETS,
    registers,
  });
  const updates = new Counter({
    name: `${PREFIX}updates_total`,
    help: "Telegram updates handled, by update type and result (ok, error).",
    labelNames: ["type", "result"] as const,
    registers,
  });
  const updateSeconds = new Histogram({
    name: `${PREFIX}update_duration_seconds`,
    help: "Time to handle one update, by update type.",
    labelNames: ["type"] as const,
    buckets: UPDATE_BUCKETS,
    registers,
  });
  const telegramErrors = new Counter({
    name: `${PREFIX}telegram_api_errors_total`,
    help: "Failed Telegram Bot API calls, by method and error code (network when no answer came).",
    labelNames: ["method", "code"] as const,
    registers,
  });
  const telegramUp = new Gauge({
    name: `${PREFIX}telegram_reachable`,
    help: "1 while Telegram answers getMe/getUpdates (or the webhook calls), 0 while it cannot be reached.",
    registers,
  });
  const balance = new Gauge({
    name: `${PREFIX}wallet_balance`,
    help: "The paying wallet's balance as last read from the service, by currency (ton, usdt).",
    labelNames: ["currency"] as const,
    registers,
  });

  return {
    expose: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
    purchase: (kind, outcome) => purchases.inc({ kind, outcome }),
    serviceExchange: (operation, status, ms) => {
      serviceRequests.inc({ operation, status: statusLabel(status) });
      serviceSeconds.observe({ operation }, ms / 1000);
    },
    update: (type, seconds, failed) => {
      updates.inc({ type, result: failed ? "error" : "ok" });
      updateSeconds.observe({ type }, seconds);
    },
    telegramError: (method, code) => telegramErrors.inc({ method, code }),
    walletBalance: (currency, amount) => {
      const value = amount === undefined ? Number.NaN : Number(amount);
      if (Number.isFinite(value)) balance.set({ currency }, value);
    },
    telegramReachable: (reachable) => telegramUp.set(reachable ? 1 : 0),
  };
}

/** What the gauges read at scrape time are built with. */
interface GaugeParts {
  Gauge: typeof PromClient.Gauge;
  Counter: typeof PromClient.Counter;
  registers: PromClient.Registry[];
  sources: MetricSources;
}

/** When the last good backup was taken, and how often one is due (the backup-age alert). */
function backupGauges({ Gauge, registers, sources }: GaugeParts): void {
  new Gauge({
    name: `${PREFIX}backup_last_success_timestamp_seconds`,
    help: "When the last good backup of the database was taken (Unix seconds); absent until one was taken by this process.",
    registers,
    collect() {
      const at = sources.lastBackupAt?.();
      if (at !== undefined) this.set(Math.floor(at / 1000));
    },
  });
  new Gauge({
    name: `${PREFIX}backup_interval_seconds`,
    help: "Seconds between scheduled backups (BACKUP_INTERVAL_HOURS); 0: none scheduled.",
    registers,
    collect() {
      const seconds = sources.backupIntervalSeconds?.();
      if (seconds !== undefined) this.set(seconds);
    },
  });
}

/** Purchases closed: on hold (unconfirmed outcomes), and the pause by reason. */
function purchaseGauges({ Gauge, registers, sources }: GaugeParts): void {
  new Gauge({
    name: `${PREFIX}purchases_unconfirmed_open`,
    help: "Purchases whose outcome is unknown and waits for an admin; new purchases wait while above 0.",
    registers,
    async collect() {
      const status = await sources.deskStatus?.();
      if (status !== undefined) this.set(status.unconfirmed);
    },
  });
  new Gauge({
    name: `${PREFIX}purchases_paused`,
    help: "1 while purchases are closed, by reason: admin (/pause), breaker (paused by itself after refusals), unconfirmed (on hold: an outcome waits for an admin).",
    labelNames: ["reason"] as const,
    registers,
    async collect() {
      const status = await sources.deskStatus?.();
      if (status === undefined) return;
      const breaker = status.paused && status.pausedBy === "breaker";
      this.set({ reason: "admin" }, status.paused && !breaker ? 1 : 0);
      this.set({ reason: "breaker" }, breaker ? 1 : 0);
      this.set({ reason: "unconfirmed" }, status.unconfirmed > 0 ? 1 : 0);
    },
  });
}

/** The service's quota: used, allowed, and waiting by priority. */
function quotaGauges({ Gauge, Counter, registers, sources }: GaugeParts): void {
  new Gauge({
    name: `${PREFIX}service_quota_used`,
    help: "Requests counted against the service's quota in the current window (or unanswered).",
    registers,
    collect() {
      const quota = sources.quota?.();
      if (quota !== undefined) this.set(quota.usedSlots);
    },
  });
  new Gauge({
    name: `${PREFIX}service_quota_limit`,
    help: "Requests the bot allows itself per window (SERVICE_QUOTA_PER_MINUTE).",
    registers,
    collect() {
      const quota = sources.quota?.();
      if (quota !== undefined) this.set(quota.limit);
    },
  });
  new Gauge({
    name: `${PREFIX}service_quota_waiting`,
    help: "Requests waiting for their turn in the quota, by priority (purchase, shared_read, read, bulk).",
    labelNames: ["priority"] as const,
    registers,
    collect() {
      const quota = sources.quota?.();
      if (quota === undefined) return;
      for (const [priority, count] of Object.entries(quota.queued)) this.set({ priority }, count);
    },
  });
  new Counter({
    name: `${PREFIX}service_quota_wait_seconds_total`,
    help: "Time requests waited for their turn in the quota, summed, by priority: a rising purchase line during a giveaway is people waiting behind it.",
    labelNames: ["priority"] as const,
    registers,
    collect() {
      const quota = sources.quota?.();
      if (quota === undefined) return;
      // The scheduler keeps the running total; the counter is set to it at each scrape.
      this.reset();
      for (const [priority, ms] of Object.entries(quota.waitedMs))
        this.inc({ priority }, ms / 1000);
    },
  });
}
