/**
 * Committing over a network, knowing whether it committed. The server may commit a transaction
 * and the connection break before its answer to COMMIT arrives: the caller then sees a lost
 * connection, which is transient, and the desk tries the write again. A second claim would
 * find its own first one (`sending`) and answer "already processing": a claimed purchase that
 * nobody sends, and every other purchase waiting behind it; a second outcome would be an
 * illegal move. SQLite never has this doubt (its commit is a local call).
 *
 * So, just before COMMIT, the transaction's id is read (null when it wrote nothing: then there
 * is nothing to doubt), and when COMMIT fails, another connection asks the server what became
 * of it (`pg_xact_status`, PostgreSQL 13 and later): committed is a success, aborted is the
 * COMMIT's own error (transient: nothing was written, trying again is safe). Still in progress
 * means the COMMIT has not arrived, or not yet been handled: that backend is ended, which settles
 * the transaction one way or the other, and the server is asked again. A server that cannot be
 * reached is asked again for a few seconds; when it still cannot be asked, the answer is an
 * error no caller retries ({@link CommitOutcomeUnknownError}).
 */
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { type Backoff, backoffDelay } from "../../shared/backoff.js";

/** The server could not say whether a transaction whose COMMIT went unanswered committed. */
export class CommitOutcomeUnknownError extends Error {
  constructor(cause: unknown) {
    super("the connection was lost during COMMIT and whether it committed could not be learnt", {
      cause,
    });
    this.name = "CommitOutcomeUnknownError";
  }
}

/** What {@link commitOrLearn} needs to settle a doubt: the transaction and its backend. */
export interface PendingCommit {
  /** The transaction's id (`xid8` as text); null when it wrote nothing. */
  xid: string | null;
  backendPid: number;
}

/** Reads what {@link learnCommitted} needs, inside the transaction, just before COMMIT. */
export async function pendingCommit(client: pg.PoolClient): Promise<PendingCommit> {
  const result = await client.query<{ xid: string | null; pid: number }>(
    "SELECT pg_current_xact_id_if_assigned()::text AS xid, pg_backend_pid() AS pid",
  );
  const row = result.rows[0];
  return { xid: row?.xid ?? null, backendPid: row?.pid ?? 0 };
}

/** How the server is asked again when it cannot be asked at once: `attempts` asks in all. */
export interface CommitCheck extends Backoff {
  attempts: number;
}

/** Six asks over about 6 s: a server's restart or a managed database's failover. */
export const DEFAULT_COMMIT_CHECK: Readonly<CommitCheck> = {
  attempts: 6,
  firstDelayMs: 200,
  maxDelayMs: 3_200,
};

/**
 * After a COMMIT that threw `commitError` (its client already given back): true when the
 * transaction committed all the same; throws `commitError` when it did not, and
 * {@link CommitOutcomeUnknownError} when the server cannot tell. A server that cannot be
 * reached (the COMMIT's connection was often lost with it: a restart, a failover) is asked
 * again, with growing pauses, as `check` says.
 */
export async function learnCommitted(
  pool: pg.Pool,
  pending: PendingCommit,
  commitError: unknown,
  check: Readonly<CommitCheck> = DEFAULT_COMMIT_CHECK,
): Promise<true> {
  if (pending.xid === null) throw commitError;
  let lastCheckError: unknown;
  for (let attempt = 1; attempt <= Math.max(1, check.attempts); attempt++) {
    if (attempt > 1) await sleep(backoffDelay(check, attempt - 1));
    let status: string | null;
    try {
      status = await settledStatus(pool, pending.xid, pending.backendPid);
    } catch (checkError) {
      lastCheckError = checkError;
      continue;
    }
    if (status === "committed") return true;
    if (status === "aborted") throw commitError;
    throw new CommitOutcomeUnknownError(commitError);
  }
  throw new CommitOutcomeUnknownError(lastCheckError);
}

/** The transaction's status, once settled: still in progress, its backend is ended first. */
async function settledStatus(
  pool: pg.Pool,
  xid: string,
  backendPid: number,
): Promise<string | null> {
  const status = await statusOf(pool, xid);
  if (status !== "in progress") return status;
  // Ending the backend settles it: committed if its COMMIT got through, else rolled back.
  await pool.query("SELECT pg_terminate_backend($1, 5000)", [backendPid]);
  return statusOf(pool, xid);
}

async function statusOf(pool: pg.Pool, xid: string): Promise<string | null> {
  const result = await pool.query<{ status: string | null }>(
    "SELECT pg_xact_status($1::xid8) AS status",
    [xid],
  );
  return result.rows[0]?.status ?? null;
}
