/**
 * The sender lease and the claim's fence, on one SQLite file through two real connections (as
 * two processes hold it): one holder at a time, an epoch that grows at every takeover, and a
 * holder that was paused past its expiry whose claim the database itself refuses.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { Ledger } from "../../src/storage/sqlite/ledger.js";
import { SqliteSenderLease } from "../../src/storage/sqlite/sender-lease.js";
import { openDatabase } from "../../src/storage/sqlite/database.js";
import { ledgerFixture, NOON } from "../helpers/ledger.js";

const TTL = 30_000;

function secondProcess(path: string, clock: { now: number }) {
  const db = openDatabase(path);
  onTestFinished(() => {
    db.close();
  });
  return { lease: new SqliteSenderLease(db), ledger: new Ledger(db, { clock: () => clock.now }) };
}

describe("the sender lease", () => {
  it("one holder at a time; released, it is taken at once with a new epoch", () => {
    const { path, db, clock } = ledgerFixture();
    const a = new SqliteSenderLease(db);
    const b = secondProcess(path, clock).lease;
    expect(a.acquire("a", NOON, TTL)).toBe(1);
    expect(b.acquire("b", NOON + 1_000, TTL)).toBeUndefined();
    expect(b.holder(NOON + 1_000)).toEqual({ owner: "a", epoch: 1, expiresAt: NOON + TTL });
    expect(a.renew("a", 1, NOON + 10_000, TTL)).toBe(true);
    a.release("a", 1);
    expect(b.holder(NOON + 10_000)).toBeUndefined();
    expect(b.acquire("b", NOON + 10_001, TTL)).toBe(2);
    // The old holder's renewal and release no longer touch it.
    expect(a.renew("a", 1, NOON + 10_002, TTL)).toBe(false);
    a.release("a", 1);
    expect(a.holder(NOON + 10_003)?.owner).toBe("b");
  });

  it("expires without renewals: the standby takes over, and the old holder's renewal fails", () => {
    const { path, db, clock } = ledgerFixture();
    const a = new SqliteSenderLease(db);
    const b = secondProcess(path, clock).lease;
    expect(a.acquire("a", NOON, TTL)).toBe(1);
    expect(b.acquire("b", NOON + TTL - 1, TTL)).toBeUndefined();
    expect(b.acquire("b", NOON + TTL, TTL)).toBe(2);
    expect(a.renew("a", 1, NOON + TTL + 1, TTL)).toBe(false);
  });
});

describe("the claim's fence", () => {
  it("a holder paused past its expiry cannot claim once another process took over; the new holder can", () => {
    const { path, db, ledger, clock, draft } = ledgerFixture();
    const wall = { now: NOON };
    const oldLease = new SqliteSenderLease(db);
    const epoch = oldLease.acquire("old", wall.now, TTL) ?? 0;
    ledger.fenceWith({ owner: "old", epoch, now: () => wall.now });
    const intent = draft();

    // Paused (SIGSTOP) past the expiry; the standby process takes the lease.
    wall.now += TTL + 1;
    const next = secondProcess(path, clock);
    const nextEpoch = next.lease.acquire("next", wall.now, TTL) ?? 0;
    next.ledger.fenceWith({ owner: "next", epoch: nextEpoch, now: () => wall.now });

    // Resumed (SIGCONT): its claim is refused by the database, the intent untouched.
    expect(ledger.claim(intent.id, 1)).toEqual({ ok: false, reason: "busy" });
    expect(ledger.get(intent.id)?.status).toBe("draft");
    expect(next.ledger.claim(intent.id, 1).ok).toBe(true);
  });

  it("an expired lease nobody took yet fences too: the holder must renew before it sends", () => {
    const { db, ledger, draft } = ledgerFixture();
    const wall = { now: NOON };
    const lease = new SqliteSenderLease(db);
    const epoch = lease.acquire("only", wall.now, TTL) ?? 0;
    ledger.fenceWith({ owner: "only", epoch, now: () => wall.now });
    const intent = draft();
    wall.now += TTL;
    expect(ledger.claim(intent.id, 1)).toEqual({ ok: false, reason: "busy" });
  });
});
