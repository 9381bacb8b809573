/**
 * When the database stalls under a confirmation: the claim of a queued confirmation meets a
 * real lock held by a second connection to the same file (or a real SqliteError raised inside
 * SQLite by test/helpers/write-fault.ts). The promise made to its person is kept: the claim is
 * retried and sent, or the queued row is closed as not sent before the person hears so, and a
 * later start never sends it. The event loop is never held while the lock lasts.
 */
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { silentLogger } from "../../src/shared/logger.js";
import { BreakerGuard } from "../../src/purchases/breaker-guard.js";
import type { BreakerOpening } from "../../src/purchases/breaker.js";
import type { PurchaseDesk, StorageFailure } from "../../src/purchases/types.js";
import type { Db } from "../../src/storage/sqlite/driver.js";
import { openDatabase } from "../../src/storage/sqlite/open.js";
import { installWriteFault } from "../helpers/write-fault.js";
import { type DeskFixture, deskFixture } from "../helpers/desk.js";

const STARS = "/buy-stars/";
const BEA = { userId: 2, chatId: 2, chatType: "private" } as const;

/** A second connection to the fixture's file, closed when the test ends. */
function secondConnection(path: string): Db {
  const db = openDatabase(path);
  onTestFinished(() => {
    if (db.inTransaction) db.exec("ROLLBACK");
    db.close();
  });
  return db;
}

/**
 * Ada's purchase goes out and is held a moment by the service; Bea confirms meanwhile and is
 * queued. `afterFirst` runs inside the purchase lane right after Ada's outcome is recorded and
 * before Bea's claim (the desk tells purchase-sent listeners there).
 */
async function queueBehindFirst(
  f: DeskFixture,
  afterFirst: () => void,
): Promise<{ bea: string; result: ReturnType<PurchaseDesk["confirm"]> }> {
  const ada = await f.starsDraft();
  const bea = await f.starsDraft({ requester: BEA });
  f.sandbox.injectFault({ type: "delay", ms: 150 }, { path: STARS });
  let once = false;
  f.desk.events.on("sent", () => {
    if (once) return;
    once = true;
    afterFirst();
  });
  const first = f.desk.confirm(ada.id, 1);
  await f.sandbox.waitForRequests(1, STARS);
  let queued!: () => void;
  const queuedFor = new Promise<void>((resolve) => (queued = resolve));
  const result = f.desk.confirm(bea.id, BEA.userId, { onQueued: () => queued() });
  await queuedFor;
  expect((await f.records.getIntent(bea.id))?.status).toBe("queued");
  expect((await first).kind).toBe("succeeded");
  return { bea: bea.id, result };
}

