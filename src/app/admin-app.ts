/**
 * The admins' Mini App in the app (src/admin-app): built from the app's parts when
 * ADMIN_APP_PORT is set, started with the probes (a replica on standby answers reads too) and
 * closed first at a stop, so no decision comes in while the bot winds down.
 */
import { type AdminAppServer, startAdminApp } from "../admin-app/server.js";
import type { GiftBot } from "../bot/index.js";
import type { Config } from "../config/index.js";
import type { AccessList } from "../access/access-list.js";
import type { GiveawayRunner } from "../purchases/giveaway-runner.js";
import type { PurchaseRecords } from "../purchases/records.js";
import type { PurchaseDesk } from "../purchases/types.js";
import type { Logger } from "../shared/logger.js";
import type { Storage } from "../storage/types.js";
import type { AppLease } from "./lease.js";

export interface AdminAppParts {
  config: Config;
  storage: Storage;
  records: PurchaseRecords;
  desk: PurchaseDesk;
  giveawayRunner: GiveawayRunner;
  access: AccessList;
  lease: AppLease;
  giftBot: GiftBot;
  lastBackupAt: () => number | undefined;
  clock: () => number;
  logger: Logger;
}

/** Starts the app's server on HOST:ADMIN_APP_PORT; undefined when no port is set. */
export async function startAdminAppOf(parts: AdminAppParts): Promise<AdminAppServer | undefined> {
  const { config, storage, giftBot, lease, logger } = parts;
  const settings = config.adminApp;
  if (settings === undefined) return undefined;
  const { services } = giftBot;
  const server = await startAdminApp(
    {
      token: config.telegram.token,
      isAdmin: (userId) => parts.access.isAdmin(userId),
      maxAgeSeconds: settings.maxAgeSeconds,
      records: parts.records,
      reads: storage.adminReads,
      desk: parts.desk,
      giveaways: parts.giveawayRunner,
      lease: {
        self: lease.owner,
        holder: async () => storage.senderLease.holder(),
        holdsLease: lease.holds,
      },
      lastBackupAt: parts.lastBackupAt,
      backupsKept: storage.backup !== undefined,
      texts: {
        locales: services.i18n.locales,
        t: (locale, key, variables) => services.i18n.t(locale, key, variables),
        preferred: (userId) => services.settings.preferredLanguage(userId),
      },
      names: (ids) =>
        services.people.render((names) => new Map(ids.flatMap((id) => nameEntry(id, names(id))))),
      purchasesReopened: () => giftBot.purchasesReopened(),
      explorerUrl: config.reports.explorerUrl,
      clock: parts.clock,
      logger,
    },
    { host: config.run.host, port: settings.port },
  );
  logger.info({ listening: server.url, url: settings.url }, "admin app listening");
  return server;
}

function nameEntry(id: number, name: string | undefined): [number, string][] {
  return name === undefined ? [] : [[id, name]];
}
