import { describe, expect, it, vi } from "vitest";
import {
  CLIENT_DEFAULTS,
  createGiftServiceClient,
  GiftServiceConfigError,
} from "../../src/service/client.js";
import { QuotaScheduler } from "../../src/service/quota.js";
import { MAX_TIMER_MS } from "../../src/service/timers.js";
import { CREDENTIALS, clientFor, sandboxForTest } from "../helpers/service.js";

/**
 * Resolves after `ms` of real time. Used once, where the check is inherently "nothing happens
 * for a while": there is no event to wait for when the point is that none comes.
 */
const quietPeriod = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const floodWith = (retryAfter: string) =>
  ({
    type: "status",
    status: 429,
    body: { ok: false, error: "FLOOD_WAIT" },
    headers: { "retry-after": retryAfter },
  }) as const;

describe("the global hold after a 429/503 is capped", () => {
  it("a Retry-After far beyond the timer range: the read gives up, the hold is the cap, no busy loop", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    // 3e6 s is about 35 days: more than setTimeout can hold (2^31-1 ms is about 24.8 days).
    sandbox.injectFault(floodWith("3000000"));
    expect(await client.getUserInfo("alice")).toMatchObject({
      kind: "unavailable",
      cause: "wait_too_long",
      retryAfterSeconds: 3_000_000,
    });
    const held = client.estimateWait("purchase");
    expect(held).toBeLessThanOrEqual(CLIENT_DEFAULTS.maxRetryWaitMs);
    expect(held).toBeGreaterThan(CLIENT_DEFAULTS.maxRetryWaitMs - 60_000);

    // A queued read sleeps through the hold: nothing is sent and no timer overflows.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const controller = new AbortController();
      let queued!: () => void;
      const told = new Promise<void>((resolve) => {
        queued = resolve;
      });
      const read = client
        .getUserInfo("bobby", { signal: controller.signal, onQueued: () => queued() })
        .catch((error: unknown) => error);
      await told;
      // One bounded real wait (the client talks to a real HTTP server, so timers stay real): a
      // hold timer past setTimeout's range would fire after 1 ms (with a TimeoutOverflowWarning)
      // and the read would go out or spin; 100 ms is a hundred such wake-ups.
      await quietPeriod(100);
      expect(sandbox.requests).toHaveLength(1);
      expect(warnings).not.toContain("TimeoutOverflowWarning");
      controller.abort();
      expect(await read).toMatchObject({ reason: "aborted", sent: false });
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("a Retry-After HTTP date an hour ahead holds everything only for maxRetryWaitMs", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { maxRetryWaitMs: 50 });
    const inAnHour = new Date(Date.now() + 3_600_000).toUTCString();
    sandbox.injectFault(floodWith(inAnHour));
    expect(await client.getUserInfo("alice")).toMatchObject({
      kind: "unavailable",
      cause: "wait_too_long",
      status: 429,
    });
    expect(client.estimateWait("purchase")).toBeLessThanOrEqual(50);
    // Without the cap this purchase would wait an hour (and the test time out).
    expect(await client.buyStars({ username: "alice", amount: 50 })).toMatchObject({
      kind: "success",
    });
    expect(sandbox.requests.map((r) => r.path)).toEqual(["/get-user-info/", "/buy-stars/"]);
  });

  it("a read does not retry sooner than asked when maxRetryWaitMs is below the hint", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { maxRetryWaitMs: 50 });
    sandbox.injectFault(floodWith("1"), { times: 3 });
    expect(await client.getUserInfo("alice")).toMatchObject({
      kind: "unavailable",
      cause: "wait_too_long",
      retryAfterSeconds: 1,
    });
    expect(sandbox.requests).toHaveLength(1);
  });

  it("rejects an unusable maxRetryWaitMs", () => {
    for (const maxRetryWaitMs of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      expect(() =>
        createGiftServiceClient({
          baseUrl: "http://127.0.0.1:1",
          credentials: CREDENTIALS,
          maxRetryWaitMs,
        }),
      ).toThrow(GiftServiceConfigError);
    }
  });
});

describe("quota scheduler timers", () => {
  it("sleeps through a wait longer than setTimeout's range without spinning", async () => {
    // Fake timers behave like Node's: a delay past 2^31-1 ms becomes 1 ms. Only the timers are
    // faked; the scheduler's clock stays real.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let looks = 0;
    const scheduler = new QuotaScheduler({ limit: 1, windowMs: 2 ** 40 }, () => {
      looks++;
      return performance.now();
    });
    try {
      const release = await scheduler.acquire("read");
      release();
      const waiting = scheduler.acquire("read").catch((error: unknown) => error);
      expect(scheduler.estimateWait("read")).toBeGreaterThan(MAX_TIMER_MS);
      const before = looks;
      vi.advanceTimersByTime(100);
      // A spinning scheduler looks at the clock on every 1 ms wake-up.
      expect(looks - before).toBe(0);
      scheduler.close();
      expect(await waiting).toMatchObject({ reason: "closed", sent: false });
    } finally {
      scheduler.close();
      vi.useRealTimers();
    }
  });

  it("caps startRetryWait() at maxRetryWaitMs, including an infinite hint", () => {
    const scheduler = new QuotaScheduler({ limit: 10, windowMs: 1000, maxRetryWaitMs: 5_000 });
    try {
      expect(scheduler.startRetryWait(Number.POSITIVE_INFINITY)).toBe(5_000);
      expect(scheduler.estimateWait("purchase")).toBeLessThanOrEqual(5_000);
      expect(scheduler.startRetryWait(Number.NaN)).toBe(0);
      expect(scheduler.startRetryWait(1_000)).toBe(1_000);
    } finally {
      scheduler.close();
    }
  });
});
