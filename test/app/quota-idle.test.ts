import { describe, expect, it } from "vitest";
import { quotaIsIdle } from "../../src/app/purchasing.js";
import type { QuotaSnapshot } from "../../src/service/types.js";

const quiet: QuotaSnapshot = {
  queued: { purchase: 0, shared_read: 0, read: 0, bulk: 0 },
  usedSlots: 0,
  limit: 30,
  windowMs: 61_000,
  retryWaitMs: 0,
  topOwners: [],
  waitedMs: { purchase: 0, shared_read: 0, read: 0, bulk: 0 },
};

describe("quotaIsIdle (when the desk may read the balance after a purchase)", () => {
  it("is idle with nothing queued, no hold and under half the window used", () => {
    expect(quotaIsIdle(quiet)).toBe(true);
    expect(quotaIsIdle({ ...quiet, usedSlots: 14 })).toBe(true);
  });

  it("is not idle with anything queued, after a 429/503, or with half the window used", () => {
    expect(quotaIsIdle({ ...quiet, usedSlots: 15 })).toBe(false);
    expect(quotaIsIdle({ ...quiet, retryWaitMs: 1 })).toBe(false);
    for (const priority of ["purchase", "shared_read", "read", "bulk"] as const) {
      expect(quotaIsIdle({ ...quiet, queued: { ...quiet.queued, [priority]: 1 } })).toBe(false);
    }
  });
});
