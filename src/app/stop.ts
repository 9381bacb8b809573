/**
 * Stopping the app, in the order ./lifecycle.ts gives (steps 0 to 6): nothing new is taken or
 * sent, what is in flight is finished and recorded, then everything closes, the probes last.
 */
import type { TelegramStars } from "../stars/types.js";
import type { AdminNotifier } from "../bot/admin-notifications/index.js";
import type { Logger } from "../shared/logger.js";
import type { BackupSchedule } from "../run/backups.js";
import type { ReplicaDirectory } from "../run/replicas.js";
import type { GiveawayRunner } from "../purchases/giveaway-runner.js";
import type { PurchaseDesk } from "../purchases/types.js";
import type { ServiceMonitor } from "../run/health.js";
import type { Storage } from "../storage/types.js";
import type { UpdateTracker } from "./in-flight.js";
import type { AppLease } from "./lease.js";
import type { Observability } from "./observability.js";
import type { ReadOutageWatch } from "./read-outage.js";
import type { Started } from "./start.js";

/** How long a stop waits for costs still being looked up on chain (evidence only). */
const COSTS_WAIT_AT_STOP_MS = 5_000;

/** What stopping the app works with: the parts to close in order. */
export interface StopParts {
  logger: Logger;
  /** Premium through Telegram: no further gift leaves once stopping. */
  stars: TelegramStars | undefined;
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

/** Stops in the order ./lifecycle.ts gives (steps 0 to 6). */
export async function windDown(parts: StopParts, begun: () => Started): Promise<void> {
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
  parts.stars?.stopGifts();
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
