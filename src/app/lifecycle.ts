/**
 * The lifecycle of the app `buildApp` built: `start` and `stop`, each run once however often
 * called; a stop during a start waits for it and undoes what it began.
 *
 * `start` (./start.ts) opens the probes (in webhook mode the webhook server, answering Telegram
 * 503 until the end of the start), talks to Telegram, waits on standby for the sender lease,
 * recovers what an earlier run left and starts taking updates. `stop` (./stop.ts) winds down in
 * this order:
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
 */
import type { TelegramStars } from "../stars/types.js";
import type { ServiceMonitor } from "../run/health.js";
import type { Storage } from "../storage/types.js";
import type { UpdateTracker } from "./in-flight.js";
import { startAdminAppOf } from "./admin-app.js";
import type { Observability } from "./observability.js";
import type { ReadOutageWatch } from "./read-outage.js";
import { begin, type RunParts, type Started } from "./start.js";
import { windDown } from "./stop.js";

/**
 * `start` and `stop`, each run once however often called: a stop during a start waits for it
 * and undoes what it began.
 */
export function runControls(
  common: Omit<RunParts, "startAdminApp">,
  closing: {
    service: ServiceMonitor;
    updates: UpdateTracker;
    storage: Storage;
    observability: Observability;
    readOutages: ReadOutageWatch;
    /** Premium through Telegram: no further gift leaves once stopping. */
    stars: TelegramStars | undefined;
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
