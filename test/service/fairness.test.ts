import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FairQueue } from "../../src/service/fair-queue.js";
import { QueueSupersededError, QuotaScheduler } from "../../src/service/quota.js";
import { capturingLogger, clientFor, sandboxForTest } from "../helpers/service.js";

describe("quota scheduler: owners take turns (fake timers)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A scheduler on the fake clock, whose grants are answered at once and recorded in order. */
  function recordingScheduler(limit: number) {
    const scheduler = new QuotaScheduler({ limit, windowMs: 1_000, marginMs: 0 }, () => Date.now());
    const served: string[] = [];
    const waits = new Map<string, number>();
    const request = (label: string, owner?: string | number, replace = false) =>
      scheduler
        .acquire("read", { owner, replace, onQueued: (ms) => waits.set(label, ms) })
        .then((release) => {
          served.push(label);
          release();
          return "sent" as const;
        });
    return { scheduler, served, waits, request };
  }

  it("one owner's 30 checks, then 5 others' one each: the others go before most of the flood", async () => {
    const { scheduler, served, waits, request } = recordingScheduler(3);
    try {
      const flood = Array.from({ length: 30 }, (_, i) => request(`flood_${i}`, 1));
      const others = ["a", "b", "c", "d", "e"].map((id, i) => request(id, 100 + i));
      await vi.runAllTimersAsync();
      await Promise.all([...flood, ...others]);
      expect(served).toHaveLength(35);
      // The quota let 3 go at once; then the lanes take turns: the flooder's next one, then
      // each other person's, then the rest of the flood.
      expect(served.slice(0, 9)).toEqual([
        "flood_0",
        "flood_1",
        "flood_2",
        "flood_3",
        "a",
        "b",
        "c",
        "d",
        "e",
      ]);
      expect(served.slice(9)).toEqual(Array.from({ length: 26 }, (_, i) => `flood_${i + 4}`));
      // What they were told matches: a newcomer waits one window, the flood's last ten.
      expect(waits.get("a")).toBe(1_000);
      expect(waits.get("flood_29")).toBe(9_000);
    } finally {
      scheduler.close();
    }
  });

  it("requests without an owner stay first come, first served", async () => {
    const { scheduler, served, request } = recordingScheduler(1);
    try {
      const all = ["r0", "r1", "r2", "r3"].map((label) => request(label));
      await vi.runAllTimersAsync();
      await Promise.all(all);
      expect(served).toEqual(["r0", "r1", "r2", "r3"]);
    } finally {
      scheduler.close();
    }
  });

  it("owners take turns only within a priority: a purchase still goes first", async () => {
    const scheduler = new QuotaScheduler({ limit: 1, windowMs: 1_000, marginMs: 0 }, () =>
      Date.now(),
    );
    const served: string[] = [];
    const take = (label: string, priority: "purchase" | "read", owner: number) =>
      scheduler.acquire(priority, { owner }).then((release) => {
        served.push(label);
        release();
      });
    try {
      const all = [
        take("read_1a", "read", 1),
        take("read_1b", "read", 1),
        take("read_2", "read", 2),
        take("buy_3", "purchase", 3),
      ];
      await vi.runAllTimersAsync();
      await Promise.all(all);
      expect(served).toEqual(["read_1a", "buy_3", "read_1b", "read_2"]);
    } finally {
      scheduler.close();
    }
  });

  it("replace: the owner's queued check is superseded, never sent, and the new one keeps its turn", async () => {
    const { scheduler, served, request } = recordingScheduler(1);
    try {
      const first = request("first", 9);
      const old = request("old", 1, true);
      const other = request("other", 2);
      const newer = request("newer", 1, true);
      await expect(old).rejects.toBeInstanceOf(QueueSupersededError);
      await vi.runAllTimersAsync();
      await Promise.all([first, other, newer]);
      expect(served).toEqual(["first", "newer", "other"]);
    } finally {
      scheduler.close();
    }
  });

  it("the snapshot sums how long each priority waited for its turn, and only the granted ones", async () => {
    const scheduler = new QuotaScheduler({ limit: 1, windowMs: 1_000, marginMs: 0 }, () =>
      Date.now(),
    );
    try {
      (await scheduler.acquire("bulk"))();
      // The window's one slot is used: the person's purchase waits for it to slide out.
      const purchase = scheduler.acquire("purchase");
      await vi.advanceTimersByTimeAsync(400);
      const read = scheduler.acquire("read");
      await vi.advanceTimersByTimeAsync(600);
      (await purchase)();
      expect(scheduler.snapshot().waitedMs).toEqual({
        purchase: 1_000,
        shared_read: 0,
        read: 0,
        bulk: 0,
      });
      await vi.advanceTimersByTimeAsync(1_000);
      (await read)();
      expect(scheduler.snapshot().waitedMs.read).toBe(1_600);
      // A request still queued, or called off, has not been served: it adds nothing.
      const cancelled = scheduler.acquire("shared_read").catch(() => undefined);
      await vi.advanceTimersByTimeAsync(500);
      scheduler.close();
      await cancelled;
      expect(scheduler.snapshot().waitedMs.shared_read).toBe(0);
    } finally {
      scheduler.close();
    }
  });

  it("the snapshot counts queues by priority, used slots, the hold, and the busiest owners (ids only)", async () => {
    const scheduler = new QuotaScheduler({ limit: 2, windowMs: 1_000, marginMs: 0 }, () =>
      Date.now(),
    );
    try {
      const releases = await Promise.all([scheduler.acquire("read"), scheduler.acquire("read")]);
      for (const release of releases) release();
      const waiting = [
        ...Array.from({ length: 4 }, () => scheduler.acquire("read", { owner: 42 })),
        scheduler.acquire("read", { owner: "7" }),
        scheduler.acquire("read", { owner: "7" }),
        scheduler.acquire("read"),
        scheduler.acquire("shared_read", { owner: 5 }),
        scheduler.acquire("purchase", { owner: 42 }),
      ].map((p) => p.catch(() => undefined));
      scheduler.startRetryWait(300);
      expect(scheduler.snapshot(2)).toEqual({
        queued: { purchase: 1, shared_read: 1, read: 7, bulk: 0 },
        usedSlots: 2,
        limit: 2,
        windowMs: 1_000,
        retryWaitMs: 300,
        topOwners: [
          { owner: 42, queued: 5 },
          { owner: "7", queued: 2 },
        ],
        waitedMs: { purchase: 0, shared_read: 0, read: 0, bulk: 0 },
      });
      scheduler.close();
      await Promise.all(waiting);
      expect(scheduler.snapshot().queued).toEqual({
        purchase: 0,
        shared_read: 0,
        read: 0,
        bulk: 0,
      });
    } finally {
      scheduler.close();
    }
  });
});

