/**
 * How long one transaction may hold or wait for the ledger's locks. Replicas share the ledger gate:
 * one stopped in the middle of a transaction (frozen, cut off, its process stopped) must not
 * keep every other replica's claims and outcomes waiting until the server's TCP keepalive
 * notices, two hours by default. The server ends a session idle in its transaction for too long
 * (the gate let go), and a lock waited for too long is a transient error the desk tries again.
 * The migrations' lock is waited for as long as another replica migrates.
 */
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { isTransientPostgresError, openPool } from "../../src/storage/postgres/connection.js";
import { PostgresDatabase } from "../../src/storage/postgres/driver.js";
import { openPostgresStorage } from "../../src/storage/postgres/open.js";
import { NOON, starsDraft } from "../helpers/ledger.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";

const LEDGER_GATE_KEY = 7_460_215_002;
const MIGRATION_LOCK_KEY = 7_460_215_001;

async function rawClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  onTestFinished(() => client.end().catch(() => undefined));
  return client;
}

/** Resolves once some backend has waited for an advisory lock longer than `ms`. */
async function waitedOnAdvisoryLock(url: string, ms: number): Promise<void> {
  const watcher = await rawClient(url);
  for (;;) {
    const waiting = await watcher.query(
      `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'
         AND clock_timestamp() - query_start > make_interval(secs => $1::float8 / 1000)`,
      [ms],
    );
    if ((waiting.rowCount ?? 0) > 0) return;
  }
}

describe("PostgreSQL: how long a session may hold or wait for the ledger's locks", () => {
  it("a replica stopped in the middle of a transaction holds the gate only until the server ends its session", async () => {
    const url = await freshPostgresDatabase();
    // This replica's own transactions keep the default limits: only the stopped one's are short
    // (a busy machine may pause a live transaction longer than 300 ms).
    const storage = await openPostgresStorage(url, { maxConnections: 2 });
    onTestFinished(() => storage.close());
    const ledger = storage.openLedger({ clock: () => NOON });
    const intent = await ledger.createDraft(starsDraft());

    // Another replica, stopped in the middle of a transaction that took
    // the gate; it wakes once the claim above went through.
    const otherReplica = openPool(url, { max: 1 });
    onTestFinished(() => otherReplica.end());
    let gateTaken!: () => void;
    const taken = new Promise<void>((resolve) => (gateTaken = resolve));
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const stopped = new PostgresDatabase(otherReplica, {
      isUpTimeoutMs: 2_000,
      sessionLimits: { idleInTransactionMs: 300, lockWaitMs: 10_000 },
    })
      .gated(async (tx) => {
        gateTaken();
        await woken;
        await tx.rows("SELECT 1");
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    await taken;

    expect(await ledger.claim(intent.id, 1)).toMatchObject({ ok: true });
    wake();
    // What it hears when it wakes is an error worth trying again: its transaction is gone.
    const heard = await stopped;
    expect(heard).toBeInstanceOf(Error);
    expect(isTransientPostgresError(heard)).toBe(true);
  });

  it("a claim kept waiting at the gate too long fails as transient, with nothing written", async () => {
    const url = await freshPostgresDatabase();
    const storage = await openPostgresStorage(url, {
      maxConnections: 2,
      sessionLimits: { idleInTransactionMs: 10_000, lockWaitMs: 200 },
    });
    onTestFinished(() => storage.close());
    const ledger = storage.openLedger({ clock: () => NOON });
    const intent = await ledger.createDraft(starsDraft());
    const holder = await rawClient(url);
    await holder.query("BEGIN");
    await holder.query("SELECT pg_advisory_xact_lock($1)", [LEDGER_GATE_KEY]);

    const failure = await Promise.resolve(ledger.claim(intent.id, 1)).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect((failure as { code?: string }).code).toBe("55P03");
    expect(ledger.isTransientWriteError(failure)).toBe(true);
    await holder.query("ROLLBACK");
    expect((await ledger.get(intent.id))?.status).toBe("draft");
  });

  it("a replica waits for another's migrations however long they take", async () => {
    const url = await freshPostgresDatabase();
    const migrating = await rawClient(url);
    await migrating.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    const lockWaitMs = 100;
    const opening = openPostgresStorage(url, {
      maxConnections: 2,
      sessionLimits: { idleInTransactionMs: 10_000, lockWaitMs },
    });
    const opened = opening.then(
      (storage) => {
        onTestFinished(() => storage.close());
        return storage;
      },
      (error: unknown) => error,
    );

    // Waited three times the lock wait, or gave up first (then said below).
    await Promise.race([waitedOnAdvisoryLock(url, lockWaitMs * 3), opened]);
    await migrating.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);

    const storage = await opened;
    expect(storage).not.toBeInstanceOf(Error);
  });
});
