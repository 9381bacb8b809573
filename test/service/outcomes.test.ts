import { describe, expect, it } from "vitest";
import type { Fault } from "../../tools/sandbox/types.js";
import { clientFor, sandboxForTest } from "../helpers/service.js";

describe("client outcomes: reads", () => {
  it("user info: found, premium, not found, with unknown fields kept", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    expect(await client.getUserInfo("@alice")).toEqual({
      kind: "success",
      value: { found: true, username: "alice", isPremium: false },
      body: { ok: true, username: "alice", is_premium: false, source: "sandbox" },
    });
    expect(await client.getUserInfo("premium_pat")).toMatchObject({
      kind: "success",
      value: { found: true, isPremium: true },
    });
    expect(await client.getUserInfo("nobody_x")).toMatchObject({
      kind: "success",
      value: { found: false },
    });
  });

  it("wallet balance: decimal strings from the sandbox, unknown shape is not a crash", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "12.345678901", usdt: "0.1" } });
    const client = clientFor(sandbox);
    expect(await client.getWalletBalance()).toEqual({
      kind: "success",
      value: { ton: "12.345678901", usdt: "0.1", recognised: true },
      body: { ok: true, data: { ton: "12.345678901", usdt: "0.1" } },
    });
    sandbox.injectFault({ type: "status", status: 200, body: { ok: true, wallet: [1, 2] } });
    expect(await client.getWalletBalance()).toMatchObject({
      kind: "success",
      value: { ton: undefined, usdt: undefined, recognised: false },
      body: { wallet: [1, 2] },
    });
  });

  it("rejected: 400 with the failure body and a detail", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault({
      type: "status",
      status: 400,
      body: { ok: false, error: "BAD", info: { n: 1 }, extra: "kept" },
    });
    expect(await client.getUserInfo("alice")).toEqual({
      kind: "rejected",
      status: 400,
      body: { ok: false, error: "BAD", info: { n: 1 }, extra: "kept" },
      detail: "BAD",
    });
  });

  it("a read's 400 with a tx_hash stays rejected (no money moves on a read)", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    const body = { ok: false, error: "BAD", tx_hash: "abc123" };
    sandbox.injectFault({ type: "status", status: 400, body });
    expect(await client.getWalletBalance()).toEqual({
      kind: "rejected",
      status: 400,
      body,
      detail: "BAD",
    });
  });

  it.each<[string, Fault, object]>([
    ["a timeout", { type: "delay", ms: 5_000 }, { kind: "unavailable", cause: "timeout" }],
    ["a dropped connection", { type: "drop" }, { kind: "unavailable", cause: "transport" }],
    ["a malformed body", { type: "malformed" }, { kind: "unavailable", cause: "malformed" }],
    [
      "a 500",
      { type: "status", status: 500 },
      { kind: "unavailable", cause: "unexpected_status", status: 500 },
    ],
    [
      "a 400 that is not a failure body",
      { type: "status", status: 400, body: "<html>bad gateway</html>" },
      { kind: "unavailable", cause: "malformed", status: 400 },
    ],
  ])("unavailable on %s", async (_name, fault, expected) => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { timeouts: { headersMs: 150 } });
    sandbox.injectFault(fault);
    expect(await client.getUserInfo("alice")).toMatchObject(expected);
    expect(sandbox.requests).toHaveLength(1);
  });

  it("rate_limited after the retries, with the wait the service asked", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault(
      {
        type: "status",
        status: 503,
        body: { ok: false, error: "RATE_LIMIT_UNAVAILABLE", flood_wait: 0 },
        headers: { "retry-after": "0" },
      },
      { times: 3 },
    );
    expect(await client.getWalletBalance()).toMatchObject({
      kind: "rate_limited",
      status: 503,
      retryAfterSeconds: 0,
      body: { ok: false, error: "RATE_LIMIT_UNAVAILABLE" },
    });
    expect(sandbox.requests).toHaveLength(3);
  });
});

