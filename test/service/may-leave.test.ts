/**
 * A purchase's last check (`mayLeave`, the sender lease in the app): asked after the wait for
 * the shared quota, on the open connection just before the request is written. Said no, the
 * request never reaches the service and the call ends as never sent.
 */
import { describe, expect, it } from "vitest";
import { GiftServiceCallCancelledError } from "../../src/service/client.js";
import { clientFor, sandboxForTest } from "../helpers/service.js";

describe("a purchase's mayLeave", () => {
  it("is asked only once the quota lets the purchase go; said no, nothing reaches the service", async () => {
    const sandbox = await sandboxForTest();
    // One request per short window: while the first purchase is in flight, the next one waits.
    const client = clientFor(sandbox, { quota: { limit: 1, windowMs: 300, marginMs: 10 } });
    sandbox.injectFault({ type: "delay", ms: 200 }, { path: "/buy-stars/" });
    const inFlight = client.buyStars({ username: "alice", amount: 100 }, { mayLeave: () => true });
    await sandbox.waitForRequests(1, "/buy-stars/");

    const asked: number[] = [];
    let queued!: () => void;
    const wasQueued = new Promise<void>((resolve) => (queued = resolve));
    const waiting = client
      .buyStars(
        { username: "bob_gift", amount: 50 },
        {
          onQueued: () => queued(),
          mayLeave: () => {
            asked.push(sandbox.purchaseRequests().length);
            return false;
          },
        },
      )
      .catch((error: unknown) => error);
    await wasQueued;
    // Waiting for its turn: not asked yet (the answer must be about the moment it leaves).
    expect(asked).toEqual([]);

    const withheld = await waiting;
    expect(withheld).toBeInstanceOf(GiftServiceCallCancelledError);
    expect(withheld).toMatchObject({ reason: "withheld", sent: false });
    // Asked once, after the first purchase was out and its slot came round again.
    expect(asked).toEqual([1]);
    expect(await inFlight).toMatchObject({ kind: "success" });
    expect(sandbox.purchaseRequests().map((r) => r.form?.username)).toEqual(["alice"]);
  });

  it("said yes, the purchase goes as without it; a withheld one leaves the client working", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    await expect(
      client.buyPremium({ username: "carol_gift", duration: 3 }, { mayLeave: () => false }),
    ).rejects.toMatchObject({ reason: "withheld", sent: false });
    expect(
      await client.buyPremium({ username: "carol_gift", duration: 3 }, { mayLeave: () => true }),
    ).toMatchObject({ kind: "success" });
    expect(await client.getUserInfo("dave_gift")).toMatchObject({ kind: "success" });
    expect(sandbox.purchaseRequests()).toHaveLength(1);
  });
});
