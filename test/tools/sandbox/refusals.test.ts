import { describe, expect, it } from "vitest";
import { COOKIE, MNEMONIC, postForm, sandboxForTest } from "../../helpers/sandbox.js";

const buyStars = (url: string, cookie = COOKIE) =>
  postForm(`${url}/buy-stars/`, { username: "alice", amount: "100" }, { cookie });

const ROTATED = "stel_ssid=after-login; stel_token=y";

describe("sandbox: an expired marketplace session", () => {
  it("refuses purchases with the expired cookie until one arrives with a new stel_ssid", async () => {
    const sandbox = await sandboxForTest();
    expect((await buyStars(sandbox.url)).status).toBe(200);
    const balance = sandbox.getBalance();

    sandbox.expireSession();
    expect(sandbox.sessionExpired()).toBe(true);
    const refused = await buyStars(sandbox.url);
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { ok: boolean; error: string; reason: string };
    expect(body).toMatchObject({ ok: false, error: "SESSION_EXPIRED" });
    expect(body.reason).toMatch(/session expired/);
    expect(body.reason).toContain("stel_ssid");
    expect(sandbox.getBalance()).toEqual(balance);
    // Only purchases need the marketplace session.
    expect((await fetch(`${sandbox.url}/get-user-info/?username=alice`)).status).toBe(200);
    const wallet = await fetch(`${sandbox.url}/wallet-balance/`, {
      headers: { mnemonic: MNEMONIC },
    });
    expect(wallet.status).toBe(200);
    // The same stel_ssid with other cookies beside it is the same session.
    expect((await buyStars(sandbox.url, "stel_ssid=sandbox-session; other=2")).status).toBe(400);

    expect((await buyStars(sandbox.url, ROTATED)).status).toBe(200);
    expect(sandbox.sessionExpired()).toBe(false);
    // The old cookie stays logged out.
    expect((await buyStars(sandbox.url)).status).toBe(400);
    expect(sandbox.purchaseRequests()).toHaveLength(5);
  });

  it("expired before any purchase: the first cookie to arrive is the expired one", async () => {
    const sandbox = await sandboxForTest();
    sandbox.expireSession();
    expect(sandbox.sessionExpired()).toBe(true);
    expect((await buyStars(sandbox.url)).status).toBe(400);
    expect((await buyStars(sandbox.url)).status).toBe(400);
    expect((await buyStars(sandbox.url, ROTATED)).status).toBe(200);
  });

  it("restoreSession and reset revive the session", async () => {
    const sandbox = await sandboxForTest();
    await buyStars(sandbox.url);
    sandbox.expireSession();
    sandbox.restoreSession();
    expect(sandbox.sessionExpired()).toBe(false);
    expect((await buyStars(sandbox.url)).status).toBe(200);
    sandbox.expireSession();
    sandbox.reset();
    expect(sandbox.sessionExpired()).toBe(false);
    expect((await buyStars(sandbox.url)).status).toBe(200);
  });

  it("answers an invalid purchase with its own error, not with the session", async () => {
    const sandbox = await sandboxForTest();
    sandbox.expireSession();
    const res = await postForm(`${sandbox.url}/buy-stars/`, { username: "alice", amount: "1" });
    expect(await res.json()).toMatchObject({ ok: false, error: "INVALID_AMOUNT" });
  });
});

describe("sandbox: a wallet that runs dry", () => {
  it("refuses every purchase with insufficient:true after drainWallet, until refillWallet", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "5", usdt: "50" } });
    sandbox.drainWallet();
    expect(sandbox.getBalance()).toEqual({ ton: "0", usdt: "0" });
    const refused = await buyStars(sandbox.url);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      ok: false,
      insufficient: true,
      info: { currency: "USDT", required: "1.5", available: "0" },
    });
    sandbox.refillWallet();
    expect(sandbox.getBalance()).toEqual({ ton: "5", usdt: "50" });
    expect((await buyStars(sandbox.url)).status).toBe(200);
    expect(sandbox.getBalance()).toEqual({ ton: "5", usdt: "48.5" });
  });

  it("runs dry by itself when purchases spend the balance", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "0", usdt: "2" } });
    expect((await buyStars(sandbox.url)).status).toBe(200);
    const second = await buyStars(sandbox.url);
    expect(second.status).toBe(400);
    expect(await second.json()).toMatchObject({ insufficient: true, info: { available: "0.5" } });
  });
});
