/**
 * The claim's fence on one SQLite file through two real connections (as two processes hold
 * it): a holder that was paused past its expiry, whose claim the database itself refuses once
 * another process took over. The lease's own moves are in test/contract/sender-lease.test.ts.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { Ledger } from "../../src/storage/sqlite/ledger.js";
import { SqliteSenderLease } from "../../src/storage/sqlite/sender-lease.js";
import { openDatabase } from "../../src/storage/sqlite/database.js";
import { ledgerFixture } from "../helpers/ledger.js";

const TTL = 30_000;

function secondProcess(path: string, clock: { now: number }) {
  const db = openDatabase(path);
  onTestFinished(() => {
    db.close();
  });
  return { lease: new SqliteSenderLease(db), ledger: new Ledger(db, { clock: () => clock.now }) };
}

describe("the claim's fence", () => {
  it("a holder paused past its expiry cannot claim once another process took over; the new holder can", () => {
    const { path, db, ledger, clock, draft } = ledgerFixture();
    const oldLease = new SqliteSenderLease(db);
    const epoch = oldLease.acquire("old", TTL)?.epoch ?? 0;
    ledger.fenceWith({ owner: "old", epoch });
    const intent = draft();

    // Paused (SIGSTOP) past the expiry: its lifetime goes by; the standby process takes it.
    db.exec(`UPDATE sender_lease SET expires_at = expires_at - ${TTL + 1}`);
    const next = secondProcess(path, clock);
    const taken = next.lease.acquire("next", TTL);
    expect(taken?.previous?.owner).toBe("old");
    next.ledger.fenceWith({ owner: "next", epoch: taken?.epoch ?? 0 });

    // Resumed (SIGCONT): its claim is refused by the database, the intent untouched.
    expect(ledger.claim(intent.id, 1)).toEqual({ ok: false, reason: "busy" });
    expect(ledger.get(intent.id)?.status).toBe("draft");
    expect(next.ledger.claim(intent.id, 1).ok).toBe(true);
  });
});
