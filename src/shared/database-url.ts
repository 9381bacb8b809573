/**
 * What may be said about a PostgreSQL URL in a log line or an admin's message: its host, port
 * and database, never its user or password (a URL's password is a secret like any other).
 */

/** `postgresql://host:port/database` from a `postgres://user:password@host:port/database?…` URL. */
export function describeDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(an unreadable URL)";
  }
  const host = parsed.hostname === "" ? "(local socket)" : parsed.hostname;
  const port = parsed.port === "" ? "" : `:${parsed.port}`;
  return `postgresql://${host}${port}${parsed.pathname}`;
}
