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

export function openPool(url: string, options: { max?: number } = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types });
  // An idle client that loses its connection emits here; without a listener the process dies.
  pool.on("error", () => undefined);
  return pool;
}

/**
 * SQLSTATE classes and codes that say "try again": a serialization failure or deadlock, a lock
 * not available, the server shutting down or out of connections, a connection lost.
 */
const TRANSIENT_CODES = new Set(["40001", "40P01", "55P03", "57P01", "57P02", "57P03", "53300"]);
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
