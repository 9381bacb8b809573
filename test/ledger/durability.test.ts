/**
 * The commits that decide or record money survive a power loss: they run with
 * synchronous=FULL (the WAL synced before the commit returns), while cheap commits keep the
 * connection's NORMAL. Observed on a real SQLite file: the level in force when each of the
 * ledger's transactions starts.
 */
import { join } from "node:path";
import type Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { Ledger } from "../../src/storage/sqlite/ledger.js";
import type { PurchaseOutcome } from "../../src/service/types.js";
import { durably, openDatabase } from "../../src/storage/sqlite/database.js";
import { tempDir } from "../helpers/temp-dir.js";
import { NOON, starsDraft } from "../helpers/ledger.js";

const NORMAL = 1;
const FULL = 2;
const success: PurchaseOutcome = {
  kind: "success",
  value: { txHash: "abc123", data: {} },
  body: { ok: true, tx_hash: "abc123" },
};

/** The real connection, recording `PRAGMA synchronous` as each transaction starts. */
function observed(db: Database.Database): { db: Database.Database; levels: number[] } {
  const levels: number[] = [];
  const proxy = new Proxy(db, {
    get(target, property) {
      if (property === "transaction") {
        return (fn: (...args: unknown[]) => unknown) =>
          target.transaction((...args: unknown[]) => {
            levels.push(target.pragma("synchronous", { simple: true }) as number);
            return fn(...args);
          });
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function"
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
  return { db: proxy, levels };
}

describe("durable money commits", () => {
  it("the claim, a queued promise, an outcome, a recovery, a settlement and the pause switch commit at FULL; drafts at NORMAL", () => {
    const real = openDatabase(join(tempDir(), "durable.sqlite"));
    expect(real.pragma("journal_mode", { simple: true })).toBe("wal");
    const { db, levels } = observed(real);
    const clock = { now: NOON };
    const ledger = new Ledger(db, { clock: () => clock.now });
    const at = (step: () => unknown): number[] => {
      levels.length = 0;
      step();
      return [...levels];
    };

    const a = ledger.createDraft(starsDraft());
    const b = ledger.createDraft(starsDraft());
    const c = ledger.createDraft(starsDraft());
    expect(at(() => ledger.createDraft(starsDraft()))).toEqual([NORMAL]);
    expect(at(() => ledger.claim(a.id, 1))).toEqual([FULL]);
    expect(at(() => ledger.queue(b.id, 1))).toEqual([FULL]);
    expect(at(() => ledger.recordOutcome(a.id, success))).toEqual([FULL]);
    expect(at(() => ledger.closeQueued(b.id, "paused"))).toEqual([FULL]);
    ledger.claim(c.id, 1);
    expect(at(() => ledger.recoverInterrupted())).toEqual([FULL]);
    expect(at(() => ledger.resolve(c.id, 42, true))).toEqual([FULL]);
    expect(at(() => ledger.setPaused(true, 42))).toEqual([FULL]);
    expect(at(() => ledger.pauseByBreaker({ cause: "wallet" }))).toEqual([FULL]);
    expect(at(() => ledger.setPaused(false, 42))).toEqual([FULL]);
    expect(at(() => ledger.cancel(ledger.createDraft(starsDraft()).id, 1))).toEqual([
      NORMAL,
      NORMAL,
    ]);
    // The connection is back at its own level after every durable commit.
    expect(real.pragma("synchronous", { simple: true })).toBe(NORMAL);
    real.close();
  });

  it("durably restores the connection's level when the commit throws", () => {
    const db = openDatabase(join(tempDir(), "throws.sqlite"));
    expect(() =>
      durably(db, () => {
        expect(db.pragma("synchronous", { simple: true })).toBe(FULL);
        throw new Error("refused");
      }),
    ).toThrow("refused");
    expect(db.pragma("synchronous", { simple: true })).toBe(NORMAL);
    db.close();
  });
});
