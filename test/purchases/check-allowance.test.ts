import { describe, expect, it } from "vitest";
import { CheckAllowance, CHECK_WINDOW_MS } from "../../src/purchases/check-allowance.js";
import { SharedReads } from "../../src/purchases/shared-reads.js";

describe("CheckAllowance: recipient checks per person per minute", () => {
  it("allows the limit within a minute, then says exactly when the oldest check leaves the window", () => {
    const clock = { now: 1_000_000 };
    const allowance = new CheckAllowance({ perMinute: 3, clock: () => clock.now });
    expect(allowance.charge(7)).toBeUndefined();
    clock.now += 10_000;
    expect(allowance.charge(7)).toBeUndefined();
    expect(allowance.charge(7)).toBeUndefined();
    clock.now += 5_000;
    expect(allowance.charge(7)).toEqual({ retryAfterMs: CHECK_WINDOW_MS - 15_000 });
    // Another person has an allowance of their own.
    expect(allowance.charge(8)).toBeUndefined();
    expect(allowance.throttled()).toEqual([{ userId: 7, until: 1_000_000 + CHECK_WINDOW_MS }]);
    // A refused check is not charged: once the first charge leaves the window, one more fits.
    clock.now = 1_000_000 + CHECK_WINDOW_MS;
    expect(allowance.charge(7)).toBeUndefined();
    expect(allowance.charge(7)).toEqual({ retryAfterMs: 10_000 });
    clock.now += 10_000;
    expect(allowance.throttled()).toEqual([]);
  });

  it("refuses a limit below one", () => {
    expect(() => new CheckAllowance({ perMinute: 0, clock: () => 0 })).toThrow(RangeError);
  });
});

describe("SharedReads: admit and owner", () => {
  it("asks admit only of the caller who would start a request, and passes that caller's owner", async () => {
    const owners: (number | undefined)[] = [];
    const pending: ((value: string) => void)[] = [];
    const reads = new SharedReads<string, string>(
      (_key, _onQueued, owner) => {
        owners.push(owner);
        return new Promise<string>((resolve) => pending.push(resolve));
      },
      { ttlMs: 1_000, clock: () => 0, cacheable: (v) => v === "ok" },
    );
    const admitted: number[] = [];
    const admit = (who: number, refuse?: string) => () => {
      admitted.push(who);
      return refuse;
    };
    const first = reads.read("alice", { owner: 1, admit: admit(1) });
    // Joins the read in flight: not asked, not charged, not the owner.
    const second = reads.read("alice", { owner: 2, admit: admit(2) });
    // Would start a request and is refused: answered with the refusal, nothing sent.
    await expect(reads.read("bob", { owner: 3, admit: admit(3, "throttled") })).resolves.toBe(
      "throttled",
    );
    pending.shift()?.("ok");
    await expect(first).resolves.toBe("ok");
    await expect(second).resolves.toBe("ok");
    // Cached: nobody is asked.
    await expect(reads.read("alice", { owner: 4, admit: admit(4, "throttled") })).resolves.toBe(
      "ok",
    );
    expect(admitted).toEqual([1, 3]);
    expect(owners).toEqual([1]);
  });
});
