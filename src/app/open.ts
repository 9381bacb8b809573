/**
 * Opening the app: the configured store first (PostgreSQL with DATABASE_URL, its pool connected
 * and migrated; otherwise the SQLite file at DATABASE_PATH, checked and migrated), then the app
 * built on it. The one way `main`, the tests and the bench build the bot.
 */
import type { Config } from "../config/index.js";
import { describeDatabaseUrl } from "../shared/database-url.js";
import { openPostgresStorage } from "../storage/postgres/open.js";
import { openSqliteStorage } from "../storage/sqlite/open.js";
import type { Storage } from "../storage/types.js";
import { buildApp } from "./app.js";
import type { App, AppOverrides } from "./types.js";

/** PostgreSQL could not be reached or migrated at start: nothing was built. */
export class DatabaseUnreachableError extends Error {
  override readonly name = "DatabaseUnreachableError";
  /** The exit code `main` ends with: a supervisor may try again once the database is up. */
  static readonly exitCode = 5;

  constructor(
    /** Where the database is, without its user or password. */
    readonly where: string,
    /** The driver's reason (it never holds the URL's password). */
    readonly reason: string,
  ) {
    super(`the PostgreSQL database at ${where} cannot be reached or migrated (${reason})`);
  }
}

/**
 * Opens the configured store and builds the app on it. Throws {@link DatabaseUnreachableError}
 * when PostgreSQL cannot be reached or migrated, and the SQLite file's own errors
 * (src/storage/sqlite/errors.ts) when it is damaged or newer than this bot.
 */
export async function openApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  const storage = overrides.storage ?? (await openStore(config, overrides));
  try {
    return buildApp(config, overrides, storage);
  } catch (error) {
    await storage.close();
    throw error;
  }
}

async function openStore(config: Config, overrides: AppOverrides): Promise<Storage> {
  const url = config.ledger.databaseUrl;
  if (url === undefined) {
    return (overrides.openStorage ?? openSqliteStorage)(config.ledger.databasePath);
  }
  return openPostgresStorage(url).catch((error: unknown) => {
    throw new DatabaseUnreachableError(
      describeDatabaseUrl(url),
      error instanceof Error ? error.message : String(error),
    );
  });
}
