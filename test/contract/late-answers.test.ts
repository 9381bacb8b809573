/**
 * An answer that arrives after its intent was recovered as interrupted (another process took
 * over, or a restart, while the request was out), the same on SQLite and PostgreSQL: a
 * definite answer settles an intent still unconfirmed; an answer that contradicts an admin's
 * settlement is reported as such; anything else is kept as evidence only.
 */
import { describe, expect, it } from "vitest";
import { NOON } from "../helpers/ledger.js";
import { ambiguous, ledgerContract, rejected, success } from "./ledger-fixture.js";
import { STORES } from "./stores.js";

describe.each(STORES)("$name: a late answer", (store) => {
  /** An intent sent by `ledger` and recovered as interrupted by `other` (a second process). */
  async function recovered() {
    const fixture = await ledgerContract(store);
    const intent = await fixture.draft();
    expect((await fixture.ledger.claim(intent.id, 1)).ok).toBe(true);
    expect((await fixture.other.recoverInterrupted(NOON + 1)).map((i) => i.id)).toEqual([
      intent.id,
    ]);
    fixture.clock.now = NOON + 5_000;
    return { ...fixture, intent };
  }

  it("of success settles an intent still unconfirmed as succeeded, and purchases reopen", async () => {
    const { ledger, other, draft, intent } = await recovered();
    const waiting = await draft();
    expect(await other.claim(waiting.id, 1)).toMatchObject({ ok: false, reason: "frozen" });

    const late = await ledger.recordOutcome(intent.id, success);
    expect(late).toMatchObject({
      recorded: true,
      late: "settled",
      intent: { status: "succeeded", txHash: "abc123", finishedAt: NOON + 5_000 },
    });
    expect(late.intent.resolvedBy).toBeUndefined();
    expect(late.intent.resolvedAt).toBe(NOON + 5_000);
    expect(late.intent.response).toEqual({ lateOutcome: "succeeded", response: success.body });
    // Recorded as the service's settlement: no admin moved it.
    expect((await other.history(intent.id)).slice(-1)).toEqual([
      { from: "unconfirmed", to: "succeeded", at: NOON + 5_000, actor: undefined },
    ]);
    expect(await other.unconfirmedCount()).toBe(0);
    expect((await other.claim(waiting.id, 1)).ok).toBe(true);
  });

  it("of a definite refusal settles it as rejected, and it no longer counts as spending", async () => {
    const { ledger, other, intent } = await recovered();
    expect((await other.usage(1)).starsBot).toBe(100);
    const late = await ledger.recordOutcome(intent.id, rejected);
    expect(late).toMatchObject({ recorded: true, late: "settled", intent: { status: "rejected" } });
    expect((await other.usage(1)).starsBot).toBe(0);
    expect(await other.unconfirmedCount()).toBe(0);
  });

  it("that is itself ambiguous is kept as evidence: the intent stays unconfirmed", async () => {
    const { ledger, other, intent } = await recovered();
    const late = await ledger.recordOutcome(intent.id, ambiguous);
    expect(late).toMatchObject({
      recorded: false,
      late: "kept",
      intent: { status: "unconfirmed" },
    });
    expect(late.intent.txHash).toBe("def456");
    expect(await other.unconfirmedCount()).toBe(1);
  });

  it.each([
    { settled: false, answer: success, contradicts: true },
    { settled: true, answer: rejected, contradicts: true },
    { settled: true, answer: success, contradicts: false },
    { settled: false, answer: rejected, contradicts: false },
    { settled: true, answer: ambiguous, contradicts: false },
  ])(
    "after an admin settled it (delivered: $settled), a $answer.kind answer contradicts it: $contradicts",
    async ({ settled, answer, contradicts }) => {
      const { ledger, other, intent } = await recovered();
      await other.resolve(intent.id, 42, settled);
      const status = settled ? "delivered" : "not_delivered";
      const late = await ledger.recordOutcome(intent.id, answer);
      expect(late).toMatchObject({
        recorded: false,
        late: contradicts ? "contradicts" : "kept",
        intent: { status, resolvedBy: 42 },
      });
      // The answer is kept as evidence beside the admin's settlement.
      expect(late.intent.response).toMatchObject({ lateOutcome: expect.any(String) });
      expect((await other.get(intent.id))?.status).toBe(status);
    },
  );

  it("that never left (not sent) does not settle an intent recovered meanwhile", async () => {
    const { ledger, intent } = await recovered();
    const late = await ledger.recordNotSent(intent.id, "not sent: cancelled at shutdown");
    expect(late).toMatchObject({
      recorded: false,
      late: "kept",
      intent: { status: "unconfirmed" },
    });
  });
});
