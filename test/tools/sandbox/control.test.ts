import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { MNEMONIC, postForm, sandboxForTest } from "../../helpers/sandbox.js";

interface ControlBody {
  ok: boolean;
  requests?: { headers: Record<string, string> }[];
  [key: string]: unknown;
}

const control = async (url: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${url}/__sandbox/${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as ControlBody };
};

describe("sandbox: control endpoints over HTTP", () => {
  it("steers faults, users, balance, quota and reset, and masks secrets in recorded requests", async () => {
    const sandbox = await sandboxForTest();
    const { url } = sandbox;

    expect(
      await control(url, "POST", "faults", { fault: { type: "status", status: 502 } }),
    ).toEqual({ status: 200, body: { ok: true } });
    expect((await fetch(`${url}/get-user-info/?username=alice`)).status).toBe(502);
    await control(url, "POST", "faults", { fault: { type: "malformed" }, times: 3 });
    await control(url, "DELETE", "faults");
    expect(await control(url, "POST", "faults", { fault: { type: "huge", bytes: 2048 } })).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect((await (await fetch(`${url}/get-user-info/?username=alice`)).text()).length).toBe(
      2048 + '{"ok":true,"padding":""}'.length,
    );
    expect(
      (await control(url, "POST", "faults", { fault: { type: "trickle", intervalMs: 0 } })).status,
    ).toBe(400);
    expect((await fetch(`${url}/get-user-info/?username=alice`)).status).toBe(200);

    await control(url, "POST", "users", { username: "alice", isPremium: true });
    const info = (await (await fetch(`${url}/get-user-info/?username=alice`)).json()) as {
      is_premium?: boolean;
    };
    expect(info.is_premium).toBe(true);

    await control(url, "POST", "balance", { ton: "1.5", usdt: "2" });
    expect(await control(url, "GET", "balance")).toEqual({
      status: 200,
      body: { ok: true, ton: "1.5", usdt: "2" },
    });

    await postForm(`${url}/buy-stars/`, { username: "alice", amount: "50" }, { "api-key": "k" });
    const recorded = await control(url, "GET", "requests");
    const purchase = recorded.body.requests?.at(-1);
    expect(purchase?.headers).toMatchObject({
      mnemonic: "[redacted]",
      cookie: "[redacted]",
      "api-key": "[redacted]",
    });
    expect(JSON.stringify(recorded.body)).not.toContain(MNEMONIC);
    expect(sandbox.purchaseRequests()[0]?.headers.mnemonic).toBe(MNEMONIC);

    await control(url, "POST", "quota", { limit: 1, windowMs: 60_000 });
    expect((await fetch(`${url}/get-user-info/?username=alice`)).status).toBe(200);
    expect((await fetch(`${url}/get-user-info/?username=alice`)).status).toBe(429);
    await control(url, "POST", "quota", false);
    expect((await fetch(`${url}/get-user-info/?username=alice`)).status).toBe(200);

    await control(url, "POST", "reset");
    expect(sandbox.requests).toHaveLength(0);
    expect(sandbox.getBalance()).toEqual({ ton: "100", usdt: "1000" });
  });

  it("answers 400 to invalid control input and 404 to unknown control paths", async () => {
    const { url } = await sandboxForTest();
    expect((await control(url, "POST", "faults", { fault: { type: "nope" } })).status).toBe(400);
    expect((await control(url, "POST", "balance", { ton: "-1", usdt: "x" })).status).toBe(400);
    expect((await control(url, "GET", "nothing")).status).toBe(404);
  });
});

describe("sandbox: npm run sandbox", () => {
  it("prints its URL, serves, and exits cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "tools/sandbox/cli.ts"], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", SANDBOX_QUOTA_PER_MINUTE: "5" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = once(child, "exit");
    try {
      const lines = createInterface({ input: child.stdout });
      let url: string | undefined;
      for await (const line of lines) {
        url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
        if (url) break;
      }
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${url}/get-user-info/?username=alice`);
      expect(res.status).toBe(200);
      child.kill("SIGTERM");
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited;
      }
    }
  });
});

describe("sandbox: session and wallet over the control endpoints", () => {
  it("expires and restores the marketplace session, drains and refills the wallet", async () => {
    const sandbox = await sandboxForTest();
    const { url } = sandbox;
    const buy = () => postForm(`${url}/buy-stars/`, { username: "alice", amount: "50" });

    expect(await control(url, "GET", "session")).toEqual({
      status: 200,
      body: { ok: true, expired: false },
    });
    expect((await control(url, "POST", "session/expire")).status).toBe(200);
    expect((await control(url, "GET", "session")).body.expired).toBe(true);
    expect(await (await buy()).json()).toMatchObject({ ok: false, error: "SESSION_EXPIRED" });
    expect((await control(url, "POST", "session/restore")).body).toEqual({
      ok: true,
      expired: false,
    });
    expect((await buy()).status).toBe(200);

    expect((await control(url, "POST", "wallet/drain")).body).toEqual({
      ok: true,
      ton: "0",
      usdt: "0",
    });
    expect(await (await buy()).json()).toMatchObject({ ok: false, insufficient: true });
    expect((await control(url, "POST", "wallet/refill")).body).toEqual({
      ok: true,
      ton: "100",
      usdt: "1000",
    });
    expect((await buy()).status).toBe(200);
  });
});
