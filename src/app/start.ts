/**
 * Starting the app: the probes, Telegram, the sender lease (on standby until it is ours), what an
 * earlier run left (interrupted purchases, queued confirmations, giveaways under way), then the
 * intake (long polling, or the webhook server already listening).
 */
import { type RunnerHandle, run } from "@grammyjs/runner";
import type { AccessList } from "../access/access-list.js";
import type { GiftBot } from "../bot/index.js";
import type { Config } from "../config/index.js";
import { configSummary } from "../config/index.js";
import type { PurchaseIntent, PurchaseLedger } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";
import type { BackupSchedule } from "../run/backups.js";
import { watchDatabaseFile } from "../run/database-file-watch.js";
import { type ReplicaDirectory, updateForwarder } from "../run/replicas.js";
import type { PurchaseDesk } from "../purchases/types.js";
import type { HealthReport } from "../run/health.js";
import { connectToTelegram } from "../run/connect.js";
import type { ProbeHandler } from "../run/probes.js";
import { startWebhookServer, type WebhookServer } from "../run/webhook-server.js";
import type { Storage } from "../storage/types.js";
import type { AppLease } from "./lease.js";
import type { AdminAppServer } from "../admin-app/server.js";
import type { Observability } from "./observability.js";
import type { ReadOutageWatch } from "./read-outage.js";
import { tellQueuedOutcomes, tellRequestersOutcomeUnknown, tellRestore } from "./recovered.js";
import type { AppOverrides } from "./types.js";

/** How often drafts past their expiry are marked expired. */
const EXPIRE_DRAFTS_EVERY_MS = 60_000;

/** What `start` began: the intake and the minute timer. */
export interface Started {
  runner: RunnerHandle | undefined;
  webhookServer: WebhookServer | undefined;
  expiry: NodeJS.Timeout | undefined;
  /** The admins' Mini App (ADMIN_APP_PORT): closed first at a stop. */
  adminApp?: AdminAppServer | undefined;
  /** Stops watching the database file (src/run/database-file-watch.ts). */
  stopFileWatch?: () => void;
}

/**
 * Starts: the probes, Telegram, what an earlier run left (see prepareToRun), then the intake.
 * Records what it began in `begun` as it goes, for the stop to undo; a stop that comes
 * meanwhile ends it at the next step, before anything is recovered, sent or taken.
 */
export async function begin(
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
export interface RunParts {
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
