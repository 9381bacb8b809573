/**
 * The lease keeper's arithmetic (src/run/lease-keeper.ts), on fake timers and an injected
 * monotonic clock, over a lease whose answers the test decides: how long the lease is certainly
 * valid after each acquire and renewal, that a failed renewal extends nothing, that running out
 * of certain validity loses the lease, and how long a new holder waits for its predecessor.
 */
import { spawnSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LeaseGrant, LeaseHolder, SenderLease } from "../../src/ledger/types.js";
import { LeaseKeeper, leaseTiming } from "../../src/run/lease-keeper.js";
import { leaseOwnerId } from "../../src/run/lease-owner.js";
import { silentLogger } from "../../src/shared/logger.js";

/** How the fake lease answers the next renewals. */
type Answer = "held" | "taken" | "error" | "never";

/** A lease in memory whose answers, and how long they take (fake time), the test sets. */
class ScriptedLease implements SenderLease {
  /** Answers of the coming renewals, in order; "held" once they run out. */
  renewals: Answer[] = [];
  /** How long each answer takes to arrive, in (fake) ms. */
  answerAfterMs = 0;
  /** What `acquire` grants (its `at` is the store's clock, here the fake one). */
  previous: LeaseGrant["previous"];
  /** The current holder, for the keeper's takeover from a dead one. */
  current: LeaseHolder | undefined;
  renewed = 0;

  async acquire(_owner: string, _ttlMs: number): Promise<LeaseGrant | undefined> {
    await this.#answerDelay();
    if (this.current !== undefined) return undefined;
    return { epoch: 1, at: Date.now(), ...(this.previous ? { previous: this.previous } : {}) };
  }

  async takeOver(): Promise<LeaseGrant | undefined> {
    await this.#answerDelay();
    const previous = this.current;
    this.current = undefined;
    return previous === undefined
      ? undefined
      : { epoch: previous.epoch + 1, at: Date.now(), previous };
  }

  async renew(): Promise<boolean> {
    const answer = this.renewals.shift() ?? "held";
    this.renewed++;
    if (answer === "never") return new Promise<boolean>(() => undefined);
    await this.#answerDelay();
    if (answer === "error") throw new Error("the database is locked");
    return answer === "held";
  }

  release(): Promise<void> {
    return Promise.resolve();
  }

  holder(): Promise<LeaseHolder | undefined> {
    return Promise.resolve(this.current);
  }

  #answerDelay(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.answerAfterMs));
  }
}

/** LEASE_SECONDS=10: a margin of 2 s, certainly valid 8 s, renewed every 2.666 s. */
const TIMING = leaseTiming(10);

/**
 * How far the wall clock has been set apart from the monotonic one (a suspended machine's
 * resume moves it ahead; a time sync may set it back).
 */
const wallAhead = { ms: 0 };

/** Sets the wall clock `ms` ahead (or back) without any timer running: time the machine slept. */
function setWallClock(ms: number): void {
  wallAhead.ms += ms;
  vi.setSystemTime(Date.now() + ms);
}

function keeperOver(lease: ScriptedLease) {
  const lost: string[] = [];
  const keeper = new LeaseKeeper({
    lease,
    timing: TIMING,
    logger: silentLogger,
    onLost: (reason) => lost.push(reason),
    // Fake timers move Date.now: it stands in for both clocks and the store's, unless the test
    // sets the wall clock apart.
    monotonic: () => Date.now() - wallAhead.ms,
    wallClock: () => Date.now(),
  });
  return { keeper, lost };
}

/** Acquires, moving fake time a millisecond at a time until it is held. */
async function held(keeper: LeaseKeeper): Promise<void> {
  const state = { held: false };
  const acquiring = keeper.acquire(new AbortController().signal).then(() => {
    state.held = true;
  });
  for (let i = 0; i < 1_000 && !state.held; i++) await vi.advanceTimersByTimeAsync(1);
  await acquiring;
}

/** Moves fake time to `at` ms since the start, running every timer and answer on the way. */
async function at(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms - (Date.now() - wallAhead.ms));
}

