import { describe, expect, it } from "vitest";
import { GiftServiceCallCancelledError } from "../../src/service/client.js";
import { clientFor, sandboxForTest } from "../helpers/service.js";

describe("stopPurchases (shutdown's first step)", () => {
  it("cancels queued and later purchases as never sent; the one in flight completes; reads go on", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "0", usdt: "10" } });
    // One request per short window: while the first purchase is in flight, the next one waits.
    const client = clientFor(sandbox, { quota: { limit: 1, windowMs: 300, marginMs: 10 } });
    sandbox.injectFault({ type: "delay", ms: 200 }, { path: "/buy-stars/" });
    const inFlight = client.buyStars({ username: "alice", amount: 100 });
    await sandbox.waitForRequests(1, "/buy-stars/");

    let queued!: () => void;
    const wasQueued = new Promise<void>((resolve) => (queued = resolve));
    const waiting = client
      .buyStars({ username: "bob_gift", amount: 50 }, { onQueued: () => queued() })
      .catch((error: unknown) => error);
    await wasQueued;

    client.stopPurchases();
    const cancelled = await waiting;
    expect(cancelled).toBeInstanceOf(GiftServiceCallCancelledError);
    expect(cancelled).toMatchObject({ reason: "stopped", sent: false });

    // A later purchase is refused at once, without waiting for the quota.
    const told: number[] = [];
    await expect(
      client.buyPremium(
        { username: "carol_gift", duration: 3 },
        { onQueued: (ms) => told.push(ms) },
      ),
    ).rejects.toMatchObject({
      name: "GiftServiceCallCancelledError",
      reason: "stopped",
      sent: false,
    });
    expect(told).toEqual([]);

    // The purchase already sent is untouched: it ends in its real outcome.
    expect(await inFlight).toMatchObject({ kind: "success" });
    // Reads are still served (after the in-flight purchase frees the quota).
    expect(await client.getWalletBalance()).toMatchObject({ kind: "success" });
    expect(await client.getUserInfo("dave_gift")).toMatchObject({ kind: "success" });

    expect(sandbox.purchaseRequests().map((r) => r.form?.username)).toEqual(["alice"]);
    expect(sandbox.getBalance().usdt).toBe("8.5");
  });

  it("is idempotent and leaves close() to end the client as before", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    client.stopPurchases();
    client.stopPurchases();
    expect((await client.getUserInfo("alice")).kind).toBe("success");
    await client.close();
    await expect(client.getUserInfo("alice")).rejects.toMatchObject({
      reason: "closed",
      sent: false,
    });
    expect(sandbox.purchaseRequests()).toHaveLength(0);
  });
});
