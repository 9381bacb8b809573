/**
 * Opening the app on the configured store. PostgreSQL (DATABASE_URL) is opened first, since its
 * pool connects and migrates asynchronously, and the app is built on it; without DATABASE_URL
 * the app opens its SQLite file itself, as it always has.
 */
import type { Config } from "../config/index.js";
import { openPostgresStorage } from "../storage/postgres/storage.js";
import { describeDatabaseUrl } from "../shared/database-url.js";
import { type App, type AppOverrides, createApp } from "./app.js";

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
 * Builds the app on PostgreSQL when DATABASE_URL is set (opened and migrated first: throws
 * {@link DatabaseUnreachableError} when it cannot be), otherwise on the SQLite file.
 */
export async function openApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  const url = config.ledger.databaseUrl;
  if (url === undefined || overrides.storage !== undefined) return createApp(config, overrides);
  const storage = await openPostgresStorage(url).catch((error: unknown) => {
    throw new DatabaseUnreachableError(
      describeDatabaseUrl(url),
      error instanceof Error ? error.message : String(error),
    );
  });
  try {
    return createApp(config, { ...overrides, storage });
  } catch (error) {
    await storage.close();
    throw error;
  }
}
