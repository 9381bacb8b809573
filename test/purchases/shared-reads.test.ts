import { describe, expect, it } from "vitest";
import { SharedReads } from "../../src/purchases/shared-reads.js";

/** A read the test answers by hand, so the order of events is exact without timers. */
function manualFetch() {
  const pending: ((value: string) => void)[] = [];
  let calls = 0;
  return {
    fetch: () => {
      calls++;
      return new Promise<string>((resolve) => pending.push(resolve));
    },
    answer: (value: string) => pending.shift()?.(value),
    calls: () => calls,
  };
}

describe("SharedReads", () => {
  it("peek gives the kept answer with when its read started, even past its time to live", async () => {
    const clock = { now: 1_000 };
    const source = manualFetch();
    const reads = new SharedReads<"k", string>(source.fetch, {
      ttlMs: 10,
      clock: () => clock.now,
      cacheable: () => true,
    });
    expect(reads.peek("k")).toBeUndefined();
    const read = reads.read("k");
    clock.now = 1_005;
    source.answer("v1");
    expect(await read).toBe("v1");
    clock.now = 5_000;
    expect(reads.peek("k")).toEqual({ value: "v1", at: 1_000 });
    expect(source.calls()).toBe(1);
  });

  it("a read in flight when the key is forgotten answers its callers but is not kept", async () => {
    const clock = { now: 1_000 };
    const source = manualFetch();
    const reads = new SharedReads<"k", string>(source.fetch, {
      ttlMs: 60_000,
      clock: () => clock.now,
      cacheable: () => true,
    });
    const early = reads.read("k");
    // A purchase finishes while the read is out: its answer may predate the purchase.
    reads.forget("k");
    source.answer("before the purchase");
    expect(await early).toBe("before the purchase");
    expect(reads.peek("k")).toBeUndefined();

    const later = reads.read("k");
    expect(source.calls()).toBe(2);
    source.answer("after the purchase");
    expect(await later).toBe("after the purchase");
    expect(reads.peek("k")).toEqual({ value: "after the purchase", at: 1_000 });
  });

  it("drops answers past their time to live once a newer answer is kept", async () => {
    const clock = { now: 1_000 };
    const reads = new SharedReads<string, string>((key) => Promise.resolve(`v-${key}`), {
      ttlMs: 60_000,
      clock: () => clock.now,
      cacheable: () => true,
    });
    for (let i = 0; i < 500; i++) await reads.read(`name${i}`);
    expect(reads.size).toBe(500);
    clock.now += 60_001;
    await reads.read("newcomer");
    expect(reads.size).toBe(1);
    expect(reads.peek("name0")).toBeUndefined();
    expect(reads.peek("newcomer")?.value).toBe("v-newcomer");
  });

  it("keeps at most maxEntries answers, dropping the oldest, however many keys are read", async () => {
    const clock = { now: 1_000 };
    let calls = 0;
    const reads = new SharedReads<string, string>(
      (key) => {
        calls++;
        return Promise.resolve(`v-${key}`);
      },
      { ttlMs: 60_000, clock: () => clock.now, cacheable: () => true, maxEntries: 100 },
    );
    let largest = 0;
    for (let i = 0; i < 5_000; i++) {
      await reads.read(`name${i}`);
      largest = Math.max(largest, reads.size);
    }
    expect(largest).toBe(100);
    expect(reads.size).toBe(100);
    expect(reads.peek("name4999")?.value).toBe("v-name4999");
    expect(reads.peek("name4899")).toBeUndefined();
    // The newest answers are still served from the cache.
    await reads.read("name4950");
    expect(calls).toBe(5_000);
  });

  it("a forgotten key leaves nothing behind once its read is over", async () => {
    const clock = { now: 1_000 };
    const source = manualFetch();
    const reads = new SharedReads<string, string>(source.fetch, {
      ttlMs: 60_000,
      clock: () => clock.now,
      cacheable: () => true,
    });
    for (let i = 0; i < 1_000; i++) reads.forget(`never-read${i}`);
    const read = reads.read("k");
    reads.forget("k");
    source.answer("old");
    expect(await read).toBe("old");
    expect(reads.size).toBe(0);
  });
});