describe("a queued confirmation whose claim the database refuses", () => {
  it("is claimed again once another connection lets go of the lock, and sent once", async () => {
    let holder: Db | undefined;
    const sleeps: number[] = [];
    const f = await deskFixture({
      desk: {
        storageRetry: {
          sleep: (ms) => {
            sleeps.push(ms);
            if (sleeps.length === 2) holder?.exec("COMMIT");
            return Promise.resolve();
          },
        },
      },
    });
    const failures: StorageFailure[] = [];
    f.desk.events.on("storageFailure", (failure) => failures.push(failure));
    const { bea, result } = await queueBehindFirst(f, () => {
      holder = secondConnection(f.path);
      holder.exec("BEGIN IMMEDIATE");
    });

    expect((await result).kind).toBe("succeeded");
    expect(sleeps).toEqual([100, 200]);
    // A lock that passed within the retries wakes nobody.
    expect(failures).toEqual([]);
    expect((await f.records.getIntent(bea))?.status).toBe("succeeded");
    expect(f.sandbox.purchaseRequests()).toHaveLength(2);
  });

  it("is closed as not sent when the lock outlasts the retries, and a later start sends nothing", async () => {
    let holder: Db | undefined;
    const sleeps: number[] = [];
    const f = await deskFixture({
      desk: {
        storageRetry: {
          sleep: (ms) => {
            sleeps.push(ms);
            // Five pauses between the six tries of the claim, then one before closing again.
            if (sleeps.length === 6) holder?.exec("COMMIT");
            return Promise.resolve();
          },
        },
      },
    });
    const { bea, result } = await queueBehindFirst(f, () => {
      holder = secondConnection(f.path);
      holder.exec("BEGIN IMMEDIATE");
    });

    expect(await result).toMatchObject({ kind: "closed", refusal: { reason: "storage" } });
    expect(await f.records.getIntent(bea)).toMatchObject({
      status: "rejected",
      outcomeDetail: "not sent: storage",
    });
    // A new process on the file finds no promise left to keep.
    const later = await (
      await f.secondDesk()
    ).resolveQueued({
      mayBuy: () => true,
      isAdmin: () => false,
    });
    expect(later).toEqual([]);
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("a permanent refusal (read-only) is not retried; the person is told once the promise has expired, and nothing sends it", async () => {
    let expiresAt = 0;
    const sleeps: number[] = [];
    const f: DeskFixture = await deskFixture({
      desk: {
        storageRetry: {
          sleep: (ms) => {
            sleeps.push(ms);
            // The database stays read-only; time passes beyond the confirmation's lifetime.
            if (sleeps.length === 3) f.clock.now = expiresAt;
            return Promise.resolve();
          },
        },
      },
    });
    const setFault = installWriteFault(f.db, "SQLITE_READONLY");
    const failures: StorageFailure[] = [];
    f.desk.events.on("storageFailure", (failure) => failures.push(failure));
    const { bea, result } = await queueBehindFirst(f, () => setFault(true));
    expiresAt = (await f.records.getIntent(bea))?.expiresAt ?? 0;

    expect(await result).toMatchObject({ kind: "closed", refusal: { reason: "storage" } });
    expect(failures[0]).toEqual({ operation: "claim", code: "SQLITE_READONLY", transient: false });
    expect(failures.slice(1).every((x) => x.operation === "close")).toBe(true);
    expect(sleeps).toHaveLength(3);
    expect((await f.records.getIntent(bea))?.status).toBe("queued");

    // Writable again: the next start closes the expired promise, it does not send it.
    setFault(false);
    const later = await f.desk.resolveQueued({ mayBuy: () => true, isAdmin: () => false });
    expect(later.map(({ result: r }) => r.kind)).toEqual(["closed"]);
    expect((await f.records.getIntent(bea))?.status).toBe("expired");
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("a queue write the database refuses leaves the summary a draft, to be pressed again", async () => {
    const f = await deskFixture({
      desk: { storageRetry: { attempts: 2, sleep: () => Promise.resolve() } },
    });
    const ada = await f.starsDraft();
    const bea = await f.starsDraft({ requester: BEA });
    f.sandbox.injectFault({ type: "delay", ms: 150 }, { path: STARS });
    const first = f.desk.confirm(ada.id, 1);
    await f.sandbox.waitForRequests(1, STARS);
    const holder = secondConnection(f.path);
    holder.exec("BEGIN IMMEDIATE");
    expect(await f.desk.confirm(bea.id, BEA.userId)).toEqual({
      kind: "refused",
      refusal: { reason: "storage" },
    });
    holder.exec("COMMIT");
    expect((await first).kind).toBe("succeeded");
    expect((await f.records.getIntent(bea.id))?.status).toBe("draft");
    expect((await f.desk.confirm(bea.id, BEA.userId)).kind).toBe("succeeded");
    expect(f.sandbox.purchaseRequests()).toHaveLength(2);
  });
});

describe("access re-checked when a queued confirmation's turn comes", () => {
  it("a person denied while their confirmation waited is not sent", async () => {
    const f = await deskFixture();
    const ada = await f.starsDraft();
    const bea = await f.starsDraft({ requester: BEA });
    f.sandbox.injectFault({ type: "delay", ms: 150 }, { path: STARS });
    let allowed = true;
    const first = f.desk.confirm(ada.id, 1);
    await f.sandbox.waitForRequests(1, STARS);
    let queued!: () => void;
    const queuedFor = new Promise<void>((resolve) => (queued = resolve));
    const result = f.desk.confirm(bea.id, BEA.userId, {
      onQueued: () => queued(),
      mayBuy: () => allowed,
    });
    await queuedFor;
    allowed = false; // an admin's /deny while Bea waits
    expect((await first).kind).toBe("succeeded");
    expect(await result).toMatchObject({ kind: "closed", refusal: { reason: "no_access" } });
    expect(await f.records.getIntent(bea.id)).toMatchObject({ status: "rejected" });
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
  });
});

describe("a locked database does not stall the process", () => {
  it("no timer waits anywhere near the second another connection holds the write lock", async () => {
    const f = await deskFixture();
    const holder = secondConnection(f.path);
    const intent = await f.starsDraft();
    // Timer lag, measured: a 10 ms interval's worst delay past its due time.
    let worstLagMs = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      worstLagMs = Math.max(worstLagMs, now - last - 10);
      last = now;
    }, 10);
    onTestFinished(() => clearInterval(ticker));

    holder.exec("BEGIN IMMEDIATE");
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        holder.exec("COMMIT");
        resolve();
      }, 1_000),
    );
    const result = await f.desk.confirm(intent.id, 1);
    await released;
    clearInterval(ticker);

    expect(result.kind).toBe("succeeded");
    // A wait inside SQLite (busy_timeout) would hold every timer for the whole second; the
    // bound is half of that, far from both it and the lag a loaded 2-core CI machine shows
    // (120 ms was seen with 100 as the bound).
    expect(worstLagMs).toBeLessThan(500);
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
  });
});

