import { describe, expect, it, onTestFinished, vi } from "vitest";
import { SandboxClosedError, startSandbox } from "../../../tools/sandbox/server.js";
import { COOKIE, MNEMONIC, postForm, sandboxForTest } from "../../helpers/sandbox.js";

describe("sandbox: user info", () => {
  it("knows everyone by default, except nobody* (not found) and premium* (already premium)", async () => {
    const sandbox = await sandboxForTest();
    const ask = async (name: string) => {
      const res = await fetch(`${sandbox.url}/get-user-info/?username=${encodeURIComponent(name)}`);
      return { status: res.status, body: await res.json() };
    };
    expect(await ask("@Alice")).toEqual({
      status: 200,
      body: { ok: true, username: "alice", is_premium: false, source: "sandbox" },
    });
    expect(await ask("nobody_here")).toMatchObject({ status: 200, body: { ok: false } });
    expect(await ask("premium_pat")).toMatchObject({ status: 200, body: { is_premium: true } });
    expect(await ask("ab1")).toMatchObject({ status: 400, body: { ok: false } });
    expect(await ask("1abc")).toMatchObject({ status: 400, body: { ok: false } });

    sandbox.setUser("@alice", { isPremium: true });
    sandbox.setUser("premium_pat", { exists: false });
    expect(await ask("alice")).toMatchObject({ body: { ok: true, is_premium: true } });
    expect(await ask("premium_pat")).toMatchObject({ status: 200, body: { ok: false } });
  });

  it("answers unknown paths with 404 and wrong methods with 405", async () => {
    const sandbox = await sandboxForTest();
    expect((await fetch(`${sandbox.url}/get-user-info?username=alice`)).status).toBe(404);
    expect((await fetch(`${sandbox.url}/buy-stars/`)).status).toBe(405);
  });
});

describe("sandbox: wallet and purchases", () => {
  it("charges the wallet: 0.015 USDT per star, premium 12/16/29 USDT, TON at 4 USDT", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "10", usdt: "20" } });
    const balance = async () =>
      (await fetch(`${sandbox.url}/wallet-balance/`, { headers: { mnemonic: MNEMONIC } })).json();
    expect(await balance()).toEqual({ ok: true, data: { ton: "10", usdt: "20" } });

    const stars = await postForm(`${sandbox.url}/buy-stars/`, { username: "alice", amount: "100" });
    expect(stars.status).toBe(200);
    const starsBody = (await stars.json()) as { tx_hash?: string };
    expect(starsBody).toMatchObject({
      ok: true,
      data: { username: "alice", amount: 100, price: "1.5", currency: "USDT" },
    });
    expect(starsBody.tx_hash).toMatch(/^[0-9a-f]{64}$/);

    const premium = await postForm(`${sandbox.url}/buy-premium/`, {
      username: "@bobby",
      duration: "12",
      payment_method: "ton",
    });
    expect(await premium.json()).toMatchObject({ ok: true, data: { price: "7.25" } });
    expect(await balance()).toEqual({ ok: true, data: { ton: "2.75", usdt: "18.5" } });
    expect(sandbox.getBalance()).toEqual({ ton: "2.75", usdt: "18.5" });

    const again = await postForm(`${sandbox.url}/buy-premium/`, {
      username: "bobby",
      duration: "3",
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ ok: false, error: "ALREADY_PREMIUM" });
  });

  it("refuses a purchase the wallet cannot pay with insufficient:true and charges nothing", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "1", usdt: "11.99" } });
    const res = await postForm(`${sandbox.url}/buy-premium/`, { username: "carol", duration: "3" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      ok: false,
      insufficient: true,
      info: { currency: "USDT", required: "12", available: "11.99" },
    });
    expect(sandbox.getBalance()).toEqual({ ton: "1", usdt: "11.99" });
  });

  it.each([
    ["JSON body", { username: "alice", amount: "100" }, { "content-type": "application/json" }],
    [
      "11-word mnemonic",
      { username: "alice", amount: "100" },
      { mnemonic: "a b c d e f g h i j k" },
    ],
    ["cookie without stel_ssid", { username: "alice", amount: "100" }, { cookie: "other=1" }],
    ["bad wallet version", { username: "alice", amount: "100" }, { "wallet-version": "v9" }],
    ["bad username", { username: "al", amount: "100" }, {}],
    ["amount below 50", { username: "alice", amount: "49" }, {}],
    ["amount above 1000000", { username: "alice", amount: "1000001" }, {}],
    ["fractional amount", { username: "alice", amount: "50.5" }, {}],
    ["bad payment method", { username: "alice", amount: "50", payment_method: "btc" }, {}],
    ["unknown recipient", { username: "nobody1", amount: "50" }, {}],
  ])("answers 400 to a stars purchase with %s", async (_name, form, headers) => {
    const sandbox = await sandboxForTest();
    const res = await postForm(`${sandbox.url}/buy-stars/`, form, headers);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false });
    expect(sandbox.getBalance()).toEqual({ ton: "100", usdt: "1000" });
  });

  it("answers 400 to a premium duration other than 3, 6 or 12", async () => {
    const sandbox = await sandboxForTest();
    const res = await postForm(`${sandbox.url}/buy-premium/`, { username: "alice", duration: "4" });
    expect(res.status).toBe(400);
    expect((await fetch(`${sandbox.url}/wallet-balance/`)).status).toBe(400);
  });

  it("records requests with lower-case headers and the parsed form", async () => {
    const sandbox = await sandboxForTest();
    await fetch(`${sandbox.url}/get-user-info/?username=alice`);
    await postForm(`${sandbox.url}/buy-stars/`, { username: "alice", amount: "75" });
    await sandbox.waitForRequests(2);
    expect(sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /get-user-info/",
      "POST /buy-stars/",
    ]);
    const [purchase] = sandbox.purchaseRequests();
    expect(purchase).toMatchObject({
      form: { username: "alice", amount: "75" },
      contentType: "application/x-www-form-urlencoded",
      headers: { mnemonic: MNEMONIC, cookie: COOKIE },
    });
    expect(sandbox.requests[0]?.query).toEqual({ username: "alice" });
  });
});

