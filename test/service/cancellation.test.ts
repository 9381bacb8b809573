import { describe, expect, it } from "vitest";
import { GiftServiceCallCancelledError } from "../../src/service/client.js";
import { clientFor, sandboxForTest } from "../helpers/service.js";

describe("cancellation and the sent flag", () => {
  it("close() never cancels a purchase in flight: it ends in an outcome, close waits for it", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "0", usdt: "10" } });
    const client = clientFor(sandbox);
    sandbox.injectFault({ type: "delay", ms: 200 }, { path: "/buy-stars/" });
    const purchase = client.buyStars({ username: "alice", amount: 100 });
    await sandbox.waitForRequests(1, "/buy-stars/");
    const closing = client.close();
    expect(await purchase).toMatchObject({ kind: "success" });
    await closing;
    expect(sandbox.getBalance().usdt).toBe("8.5");
    // After close, a purchase is refused before anything is sent.
    const refused = await client
      .buyStars({ username: "alice", amount: 100 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GiftServiceCallCancelledError);
    expect(refused).toMatchObject({ reason: "closed", sent: false });
    expect(sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("a purchase's signal aborting while it is in flight does not cancel it", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault({ type: "delay", ms: 100 }, { path: "/buy-stars/" });
    const controller = new AbortController();
    const purchase = client.buyStars(
      { username: "alice", amount: 50 },
      { signal: controller.signal },
    );
    await sandbox.waitForRequests(1, "/buy-stars/");
    controller.abort();
    expect(await purchase).toMatchObject({ kind: "success" });
  });

  it("a read aborted in flight says sent: true; one aborted before says sent: false", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault({ type: "delay", ms: 5_000 });
    const controller = new AbortController();
    const read = client.getUserInfo("alice", { signal: controller.signal });
    await sandbox.waitForRequests(1);
    controller.abort();
    await expect(read).rejects.toMatchObject({
      name: "GiftServiceCallCancelledError",
      reason: "aborted",
      sent: true,
    });
    await expect(client.getUserInfo("alice", { signal: controller.signal })).rejects.toMatchObject({
      reason: "aborted",
      sent: false,
    });
    expect(sandbox.requests).toHaveLength(1);
  });
});
