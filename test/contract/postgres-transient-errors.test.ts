/**
 * Which PostgreSQL failures the ledger calls transient (a write worth trying again), from real
 * failures: a connection lost in the middle of a claim (through a proxy the test cuts), a
 * backend terminated by the server, a server that refuses connections. A ledger refusal is
 * never transient. A cut claim commits nothing: the intent stays a draft.
 */
import { once } from "node:events";
import { createServer, type Server, type Socket, connect } from "node:net";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { IntentNotFoundError } from "../../src/ledger/errors.js";
import { isTransientPostgresError } from "../../src/storage/postgres/connection.js";
import { openPostgresStorage } from "../../src/storage/postgres/open.js";
import { NOON, starsDraft } from "../helpers/ledger.js";
import { freshMigratedPostgresDatabase } from "../helpers/postgres.js";
import { attempt } from "./ledger-fixture.js";
import { lockHolder, untilBackendWaits } from "./postgres-waits.js";

/** A TCP proxy to the database whose connections the test can cut at once. */
async function cuttableProxy(target: URL): Promise<{ url: string; cut: () => void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(Number(target.port), target.hostname);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => sockets.delete(socket));
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  const url = new URL(target);
  url.port = String(typeof address === "object" && address !== null ? address.port : 0);
  const cut = (): void => {
    for (const socket of sockets) socket.destroy();
  };
  onTestFinished(cut);
  return { url: url.toString(), cut };
}

/** A direct client holding the ledger gate in an open transaction, until `release`. */
async function holdGate(url: string): Promise<{ release: () => Promise<void>; pid: number }> {
  const holder = await lockHolder(url);
  await holder.client.query("SELECT pg_advisory_xact_lock(7460215002)");
  return holder;
}

/** Waits until a claim waits at the ledger gate. */
const untilWaitingOnGate = (url: string): Promise<void> => untilBackendWaits(url, "advisory");

describe("PostgreSQL failures the ledger tries again, and the ones it does not", () => {
  it("a connection lost in the middle of a claim is transient, and commits nothing", async () => {
    const url = await freshMigratedPostgresDatabase();
    const proxy = await cuttableProxy(new URL(url));
    const direct = await openPostgresStorage(url, { maxConnections: 2 });
    onTestFinished(() => direct.close());
    const cutOff = await openPostgresStorage(proxy.url, { maxConnections: 2 });
    onTestFinished(() => cutOff.close());
    const ledger = cutOff.openLedger({ clock: () => NOON });
    const intent = await ledger.createDraft(starsDraft());

    const gate = await holdGate(url);
    const claim = attempt(() => ledger.claim(intent.id, 1));
    const failure = claim.then(
      () => undefined,
      (error: unknown) => error,
    );
    await untilWaitingOnGate(url);
    proxy.cut();
    const error = await failure;
    await gate.release();
    expect(error).toBeInstanceOf(Error);
    expect(ledger.isTransientWriteError(error)).toBe(true);
    const seen = direct.openLedger({ clock: () => NOON });
    expect((await seen.get(intent.id))?.status).toBe("draft");
    expect(await seen.sendingCount()).toBe(0);
  });

  it("a backend the server terminates, and a server refusing connections, are transient", async () => {
    const url = await freshMigratedPostgresDatabase();
    const storage = await openPostgresStorage(url, { maxConnections: 2 });
    onTestFinished(() => storage.close());
    const ledger = storage.openLedger({ clock: () => NOON });
    const intent = await ledger.createDraft(starsDraft());
    const gate = await holdGate(url);
    const failure = attempt(() => ledger.claim(intent.id, 1)).then(
      () => undefined,
      (error: unknown) => error,
    );
    await untilWaitingOnGate(url);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'
         AND pid <> $1`,
      [gate.pid],
    );
    await admin.end();
    const terminated = await failure;
    await gate.release();
    expect((terminated as { code?: string }).code).toBe("57P01");
    expect(ledger.isTransientWriteError(terminated)).toBe(true);

    const closedPort = new URL(url);
    closedPort.port = "1";
    const refused = await openPostgresStorage(closedPort.toString()).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isTransientPostgresError(refused)).toBe(true);
  });

  it("a ledger refusal is never transient", async () => {
    const url = await freshMigratedPostgresDatabase();
    const storage = await openPostgresStorage(url, { maxConnections: 2 });
    onTestFinished(() => storage.close());
    const ledger = storage.openLedger({ clock: () => NOON });
    const refusal = await attempt(() => ledger.resolve("no-such-intent", 1, true)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(IntentNotFoundError);
    expect(ledger.isTransientWriteError(refusal)).toBe(false);
  });
});
