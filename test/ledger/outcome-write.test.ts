/**
 * An outcome written after its request has left must land: the write is retried with a
 * bounded, growing pause when the real SQLite file refuses it (another connection holding the
 * write lock, a trigger raising an error while a fault flag is set), and an outcome that could
 * only be written late is kept as unconfirmed with its evidence.
 */
import { describe, expect, it } from "vitest";
import { IllegalTransitionError } from "../../src/ledger/errors.js";
import { retryWrite, type WriteRetryPolicy } from "../../src/storage/write-retry.js";
import type { PurchaseOutcome } from "../../src/service/types.js";
import { openDatabase } from "../../src/storage/sqlite/database.js";
import { installWriteFault } from "../helpers/write-fault.js";
import { ledgerFixture, NOON } from "../helpers/ledger.js";

const success: PurchaseOutcome = {
  kind: "success",
  value: { txHash: "abc123", data: {} },
  body: { ok: true, tx_hash: "abc123" },
};

describe("Retrying an outcome write the database refuses", () => {
  it("waits out another connection's write lock (SQLITE_BUSY) and records the outcome once", async () => {
    const { path, db, ledger, draft } = ledgerFixture();
    // Fail fast instead of waiting 5 s on each try: the retry, not the busy timeout, is tested.
    db.pragma("busy_timeout = 10");
    const intent = draft();
    expect(ledger.claim(intent.id, 1).ok).toBe(true);

    const holder = openDatabase(path);
    holder.exec("BEGIN EXCLUSIVE");
    const failures: string[] = [];
    const delays: number[] = [];
    const policy: WriteRetryPolicy = {
      attempts: 5,
      firstDelayMs: 100,
      maxDelayMs: 1_000,
      onRetry: (error) => failures.push((error as { code?: string }).code ?? "?"),
      sleep: (ms) => {
        delays.push(ms);
        // The other connection lets go during the second pause.
        if (delays.length === 2) holder.exec("COMMIT");
        return Promise.resolve();
      },
    };
    const recorded = await retryWrite(
      () => ledger.recordOutcome(intent.id, success),
      policy,
      ledger.isTransientWriteError,
    );
    holder.close();

    expect(failures).toEqual(["SQLITE_BUSY", "SQLITE_BUSY"]);
    expect(delays).toEqual([100, 200]);
    expect(recorded).toMatchObject({ recorded: true, intent: { status: "succeeded" } });
    expect(ledger.history(intent.id).map((e) => e.to)).toEqual(["draft", "sending", "succeeded"]);
  });

  it("gives up after a bounded number of tries with growing, capped pauses, changing nothing", async () => {
    const { db, ledger, draft } = ledgerFixture();
    const setFault = installWriteFault(db);
    const intent = draft();
    expect(ledger.claim(intent.id, 1).ok).toBe(true);
    setFault(true);

    const delays: number[] = [];
    const tries: number[] = [];
    await expect(
      retryWrite(
        () => {
          tries.push(tries.length + 1);
          return ledger.recordOutcome(intent.id, success);
        },
        {
          attempts: 6,
          firstDelayMs: 100,
          maxDelayMs: 1_000,
          sleep: (ms) => {
            delays.push(ms);
            return Promise.resolve();
          },
        },
        ledger.isTransientWriteError,
      ),
    ).rejects.toThrow(/disk I\/O error \(injected\)/);
    expect(tries).toHaveLength(6);
    expect(delays).toEqual([100, 200, 400, 800, 1_000]);
    // Every failed try rolled back: the intent is still sending, its history untouched.
    expect(ledger.get(intent.id)?.status).toBe("sending");
    expect(ledger.history(intent.id).map((e) => e.to)).toEqual(["draft", "sending"]);

    // Once the database accepts writes, the outcome lands.
    setFault(false);
    expect(
      await retryWrite(
        () => ledger.recordOutcome(intent.id, success),
        { attempts: 1, firstDelayMs: 1, maxDelayMs: 1 },
        ledger.isTransientWriteError,
      ),
    ).toMatchObject({ recorded: true });
  });

  it("does not retry a refusal that will never change (an illegal move)", async () => {
    const { ledger, draft } = ledgerFixture();
    const intent = draft();
    let tries = 0;
    await expect(
      retryWrite(
        () => {
          tries++;
          return ledger.recordOutcome(intent.id, success);
        },
        { attempts: 5, firstDelayMs: 1, maxDelayMs: 1, sleep: () => Promise.resolve() },
        ledger.isTransientWriteError,
      ),
    ).rejects.toBeInstanceOf(IllegalTransitionError);
    expect(tries).toBe(1);
  });
});

describe("An outcome recorded late", () => {
  it("becomes unconfirmed with the service's answer kept as evidence, never succeeded", () => {
    const { ledger, draft, clock } = ledgerFixture();
    const intent = draft();
    expect(ledger.claim(intent.id, 1).ok).toBe(true);
    clock.now = NOON + 60_000;
    const recorded = ledger.recordUnwrittenOutcome(intent.id, success, NOON + 5_000);
    expect(recorded).toMatchObject({
      recorded: true,
      intent: {
        status: "unconfirmed",
        txHash: "abc123",
        finishedAt: NOON + 5_000,
        outcomeDetail: "outcome_unrecorded: succeeded",
        response: {
          unrecordedOutcome: "succeeded",
          answeredAt: NOON + 5_000,
          recordedAt: NOON + 60_000,
          response: { ok: true, tx_hash: "abc123" },
        },
      },
    });
    // It freezes purchases until an admin settles it, like any unconfirmed intent.
    const next = draft();
    expect(ledger.claim(next.id, 1)).toMatchObject({ ok: false, reason: "frozen" });
    expect(ledger.unconfirmed().map((i) => i.id)).toEqual([intent.id]);
  });
});