describe("sandbox: quota", () => {
  it("answers 429 with Retry-After and retry_after once the window is full; 429s do not count", async () => {
    const sandbox = await sandboxForTest({ quota: { limit: 3, windowMs: 60_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${sandbox.url}/get-user-info/?username=alice`);
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(await res.json()).toMatchObject({ ok: false, error: "FLOOD_WAIT" });
      } else await res.body?.cancel();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it("frees the window as it slides", async () => {
    // Only Date is faked: the sandbox reads its clock with Date.now(), while the sockets keep
    // their real timers. Time moves only when the test moves it.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const start = Date.now();
    const sandbox = await sandboxForTest({ quota: { limit: 2, windowMs: 60_000 } });
    const statusAt = async (offsetMs: number) => {
      vi.setSystemTime(start + offsetMs);
      const res = await fetch(`${sandbox.url}/get-user-info/?username=alice`);
      await res.body?.cancel();
      return res.status;
    };
    expect(await statusAt(0)).toBe(200);
    expect(await statusAt(30_000)).toBe(200);
    expect(await statusAt(30_000)).toBe(429);
    expect(await statusAt(59_999)).toBe(429);
    // The first request leaves the window exactly 60 s after it came; the second is still in.
    expect(await statusAt(60_000)).toBe(200);
    expect(await statusAt(60_000)).toBe(429);
    expect(await statusAt(90_000)).toBe(200);
  });
});

describe("sandbox: faults", () => {
  it("injects a status with body and headers, on a given path, a given number of times", async () => {
    const sandbox = await sandboxForTest();
    sandbox.injectFault(
      {
        type: "status",
        status: 503,
        body: { ok: false, flood_wait: 7 },
        headers: { "retry-after": "7" },
      },
      { path: "/wallet-balance/", times: 2 },
    );
    const user = await fetch(`${sandbox.url}/get-user-info/?username=alice`);
    expect(user.status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${sandbox.url}/wallet-balance/`, {
        headers: { mnemonic: MNEMONIC },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("7");
      expect(await res.json()).toEqual({ ok: false, flood_wait: 7 });
    }
    const third = await fetch(`${sandbox.url}/wallet-balance/`, {
      headers: { mnemonic: MNEMONIC },
    });
    expect(third.status).toBe(200);
  });

  it("gives 429 a default FLOOD_WAIT body and Retry-After", async () => {
    const sandbox = await sandboxForTest();
    sandbox.injectFault({ type: "status", status: 429 });
    const res = await fetch(`${sandbox.url}/get-user-info/?username=alice`);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toEqual({ ok: false, error: "FLOOD_WAIT", retry_after: 1 });
  });

  it("delays a purchase and still carries it out", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "0", usdt: "10" } });
    sandbox.injectFault({ type: "delay", ms: 50 });
    const res = await postForm(`${sandbox.url}/buy-stars/`, { username: "alice", amount: "100" });
    expect(res.status).toBe(200);
    expect(sandbox.getBalance().usdt).toBe("8.5");
  });

  it("holds a purchase until released, then carries it out and answers", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "0", usdt: "10" } });
    sandbox.injectFault({ type: "hold" }, { path: "/buy-stars/" });
    const answer = postForm(`${sandbox.url}/buy-stars/`, { username: "alice", amount: "100" });
    await sandbox.waitForRequests(1, "/buy-stars/");
    // Held: nothing carried out yet, whatever else is asked meanwhile.
    const balance = await fetch(`${sandbox.url}/wallet-balance/`, {
      headers: { mnemonic: MNEMONIC },
    });
    expect(balance.status).toBe(200);
    expect(sandbox.getBalance().usdt).toBe("10");
    expect(sandbox.releaseHeld()).toBe(1);
    expect((await answer).status).toBe(200);
    expect(sandbox.getBalance().usdt).toBe("8.5");
    expect(sandbox.releaseHeld()).toBe(0);
  });

  it("drops the connection, carrying the purchase out only when told", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "0", usdt: "10" } });
    sandbox.injectFault({ type: "drop" });
    await expect(
      postForm(`${sandbox.url}/buy-stars/`, { username: "alice", amount: "100" }),
    ).rejects.toThrow();
    expect(sandbox.getBalance().usdt).toBe("10");
    sandbox.injectFault({ type: "drop", executed: true });
    await expect(
      postForm(`${sandbox.url}/buy-stars/`, { username: "alice", amount: "100" }),
    ).rejects.toThrow();
    expect(sandbox.getBalance().usdt).toBe("8.5");
    expect(sandbox.purchaseRequests()).toHaveLength(2);
  });

  it("answers a malformed 200 body", async () => {
    const sandbox = await sandboxForTest();
    sandbox.injectFault({ type: "malformed" });
    const res = await fetch(`${sandbox.url}/get-user-info/?username=alice`);
    expect(res.status).toBe(200);
    await expect(res.json()).rejects.toThrow();
  });

  it("answers unconfirmed, with a tx_hash and a charge when the purchase was carried out", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "0", usdt: "10" } });
    sandbox.injectFault({ type: "unconfirmed" });
    const plain = await postForm(`${sandbox.url}/buy-stars/`, { username: "alice", amount: "100" });
    expect(plain.status).toBe(400);
    const plainBody = (await plain.json()) as { tx_hash?: string };
    expect(plainBody).toMatchObject({ ok: false, unconfirmed: true, transient: true });
    expect(plainBody.tx_hash).toBeUndefined();
    expect(sandbox.getBalance().usdt).toBe("10");

    sandbox.injectFault({ type: "unconfirmed", executed: true });
    const done = await postForm(`${sandbox.url}/buy-stars/`, { username: "alice", amount: "100" });
    expect(await done.json()).toMatchObject({ unconfirmed: true, tx_hash: expect.any(String) });
    expect(sandbox.getBalance().usdt).toBe("8.5");
  });

  it("answers a huge but well-formed 200, carrying the purchase out only when told", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "0", usdt: "10" } });
    sandbox.injectFault({ type: "huge", bytes: 100_000 });
    const plain = await fetch(`${sandbox.url}/get-user-info/?username=alice`);
    const text = await plain.text();
    expect(plain.status).toBe(200);
    expect(text.length).toBeGreaterThan(100_000);
    expect(JSON.parse(text)).toMatchObject({ ok: true, padding: expect.any(String) });

    sandbox.injectFault({ type: "huge", bytes: 10, executed: true });
    const done = await postForm(`${sandbox.url}/buy-stars/`, { username: "alice", amount: "100" });
    expect(await done.json()).toMatchObject({
      ok: true,
      tx_hash: expect.any(String),
      padding: "xxxxxxxxxx",
    });
    expect(sandbox.getBalance().usdt).toBe("8.5");
  });

  it("trickles a body that never ends, until the client leaves", async () => {
    const sandbox = await sandboxForTest();
    sandbox.injectFault({ type: "trickle", intervalMs: 5 });
    const controller = new AbortController();
    const res = await fetch(`${sandbox.url}/get-user-info/?username=alice`, {
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    let received = "";
    for (let i = 0; i < 200 && received.length < 30; i++) {
      const chunk = await reader.read();
      if (chunk.done) break;
      received += new TextDecoder().decode(chunk.value as Uint8Array);
    }
    expect(received.startsWith('{"ok":true,"padding":"x')).toBe(true);
    controller.abort();
    // The sandbox stays usable after the client walked away.
    const next = await fetch(`${sandbox.url}/get-user-info/?username=alice`);
    expect(await next.json()).toMatchObject({ ok: true });
  });

  it("clears faults", async () => {
    const sandbox = await sandboxForTest();
    sandbox.injectFault({ type: "status", status: 500 }, { times: 5 });
    sandbox.clearFaults();
    expect((await fetch(`${sandbox.url}/get-user-info/?username=alice`)).status).toBe(200);
  });
});

describe("sandbox: lifecycle", () => {
  it("waitForRequests resolves on arrival and rejects when the sandbox closes first", async () => {
    const sandbox = await startSandbox();
    const arrived = sandbox.waitForRequests(1, "/get-user-info/");
    await fetch(`${sandbox.url}/get-user-info/?username=alice`);
    await arrived;
    const never = sandbox.waitForRequests(5);
    await sandbox.close();
    await expect(never).rejects.toBeInstanceOf(SandboxClosedError);
  });
});
