/**
 * Purchase slots reserved ahead of their request (the desk claims a purchase only once it holds
 * one), and the giveaway's `bulk` purchases that go after everyone and leave the last slots of
 * the window to people. Through the real client and the sandbox on 127.0.0.1; the scheduler's
 * own order through the scheduler itself. Every wait here ends on an event (a slot given back,
 * an answer), never on a timer the test guesses.
 */
import { describe, expect, it } from "vitest";
import { QuotaScheduler } from "../../src/service/quota.js";
import { clientFor, sandboxForTest } from "../helpers/service.js";

function queuedSignal(): { told: Promise<number>; onQueued: (ms: number) => void } {
  let onQueued!: (ms: number) => void;
  const told = new Promise<number>((resolve) => (onQueued = resolve));
  return { told, onQueued };
}

describe("purchase slots reserved ahead", () => {
  it("the purchase goes at once in its slot; a slot given back was never counted", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { quota: { limit: 1, windowMs: 60_000 } });
    const slot = await client.reservePurchase();
    // The window's one slot is taken: a read would wait about a minute.
    expect(client.quotaSnapshot().usedSlots).toBe(1);
    expect(client.estimateWait("read")).toBeGreaterThan(55_000);
    slot.giveBack();
    slot.giveBack();
    expect(client.quotaSnapshot().usedSlots).toBe(0);
    expect(client.estimateWait("read")).toBe(0);

    const second = await client.reservePurchase();
    expect(await second.ready()).toBe(true);
    expect(
      await client.buyStars({ username: "alice", amount: 50 }, { slot: second }),
    ).toMatchObject({ kind: "success" });
    // Used once: the same slot again sends nothing.
    expect(
      await client.buyStars({ username: "alice", amount: 50 }, { slot: second }),
    ).toMatchObject({ kind: "invalid", field: "request" });
    expect(sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("input the client refuses gives its slot back", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { quota: { limit: 1, windowMs: 60_000 } });
    const slot = await client.reservePurchase();
    expect(await client.buyStars({ username: "no", amount: 50 }, { slot })).toMatchObject({
      kind: "invalid",
      field: "username",
    });
    expect(client.quotaSnapshot().usedSlots).toBe(0);
    expect(sandbox.requests).toHaveLength(0);
  });

  it("waits its turn when the window is full, and is cancelled by stopPurchases as never sent", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { quota: { limit: 1, windowMs: 60_000 } });
    const blocker = await client.reservePurchase();
    const first = queuedSignal();
    const waiting = client.reservePurchase({ onQueued: first.onQueued });
    expect(await first.told).toBeGreaterThan(55_000);
    // The slot given back goes to the one waiting, at once.
    blocker.giveBack();
    const granted = await waiting;
    expect(client.quotaSnapshot().usedSlots).toBe(1);

    const second = queuedSignal();
    const stopped = client.reservePurchase({ onQueued: second.onQueued }).catch((e: unknown) => e);
    await second.told;
    client.stopPurchases();
    expect(await stopped).toMatchObject({ reason: "stopped", sent: false });
    // A slot granted but not yet used is not ready any more, and is free again.
    expect(await granted.ready()).toBe(false);
    expect(client.quotaSnapshot().usedSlots).toBe(0);
    await expect(client.reservePurchase()).rejects.toMatchObject({ reason: "stopped" });
    expect(sandbox.requests).toHaveLength(0);
  });

  it("a hold that began after the grant: ready() waits for it to end, and a stop ends the wait", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { quota: { limit: 5, windowMs: 60_000 }, readRetries: 0 });
    const slot = await client.reservePurchase();
    sandbox.injectFault(
      { type: "status", status: 429, body: { ok: false, error: "FLOOD_WAIT", retry_after: 1 } },
      { path: "/get-user-info/" },
    );
    expect(await client.getUserInfo("alice")).toMatchObject({ kind: "rate_limited" });
    expect(client.quotaSnapshot().retryWaitMs).toBeGreaterThan(0);
    expect(await slot.ready()).toBe(true);
    // It resolved only once the hold was over.
    expect(client.quotaSnapshot().retryWaitMs).toBe(0);
    slot.giveBack();

    const later = await client.reservePurchase();
    sandbox.injectFault(
      { type: "status", status: 429, body: { ok: false, error: "FLOOD_WAIT", retry_after: 600 } },
      { path: "/get-user-info/" },
    );
    await client.getUserInfo("bob_gift");
    const ready = later.ready();
    client.stopPurchases();
    expect(await ready).toBe(false);
    expect(sandbox.purchaseRequests()).toHaveLength(0);
  });
});