describe("the breaker's pause when the database refuses it", () => {
  it("is held in memory: the confirmation behind it is refused, admins are told, and the pause lands once the lock goes", async () => {
    const f = await deskFixture({ desk: { unrecordedRetry: { firstDelayMs: 5, maxDelayMs: 20 } } });
    const holder = secondConnection(f.path);
    // Registered before the guard: the lock is taken right before the breaker writes its pause.
    f.desk.events.on("sent", () => {
      if (!holder.inTransaction) holder.exec("BEGIN IMMEDIATE");
    });
    const failures: StorageFailure[] = [];
    f.desk.events.on("storageFailure", (failure) => failures.push(failure));
    const guard = new BreakerGuard({
      desk: f.desk,
      records: f.records,
      threshold: 3,
      clock: () => f.clock.now,
      logger: silentLogger,
    });
    guard.listen();
    const openings: BreakerOpening[] = [];
    guard.onOpened((opening) => {
      openings.push(opening);
      // The other connection lets go a moment after the pause was refused.
      setImmediate(() => holder.exec("COMMIT"));
    });
    f.sandbox.expireSession();
    const first = await f.starsDraft();
    const second = await f.starsDraft({ requester: BEA });

    const [firstResult, secondResult] = await Promise.all([
      f.desk.confirm(first.id, 1),
      f.desk.confirm(second.id, BEA.userId),
    ]);

    expect(firstResult.kind).toBe("rejected");
    expect(secondResult).toEqual({
      kind: "refused",
      refusal: { reason: "paused", source: "breaker" },
    });
    expect(openings).toHaveLength(1);
    expect(failures[0]).toEqual({ operation: "pause", code: "SQLITE_BUSY", transient: true });
    // Reopened as a draft (the pause passes when an admin resumes), not closed.
    expect((await f.records.getIntent(second.id))?.status).toBe("draft");
    await vi.waitFor(async () => expect((await f.records.pauseReason())?.source).toBe("breaker"), {
      timeout: 5_000,
    });
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
  });
});

describe("a 'not sent' the database refuses to record", () => {
  it("still tells the person nothing was sent, tells the admins, and lands once the database takes writes", async () => {
    const f = await deskFixture({
      desk: {
        outcomeWriteRetry: { attempts: 2, firstDelayMs: 1, maxDelayMs: 1 },
        unrecordedRetry: { firstDelayMs: 5, maxDelayMs: 20 },
      },
      // The client refuses the request before it leaves.
      wrapClient: (client) => ({
        ...client,
        buyStars: () =>
          Promise.resolve({ kind: "invalid", field: "amount", detail: "out of range" } as const),
      }),
    });
    const setFault = installWriteFault(f.db);
    const failures: StorageFailure[] = [];
    f.desk.events.on("storageFailure", (failure) => failures.push(failure));
    const intent = await f.starsDraft();

    const result = await f.desk.confirm(intent.id, 1, { onClaimed: () => setFault(true) });

    expect(result).toMatchObject({ kind: "not_sent", reason: "invalid" });
    expect(failures).toEqual([{ operation: "outcome", code: "SQLITE_IOERR", transient: true }]);
    expect((await f.records.getIntent(intent.id))?.status).toBe("sending");
    setFault(false);
    await vi.waitFor(
      async () => expect((await f.records.getIntent(intent.id))?.status).toBe("rejected"),
      {
        timeout: 5_000,
      },
    );
    expect(f.sandbox.purchaseRequests()).toHaveLength(0);
  });
});
