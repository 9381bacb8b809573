import { describe, expect, it } from "vitest";
import { clientFor, sandboxForTest } from "../helpers/service.js";

const flood = (seconds: number) =>
  ({
    type: "status",
    status: 429,
    body: { ok: false, error: "FLOOD_WAIT", retry_after: seconds },
    headers: { "retry-after": String(seconds) },
  }) as const;

describe("client retries", () => {
  it("retries a rate-limited read at most twice, then succeeds or gives up", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault(flood(0), { times: 2 });
    expect(await client.getUserInfo("alice")).toMatchObject({ kind: "success" });
    expect(sandbox.requests).toHaveLength(3);

    sandbox.injectFault(flood(0), { times: 10 });
    expect(await client.getUserInfo("alice")).toMatchObject({ kind: "rate_limited", status: 429 });
    expect(sandbox.requests).toHaveLength(6);
  });

  it("honours readRetries 0 and 1", async () => {
    const sandbox = await sandboxForTest();
    sandbox.injectFault(flood(0), { times: 10 });
    expect(await clientFor(sandbox, { readRetries: 0 }).getWalletBalance()).toMatchObject({
      kind: "rate_limited",
    });
    expect(sandbox.requests).toHaveLength(1);
    expect(await clientFor(sandbox, { readRetries: 1 }).getWalletBalance()).toMatchObject({
      kind: "rate_limited",
    });
    expect(sandbox.requests).toHaveLength(3);
  });

  it("waits what the service asked before retrying (the quota says so)", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault(flood(1));
    const waits: number[] = [];
    const outcome = await client.getUserInfo("alice", { onQueued: (ms) => waits.push(ms) });
    expect(outcome.kind).toBe("success");
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(500);
    const [first, second] = sandbox.requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(900);
  });

  it("gives up at once on a wait hint longer than 60 s, and holds every request meanwhile", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault({ ...flood(5), body: { ok: false, flood_wait: 120 } });
    expect(await client.getUserInfo("alice")).toMatchObject({
      kind: "unavailable",
      cause: "wait_too_long",
      status: 429,
      retryAfterSeconds: 120,
    });
    expect(sandbox.requests).toHaveLength(1);
    expect(client.estimateWait("purchase")).toBeGreaterThan(100_000);
  });

  it("never retries a purchase, whatever the wait hint", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault(flood(0), { times: 10 });
    expect(await client.buyStars({ username: "alice", amount: 50 })).toMatchObject({
      kind: "ambiguous",
      cause: "rate_limited",
    });
    expect(sandbox.purchaseRequests()).toHaveLength(1);
  });
});