describe("bulk purchases (a giveaway's)", () => {
  it("go after every queued request, and never into the slots kept for people", async () => {
    const scheduler = new QuotaScheduler(
      { limit: 4, windowMs: 60_000, marginMs: 0, keptForPeople: 2 },
      () => performance.now(),
    );
    try {
      const served: string[] = [];
      const take = (label: string, priority: "purchase" | "read" | "bulk") =>
        scheduler.reserve(priority).then((grant) => {
          served.push(label);
          return grant;
        });
      // Bulk requests fill the window up to the bulk limit: two of four.
      const bulk = [take("bulk_1", "bulk"), take("bulk_2", "bulk"), take("bulk_3", "bulk")];
      const [first, second] = await Promise.all(bulk.slice(0, 2));
      expect(scheduler.snapshot().queued.bulk).toBe(1);
      // The slots kept for people are there for a person's read and purchase, at once.
      const read = await take("read", "read");
      const purchase = await take("purchase", "purchase");
      expect(served).toEqual(["bulk_1", "bulk_2", "read", "purchase"]);

      // The window is full; a person's read comes after the queued bulk one, yet goes first.
      const laterRead = take("later_read", "read");
      first?.giveBack();
      await laterRead;
      expect(served.at(-1)).toBe("later_read");
      expect(scheduler.snapshot().queued.bulk).toBe(1);
      // Bulk goes only once more than the slots kept for people (two) is free again: three of four.
      second?.giveBack();
      read.giveBack();
      expect(scheduler.snapshot().queued.bulk).toBe(1);
      purchase.giveBack();
      const third = await bulk[2];
      third?.release();
      expect(served.at(-1)).toBe("bulk_3");
    } finally {
      scheduler.close();
    }
  });

  it("are stopped at shutdown like any purchase, while reads go on", async () => {
    const scheduler = new QuotaScheduler({ limit: 1, windowMs: 60_000 }, () => performance.now());
    try {
      const blocker = await scheduler.reserve("read");
      const bulk = scheduler.reserve("bulk").catch((e: unknown) => e);
      const read = scheduler.reserve("read");
      scheduler.stopPurchases();
      expect(await bulk).toMatchObject({ reason: "stopped", sent: false });
      blocker.giveBack();
      (await read).release();
    } finally {
      scheduler.close();
    }
  });

  it("a giveaway's balance read goes as bulk too: never into the slots kept for people, stopped with purchases", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { quota: { limit: 3, windowMs: 60_000, keptForPeople: 1 } });
    await client.reservePurchase();
    await client.reservePurchase();
    // One slot is free, but it is kept for people: a person's read takes it, a giveaway's waits.
    const waits: number[] = [];
    const bulkRead = client
      .getWalletBalance({ bulk: true, onQueued: (ms) => waits.push(ms) })
      .catch((e: unknown) => e);
    expect(waits).toHaveLength(1);
    expect(client.quotaSnapshot().queued.bulk).toBe(1);
    expect(await client.getWalletBalance()).toMatchObject({ kind: "success" });
    client.stopPurchases();
    expect(await bulkRead).toMatchObject({ reason: "stopped", sent: false });
    expect(sandbox.requests.map((r) => r.path)).toEqual(["/wallet-balance/"]);
  });
});
