/**
 * The storage on PostgreSQL, for several replicas on one database, over one `pg` pool per
 * process. Opening migrates the schema once, however many replicas start together
 * (./migrate.ts). Nothing secret is stored: the ledger keeps what SQLite keeps.
 */
import { storageOn } from "../storage.js";
import type { Storage } from "../types.js";
import type { CommitCheck } from "./commit.js";
import { openPool, type SessionLimits } from "./connection.js";
import { PostgresDatabase } from "./driver.js";
import { migratePostgres } from "./migrate.js";

export interface PostgresStorageOptions {
  /** Connections in this process's pool (default 10). */
  maxConnections?: number;
  /** How long a session may idle in a transaction or wait for a lock (./connection.ts). */
  sessionLimits?: SessionLimits;
  /** How long a new connection may take before it fails (default 5 s). */
  connectTimeoutMs?: number;
  /** How long a COMMIT whose answer was lost is looked into (./commit.ts; about 6 s). */
  commitCheck?: CommitCheck;
  /** How long {@link Storage.isUp} waits for the database's answer before saying down (2 s). */
  isUpTimeoutMs?: number;
}

const DEFAULT_IS_UP_TIMEOUT_MS = 2_000;

/**
 * Connects to the database at `url` (a `postgres://` URL), migrates it, and answers the
 * storage. Throws, with the pool closed, when the database cannot be reached or migrated.
 */
export async function openPostgresStorage(
  url: string,
  options: PostgresStorageOptions = {},
): Promise<Storage> {
  const { maxConnections, connectTimeoutMs, isUpTimeoutMs, ...settings } = options;
  const pool = openPool(url, { max: maxConnections ?? 10, connectTimeoutMs });
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  const db = new PostgresDatabase(pool, {
    ...settings,
    isUpTimeoutMs: isUpTimeoutMs ?? DEFAULT_IS_UP_TIMEOUT_MS,
  });
  // Backed up by other means (pg_dump, the database service's own backups).
  return storageOn(db);
}
