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
});
