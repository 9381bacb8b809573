/**
 * The admins' Mini App in the app (src/admin-app): built from the app's parts when
 * ADMIN_APP_PORT is set, started with the probes (a replica on standby answers reads too) and
 * closed first at a stop, so no decision comes in while the bot winds down.
 */
import { type AdminAppServer, startAdminApp } from "../admin-app/server.js";
import type { GiftBot } from "../bot/index.js";
import type { Config } from "../config/index.js";
import type { AccessList } from "../access/access-list.js";
import type { PurchaseDesk } from "../purchases/types.js";
import type { BackupSchedule } from "../run/backups.js";
import type { Storage } from "../storage/types.js";
import type { AppLease } from "./lease.js";

export interface AdminAppParts {
  config: Config;
  storage: Storage;
  desk: PurchaseDesk;
  access: AccessList;
  lease: AppLease;
  /** The bot's services (records, i18n, names, clock, logger) and its giveaways' runner. */
  giftBot: GiftBot;
  backups: BackupSchedule | undefined;
}

/** Starts the app's server on HOST:ADMIN_APP_PORT; undefined when no port is set. */
export async function startAdminAppOf(parts: AdminAppParts): Promise<AdminAppServer | undefined> {
  const { config, storage, giftBot, lease } = parts;
  const settings = config.adminApp;
  if (settings === undefined) return undefined;
  const { services } = giftBot;
  const { logger } = services;
  const server = await startAdminApp(
    {
      token: config.telegram.token,
      isAdmin: (userId) => parts.access.isAdmin(userId),
      maxAgeSeconds: settings.maxAgeSeconds,
      records: services.records,
      reads: storage.adminReads,
      desk: parts.desk,
      giveaways: giftBot.giveawaySending.runner,
      lease: {
        self: lease.owner,
        holder: async () => storage.senderLease.holder(),
        holdsLease: lease.holds,
      },
      lastBackupAt: () => parts.backups?.lastGoodAt,
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
      clock: services.now,
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