beforeEach(() => {
  wallAhead.ms = 0;
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the lease's timing", () => {
  it("keeps a margin of a fifth of the lease, at least a second, and renews three times per certain lifetime", () => {
    expect(leaseTiming(30)).toEqual({
      ttlMs: 30_000,
      marginMs: 6_000,
      renewEveryMs: 8_000,
      pollMs: 500,
    });
    expect(leaseTiming(2)).toEqual({
      ttlMs: 2_000,
      marginMs: 1_000,
      renewEveryMs: 333,
      pollMs: 500,
    });
    expect(leaseTiming(5).marginMs).toBe(1_000);
    expect(leaseTiming(600).marginMs).toBe(120_000);
  });
});

describe("a held lease is certainly valid", () => {
  it("until its lifetime less the margin after the acquire was sent, not answered", async () => {
    const lease = new ScriptedLease();
    lease.answerAfterMs = 300;
    lease.renewals = ["error", "error", "error", "error"];
    const { keeper, lost } = keeperOver(lease);
    const acquiring = keeper.acquire(new AbortController().signal);
    expect(keeper.mayLeave()).toBe(false);
    await at(300);
    expect(await acquiring).toBe(1);
    expect(keeper.mayLeave()).toBe(true);
    // Every renewal fails: nothing extends the 8 s counted from the send at 0.
    await at(7_999);
    expect(keeper.mayLeave()).toBe(true);
    expect(lost).toEqual([]);
    await at(8_000);
    expect(keeper.mayLeave()).toBe(false);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatch(/could not be renewed in time/);
    // Renewed every 2666 ms from when it was held (300): at 2966 and 5632.
    expect(lease.renewed).toBe(2);
  });

  it("a renewal extends it from when the renewal was sent, however late its answer", async () => {
    const lease = new ScriptedLease();
    lease.renewals = ["held", "never", "never", "never"];
    const { keeper, lost } = keeperOver(lease);
    await held(keeper);
    // The first renewal leaves at 2666 and is answered at 3666: valid until 2666 + 8000.
    lease.answerAfterMs = 1_000;
    await at(3_666);
    expect(keeper.mayLeave()).toBe(true);
    await at(10_665);
    expect(keeper.mayLeave()).toBe(true);
    expect(lost).toEqual([]);
    await at(10_666);
    expect(keeper.mayLeave()).toBe(false);
    expect(lost).toHaveLength(1);
  });

  it("renewals that come through keep it valid for as long as they do", async () => {
    const lease = new ScriptedLease();
    lease.answerAfterMs = 50;
    const { keeper, lost } = keeperOver(lease);
    await held(keeper);
    await at(60_000);
    expect(keeper.mayLeave()).toBe(true);
    expect(lost).toEqual([]);
    expect(lease.renewed).toBe(22);
  });

  it("two renewals may fail in a row; the third must come through", async () => {
    const lease = new ScriptedLease();
    lease.renewals = ["error", "error", "held"];
    const { keeper, lost } = keeperOver(lease);
    await held(keeper);
    // Renewals at 2666 and 5332 fail; the one at 7998 comes through before 8000.
    await at(9_000);
    expect(keeper.mayLeave()).toBe(true);
    expect(lost).toEqual([]);
  });

  it("is lost at once when a renewal finds another holder", async () => {
    const lease = new ScriptedLease();
    lease.renewals = ["taken"];
    const { keeper, lost } = keeperOver(lease);
    await held(keeper);
    // Renewed at 2666 (it was held 1 ms after the start), answered a moment later.
    await at(2_670);
    expect(keeper.mayLeave()).toBe(false);
    expect(lost).toEqual(["another process holds the sender lease now"]);
    // Told once, and no renewal is tried after.
    await at(20_000);
    expect(lost).toHaveLength(1);
    expect(lease.renewed).toBe(1);
  });

  it("ends at a clean release, without a loss", async () => {
    const lease = new ScriptedLease();
    const { keeper, lost } = keeperOver(lease);
    await held(keeper);
    await keeper.release();
    expect(keeper.mayLeave()).toBe(false);
    expect(keeper.fence).toBeUndefined();
    await at(30_000);
    expect(lost).toEqual([]);
    expect(lease.renewed).toBe(0);
  });

  it("not after the machine slept past it: the monotonic clock stood still, the wall clock went on", async () => {
    const lease = new ScriptedLease();
    const { keeper } = keeperOver(lease);
    await held(keeper);
    await at(1_000);
    // Suspended for 20 s: no timer ran, the monotonic clock says 1 s, the wall clock 21 s.
    setWallClock(20_000);
    expect(keeper.mayLeave()).toBe(false);
    // The next renewal that comes through makes it certainly valid again.
    await at(2_667);
    expect(keeper.mayLeave()).toBe(true);
  });

  it("not longer for a wall clock set back: the monotonic clock still bounds it", async () => {
    const lease = new ScriptedLease();
    lease.renewals = ["error", "error", "error"];
    const { keeper, lost } = keeperOver(lease);
    await held(keeper);
    setWallClock(-60_000);
    await at(7_999);
    expect(keeper.mayLeave()).toBe(true);
    await at(8_000);
    expect(keeper.mayLeave()).toBe(false);
    expect(lost).toHaveLength(1);
  });

  it("is never valid before it is held", () => {
    const { keeper } = keeperOver(new ScriptedLease());
    expect(keeper.mayLeave()).toBe(false);
    expect(keeper.fence).toBeUndefined();
  });
});

