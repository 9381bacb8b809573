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

/** Whether a write that threw may succeed if tried again (see the ledger's isTransientWriteError). */
export function isTransientPostgresError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string") return false;
  return TRANSIENT_CODES.has(code) || code.startsWith("08") || TRANSIENT_NODE_CODES.has(code);
}