describe("FairQueue", () => {
  it("serves lanes in turns and tells each item's place", () => {
    const queue = new FairQueue<string>();
    for (const item of ["x1", "x2", "x3"]) queue.push("x", item);
    queue.push("y", "y1");
    queue.push("z", "z1");
    queue.push("y", "y2");
    expect(["x1", "x2", "x3", "y1", "y2", "z1"].map((item) => queue.positionOf(item))).toEqual([
      0, 3, 5, 1, 4, 2,
    ]);
    expect(queue.drain()).toEqual(["x1", "y1", "z1", "x2", "y2", "x3"]);
    expect(queue.size).toBe(0);
  });
});

describe("owners through the client and the sandbox", () => {
  it("a flooder's checks and others' checks interleave in the order the service receives them", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { quota: { limit: 1, windowMs: 40, marginMs: 5 } });
    const flood = Array.from({ length: 8 }, (_, i) =>
      client.getUserInfo(`flood_${i}`, { owner: 1 }),
    );
    const others = ["other_a", "other_b", "other_c"].map((name, i) =>
      client.getUserInfo(name, { owner: `person-${i}` }),
    );
    const outcomes = await Promise.all([...flood, ...others]);
    expect(outcomes.every((o) => o.kind === "success")).toBe(true);
    const order = sandbox.requests.map((r) => r.query.username);
    // The first went at once; then one more of the flood's, then every other person's.
    expect(order.slice(0, 5)).toEqual(["flood_0", "flood_1", "other_a", "other_b", "other_c"]);
  });

  it("replace through the client: the older queued check ends superseded and is never sent", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { quota: { limit: 1, windowMs: 40, marginMs: 5 } });
    const first = client.getUserInfo("first_one");
    const older = client.getUserInfo("older_typo", { owner: 5, replace: true });
    const someoneElse = client.getUserInfo("someone", { owner: 6 });
    const newer = client.getUserInfo("newer_name", { owner: 5, replace: true });
    expect(await older).toEqual({ kind: "superseded" });
    expect((await newer).kind).toBe("success");
    await Promise.all([first, someoneElse]);
    expect(sandbox.requests.map((r) => r.query.username)).toEqual([
      "first_one",
      "newer_name",
      "someone",
    ]);
  });

  it("a check answered 429 is not retried once its owner's newer check has begun", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox, { quota: { limit: 1, windowMs: 40, marginMs: 5 } });
    sandbox.injectFault(
      { type: "status", status: 429, body: { ok: false, retry_after: 0 } },
      { times: 1 },
    );
    const retried = client.getUserInfo("retried_one", { owner: 5, replace: true });
    await sandbox.waitForRequests(1);
    const newer = client.getUserInfo("newer_one", { owner: 5, replace: true });
    const outcomes = await Promise.all([retried, newer]);
    // The older check was in flight when the newer came; after its 429 it is not sent again.
    expect(outcomes.map((o) => o.kind)).toEqual(["superseded", "success"]);
    expect(sandbox.requests.map((r) => r.query.username)).toEqual(["retried_one", "newer_one"]);
  });

  it("the owner is never logged, and the snapshot shows the queue without sending anything", async () => {
    const sandbox = await sandboxForTest();
    const { logger, lines } = capturingLogger();
    const client = clientFor(sandbox, { quota: { limit: 1, windowMs: 60_000 }, logger });
    await client.getUserInfo("first_one", { owner: "OWNER-CANARY-4411" });
    const queued = client
      .getUserInfo("second_one", { owner: "OWNER-CANARY-4411" })
      .catch((error: unknown) => error);
    expect(client.quotaSnapshot()).toMatchObject({
      queued: { purchase: 0, shared_read: 0, read: 1 },
      usedSlots: 1,
      limit: 1,
      topOwners: [{ owner: "OWNER-CANARY-4411", queued: 1 }],
    });
    await client.close();
    expect(await queued).toMatchObject({ reason: "closed" });
    expect(sandbox.requests).toHaveLength(1);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join("\n")).not.toContain("OWNER-CANARY");
  });
});
