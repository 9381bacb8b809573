/**
 * What an operator watches the bot through, built by the composition root in one piece: the
 * Telegram watch (is Telegram reachable, said in the log), readiness, the probe paths (/livez,
 * /readyz, /healthz, /metrics) on HEALTH_PORT and METRICS_PORT, and the Prometheus metrics,
 * which exist only when something serves /metrics (prom-client loads only then). The metrics
 * are fed from seams the rooms already have (src/metrics/instrument.ts).
 */
import type { Bot, Context } from "grammy";
import type { RunConfig } from "../config/index.js";
import type { Logger } from "../shared/logger.js";
import { countPurchases, measureUpdates, telegramErrorCounter } from "../metrics/instrument.js";
import { type BotMetrics, createMetrics, type MetricSources } from "../metrics/metrics.js";
import type { PurchaseDesk } from "../purchases/types.js";
import type { HealthReport } from "../run/health.js";
import {
  type ProbeHandler,
  type ProbeServer,
  probeHandler,
  startProbeServer,
} from "../run/probes.js";
import { type Readiness, trackReadiness } from "../run/readiness.js";
import { type TelegramWatch, watchTelegram } from "../run/telegram-watch.js";

export class Observability {
  /** Present when metrics are on (METRICS_PORT or HEALTH_PORT set). */
  readonly metrics: BotMetrics | undefined;
  /** Whether Telegram can be reached (getMe, getUpdates, the webhook calls). */
  readonly telegram: TelegramWatch;
  /** Taking updates or not, for /readyz. */
  readonly readiness: Readiness;
  /** The probe servers started (HEALTH_PORT, METRICS_PORT), with their bound addresses. */
  readonly servers: ProbeServer[] = [];
  readonly #run: RunConfig;
  readonly #logger: Logger;

  /** `sources`: what the gauges read at scrape time. */
  constructor(run: RunConfig, logger: Logger, sources: MetricSources) {
    this.#run = run;
    this.#logger = logger;
    this.metrics =
      run.healthPort !== undefined || run.metricsPort !== undefined
        ? createMetrics(sources)
        : undefined;
    const metrics = this.metrics;
    this.telegram = watchTelegram({
      logger,
      onChange: (state) => metrics?.telegramReachable(state.reachable !== false),
    });
    this.readiness = trackReadiness(() => this.telegram.state());
  }

  /**
   * Watches the bot's outer API (the Telegram watch, then the error counter) and times its
   * updates. Call before installing retries, so every attempt is seen.
   */
  watchBot<C extends Context>(bot: Bot<C>): void {
    bot.api.config.use(this.telegram.transformer);
    if (this.metrics) {
      bot.api.config.use(telegramErrorCounter(this.metrics));
      measureUpdates(bot, this.metrics);
    }
  }

  /** Counts every Confirm press by kind and outcome (the desk's onConfirmed event). */
  watchDesk(desk: PurchaseDesk): void {
    if (this.metrics) countPurchases(desk, this.metrics);
  }

  /**
   * The probe paths over `health`, for the probe servers; `{ onWebhookPort: true }` for the
   * webhook server, which faces Telegram and so usually the internet: there `/metrics` (the
   * wallet's balance, the purchases) is answered only when METRICS_PORT is PORT, the operator's
   * explicit choice. A HEALTH_PORT equal to PORT (the image's default) brings the probes there,
   * not the metrics: those stay on a port of their own.
   */
  probes(
    health: () => Promise<HealthReport>,
    where: { onWebhookPort?: boolean } = {},
  ): ProbeHandler {
    const run = this.#run;
    const metricsHere = where.onWebhookPort !== true || run.metricsPort === run.port;
    const metrics = metricsHere ? this.metrics : undefined;
    return probeHandler({
      health,
      readiness: () => this.readiness.report(),
      ...(metrics ? { metrics: () => metrics.expose() } : {}),
    });
  }

  /**
   * Starts the HEALTH_PORT and METRICS_PORT servers on HOST. In webhook mode the webhook server
   * answers the probes itself, so a HEALTH_PORT equal to PORT there needs no server of its own.
   */
  async startServers(probes: ProbeHandler): Promise<void> {
    const run = this.#run;
    const ports = new Set<number>();
    if (run.healthPort !== undefined) ports.add(run.healthPort);
    if (run.metricsPort !== undefined) ports.add(run.metricsPort);
    if (run.mode === "webhook") ports.delete(run.port);
    for (const port of ports) {
      const server = await startProbeServer({ host: run.host, port, handle: probes });
      this.servers.push(server);
      this.#logger.info({ listening: server.url }, "serving health and metrics");
    }
  }

  /** Closes the probe servers (last at shutdown: they report it until then). */
  async closeServers(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.close()));
  }
}
