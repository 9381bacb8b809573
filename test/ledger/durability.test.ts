/**
 * The commits that decide or record money survive a power loss: they run with
 * synchronous=FULL (the WAL synced before the commit returns), while cheap commits keep the
 * connection's NORMAL. Observed on a real SQLite file: the level in force when each of the
 * ledger's transactions starts.
 */
import { join } from "node:path";
import type Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { PurchaseOutcome } from "../../src/service/types.js";
import { openLedger } from "../../src/storage/ledger/ledger.js";
import { SqliteDatabase } from "../../src/storage/sqlite/driver.js";
import { openDatabase } from "../../src/storage/sqlite/open.js";
import { tempDir } from "../helpers/temp-dir.js";
import { NOON, starsDraft } from "../helpers/ledger.js";

const NORMAL = 1;
const FULL = 2;
const success: PurchaseOutcome = {
  kind: "success",
  value: { txHash: "abc123", data: {} },
  body: { ok: true, tx_hash: "abc123" },
};

/** The real connection, recording `PRAGMA synchronous` as each transaction begins. */
function observed(db: Database.Database): { db: Database.Database; levels: number[] } {
  const levels: number[] = [];
  const proxy = new Proxy(db, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          const statement = target.prepare(sql);
          if (!/^BEGIN/.test(sql)) return statement;
          return {
            run: () => {
              levels.push(target.pragma("synchronous", { simple: true }) as number);
              return statement.run();
            },
          };
        };
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
  it("the claim, a queued promise, an outcome, a recovery, a settlement and the pause switch commit at FULL; drafts at NORMAL", async () => {
    const real = openDatabase(join(tempDir(), "durable.sqlite"));
    expect(real.pragma("journal_mode", { simple: true })).toBe("wal");
    const { db, levels } = observed(real);
    const clock = { now: NOON };
    const ledger = openLedger(new SqliteDatabase(db), { clock: () => clock.now });
    const at = async (step: () => Promise<unknown>): Promise<number[]> => {
      levels.length = 0;
      await step();
      return [...levels];
    };

    const a = await ledger.createDraft(starsDraft());
    const b = await ledger.createDraft(starsDraft());
    const c = await ledger.createDraft(starsDraft());
    expect(await at(() => ledger.createDraft(starsDraft()))).toEqual([NORMAL]);
    expect(await at(() => ledger.claim(a.id, 1))).toEqual([FULL]);
    expect(await at(() => ledger.queue(b.id, 1))).toEqual([FULL]);
    expect(await at(() => ledger.recordOutcome(a.id, success))).toEqual([FULL]);
    expect(await at(() => ledger.closeQueued(b.id, "paused"))).toEqual([FULL]);
    await ledger.claim(c.id, 1);
    expect(await at(() => ledger.recoverInterrupted())).toEqual([FULL]);
    expect(await at(() => ledger.resolve(c.id, 42, true))).toEqual([FULL]);
    expect(await at(() => ledger.setPaused(true, 42))).toEqual([FULL]);
    expect(await at(() => ledger.pauseByBreaker({ cause: "wallet" }))).toEqual([FULL]);
    expect(await at(() => ledger.setPaused(false, 42))).toEqual([FULL]);
    const cancelled = await ledger.createDraft(starsDraft());
    expect(await at(() => ledger.cancel(cancelled.id, 1))).toEqual([NORMAL]);
    // The connection is back at its own level after every durable commit.
    expect(real.pragma("synchronous", { simple: true })).toBe(NORMAL);
    real.close();
  });

  it("a durable transaction restores the connection's level when it throws", async () => {
    const db = openDatabase(join(tempDir(), "throws.sqlite"));
    const refused = new SqliteDatabase(db).transaction(
      () => {
        expect(db.pragma("synchronous", { simple: true })).toBe(FULL);
        return Promise.reject(new Error("refused"));
      },
      { durable: true },
    );
    await expect(refused).rejects.toThrow("refused");
    expect(db.pragma("synchronous", { simple: true })).toBe(NORMAL);
    db.close();
  });
});
