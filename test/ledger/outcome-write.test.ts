/**
 * An outcome written after its request has left must land: the write is retried with a
 * bounded, growing pause when the real SQLite file refuses it (another connection holding the
 * write lock, a trigger raising an error while a fault flag is set). An outcome that could only
 * be written late is in the ledger's suite (test/contract/ledger.test.ts).
 */
import { describe, expect, it } from "vitest";
import { IllegalTransitionError } from "../../src/ledger/errors.js";
import { retryWrite, type WriteRetryPolicy } from "../../src/shared/write-retry.js";
import type { PurchaseOutcome } from "../../src/service/types.js";
import { openDatabase } from "../../src/storage/sqlite/open.js";
import { installWriteFault } from "../helpers/write-fault.js";
import { ledgerFixture } from "../helpers/ledger.js";

const success: PurchaseOutcome = {
  kind: "success",
  value: { txHash: "abc123", data: {} },
  body: { ok: true, tx_hash: "abc123" },
};

describe("Retrying an outcome write the database refuses", () => {
  it("waits out another connection's write lock (SQLITE_BUSY) and records the outcome once", async () => {
    const { path, db, ledger, draft } = await ledgerFixture();
    // Fail fast instead of waiting 5 s on each try: the retry, not the busy timeout, is tested.
    db.pragma("busy_timeout = 10");
    const intent = await draft();
    expect((await ledger.claim(intent.id, 1)).ok).toBe(true);

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
    const history = await ledger.history(intent.id);
    expect(history.map((e) => e.to)).toEqual(["draft", "sending", "succeeded"]);
  });

  it("gives up after a bounded number of tries with growing, capped pauses, changing nothing", async () => {
    const { db, ledger, draft } = await ledgerFixture();
    const setFault = installWriteFault(db);
    const intent = await draft();
    expect((await ledger.claim(intent.id, 1)).ok).toBe(true);
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
    expect((await ledger.get(intent.id))?.status).toBe("sending");
    expect((await ledger.history(intent.id)).map((e) => e.to)).toEqual(["draft", "sending"]);

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
    const { ledger, draft } = await ledgerFixture();
    const intent = await draft();
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
