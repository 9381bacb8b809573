/**
 * The facts about a configuration that are safe to log or show an admin: no token, phrase,
 * cookie, key, proxy or webhook secret, only whether the optional ones are set.
 */
import { describeDatabaseUrl } from "../shared/database-url.js";
import { withoutCredentials } from "../shared/url-credentials.js";
import type { Config } from "./types.js";

export interface ConfigSummary {
  mode: Config["run"]["mode"];
  walletAddress: string | undefined;
  walletAddressSource: Config["wallet"]["addressSource"];
  walletVersion: Config["wallet"]["version"];
  effectiveWalletVersion: Config["wallet"]["effectiveVersion"];
  paymentMethod: Config["wallet"]["paymentMethod"];
  serviceUrl: string;
  telegramApiRoot: string | undefined;
  /** The SQLite file, or where PostgreSQL is (host, port, database: no user or password). */
  database: string;
  admins: number;
  publicPurchases: boolean;
  providerApiKey: boolean;
  upstreamProxy: boolean;
  tonApi: boolean;
}

/** Builds the start-up log line's fields from `config`, leaving every secret out. */
export function configSummary(config: Config): ConfigSummary {
  return {
    mode: config.run.mode,
    walletAddress: config.wallet.address,
    walletAddressSource: config.wallet.addressSource,
    walletVersion: config.wallet.version,
    effectiveWalletVersion: config.wallet.effectiveVersion,
    paymentMethod: config.wallet.paymentMethod,
    serviceUrl: withoutCredentials(config.service.baseUrl),
    telegramApiRoot: config.telegram.apiRoot && withoutCredentials(config.telegram.apiRoot),
    database:
      config.ledger.databaseUrl === undefined
        ? config.ledger.databasePath
        : describeDatabaseUrl(config.ledger.databaseUrl),
    admins: config.access.adminIds.length,
    publicPurchases: config.access.publicPurchases,
    providerApiKey: config.service.apiKey !== undefined,
    upstreamProxy: config.service.proxy !== undefined,
    tonApi: config.ledger.tonApi !== undefined,
  };
}
