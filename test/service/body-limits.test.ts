import { describe, expect, it } from "vitest";
import { createGiftServiceClient, GiftServiceConfigError } from "../../src/service/client.js";
import { CREDENTIALS, clientFor, sandboxForTest } from "../helpers/service.js";

describe("response body size limit", () => {
  it("a purchase answered with a body over 1 MiB (by default) is ambiguous, and sent once", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "0", usdt: "10" } });
    const client = clientFor(sandbox);
    // A well-formed success, had it been read: the money did move.
    sandbox.injectFault({ type: "huge", executed: true }, { path: "/buy-stars/" });
    expect(await client.buyStars({ username: "alice", amount: 100 })).toMatchObject({
      kind: "ambiguous",
      cause: "malformed",
      detail: expect.stringContaining("larger than 1048576 bytes"),
    });
    expect(sandbox.purchaseRequests()).toHaveLength(1);
    expect(sandbox.getBalance().usdt).toBe("8.5");
    // The client carries on normally afterwards.
    expect(await client.getUserInfo("alice")).toMatchObject({ kind: "success" });
  });

  it("a read over maxBodyBytes is unavailable (malformed); one under it is read", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { maxBodyBytes: 4096 });
    sandbox.injectFault({ type: "huge", bytes: 5000 });
    expect(await client.getUserInfo("alice")).toMatchObject({
      kind: "unavailable",
      cause: "malformed",
    });
    sandbox.injectFault({ type: "huge", bytes: 4000 });
    expect(await client.getUserInfo("alice")).toMatchObject({
      kind: "success",
      body: { padding: expect.any(String) },
    });
    expect(sandbox.requests).toHaveLength(2);
  });
});

describe("overall deadline of an exchange", () => {
  it("a purchase whose body trickles for ever ends ambiguous (timeout) at totalMs", async () => {
    const sandbox = await sandboxForTest();
    // Each byte comes well within bodyMs, so only the overall deadline can end the exchange.
    const client = clientFor(sandbox, { timeouts: { bodyMs: 1_000, totalMs: 300 } });
    sandbox.injectFault({ type: "trickle", intervalMs: 10 }, { path: "/buy-stars/" });
    expect(await client.buyStars({ username: "alice", amount: 50 })).toMatchObject({
      kind: "ambiguous",
      cause: "timeout",
    });
    expect(sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("a read whose body trickles for ever ends unavailable (timeout), without a retry", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { timeouts: { bodyMs: 1_000, totalMs: 300 } });
    sandbox.injectFault({ type: "trickle", intervalMs: 10 });
    expect(await client.getWalletBalance()).toMatchObject({
      kind: "unavailable",
      cause: "timeout",
    });
    expect(sandbox.requests).toHaveLength(1);
  });

  it("the deadline defaults to connect + headers + body, so a slow trickle still ends", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, {
      timeouts: { connectMs: 100, headersMs: 100, bodyMs: 200 },
    });
    sandbox.injectFault({ type: "trickle", intervalMs: 20 });
    expect(await client.getUserInfo("alice")).toMatchObject({
      kind: "unavailable",
      cause: "timeout",
    });
  });

  it("an abort still cancels a read before its deadline", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { timeouts: { totalMs: 60_000 } });
    sandbox.injectFault({ type: "trickle", intervalMs: 10 });
    const controller = new AbortController();
    const read = client.getUserInfo("alice", { signal: controller.signal });
    await sandbox.waitForRequests(1);
    controller.abort();
    await expect(read).rejects.toMatchObject({ reason: "aborted", sent: true });
  });

  it("rejects unusable limits", () => {
    const make = (extra: object) => () =>
      createGiftServiceClient({
        baseUrl: "http://127.0.0.1:1",
        credentials: CREDENTIALS,
        ...extra,
      });
    expect(make({ maxBodyBytes: 0 })).toThrow(GiftServiceConfigError);
    expect(make({ timeouts: { totalMs: 2 ** 31 } })).toThrow(GiftServiceConfigError);
    expect(make({ timeouts: { totalMs: Number.NaN } })).toThrow(GiftServiceConfigError);
  });
});