describe("a new holder waits for its predecessor", () => {
  it("not at all after a clean release (a free lease)", async () => {
    const { keeper } = keeperOver(new ScriptedLease());
    await held(keeper);
    expect(keeper.predecessorWaitMs()).toBe(0);
  });

  it("a lifetime and a margin past the expiry of a holder that did not release it", async () => {
    const lease = new ScriptedLease();
    await at(1_000);
    // It expired 400 ms ago by the store's clock (a standby polls twice a second).
    lease.previous = { owner: "paused-holder", expiresAt: 600 };
    const { keeper } = keeperOver(lease);
    await held(keeper);
    expect(keeper.predecessorWaitMs()).toBe(600 + 10_000 + 2_000 - 1_000);
    const silent = vi.fn();
    void keeper.untilPredecessorSilent(new AbortController().signal).then(silent);
    await at(1_000 + 11_599);
    expect(silent).not.toHaveBeenCalled();
    await at(1_000 + 11_600);
    expect(silent).toHaveBeenCalled();
  });

  it("not at all when that expiry is longer ago than a lifetime and a margin", async () => {
    const lease = new ScriptedLease();
    await at(20_000);
    lease.previous = { owner: "long-gone", expiresAt: 7_000 };
    const { keeper } = keeperOver(lease);
    await held(keeper);
    expect(keeper.predecessorWaitMs()).toBe(0);
  });

  it("not at all when it took the lease over from a holder certainly gone", async () => {
    const lease = new ScriptedLease();
    // A holder of this host whose process has exited (its pid in an owner id like ours).
    const [host, , random, boot, namespace, start] = leaseOwnerId().split(":");
    const exited = spawnSync(process.execPath, ["-e", "0"]).pid;
    const gone = [host, exited, random, boot, namespace, start].join(":");
    lease.current = { owner: gone, epoch: 4, expiresAt: 30_000 };
    const { keeper } = keeperOver(lease);
    await held(keeper);
    expect(keeper.fence?.epoch).toBe(5);
    expect(keeper.predecessorWaitMs()).toBe(0);
  });

  it("its wait ends early at a stop", async () => {
    const lease = new ScriptedLease();
    lease.previous = { owner: "paused-holder", expiresAt: 0 };
    const { keeper } = keeperOver(lease);
    await held(keeper);
    const stop = new AbortController();
    const silent = vi.fn();
    void keeper.untilPredecessorSilent(stop.signal).then(silent);
    await at(1_000);
    stop.abort();
    await at(1_001);
    expect(silent).toHaveBeenCalled();
  });
});
