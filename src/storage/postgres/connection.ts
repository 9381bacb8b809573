/**
 * The connection to PostgreSQL: one `pg` pool per process, and which of its errors may pass if a
 * write is tried again. Times (ms since the epoch) and Telegram ids are BIGINT columns, read back
 * as numbers: every one of them is below 2^53.
 */
import pg from "pg";

const BIGINT_OID = 20;

/** `pg`'s parsers, with BIGINT as a number instead of a string (for this pool only). */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary"): unknown =>
    oid === BIGINT_OID && format !== "binary"
      ? (value: string): number => Number(value)
      : (pg.types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
};

/**
 * How long one transaction may hold or wait for the ledger's locks. Replicas share the ledger
 * gate (src/storage/db/port.ts `gated`): one stopped in the middle of a transaction (frozen, cut off from the
 * database, its process stopped) would keep every other replica's claims and outcomes waiting
 * until the server's TCP keepalive noticed, two hours by default. The server ends a session
 * idle in its transaction for `idleInTransactionMs` (the transaction rolled back, the gate let
 * go), and a lock waited for longer than `lockWaitMs` fails with 55P03, a transient error the
 * desk tries again. The gate is held for milliseconds; `lockWaitMs` is the longer, so a claim
 * waiting behind a stopped replica goes through once the server has ended that one's session.
 */
export interface SessionLimits {
  idleInTransactionMs: number;
  lockWaitMs: number;
}

export const DEFAULT_SESSION_LIMITS: Readonly<SessionLimits> = {
  idleInTransactionMs: 10_000,
  lockWaitMs: 15_000,
};

/**
 * BEGIN and `limits`, SET LOCAL (for this transaction only, so they hold through a connection
 * pooler in transaction mode as well, and never bound the migrations' wait for another
 * replica), in the same round trip.
 */
export function beginWith(limits: Readonly<SessionLimits>): string {
  return (
    `BEGIN; SET LOCAL lock_timeout = ${Math.trunc(limits.lockWaitMs)}; ` +
    `SET LOCAL idle_in_transaction_session_timeout = ${Math.trunc(limits.idleInTransactionMs)}`
  );
}

/**
 * How long a new connection may take to be ready before it fails (transient): 5 s. `pg` bounds
 * with it, too, the wait for a free connection of a full pool (also transient: tried again).
 */
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

export function openPool(
  url: string,
  options: { max?: number; connectTimeoutMs?: number | undefined } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types,
    // A database that falls silent (a host gone, a partition) sends no reset: without a
    // bound a new connection waits for it forever, and the start or the request with it.
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // So that the system finds a silent peer of an open connection in the end, too.
    keepAlive: true,
  });
  // An idle client that loses its connection emits here; without a listener the process dies.
  pool.on("error", () => undefined);
  return pool;
}

/**
 * SQLSTATE classes and codes that say "try again": a serialization failure or deadlock, a lock
 * not available, the server shutting down or out of connections, a connection lost.
 */
const TRANSIENT_CODES = new Set([
  "40001",
  "40P01",
  "55P03",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  // The session ended by the server after idling in its transaction: rolled back, nothing kept.
  "25P03",
]);
const TRANSIENT_NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE"]);

/**
 * `pg`'s own errors for a connection lost or never made, which carry no code: the socket
 * closed under a query ("Connection terminated unexpectedly"), the pool's connect timeout, a
 * client that broke earlier.
 */
const TRANSIENT_PG_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
];

/** Whether a write that threw may succeed if tried again (see the ledger's isTransientWriteError). */
export function isTransientPostgresError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string") {
    return TRANSIENT_CODES.has(code) || code.startsWith("08") || TRANSIENT_NODE_CODES.has(code);
  }
  return (
    error instanceof Error && TRANSIENT_PG_MESSAGES.some((pattern) => pattern.test(error.message))
  );
}
