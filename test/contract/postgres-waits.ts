/**
 * Waiting, without sleeping, for a PostgreSQL backend to stand in a lock queue: the tests that
 * put a statement behind a lock they hold ask the server when it is queued, then act. Only the
 * test's own database is looked at: the cluster is shared by the test files running at once.
 */
import pg from "pg";

/**
 * Resolves once at least `count` backends other than `exceptPid` wait for a lock of this
 * `wait_event` (a row lock held by a transaction: "transactionid"; an advisory lock).
 */
export async function untilBackendWaits(
  url: string,
  waitEvent: "advisory" | "transactionid",
  exceptPid = 0,
  count = 1,
): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (;;) {
      const waiting = await client.query(
        `SELECT 1 FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = $1 AND pid <> $2 AND pid <> pg_backend_pid()`,
        [waitEvent, exceptPid],
      );
      if ((waiting.rowCount ?? 0) >= count) return;
    }
  } finally {
    await client.end();
  }
}

/** A direct client inside an open transaction, to hold locks until `release`. */
export async function lockHolder(
  url: string,
): Promise<{ client: pg.Client; pid: number; release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("BEGIN");
  const pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
  const release = async (): Promise<void> => {
    await client.query("ROLLBACK");
    await client.end();
  };
  return { client, pid, release };
}
