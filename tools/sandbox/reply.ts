/**
 * What the sandbox answers, before it is written to a socket: a status, a body (JSON unless it
 * is a string) and extra headers. Handlers return replies so they stay pure and testable.
 */

/** One answer of the simulated service. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** The service's failure body: `{ ok: false, error, reason }`. */
export function failure(status: number, error: string, reason: string): Reply {
  return { status, body: { ok: false, error, reason } };
}