describe("client outcomes: purchases", () => {
  it("success with tx_hash and data; the balance went down", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "10", usdt: "10" } });
    const client = clientFor(sandbox);
    const outcome = await client.buyStars({ username: "alice", amount: 200 });
    expect(outcome).toMatchObject({
      kind: "success",
      value: { txHash: expect.stringMatching(/^[0-9a-f]{64}$/), data: { price: "3" } },
    });
    const premium = await client.buyPremium({
      username: "carol",
      duration: 3,
      paymentMethod: "ton",
    });
    expect(premium.kind).toBe("success");
    expect(await client.getWalletBalance()).toMatchObject({ value: { ton: "7", usdt: "7" } });
    expect(await client.getUserInfo("carol")).toMatchObject({ value: { isPremium: true } });
  });

  it("keeps unknown fields of a success", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault({
      type: "status",
      status: 200,
      body: { ok: true, data: { tx_hash: "nested", n: 1 }, extra: [1] },
    });
    expect(await client.buyStars({ username: "alice", amount: 50 })).toEqual({
      kind: "success",
      value: { txHash: "nested", data: { tx_hash: "nested", n: 1 } },
      body: { ok: true, data: { tx_hash: "nested", n: 1 }, extra: [1] },
    });
  });

  it("a 400 with an empty tx_hash is still a rejection", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault({ type: "status", status: 400, body: { ok: false, tx_hash: "" } });
    expect(await client.buyStars({ username: "alice", amount: 50 })).toMatchObject({
      kind: "rejected",
      status: 400,
    });
  });

  it("rejected: unknown recipient, already premium, insufficient balance (fields kept)", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "0", usdt: "1" } });
    const client = clientFor(sandbox);
    expect(await client.buyStars({ username: "nobody_x", amount: 50 })).toMatchObject({
      kind: "rejected",
      status: 400,
      detail: "USER_NOT_FOUND: No account has this username",
    });
    expect(await client.buyPremium({ username: "premium_pat", duration: 12 })).toMatchObject({
      kind: "rejected",
      body: { error: "ALREADY_PREMIUM" },
    });
    expect(await client.buyStars({ username: "alice", amount: 100 })).toMatchObject({
      kind: "rejected",
      body: { insufficient: true, info: { required: "1.5", available: "1" } },
    });
    expect(sandbox.purchaseRequests()).toHaveLength(3);
  });

  it.each<[string, Fault, object]>([
    [
      "429",
      { type: "status", status: 429, headers: { "retry-after": "0" }, body: { ok: false } },
      { cause: "rate_limited", status: 429, retryAfterSeconds: 0 },
    ],
    [
      "503",
      { type: "status", status: 503, headers: { "retry-after": "0" }, body: { ok: false } },
      { cause: "rate_limited", status: 503 },
    ],
    ["a timeout", { type: "delay", ms: 5_000 }, { cause: "timeout" }],
    ["a dropped connection", { type: "drop" }, { cause: "transport" }],
    ["a non-JSON 200", { type: "malformed" }, { cause: "malformed", status: 200 }],
    [
      "200 without ok:true",
      { type: "status", status: 200, body: { ok: false } },
      { cause: "malformed", status: 200 },
    ],
    [
      "a non-JSON 400",
      { type: "status", status: 400, body: "Bad Request" },
      { cause: "malformed", status: 400, body: "Bad Request" },
    ],
    ["a 502", { type: "status", status: 502 }, { cause: "unexpected_status", status: 502 }],
    [
      "a 302",
      { type: "status", status: 302, headers: { location: "/elsewhere/" } },
      { cause: "unexpected_status", status: 302 },
    ],
    [
      "a 400 carrying a tx_hash (a transfer progressed), without unconfirmed",
      {
        type: "status",
        status: 400,
        body: { ok: false, error: "UPSTREAM_FAILED", tx_hash: "abc123", transient: false },
      },
      {
        cause: "unconfirmed",
        status: 400,
        txHash: "abc123",
        body: { ok: false, error: "UPSTREAM_FAILED", tx_hash: "abc123", transient: false },
      },
    ],
    [
      "unconfirmed after the transfer",
      { type: "unconfirmed", executed: true },
      { cause: "unconfirmed", status: 400, txHash: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ],
  ])("ambiguous on %s, and sent exactly once", async (_name, fault, expected) => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { timeouts: { headersMs: 150 } });
    sandbox.injectFault(fault, { times: 5 });
    const outcome = await client.buyStars({ username: "alice", amount: 50 });
    expect(outcome).toMatchObject({ kind: "ambiguous", ...expected });
    const premium = await client.buyPremium({ username: "bobby", duration: 3 });
    expect(premium.kind).toBe("ambiguous");
    // One request per purchase: no retry whatever the answer.
    expect(sandbox.purchaseRequests().map((r) => r.path)).toEqual(["/buy-stars/", "/buy-premium/"]);
  });
});

describe("the exchange hook (metrics)", () => {
  it("a hook that throws changes nothing: the purchase the service answered is a success", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, {
      onExchange: () => {
        throw new Error("metrics broke");
      },
    });
    const outcome = await client.buyStars({
      username: "alice_1",
      amount: 50,
      paymentMethod: "ton",
    });
    expect(outcome.kind).toBe("success");
    expect(sandbox.purchaseRequests()).toHaveLength(1);
  });
});
