/**
 * The PostgreSQL implementation of {@link Storage}, for several replicas on one database: the
 * ledger, the books, the key-value namespaces, the access lists and the sender lease, over one
 * `pg` pool per process. Opening migrates the schema once, however many replicas start
 * together (./migrations.ts). Nothing secret is stored: the ledger keeps what SQLite keeps.
 */
import type pg from "pg";
import type { Storage } from "../types.js";
import { PostgresAccessStore } from "./access-store.js";
import { PostgresAccounts } from "./accounts.js";
import { PostgresAdminReads } from "./admin-reads.js";
import { PostgresGiveawayBatches } from "./giveaway-batches.js";
import type { CommitCheck } from "./commit.js";
import { openPool, type SessionLimits } from "./connection.js";
import { PostgresKeyValueStore } from "./key-value-store.js";
import { PostgresLedger } from "./ledger.js";
import { migratePostgres } from "./migrations.js";
import { PostgresSenderLease } from "./sender-lease.js";

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
  const { maxConnections, isUpTimeoutMs, ...poolOptions } = options;
  const pool = openPool(url, { ...poolOptions, max: maxConnections ?? 10 });
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  let open = true;
  let accounts: PostgresAccounts | undefined;
  return {
    openLedger: (settings) => new PostgresLedger(pool, settings),
    openAccounts: () => (accounts ??= new PostgresAccounts(pool)),
    giveaways: new PostgresGiveawayBatches(pool),
    adminReads: new PostgresAdminReads(pool),
    keyValues: <T>(namespace: string) => new PostgresKeyValueStore<T>(pool, namespace),
    access: new PostgresAccessStore(pool),
    senderLease: new PostgresSenderLease(pool),
    // Backed up by other means (pg_dump, the database service's own backups).
    backup: undefined,
    isUp: () => (open ? answersWithin(pool, isUpTimeoutMs ?? DEFAULT_IS_UP_TIMEOUT_MS) : false),
    isOpen: () => open,
    close: async () => {
      if (!open) return;
      open = false;
      await pool.end();
    },
  };
}

/**
 * Whether the database answers a trivial query within `ms`. A database that fell silent
 * (no reset, only silence) would otherwise keep the health check, and every /healthz request
 * waiting on it, hanging for as long as the system takes to give up on the connection.
 */
async function answersWithin(pool: pg.Pool, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const answer = pool.query("SELECT 1").then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}
