import { describe, expect, it } from "vitest";
import { createGiftServiceClient } from "../../src/service/client.js";
import { GiftServiceConfigError } from "../../src/service/errors.js";
import { CREDENTIALS, clientFor, sandboxForTest, sentHeaders } from "../helpers/service.js";

const FULL = {
  ...CREDENTIALS,
  walletVersion: "v4r2" as const,
  walletAddress: "UQ-test-wallet-address",
  proxy: "http://user:pass@proxy.example:8080",
  apiKey: "provider-key-123",
  userAgent: "giftbot-test/1.0",
};

describe("client wire format", () => {
  it("user info: GET /get-user-info/?username=..., no credentials at all", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { credentials: FULL });
    await client.getUserInfo("@Alice_1");
    const [request] = sandbox.requests;
    expect(request).toMatchObject({
      method: "GET",
      path: "/get-user-info/",
      query: { username: "@Alice_1" },
      form: undefined,
      contentType: undefined,
    });
    expect(sentHeaders(request?.headers ?? {})).toEqual({ accept: "application/json" });
  });

  it("wallet balance: GET /wallet-balance/ with Mnemonic and Api-Key only", async () => {
    const sandbox = await sandboxForTest();
    await clientFor(sandbox, { credentials: FULL }).getWalletBalance();
    await clientFor(sandbox).getWalletBalance();
    const [withKey, withoutKey] = sandbox.requests;
    expect(withKey).toMatchObject({ method: "GET", path: "/wallet-balance/", query: {} });
    expect(sentHeaders(withKey?.headers ?? {})).toEqual({
      accept: "application/json",
      mnemonic: CREDENTIALS.mnemonic,
      "api-key": FULL.apiKey,
    });
    expect(sentHeaders(withoutKey?.headers ?? {})).toEqual({
      accept: "application/json",
      mnemonic: CREDENTIALS.mnemonic,
    });
  });

  it("buy stars: form-urlencoded POST with every purchase header", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { credentials: FULL });
    await client.buyStars({ username: "@alice", amount: 100, paymentMethod: "ton" });
    const [request] = sandbox.purchaseRequests();
    expect(request).toMatchObject({
      method: "POST",
      path: "/buy-stars/",
      query: {},
      contentType: "application/x-www-form-urlencoded",
    });
    expect(request?.form).toEqual({ username: "@alice", amount: "100", payment_method: "ton" });
    expect(sentHeaders(request?.headers ?? {})).toEqual({
      accept: "application/json",
      "content-type": "application/x-www-form-urlencoded",
      mnemonic: CREDENTIALS.mnemonic,
      cookie: CREDENTIALS.cookie,
      "wallet-version": "v4r2",
      "wallet-address": FULL.walletAddress,
      proxy: FULL.proxy,
      "api-key": FULL.apiKey,
      "user-agent": FULL.userAgent,
    });
  });

  it("buy premium: only the required headers when optional ones are unset, no default method", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, {
      credentials: { ...CREDENTIALS, mnemonic: `  ${CREDENTIALS.mnemonic.replace(/ /g, "\n")}\n` },
    });
    const outcome = await client.buyPremium({ username: "bobby_b", duration: 6 });
    expect(outcome.kind).toBe("success");
    const [request] = sandbox.purchaseRequests();
    expect(request).toMatchObject({ method: "POST", path: "/buy-premium/" });
    expect(request?.form).toEqual({ username: "bobby_b", duration: "6" });
    expect(sentHeaders(request?.headers ?? {})).toEqual({
      accept: "application/json",
      "content-type": "application/x-www-form-urlencoded",
      mnemonic: CREDENTIALS.mnemonic,
      cookie: CREDENTIALS.cookie,
    });
  });

  it("refuses invalid input before any request", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "0", usdt: "20000" } });
    const client = clientFor(sandbox);
    const outcomes = [
      await client.getUserInfo("abc"),
      await client.getUserInfo("1abcd"),
      await client.getUserInfo("al ice"),
      await client.buyStars({ username: "alice", amount: 49 }),
      await client.buyStars({ username: "alice", amount: 1_000_001 }),
      await client.buyStars({ username: "alice", amount: 50.5 }),
      await client.buyStars({ username: "@@alice", amount: 50 }),
      await client.buyPremium({ username: "alice", duration: 4 as 3 }),
      await client.buyPremium({ username: "alice", duration: 3, paymentMethod: "btc" as "ton" }),
    ];
    expect(outcomes.map((o) => o.kind === "invalid" && o.field)).toEqual([
      "username",
      "username",
      "username",
      "amount",
      "amount",
      "amount",
      "username",
      "duration",
      "payment_method",
    ]);
    expect(sandbox.requests).toHaveLength(0);
    const edges = [
      await client.buyStars({ username: "abcd", amount: 50 }),
      await client.buyStars({ username: `a${"b".repeat(31)}`, amount: 1_000_000 }),
    ];
    expect(edges.map((o) => o.kind)).toEqual(["success", "success"]);
  });

  it("refuses unusable options with a typed error", () => {
    const make = (patch: object) => () =>
      createGiftServiceClient({
        baseUrl: "http://127.0.0.1:1",
        credentials: CREDENTIALS,
        ...patch,
      });
    expect(make({ baseUrl: "not a url" })).toThrow(GiftServiceConfigError);
    expect(make({ readRetries: 3 })).toThrow(GiftServiceConfigError);
    expect(make({ quota: { limit: 0, windowMs: 1000 } })).toThrow(GiftServiceConfigError);
    expect(make({ credentials: { ...CREDENTIALS, cookie: "stel_ssid=a\nb" } })).toThrow(
      GiftServiceConfigError,
    );
  });
});
