import { describe, expect, it } from "vitest";
import { GiftServiceCallCancelledError } from "../../src/service/errors.js";
import { clientFor, sandboxForTest } from "../helpers/service.js";

describe("client shared quota", () => {
  it("sends nothing beyond the quota under a burst of 100 concurrent calls", async () => {
    const window = { limit: 20, windowMs: 250 };
    // The sandbox enforces the same quota: a single request beyond it would come back 429.
    const sandbox = await sandboxForTest({ quota: window, balance: { ton: "0", usdt: "1000" } });
    const client = clientFor(sandbox, { quota: window });
    const queuedWaits: number[] = [];
    const calls = Array.from({ length: 100 }, (_, i) => {
      const onQueued = (ms: number) => queuedWaits.push(ms);
      if (i % 4 === 0) return client.buyStars({ username: "alice", amount: 50 }, { onQueued });
      if (i % 4 === 1) return client.getWalletBalance({ onQueued });
      return client.getUserInfo(`user_${i}`, { onQueued });
    });
    const outcomes = await Promise.all(calls);
    expect(outcomes.filter((o) => o.kind !== "success")).toEqual([]);
    expect(sandbox.requests).toHaveLength(100);
    // Independent check on arrival times: no window holds more than the limit.
    const arrivals = sandbox.requests.map((r) => r.at).sort((a, b) => a - b);
    for (let i = window.limit; i < arrivals.length; i++) {
      expect((arrivals[i] ?? 0) - (arrivals[i - window.limit] ?? 0)).toBeGreaterThanOrEqual(
        window.windowMs,
      );
    }
    expect(queuedWaits).toHaveLength(80);
    expect(Math.min(...queuedWaits)).toBeGreaterThan(0);
  });

  it("serves queued purchases before queued reads", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { quota: { limit: 1, windowMs: 100, marginMs: 20 } });
    const first = client.getUserInfo("first");
    const reads = [client.getUserInfo("read_a"), client.getUserInfo("read_b")];
    const purchase = client.buyStars({ username: "buyer", amount: 50 });
    const lastRead = client.getUserInfo("read_c");
    await Promise.all([first, ...reads, purchase, lastRead]);
    const order = sandbox.requests.map((r) => r.query.username ?? r.form?.username);
    expect(order).toEqual(["first", "buyer", "read_a", "read_b", "read_c"]);
  });

  it("serves the shared balance read after queued purchases but before queued recipient checks", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { quota: { limit: 1, windowMs: 100, marginMs: 20 } });
    const first = client.getUserInfo("first");
    const checks = [client.getUserInfo("check_a"), client.getUserInfo("check_b")];
    const balance = client.getWalletBalance();
    const purchase = client.buyStars({ username: "buyer", amount: 50 });
    await Promise.all([first, ...checks, balance, purchase]);
    const order = sandbox.requests.map((r) =>
      r.path === "/wallet-balance/" ? "balance" : (r.query.username ?? r.form?.username),
    );
    expect(order).toEqual(["first", "buyer", "balance", "check_a", "check_b"]);
  });

  it("estimates waits per priority, tells queued callers, and cancels them on close", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { quota: { limit: 1, windowMs: 60_000 } });
    expect(client.estimateWait("read")).toBe(0);
    await client.getUserInfo("first");
    const purchaseWait = client.estimateWait("purchase");
    expect(purchaseWait).toBeGreaterThan(55_000);
    expect(purchaseWait).toBeLessThanOrEqual(61_000);

    const told: number[] = [];
    const queuedRead = client.getUserInfo("later", { onQueued: (ms) => told.push(ms) });
    const queuedPurchase = client.buyStars(
      { username: "later", amount: 50 },
      { onQueued: (ms) => told.push(ms) },
    );
    expect(told).toHaveLength(2);
    expect(told[1]).toBeLessThan((told[0] ?? 0) + 1);
    // The purchase jumped the queued read; a new read waits behind both.
    expect(client.estimateWait("read")).toBeGreaterThan(client.estimateWait("purchase") + 60_000);

    const readError = queuedRead.catch((error: unknown) => error);
    const purchaseError = queuedPurchase.catch((error: unknown) => error);
    await client.close();
    expect(await readError).toBeInstanceOf(GiftServiceCallCancelledError);
    expect(await purchaseError).toMatchObject({ reason: "closed", sent: false });
    expect(sandbox.requests).toHaveLength(1);
  });

  it("holds everything after a 429 for the time asked; an aborted queued purchase is never sent", async () => {
    const sandbox = await sandboxForTest({ quota: { limit: 1, windowMs: 60_000 } });
    const client = clientFor(sandbox, { readRetries: 0 });
    expect((await client.getUserInfo("alice")).kind).toBe("success");
    expect(await client.getUserInfo("alice")).toMatchObject({
      kind: "rate_limited",
      retryAfterSeconds: 60,
    });
    expect(client.estimateWait("purchase")).toBeGreaterThan(55_000);

    const controller = new AbortController();
    const waits: number[] = [];
    const purchase = client.buyStars(
      { username: "alice", amount: 50 },
      {
        signal: controller.signal,
        onQueued: (ms) => {
          waits.push(ms);
          controller.abort();
        },
      },
    );
    await expect(purchase).rejects.toMatchObject({ reason: "aborted", sent: false });
    expect(waits[0]).toBeGreaterThan(55_000);
    expect(sandbox.purchaseRequests()).toHaveLength(0);
  });
});
